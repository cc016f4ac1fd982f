//! Warm render latency of the chart plugin against the same chart rendered natively in Rust,
//! in one run: `cargo bench -p vitrine-plugins` (after `cargo xtask plugins`).
//!
//! Criterion reports the mean and median; the percentile pass at the end prints p50, p99 and
//! renders per second for each, and the plugin's overhead over native at p50.

use std::fmt::Write;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group};
use vitrine_core::enums::BlockType;
use vitrine_core::plugins::{BlockRenderRequest, BlockRenderer, PluginHtml};
use vitrine_plugins::PluginHost;

const DATA: &str = r#"{"title":"Kiln firings","description":"Firings per quarter","kind":"bar","points":[{"label":"Q1","value":14},{"label":"Q2","value":19},{"label":"Q3","value":11},{"label":"Q4","value":26}]}"#;

fn request() -> BlockRenderRequest<'static> {
    BlockRenderRequest {
        locale: "en-GB",
        currency: "EUR",
        block_id: "b1",
        block_type: BlockType::Chart.into(),
        signed_in: false,
        page_url: "/",
        data: DATA,
    }
}

fn host() -> PluginHost {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../guests/target/plugins/chart");
    assert!(
        dir.join("chart.wasm").is_file(),
        "run `cargo xtask plugins` first"
    );
    let mut host = PluginHost::new(None).expect("engine");
    host.load_plugin_dir(&dir).expect("the chart plugin loads");
    host
}

/// The chart plugin's bar chart, written natively, sanitised the same way.
fn native_chart(data: &str) -> PluginHtml {
    let value: serde_json::Value = serde_json::from_str(data).expect("valid");
    let points = value["points"].as_array().expect("points");
    let max = points
        .iter()
        .filter_map(|point| point["value"].as_f64())
        .fold(1.0, f64::max);
    let step = 600.0 / points.len().max(1) as f64;
    let mut html = format!(
        r#"<figure class="chart"><svg viewBox="0 0 600 300" role="img" aria-labelledby="t d"><title id="t">{}</title><desc id="d">{}</desc>"#,
        value["title"].as_str().unwrap_or_default(),
        value["description"].as_str().unwrap_or_default()
    );
    for (index, point) in points.iter().enumerate() {
        let top = 300.0 - point["value"].as_f64().unwrap_or(0.0) / max * 280.0;
        let _ = write!(
            html,
            r#"<rect x="{:.1}" y="{top:.1}" width="{:.1}" height="{:.1}"></rect>"#,
            index as f64 * step,
            step * 0.8,
            300.0 - top
        );
    }
    html.push_str("</svg><table>");
    for point in points {
        let _ = write!(
            html,
            "<tr><th>{}</th><td>{}</td></tr>",
            point["label"].as_str().unwrap_or_default(),
            point["value"]
        );
    }
    html.push_str("</table></figure>");
    PluginHtml::sanitize(&html)
}

fn renders(c: &mut Criterion) {
    let host = host();
    let request = request();
    let mut group = c.benchmark_group("chart");
    group.bench_function("native", |b| b.iter(|| native_chart(black_box(DATA))));
    group.bench_function("plugin", |b| {
        b.iter(|| host.render(black_box(&request)).expect("renders"))
    });
    group.finish();
}

fn percentiles(name: &str, mut render: impl FnMut()) -> Duration {
    for _ in 0..200 {
        render();
    }
    let mut times: Vec<Duration> = (0..5_000)
        .map(|_| {
            let start = Instant::now();
            render();
            start.elapsed()
        })
        .collect();
    times.sort();
    let p50 = times[times.len() / 2];
    let p99 = times[times.len() * 99 / 100];
    let total: Duration = times.iter().sum();
    let per_second = times.len() as f64 / total.as_secs_f64();
    println!("{name:>8}: p50 {p50:?}  p99 {p99:?}  {per_second:.0} renders/s (one thread)");
    p50
}

criterion_group!(benches, renders);

fn main() {
    benches();
    let host = host();
    let request = request();
    let native = percentiles("native", || {
        black_box(native_chart(black_box(DATA)));
    });
    let plugin = percentiles("plugin", || {
        black_box(host.render(black_box(&request)).expect("renders"));
    });
    println!(
        "plugin overhead over native at p50: {:?}",
        plugin.saturating_sub(native)
    );
    Criterion::default().configure_from_args().final_summary();
}
