//! Plugin blocks: `GetWidgetRendering` and pages holding plugin blocks, with an in-memory
//! block renderer standing in for the WebAssembly host.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use vitrine_core::analytics::{BatchPolicy, DayRange, MemoryAnalyticsStore, build_report};
use vitrine_core::enums::BlockType;
use vitrine_core::pages::PageService;
use vitrine_core::plugins::{FALLBACK_HTML, InMemoryBlockRenderer, PluginBlockType};
use vitrine_core::ports::SiteRepository;
use vitrine_core::ports::memory::MemorySiteRepository;
use vitrine_core::site::{
    Block, BlockContent, Body as PageBody, Collection, CollectionId, Layout, PermissionType, Seo,
    Slug,
};
use vitrine_http::{AppState, CensusLog};

use crate::support::{self, fetch, send};

const CRUMB: &str = "k9bT2mXq7RfLw3ZpN4vY8sHcJ6dG1eAu0iOoPqRsTuV";

fn renderer() -> InMemoryBlockRenderer {
    InMemoryBlockRenderer::new()
        .with_html(
            BlockType::Chart,
            r#"<figure class="chart" onclick="x()">{data}</figure>"#,
        )
        .with_failure(BlockType::TourDates, "trapped: unreachable")
        .with_html_for(event_summary(), r#"<ul class="events">{data}</ul>"#, 3600)
        .with_css(event_summary(), ".events { padding: 0 }")
}

fn event_summary() -> PluginBlockType {
    PluginBlockType::Custom("event summary".to_owned())
}

fn plugin_block(
    id: &str,
    block_type: impl Into<PluginBlockType>,
    data: serde_json::Value,
) -> Block {
    Block {
        id: id.to_owned().try_into().unwrap(),
        content: BlockContent::Plugin {
            block_type: block_type.into(),
            data,
        },
    }
}

async fn app() -> axum::Router {
    app_with(Arc::new(renderer())).await
}

async fn app_with(renderer: Arc<InMemoryBlockRenderer>) -> axum::Router {
    app_counting(renderer, Arc::new(CensusLog::default())).await
}

/// The app with its census rows buffered in `census`.
async fn app_counting(
    renderer: Arc<InMemoryBlockRenderer>,
    census: Arc<CensusLog>,
) -> axum::Router {
    let mut site = support::site();
    let mut page: Collection = site.collections[0].clone();
    page.id = CollectionId::try_from("plugins".to_owned()).unwrap();
    page.slug = Slug::parse("plugins").unwrap();
    page.title = "Plugins".into();
    page.permission_type = PermissionType::Public;
    page.seo = Seo::default();
    page.body = PageBody {
        raw: false,
        layout: Layout::stacked(vec![
            plugin_block(
                "sales-chart",
                BlockType::Chart,
                serde_json::json!({"points": [1]}),
            ),
            plugin_block("tour", BlockType::TourDates, serde_json::json!({})),
            plugin_block("calendar", BlockType::Calendar, serde_json::json!({})),
            plugin_block("upcoming", event_summary(), serde_json::json!({"limit": 3})),
        ])
        .unwrap(),
    };
    site.collections.push(page);
    let repository = Arc::new(MemorySiteRepository::new());
    repository.replace_site(&site).await.unwrap();
    let pages = Arc::new(PageService::new(repository.clone()));
    let state = AppState::new(
        pages,
        repository,
        Arc::new(support::fixture_assets()),
        support::config(),
    )
    .with_block_renderer(renderer)
    .with_census(census);
    vitrine_http::router(state)
}

fn widget_request(widget_json: &str) -> Request<Body> {
    let encoded: String = url::form_urlencoded::byte_serialize(widget_json.as_bytes()).collect();
    let body = format!("widgetJSON={encoded}");
    Request::post("/api/widget/GetWidgetRendering")
        .header("content-type", "application/x-www-form-urlencoded")
        .header("cookie", format!("crumb={CRUMB}"))
        .header("x-csrf-token", CRUMB)
        .body(Body::from(body))
        .unwrap()
}

#[tokio::test]
async fn a_page_renders_plugin_blocks_and_falls_back_for_failing_or_unclaimed_ones() {
    let answer = fetch(&app().await, "/plugins").await;
    assert_eq!(answer.status, StatusCode::OK);
    let html = answer.text();
    assert!(
        html.contains(r#"<figure class="chart">{"points":[1]}</figure>"#),
        "{html}"
    );
    assert!(!html.contains("onclick"), "{html}");
    assert_eq!(html.matches(FALLBACK_HTML).count(), 2, "{html}");
    assert!(html.contains("plugin-block"), "{html}");
    // A custom type has no specification code: its block says 0.
    assert!(
        html.contains(r#"id="block-upcoming" data-block-type="0""#),
        "{html}"
    );
    assert!(
        html.contains(r#"<ul class="events">{"limit":3}</ul>"#),
        "{html}"
    );
}

#[tokio::test]
async fn a_plugins_css_is_served_scoped_to_its_block_and_linked_from_the_page() {
    let app = app().await;
    let html = fetch(&app, "/plugins").await.text();
    let start = html
        .find(r#"<link rel="stylesheet" href="/plugin-styles/"#)
        .unwrap_or_else(|| panic!("no stylesheet link: {html}"));
    let href = html[start..]
        .split('"')
        .nth(3)
        .expect("the link has an href")
        .to_owned();
    let stylesheet = fetch(&app, &href).await;
    assert_eq!(stylesheet.status, StatusCode::OK);
    assert_eq!(
        stylesheet.headers.get("content-type").unwrap(),
        "text/css; charset=utf-8"
    );
    assert_eq!(stylesheet.text(), "#block-upcoming .events{padding:0;}\n");
    assert_eq!(
        fetch(&app, "/plugin-styles/0000.css").await.status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn a_cached_page_is_rendered_again_after_the_plugins_reload() {
    let renderer = Arc::new(renderer());
    let app = app_with(renderer.clone()).await;
    fetch(&app, "/plugins").await;
    let first = renderer.rendered().len();
    assert_eq!(first, 3, "one render per claimed plugin block");
    fetch(&app, "/plugins").await;
    assert_eq!(
        renderer.rendered().len(),
        first,
        "served from the page cache"
    );
    renderer.reload();
    let answer = fetch(&app, "/plugins").await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(
        renderer.rendered().len(),
        first * 2,
        "rendered with the new plugins"
    );
}

#[tokio::test]
async fn a_page_is_not_reused_beyond_a_plugins_cache_seconds() {
    let renderer =
        Arc::new(InMemoryBlockRenderer::new().with_html_for(event_summary(), "<p>now</p>", 0));
    let app = app_with(renderer.clone()).await;
    fetch(&app, "/plugins").await;
    let first = renderer.rendered().len();
    fetch(&app, "/plugins").await;
    assert_eq!(
        renderer.rendered().len(),
        first * 2,
        "a rendering reusable for 0 seconds is rendered on every visit"
    );
}

#[tokio::test]
async fn get_widget_rendering_renders_custom_types_by_name_with_their_lifetime() {
    let answer = send(
        &app().await,
        widget_request(
            r#"{"type":"event summary","id":"upcoming","value":{},"collectionId":"events"}"#,
        ),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    let html = answer.json()["html"].as_str().unwrap().to_owned();
    assert!(
        html.starts_with(r#"<link rel="stylesheet" href="/plugin-styles/"#),
        "{html}"
    );
    assert!(
        html.ends_with(r#"<ul class="events">{"collectionId":"events"}</ul>"#),
        "{html}"
    );
    assert_eq!(
        answer.headers.get("cache-control").unwrap(),
        "private, max-age=3600"
    );
}

#[tokio::test]
async fn get_widget_rendering_answers_the_blocks_html() {
    let answer = send(
        &app().await,
        widget_request(
            r#"{"type":62,"id":"sales-chart","value":{"points":[2]},"collectionId":"events"}"#,
        ),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    assert_eq!(
        answer.json(),
        serde_json::json!({"html": r#"<figure class="chart">{"collectionId":"events","points":[2]}</figure>"#})
    );
}

#[tokio::test]
async fn get_widget_rendering_falls_back_when_the_plugin_fails() {
    let answer = send(
        &app().await,
        widget_request(r#"{"type":59,"id":"tour","value":{}}"#),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.json(), serde_json::json!({"html": FALLBACK_HTML}));
}

#[tokio::test]
async fn failing_plugin_blocks_are_counted_for_the_dashboard_and_working_ones_are_not() {
    let census = Arc::new(CensusLog::new(BatchPolicy::default(), false));
    let app = app_counting(Arc::new(renderer()), census.clone()).await;
    assert_eq!(fetch(&app, "/plugins").await.status, StatusCode::OK);
    let widget = send(
        &app,
        widget_request(r#"{"type":59,"id":"tour","value":{}}"#),
    )
    .await;
    assert_eq!(widget.status, StatusCode::OK);
    let chart = send(&app, widget_request(r#"{"type":62,"id":"c","value":{}}"#)).await;
    assert_eq!(chart.status, StatusCode::OK);
    let store = MemoryAnalyticsStore::new();
    census.flush_due(&store, i64::MAX).await.unwrap();
    let report = build_report(&store, &Default::default(), DayRange::ALL)
        .await
        .unwrap();
    // The page's tour-dates block and the widget's: two failures; the chart rendered.
    assert_eq!(report.plugin_failures.len(), 1);
    assert_eq!(report.plugin_failures[0].count, 2);
    assert_eq!(
        report.plugin_failures[0].key,
        PluginBlockType::from(BlockType::TourDates).to_string()
    );
}

#[tokio::test]
async fn get_widget_rendering_refuses_bad_json_and_unknown_or_unclaimed_types() {
    let app = app().await;
    assert_eq!(
        send(&app, widget_request("{")).await.status,
        StatusCode::BAD_REQUEST
    );
    let unknown = send(&app, widget_request(r#"{"type":999,"id":"a","value":{}}"#)).await;
    assert_eq!(unknown.status, StatusCode::BAD_REQUEST);
    let unclaimed = send(&app, widget_request(r#"{"type":26,"id":"a","value":{}}"#)).await;
    assert_eq!(unclaimed.status, StatusCode::NOT_FOUND);
}
