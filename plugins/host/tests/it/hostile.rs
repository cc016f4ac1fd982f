//! Hostile plugins are stopped or cleaned, counted, disabled, and never take a page down.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use vitrine_core::enums::BlockType;
use vitrine_core::plugins::PluginBlockType;
use vitrine_core::plugins::{BlockRenderError, BlockRenderer, FALLBACK_HTML, render_or_fallback};
use vitrine_plugins::{FAILURE_THRESHOLD, LoadError};

use crate::support::{host_with, load, request};

fn failure_reason(name: &str) -> String {
    let host = host_with(name);
    match host.render(&request(BlockType::Calendar, "null")) {
        Err(BlockRenderError::Failed { plugin, reason }) => {
            assert_eq!(plugin, name);
            reason
        }
        other => panic!("{name} was not stopped: {other:?}"),
    }
}

#[test]
fn an_infinite_loop_runs_out_of_fuel() {
    let reason = failure_reason("infinite-loop");
    assert!(reason.contains("ran out of time"), "{reason}");
}

#[test]
fn a_memory_hog_is_stopped_at_the_memory_limit() {
    let reason = failure_reason("memory-hog");
    assert!(
        reason.starts_with("trapped: forcing trap when growing memory"),
        "{reason}"
    );
}

#[test]
fn a_panic_traps() {
    let reason = failure_reason("panic");
    assert!(reason.starts_with("trapped"), "{reason}");
}

#[test]
fn an_enormous_output_is_refused() {
    let reason = failure_reason("giant-output");
    assert!(
        reason.contains("above the output limit of 262144 bytes"),
        "{reason}"
    );
}

#[test]
fn too_much_input_is_refused_before_the_plugin_runs() {
    let host = host_with("chart");
    let data = format!("\"{}\"", "x".repeat(70_000));
    let error = host.render(&request(BlockType::Chart, &data)).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("above this block's limit of 65536 bytes"),
        "{error}"
    );
}

