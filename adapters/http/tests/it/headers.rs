//! Headers every response carries: security headers and the request id.

use std::collections::BTreeSet;

use axum::body::Body;
use axum::http::{Request, StatusCode};

use crate::support::{self, fetch, send};

const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
    img-src 'self' data:; font-src 'self'; connect-src 'self'; \
    frame-src https://www.youtube-nocookie.com https://player.vimeo.com; object-src 'none'; \
    base-uri 'self'; form-action 'self'; frame-ancestors 'self'";

#[tokio::test]
async fn security_headers_are_on_pages_errors_assets_and_api_answers() {
    let app = support::app().await;
    let post = Request::post("/api/anything").body(Body::empty()).unwrap();
    let answers = [
        fetch(&app, "/").await,
        fetch(&app, "/missing").await,
        fetch(&app, "/assets/react-B1.js").await,
        fetch(&app, "/healthz").await,
        send(&app, post).await,
    ];
    for answer in answers {
        assert_eq!(answer.header("content-security-policy"), CSP);
        assert_eq!(answer.header("x-content-type-options"), "nosniff");
        assert_eq!(
            answer.header("referrer-policy"),
            "strict-origin-when-cross-origin"
        );
        assert_eq!(answer.header("x-frame-options"), "SAMEORIGIN");
        let permissions = answer.header("permissions-policy");
        for feature in ["camera=()", "microphone=()", "geolocation=()", "payment=()"] {
            assert!(permissions.contains(feature), "{permissions}");
        }
    }
}

#[tokio::test]
async fn pages_use_no_inline_scripts_or_styles_the_policy_would_block() {
    let app = support::app().await;
    for path in ["/", "/faq", "/journal/first", "/missing"] {
        let html = fetch(&app, path).await.text();
        assert!(
            !html.contains(" style=\""),
            "{path} has an inline style attribute"
        );
        assert!(!html.contains("<style"), "{path} has an inline stylesheet");
        for script in html.split("<script").skip(1) {
            let tag = &script[..script.find('>').unwrap()];
            let is_data = tag.contains("type=\"application/json\"")
                || tag.contains("type=\"application/ld+json\"");
            assert!(
                is_data || tag.contains("src=\""),
                "{path} has an inline script: <script{tag}>"
            );
        }
        assert!(
            !html.contains(" onclick="),
            "{path} has an inline event handler"
        );
    }
}

#[tokio::test]
async fn a_request_id_is_generated_when_absent() {
    let app = support::app().await;
    let id = fetch(&app, "/").await.header("x-request-id").to_owned();
    assert_eq!(id.len(), 36, "a UUID: {id}");
    assert_ne!(id, fetch(&app, "/").await.header("x-request-id"));
}

#[tokio::test]
async fn every_answer_has_its_own_request_id_cached_pages_and_refusals_too() {
    let app = support::app().await;
    // The first visit renders the page and puts it in the cache; the next ones are served
    // from it.
    fetch(&app, "/").await;
    let refused = send(
        &app,
        Request::post("/api/anything").body(Body::empty()).unwrap(),
    )
    .await;
    assert_eq!(
        refused.status,
        StatusCode::UNAUTHORIZED,
        "the crumb check refused it"
    );
    let answers = [
        fetch(&app, "/").await,
        fetch(&app, "/").await,
        refused,
        fetch(&app, "/missing").await,
    ];
    let ids: BTreeSet<&str> = answers
        .iter()
        .map(|answer| answer.header("x-request-id"))
        .collect();
    assert_eq!(ids.len(), answers.len(), "one id per request: {ids:?}");
    for id in ids {
        let id = uuid::Uuid::parse_str(id).unwrap_or_else(|_| panic!("not a UUID: {id}"));
        assert_eq!(id.get_version_num(), 4, "a random UUID: {id}");
    }
}

#[tokio::test]
async fn a_given_request_id_is_kept() {
    let app = support::app().await;
    let request = Request::get("/robots.txt")
        .header("x-request-id", "from-the-proxy-42")
        .body(Body::empty())
        .unwrap();
    assert_eq!(
        send(&app, request).await.header("x-request-id"),
        "from-the-proxy-42"
    );
}
