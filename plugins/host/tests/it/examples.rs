//! The example plugins render their blocks, and compiled components are cached on disk.

use vitrine_core::enums::BlockType;
use vitrine_core::plugins::{BlockRenderError, BlockRenderer};
use vitrine_plugins::PluginHost;

use crate::support::{built_plugins, host_with, request};

const CHART: &str = r#"{"title":"Visitors","description":"Visitors per month","kind":"bar","points":[{"label":"Jan","value":3},{"label":"Feb","value":6}]}"#;

#[test]
fn the_chart_renders_accessible_svg_with_a_data_table() {
    let host = host_with("chart");
    assert!(host.claims(BlockType::Chart));
    let html = host.render(&request(BlockType::Chart, CHART)).unwrap();
    let html = html.as_str();
    assert!(html.contains(r#"<svg viewBox="0 0 600 300" role="img" aria-labelledby="chart-title-b7 chart-desc-b7">"#), "{html}");
    assert!(
        html.contains(r#"<title id="chart-title-b7">Visitors</title>"#),
        "{html}"
    );
    assert_eq!(html.matches("<rect").count(), 2, "{html}");
    assert!(
        html.contains(r#"<tr><th scope="row">Feb</th><td>6</td></tr>"#),
        "{html}"
    );
}

#[test]
fn the_line_chart_draws_a_polyline() {
    let host = host_with("chart");
    let data = CHART.replace("\"bar\"", "\"line\"");
    let html = host.render(&request(BlockType::Chart, &data)).unwrap();
    assert!(
        html.as_str()
            .contains("<polyline class=\"chart-line\" points=\"150.0,160.0 450.0,20.0\">"),
        "{}",
        html.as_str()
    );
}

#[test]
fn tour_dates_list_dates_venues_and_ticket_links_escaped() {
    let host = host_with("tour-dates");
    let data = r#"{"dates":[{"date":"2026-03-03","venue":"Paradiso <Main>","city":"Amsterdam","tickets":"https://tickets.example/1"},{"date":"2026-03-05","venue":"Vega","city":"Copenhagen"}]}"#;
    let html = host.render(&request(BlockType::TourDates, data)).unwrap();
    assert_eq!(
        html.as_str(),
        r#"<ul class="tour-dates"><li><time datetime="2026-03-03">2026-03-03</time> Paradiso &lt;Main&gt;, Amsterdam <a href="https://tickets.example/1" rel="noopener noreferrer">Tickets</a></li><li><time datetime="2026-03-05">2026-03-05</time> Vega, Copenhagen Sold out</li></ul>"#
    );
}

#[test]
fn data_of_the_wrong_shape_is_a_failure_not_a_page_error() {
    let host = host_with("chart");
    let error = host
        .render(&request(BlockType::Chart, r#"{"title":1}"#))
        .unwrap_err();
    assert!(
        matches!(&error, BlockRenderError::Failed { plugin, reason } if plugin == "chart" && reason.starts_with("invalid block data")),
        "{error}"
    );
}

#[test]
fn unclaimed_types_are_not_rendered() {
    let host = host_with("chart");
    assert!(!host.claims(BlockType::Calendar));
    assert_eq!(
        host.render(&request(BlockType::Calendar, "{}"))
            .unwrap_err(),
        BlockRenderError::Unclaimed(BlockType::Calendar)
    );
}

#[test]
fn compiled_components_are_cached_on_disk_by_content_hash() {
    let cache = tempfile::tempdir().unwrap();
    let mut first = PluginHost::new(Some(cache.path().to_owned())).unwrap();
    first
        .load_plugin_dir(&built_plugins().join("chart"))
        .unwrap();
    let artifacts: Vec<_> = std::fs::read_dir(cache.path()).unwrap().collect();
    assert_eq!(artifacts.len(), 1);
    let mut second = PluginHost::new(Some(cache.path().to_owned())).unwrap();
    second
        .load_plugin_dir(&built_plugins().join("chart"))
        .unwrap();
    assert!(second.render(&request(BlockType::Chart, CHART)).is_ok());
}

#[test]
fn a_directory_loads_every_plugin_and_reports_the_ones_refused() {
    let mut host = PluginHost::new(None).unwrap();
    let errors = host.load_dir(&built_plugins());
    // The hostile programs all claim the calendar type: the first loads, the rest collide,
    // and the one with an undeclared capability is refused.
    let names: Vec<_> = host
        .status()
        .into_iter()
        .map(|status| status.name)
        .collect();
    assert!(
        names.contains(&"chart".to_owned()) && names.contains(&"tour-dates".to_owned()),
        "{names:?}"
    );
    assert!(
        errors
            .iter()
            .any(|error| error.to_string().contains("undeclared")
                || error.to_string().contains("without declaring"))
    );
}

#[test]
fn the_log_capability_is_callable_by_a_plugin_that_declares_it() {
    // Negative values make the chart log a warning through the host before it renders.
    let host = host_with("chart");
    let data = CHART.replace("\"value\":3", "\"value\":-3");
    let html = host.render(&request(BlockType::Chart, &data)).unwrap();
    assert!(
        html.as_str().contains(r#"<td>-3</td>"#),
        "{}",
        html.as_str()
    );
}