#[test]
fn scripts_handlers_javascript_urls_and_foreign_forms_are_removed() {
    let host = host_with("script-injection");
    let html = host
        .render(&request(BlockType::Calendar, "null"))
        .unwrap()
        .html;
    let html = html.as_str();
    for forbidden in [
        "<script",
        "onclick",
        "onmouseover",
        "onerror",
        "javascript:",
        "<form",
        "<input",
        "<iframe",
        "elsewhere.example",
    ] {
        assert!(!html.contains(forbidden), "{forbidden} survived: {html}");
    }
    assert!(html.starts_with(r#"<p id="kept">Hello b7</p>"#), "{html}");
}

#[test]
fn an_undeclared_capability_refuses_to_load_with_a_clear_message() {
    let error = load("undeclared-capability").unwrap_err();
    assert!(
        matches!(
            error,
            LoadError::UndeclaredCapability {
                capability: "collections",
                ..
            }
        ),
        "{error}"
    );
    assert!(
        error
            .to_string()
            .contains("add `collections = \"why it is needed\"` under [capabilities]"),
        "{error}"
    );
}

#[test]
fn a_plugin_that_keeps_failing_is_disabled_and_its_blocks_fall_back() {
    let host = host_with("panic");
    for _ in 0..FAILURE_THRESHOLD {
        assert_eq!(
            render_or_fallback(&host, &request(BlockType::Calendar, "null"))
                .html
                .as_str(),
            FALLBACK_HTML
        );
    }
    let status = &host.status()[0];
    assert!(!status.enabled);
    assert_eq!(status.failures_total, FAILURE_THRESHOLD);
    assert!(!host.claims(&PluginBlockType::from(BlockType::Calendar)));
    assert_eq!(
        host.render(&request(BlockType::Calendar, "null"))
            .unwrap_err(),
        BlockRenderError::Disabled {
            plugin: "panic".into()
        }
    );
}

#[test]
fn a_failure_leaves_the_next_render_of_a_healthy_plugin_untouched() {
    // A fresh store per render: a trap in one render leaves nothing behind for the next.
    let host = host_with("chart");
    assert!(host.render(&request(BlockType::Chart, "{}")).is_err());
    let data = r#"{"title":"T","description":"D","kind":"bar","points":[]}"#;
    assert!(host.render(&request(BlockType::Chart, data)).is_ok());
    assert_eq!(host.status()[0].failures_in_a_row, 0);
}

/// A clock the test moves by hand, from a fixed start.
fn manual_clock() -> (vitrine_plugins::Clock, Arc<AtomicU64>) {
    let start = Instant::now();
    let elapsed_ms = Arc::new(AtomicU64::new(0));
    let reading = Arc::clone(&elapsed_ms);
    let clock: vitrine_plugins::Clock =
        Arc::new(move || start + Duration::from_millis(reading.load(Ordering::Relaxed)));
    (clock, elapsed_ms)
}

#[test]
fn bad_input_from_a_visitor_never_disables_a_plugin() {
    // The hole: five oversized or malformed GetWidgetRendering calls disabled any plugin.
    let host = host_with("chart");
    let oversized = format!("\"{}\"", "x".repeat(70_000));
    for _ in 0..3 * FAILURE_THRESHOLD {
        let error = host
            .render(&request(BlockType::Chart, &oversized))
            .unwrap_err();
        assert!(
            matches!(
                error,
                BlockRenderError::InputTooLarge {
                    size: 70_002,
                    limit: 65_536,
                    ..
                }
            ),
            "{error:?}"
        );
        assert!(error.is_input_error());
        for malformed in ["{", "[1, 2]", r#"{"kind": 7}"#] {
            let error = host
                .render(&request(BlockType::Chart, malformed))
                .unwrap_err();
            assert!(
                matches!(error, BlockRenderError::InvalidInput { .. }),
                "{malformed}: {error:?}"
            );
        }
    }
    let status = &host.status()[0];
    assert!(status.enabled, "{status:?}");
    assert_eq!((status.failures_in_a_row, status.failures_total), (0, 0));
    let data = r#"{"title":"T","description":"D","kind":"bar","points":[]}"#;
    assert!(host.render(&request(BlockType::Chart, data)).is_ok());
}

#[test]
fn a_disabled_plugin_comes_back_after_its_cool_down_on_probation() {
    let (clock, elapsed_ms) = manual_clock();
    let mut host = vitrine_plugins::PluginHost::new(None)
        .unwrap()
        .with_cool_down(Duration::from_secs(60), clock);
    host.load_plugin_dir(&crate::support::built_plugins().join("panic"))
        .unwrap();
    let calendar = PluginBlockType::from(BlockType::Calendar);
    for _ in 0..FAILURE_THRESHOLD {
        assert!(matches!(
            host.render(&request(BlockType::Calendar, "null")),
            Err(BlockRenderError::Failed { .. })
        ));
    }
    assert!(!host.claims(&calendar), "real failures disable it");

    elapsed_ms.store(59_999, Ordering::Relaxed);
    assert!(!host.claims(&calendar), "still resting");
    assert!(matches!(
        host.render(&request(BlockType::Calendar, "null")),
        Err(BlockRenderError::Disabled { .. })
    ));

    elapsed_ms.store(60_000, Ordering::Relaxed);
    assert!(host.claims(&calendar), "back after the cool-down");
    assert!(host.status()[0].enabled);
    // On probation: one more failure rests it again.
    assert!(matches!(
        host.render(&request(BlockType::Calendar, "null")),
        Err(BlockRenderError::Failed { .. })
    ));
    assert!(!host.claims(&calendar));
    elapsed_ms.store(120_000, Ordering::Relaxed);
    assert!(host.claims(&calendar), "and back again after another");
}

#[test]
fn the_wall_clock_deadline_stops_a_render_that_still_has_fuel() {
    let dir = crate::support::built_plugins().join("infinite-loop");
    let text = std::fs::read_to_string(dir.join("plugin.toml")).unwrap();
    // The most fuel a manifest may ask for, so only the epoch deadline can stop it first.
    let manifest =
        vitrine_plugins::Manifest::parse(&format!("{text}\n[limits]\nfuel = 200000000\n")).unwrap();
    let bytes = std::fs::read(dir.join(&manifest.component)).unwrap();
    let mut host = vitrine_plugins::PluginHost::new(None)
        .unwrap()
        .with_render_deadline_ticks(1);
    host.load(manifest, &bytes).unwrap();
    match host.render(&request(BlockType::Calendar, "null")) {
        Err(BlockRenderError::Failed { reason, .. }) => {
            assert!(reason.contains("wall-clock deadline"), "{reason}");
        }
        other => panic!("the loop was not stopped: {other:?}"),
    }
}
