//! Router tests of `POST /api/census/RecordQuickView/{id}` (000 s7).

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use vitrine_core::analytics::BatchPolicy;
use vitrine_core::pages::PageService;
use vitrine_core::ports::SiteRepository;
use vitrine_core::ports::memory::MemorySiteRepository;
use vitrine_http::{AppState, CensusLog, VisitorKey};

use crate::support::{config, fixture_assets, send, site};

const CRUMB: &str = "test-crumb";

async fn app(census: Arc<CensusLog>) -> axum::Router {
    let repository = Arc::new(MemorySiteRepository::new());
    repository.replace_site(&site()).await.unwrap();
    let pages = Arc::new(PageService::new(repository.clone()));
    let state =
        AppState::new(pages, repository, Arc::new(fixture_assets()), config()).with_census(census);
    vitrine_http::router(state)
}

fn census(disabled: bool) -> Arc<CensusLog> {
    Arc::new(CensusLog::new(
        BatchPolicy {
            capacity: 10,
            flush_rows: 100,
            flush_interval_ms: 0,
        },
        disabled,
    ))
}

fn quick_view(id: &str, cookies: &str) -> Request<Body> {
    Request::post(format!("/api/census/RecordQuickView/{id}?crumb={CRUMB}"))
        .header("cookie", format!("crumb={CRUMB}; {cookies}"))
        .header("user-agent", "Test/1.0")
        .body(Body::empty())
        .unwrap()
}

#[tokio::test]
async fn a_quick_view_of_a_product_is_recorded_with_the_visitor_cookie_when_allowed() {
    let log = census(false);
    let router = app(log.clone()).await;
    let answer = send(
        &router,
        quick_view("tote", "ss_cookieAllowed=true; ss_cvr=visitor-1|10|10|10|1"),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.json()["recorded"], true);
    let declined = send(&router, quick_view("tote", "ss_cvr=visitor-1|10|10|10|1")).await;
    assert_eq!(declined.status, StatusCode::OK);
    let rows = log.take_due(i64::MAX);
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].kind, "quick-view");
    assert_eq!(rows[0].data["itemId"], "tote");
    assert_eq!(
        rows[0].visitor,
        Some(VisitorKey::Cookie("visitor-1".into()))
    );
    assert!(
        matches!(rows[1].visitor, Some(VisitorKey::Cookieless(_))),
        "without consent the cookie is not used: {:?}",
        rows[1].visitor
    );
}

#[tokio::test]
async fn only_products_have_quick_views() {
    let log = census(false);
    let router = app(log.clone()).await;
    assert_eq!(
        send(&router, quick_view("nothing-here", "")).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        send(&router, quick_view("a", "")).await.status,
        StatusCode::NOT_FOUND
    );
    assert!(log.take_due(i64::MAX).is_empty());
}

#[tokio::test]
async fn census_switched_off_records_no_quick_view() {
    let log = census(true);
    let router = app(log.clone()).await;
    assert_eq!(
        send(&router, quick_view("tote", "")).await.status,
        StatusCode::NO_CONTENT
    );
    assert!(log.take_due(i64::MAX).is_empty());
}
