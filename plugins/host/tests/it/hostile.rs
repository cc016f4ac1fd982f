//! Hostile plugins are stopped or cleaned, counted, disabled, and never take a page down.

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
        error.to_string().contains("above the input limit"),
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
