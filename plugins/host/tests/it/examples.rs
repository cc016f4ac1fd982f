//! The example plugins (chart, tour dates, event summary) render their blocks, and compiled
//! components are cached on disk.

use std::sync::Arc;

use vitrine_core::enums::BlockType;
use vitrine_core::plugins::{BlockRenderError, BlockRenderer, PluginBlockType};
use vitrine_plugins::{CollectionItem, CollectionItems, PluginHost};

use crate::support::{built_plugins, host_with, request};

const CHART: &str = r#"{"title":"Visitors","description":"Visitors per month","kind":"bar","points":[{"label":"Jan","value":3},{"label":"Feb","value":6}]}"#;

#[test]
fn the_chart_renders_accessible_svg_with_a_data_table() {
    let host = host_with("chart");
    assert!(host.claims(&PluginBlockType::from(BlockType::Chart)));
    let html = host.render(&request(BlockType::Chart, CHART)).unwrap().html;
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
    let html = host.render(&request(BlockType::Chart, &data)).unwrap().html;
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
    let html = host
        .render(&request(BlockType::TourDates, data))
        .unwrap()
        .html;
    assert_eq!(
        html.as_str(),
        r#"<ul class="tour-dates"><li><time datetime="2026-03-03">2026-03-03</time> Paradiso &lt;Main&gt;, Amsterdam <a href="https://tickets.example/1" rel="noopener noreferrer">Tickets</a></li><li><time datetime="2026-03-05">2026-03-05</time> Vega, Copenhagen Sold out</li></ul>"#
    );
}

#[test]
fn data_of_the_wrong_shape_is_refused_as_input_not_counted_as_a_plugin_failure() {
    let host = host_with("chart");
    let error = host
        .render(&request(BlockType::Chart, r#"{"title":1}"#))
        .unwrap_err();
    assert!(
        matches!(&error, BlockRenderError::InvalidInput { plugin, reason } if plugin == "chart" && reason.contains("expected a string")),
        "{error}"
    );
    assert!(error.is_input_error());
}

#[test]
fn unclaimed_types_are_not_rendered() {
    let host = host_with("chart");
    assert!(!host.claims(&PluginBlockType::from(BlockType::Calendar)));
    assert_eq!(
        host.render(&request(BlockType::Calendar, "{}"))
            .unwrap_err(),
        BlockRenderError::Unclaimed(BlockType::Calendar.into())
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
    let html = host.render(&request(BlockType::Chart, &data)).unwrap().html;
    assert!(
        html.as_str().contains(r#"<td>-3</td>"#),
        "{}",
        html.as_str()
    );
}

#[test]
fn the_pie_chart_draws_one_slice_per_share_with_a_legend_table() {
    let host = host_with("chart");
    let data = r#"{"title":"Pieces","description":"Pieces by kind","kind":"pie","points":[{"label":"Mugs","value":3},{"label":"Vases","value":1},{"label":"None","value":0}]}"#;
    let html = host.render(&request(BlockType::Chart, data)).unwrap().html;
    let html = html.as_str();
    // Three quarters then one quarter, clockwise from twelve o'clock on a circle of r = 140.
    assert!(
        html.contains(r#"<path class="chart-slice chart-slice-1" d="M300.0,150.0 L300.0,10.0 A140.0,140.0 0 1 1 160.0,150.0 Z">"#),
        "{html}"
    );
    assert_eq!(
        html.matches("<path").count(),
        2,
        "no slice for a zero: {html}"
    );
    assert!(
        html.contains(r#"role="img" aria-labelledby="chart-title-b7 chart-desc-b7""#),
        "{html}"
    );
    assert!(
        html.contains(r#"<th scope="row"><span class="chart-swatch chart-slice-2"></span>Vases</th><td>1</td>"#),
        "{html}"
    );
}

#[test]
fn a_pie_of_one_value_is_a_full_circle() {
    let host = host_with("chart");
    let data = r#"{"title":"All","description":"One kind","kind":"pie","points":[{"label":"Mugs","value":5}]}"#;
    let html = host.render(&request(BlockType::Chart, data)).unwrap().html;
    assert!(
        html.as_str().contains(
            r#"<circle class="chart-slice chart-slice-1" cx="300.0" cy="150.0" r="140.0">"#
        ),
        "{}",
        html.as_str()
    );
}

/// Events as the site's repository would hand them to the `collections` capability.
struct Events;

impl CollectionItems for Events {
    fn items(&self, _collection_id: &str, _limit: u32) -> Vec<CollectionItem> {
        Vec::new()
    }

    fn upcoming(&self, collection_id: &str, limit: u32) -> Vec<CollectionItem> {
        if collection_id != "events" {
            return Vec::new();
        }
        let event = |id: &str, title: &str, date: &str| CollectionItem {
            id: id.to_owned(),
            title: title.to_owned(),
            url: format!("/events/{id}"),
            date: Some(date.to_owned()),
            excerpt: Some("Bring <cash>".to_owned()),
        };
        vec![
            event("fair", "Ceramics fair", "2027-05-29"),
            event("market", "Christmas market", "2027-12-11"),
        ]
        .into_iter()
        .take(limit as usize)
        .collect()
    }
}

fn event_summary_host() -> PluginHost {
    let mut host = PluginHost::new(None)
        .expect("engine")
        .with_collections(Arc::new(Events));
    host.load_plugin_dir(&built_plugins().join("event-summary"))
        .expect("the event summary plugin loads");
    host
}

#[test]
fn the_event_summary_lists_upcoming_events_of_a_custom_type_for_an_hour() {
    let host = event_summary_host();
    let summary = PluginBlockType::Custom("event summary".to_owned());
    assert!(host.claims(&summary));
    let mut render = request(BlockType::Calendar, r#"{"collection":"events","limit":1}"#);
    render.block_type = summary.clone();
    let rendering = host.render(&render).unwrap();
    assert_eq!(
        rendering.html.as_str(),
        r#"<section class="event-summary" aria-labelledby="event-summary-b7"><h2 id="event-summary-b7">Upcoming events</h2><ul class="event-summary-list"><li><time datetime="2027-05-29">2027-05-29</time> <a href="/events/fair" rel="noopener noreferrer">Ceramics fair</a><p>Bring &lt;cash&gt;</p></li></ul></section>"#
    );
    assert_eq!(rendering.cache_seconds, Some(3600));
    let css = rendering.css.expect("the event summary brings its CSS");
    assert!(
        css.as_str()
            .starts_with("#block-b7 .event-summary-list{list-style:none;padding:0;margin:0;}"),
        "{}",
        css.as_str()
    );

    // GetWidgetRendering adds collectionId; a collection without events says so.
    render.data = r#"{"collectionId":"journal"}"#;
    let rendering = host.render(&render).unwrap();
    assert!(
        rendering
            .html
            .as_str()
            .contains("<p class=\"event-summary-empty\">No upcoming events.</p>"),
        "{}",
        rendering.html.as_str()
    );
}

#[test]
fn a_render_reports_its_fuel_and_peak_memory() {
    let host = host_with("chart");
    let (outcome, stats) = host.render_with_stats(&request(BlockType::Chart, CHART));
    assert!(outcome.is_ok());
    assert!(stats.fuel_used > 0);
    // At least the guest's initial memory (its stack and data), far below the 10 MiB limit.
    assert!(
        (64 * 1024..10 * 1024 * 1024).contains(&stats.peak_memory_bytes),
        "{stats:?}"
    );
}
