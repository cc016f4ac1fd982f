//! Failures behind a page: the visitor gets an error page and a status, never the cause.

use std::sync::Arc;

use axum::http::StatusCode;

use crate::support::{self, BrokenRepository, FailingItems, SECRET, fetch};

#[tokio::test]
async fn a_failing_read_gives_the_error_page_with_500() {
    let app = support::router_with(
        Arc::new(FailingItems::new().await),
        support::fixture_assets(),
        support::config(),
    );
    let answer = fetch(&app, "/journal").await;
    assert_eq!(answer.status, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(answer.header("content-type"), "text/html; charset=utf-8");
    assert_eq!(answer.page_context()["pageType"], 101);
    let html = answer.text();
    assert!(!html.contains(SECRET), "{html}");
}

#[tokio::test]
async fn an_unreadable_site_gives_the_unavailable_page_with_503() {
    let app = support::router_with(
        Arc::new(BrokenRepository),
        support::fixture_assets(),
        support::config(),
    );
    let answer = fetch(&app, "/").await;
    assert_eq!(answer.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(answer.header("content-type"), "text/html; charset=utf-8");
    assert_eq!(answer.header("retry-after"), "60");
    let html = answer.text();
    assert!(html.to_lowercase().contains("<html"), "{html}");
    assert!(!html.contains(SECRET), "{html}");
    assert!(!html.contains("connection refused"), "{html}");
}

#[tokio::test]
async fn a_site_not_imported_yet_gives_the_unavailable_page() {
    let app = support::router_with(
        Arc::new(vitrine_core::ports::memory::MemorySiteRepository::new()),
        support::fixture_assets(),
        support::config(),
    );
    let answer = fetch(&app, "/").await;
    assert_eq!(answer.status, StatusCode::SERVICE_UNAVAILABLE);
}

#[tokio::test]
async fn crawler_and_media_failures_say_nothing_internal() {
    let app = support::router_with(
        Arc::new(BrokenRepository),
        support::fixture_assets(),
        support::config(),
    );
    for path in ["/sitemap.xml", "/media/a.png"] {
        let answer = fetch(&app, path).await;
        assert_eq!(answer.status, StatusCode::SERVICE_UNAVAILABLE, "{path}");
        assert!(!answer.text().contains(SECRET), "{path}");
    }
    // robots.txt needs no repository and keeps working.
    assert_eq!(fetch(&app, "/robots.txt").await.status, StatusCode::OK);
}
