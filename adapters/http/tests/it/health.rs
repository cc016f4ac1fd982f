//! `/healthz`: 200 while the repository answers, 503 when it does not.

use std::sync::Arc;

use axum::http::StatusCode;

use crate::support::{self, BrokenRepository, fetch};

#[tokio::test]
async fn healthy_when_the_repository_answers() {
    let app = support::app().await;
    let answer = fetch(&app, "/healthz").await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.text(), "ok");
    assert_eq!(answer.header("cache-control"), "no-store");
}

#[tokio::test]
async fn unavailable_when_the_repository_fails() {
    let app = support::router_with(
        Arc::new(BrokenRepository),
        support::fixture_assets(),
        support::config(),
    );
    let answer = fetch(&app, "/healthz").await;
    assert_eq!(answer.status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(!answer.text().contains(support::SECRET));
}
