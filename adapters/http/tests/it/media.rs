//! Site media served from the repository.

use axum::body::Body;
use axum::http::{Request, StatusCode};

use crate::support::{self, fetch, send};

#[tokio::test]
async fn media_bytes_come_with_their_type_an_etag_and_a_long_cache() {
    let app = support::app().await;
    let answer = fetch(&app, "/media/a.png").await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.body, [137, 80, 78, 71, 0, 255]);
    assert_eq!(answer.header("content-type"), "image/png");
    assert_eq!(answer.header("cache-control"), "public, max-age=2592000");
    assert!(answer.header("etag").starts_with('"'));
}

#[tokio::test]
async fn a_matching_etag_gets_304_without_a_body() {
    let app = support::app().await;
    let etag = fetch(&app, "/media/a.png").await.header("etag").to_owned();
    let request = Request::get("/media/a.png")
        .header("if-none-match", &etag)
        .body(Body::empty())
        .unwrap();
    let answer = send(&app, request).await;
    assert_eq!(answer.status, StatusCode::NOT_MODIFIED);
    assert!(answer.body.is_empty());
    assert_eq!(answer.header("etag"), etag);
}

#[tokio::test]
async fn missing_media_is_404() {
    let app = support::app().await;
    assert_eq!(
        fetch(&app, "/media/missing.png").await.status,
        StatusCode::NOT_FOUND
    );
}
