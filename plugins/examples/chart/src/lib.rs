//! Chart (block type 62): bar, line and pie charts as SVG with a title and a description for
//! screen readers, and the figures as a table, so nothing is only visible as a picture.

use std::fmt::Write;

use vitrine_plugin_sdk::log::{self, Level};
use vitrine_plugin_sdk::{
    BlockPlugin, RenderContext, RenderError, escape, plugin, serde::Deserialize,
};

#[derive(Deserialize)]
#[serde(crate = "vitrine_plugin_sdk::serde")]
struct Chart {
    title: String,
    description: String,
    kind: Kind,
    points: Vec<Point>,
}

#[derive(Deserialize, PartialEq)]
#[serde(crate = "vitrine_plugin_sdk::serde", rename_all = "lowercase")]
enum Kind {
    Bar,
    Line,
    Pie,
}

#[derive(Deserialize)]
#[serde(crate = "vitrine_plugin_sdk::serde")]
struct Point {
    label: String,
    value: f64,
}

const WIDTH: f64 = 600.0;
const HEIGHT: f64 = 300.0;

struct Plugin;

impl BlockPlugin for Plugin {
    type Data = Chart;

    fn render(context: &RenderContext, chart: Chart) -> Result<String, RenderError> {
        if chart.points.iter().any(|point| point.value < 0.0) {
            log::write(Level::Warn, "negative values are drawn as zero");
        }
        let max = chart
            .points
            .iter()
            .map(|point| point.value)
            .fold(1.0, f64::max);
        let step = WIDTH / chart.points.len().max(1) as f64;
        let y = |value: f64| HEIGHT - value.max(0.0) / max * (HEIGHT - 20.0);
        let id = escape(&context.block_id);
        let mut svg = format!(
            r#"<figure class="chart"><svg viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-labelledby="chart-title-{id} chart-desc-{id}"><title id="chart-title-{id}">{}</title><desc id="chart-desc-{id}">{}</desc>"#,
            escape(&chart.title),
            escape(&chart.description)
        );
        let mut line = String::new();
        if chart.kind == Kind::Pie {
            pie(&mut svg, &chart.points);
        }
        for (index, point) in chart.points.iter().enumerate().filter(|_| chart.kind != Kind::Pie) {
            let x = index as f64 * step;
            if chart.kind == Kind::Bar {
                let top = y(point.value);
                let _ = write!(
                    svg,
                    r#"<rect class="chart-bar" x="{:.1}" y="{top:.1}" width="{:.1}" height="{:.1}"></rect>"#,
                    x + step * 0.1,
                    step * 0.8,
                    HEIGHT - top
                );
            } else {
                let _ = write!(line, "{:.1},{:.1} ", x + step / 2.0, y(point.value));
            }
        }
        if chart.kind == Kind::Line {
            let _ = write!(
                svg,
                r#"<polyline class="chart-line" points="{}"></polyline>"#,
                line.trim_end()
            );
        }
        let _ = write!(
            svg,
            r#"</svg><figcaption>{}</figcaption><table class="chart-data"><caption>{}</caption><thead><tr><th scope="col">Label</th><th scope="col">Value</th></tr></thead><tbody>"#,
            escape(&chart.title),
            escape(&chart.description)
        );
        for (index, point) in chart.points.iter().enumerate() {
            // In a pie chart the table is also the legend: each label has its slice's colour.
            let swatch = if chart.kind == Kind::Pie {
                format!(
                    r#"<span class="chart-swatch chart-slice-{}"></span>"#,
                    index % 6 + 1
                )
            } else {
                String::new()
            };
            let _ = write!(
                svg,
                r#"<tr><th scope="row">{swatch}{}</th><td>{}</td></tr>"#,
                escape(&point.label),
                point.value
            );
        }
        svg.push_str("</tbody></table></figure>");
        Ok(svg)
    }
}

/// Draws one slice per point, clockwise from twelve o'clock, each a share of the total.
fn pie(svg: &mut String, points: &[Point]) {
    let total: f64 = points.iter().map(|point| point.value.max(0.0)).sum();
    if total <= 0.0 {
        return;
    }
    let (cx, cy, r) = (WIDTH / 2.0, HEIGHT / 2.0, HEIGHT / 2.0 - 10.0);
    let at = |turn: f64| {
        let angle = turn * std::f64::consts::TAU - std::f64::consts::FRAC_PI_2;
        (cx + r * angle.cos(), cy + r * angle.sin())
    };
    let mut start = 0.0;
    for (index, point) in points.iter().enumerate() {
        let share = point.value.max(0.0) / total;
        if share <= 0.0 {
            continue;
        }
        let class = format!("chart-slice chart-slice-{}", index % 6 + 1);
        if share >= 1.0 {
            let _ = write!(
                svg,
                r#"<circle class="{class}" cx="{cx:.1}" cy="{cy:.1}" r="{r:.1}"></circle>"#
            );
            return;
        }
        let (x1, y1) = at(start);
        let (x2, y2) = at(start + share);
        let large = u8::from(share > 0.5);
        let _ = write!(
            svg,
            r#"<path class="{class}" d="M{cx:.1},{cy:.1} L{x1:.1},{y1:.1} A{r:.1},{r:.1} 0 {large} 1 {x2:.1},{y2:.1} Z"></path>"#
        );
        start += share;
    }
}

plugin!(Plugin);
