//! The crumb (CSRF) cookie: issued by `GET /api/crumb` to visitors without one (never with a
//! page, so shared caches may keep pages), required on state-changing API calls, and refreshed
//! when a check fails so the request layer's retry can succeed.

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::middleware::from_fn_with_state;
use axum::routing::post;
use vitrine_http::crumb::{CrumbConfig, guard};

use crate::support::{self, fetch, send};

const CRUMB: &str = "k9bT2mXq7RfLw3ZpN4vY8sHcJ6dG1eAu0iOoPqRsTuV";
const CRUMB_FAIL_TEXT: &str =
    "Your session token is invalid or has expired. Please reload the page and try again.";

/// A router with one state-changing API route behind the crumb check.
fn guarded() -> Router {
    Router::new()
        .route("/api/test/Record", post(|| async { "recorded" }))
        .layer(from_fn_with_state(CrumbConfig { secure: false }, guard))
}

fn post_with(uri: &str, cookie: Option<&str>, header: Option<&str>) -> Request<Body> {
    let mut request = Request::post(uri);
    if let Some(crumb) = cookie {
        request = request.header("cookie", format!("ss_cvr=1; crumb={crumb}"));
    }
    if let Some(crumb) = header {
        request = request.header("x-csrf-token", crumb);
    }
    request.body(Body::empty()).unwrap()
}

#[tokio::test]
async fn the_crumb_endpoint_gives_a_visitor_without_one_a_crumb() {
    let app = support::app().await;
    let answer = fetch(&app, "/api/crumb").await;
    assert_eq!(answer.status, StatusCode::NO_CONTENT);
    assert_eq!(answer.header("cache-control"), "no-store");
    let cookie = answer.header("set-cookie");
    assert!(cookie.starts_with("crumb="), "{cookie}");
    assert!(cookie.contains("; Path=/"), "{cookie}");
    assert!(cookie.contains("; SameSite=Lax"), "{cookie}");
    assert!(
        !cookie.contains("HttpOnly"),
        "the request layer must read it: {cookie}"
    );
    assert!(!cookie.contains("Secure"), "{cookie}");
    let crumb = answer.set_crumb().unwrap();
    assert!(crumb.len() >= 22, "at least 128 random bits: {crumb}");
    assert!(
        crumb
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    );
    assert_ne!(
        Some(crumb),
        fetch(&app, "/api/crumb").await.set_crumb(),
        "crumbs are random"
    );
}

#[tokio::test]
async fn pages_and_other_answers_never_set_a_crumb() {
    let app = support::app().await;
    for path in [
        "/",
        "/journal",
        "/missing",
        "/sitemap.xml",
        "/robots.txt",
        "/healthz",
        "/assets/react-B1.js",
        "/media/a.png",
        "/favicon.svg",
    ] {
        assert_eq!(fetch(&app, path).await.set_crumb(), None, "{path}");
    }
}

#[tokio::test]
async fn a_visitor_with_a_crumb_keeps_it() {
    let app = support::app().await;
    let request = Request::get("/api/crumb")
        .header("cookie", format!("crumb={CRUMB}"))
        .body(Body::empty())
        .unwrap();
    let answer = send(&app, request).await;
    assert_eq!(answer.status, StatusCode::NO_CONTENT);
    assert_eq!(answer.set_crumb(), None);
}

fn behind_tls() -> vitrine_http::HttpConfig {
    vitrine_http::HttpConfig::new(support::BASE_URL, true)
}

#[tokio::test]
async fn behind_tls_the_crumb_is_a_secure_host_prefixed_cookie_and_hsts_is_sent() {
    let app = support::router_with(
        support::repository().await,
        support::fixture_assets(),
        behind_tls(),
    );
    let answer = fetch(&app, "/api/crumb").await;
    let set_cookie = answer.header("set-cookie");
    assert!(set_cookie.starts_with("__Host-crumb="), "{set_cookie}");
    assert!(set_cookie.contains("; Secure"), "{set_cookie}");
    assert!(set_cookie.contains("; Path=/"), "{set_cookie}");
    assert!(!set_cookie.contains("Domain"), "{set_cookie}");
    assert_eq!(
        answer.header("strict-transport-security"),
        "max-age=31536000"
    );
}

#[tokio::test]
async fn behind_tls_a_plain_crumb_cookie_planted_by_a_subdomain_does_not_pass() {
    let app = support::router_with(
        support::repository().await,
        support::fixture_assets(),
        behind_tls(),
    );
    let call = |cookie: String| {
        Request::post(format!("/api/census/RecordHit?crumb={CRUMB}"))
            .header("cookie", cookie)
            .body(Body::empty())
            .unwrap()
    };
    let planted = call(format!("crumb={CRUMB}"));
    assert_eq!(send(&app, planted).await.status, StatusCode::UNAUTHORIZED);
    let issued = call(format!("__Host-crumb={CRUMB}"));
    assert_ne!(send(&app, issued).await.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn over_plain_http_the_crumb_is_plain_and_no_hsts_is_sent() {
    let answer = fetch(&support::app().await, "/api/crumb").await;
    let set_cookie = answer.header("set-cookie");
    assert!(set_cookie.starts_with("crumb="), "{set_cookie}");
    assert!(!set_cookie.contains("Secure"), "{set_cookie}");
    assert!(answer.headers.get("strict-transport-security").is_none());
}

#[tokio::test]
async fn a_first_state_changing_call_without_a_crumb_gets_one_for_its_retry() {
    let app = support::app().await;
    let refused = send(&app, post_with("/api/no-such-call", None, None)).await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED);
    let crumb = refused.set_crumb().expect("the failure carries a crumb");
    let uri = format!("/api/no-such-call?crumb={crumb}");
    let retried = send(&app, post_with(&uri, Some(&crumb), None)).await;
    assert_eq!(retried.status, StatusCode::NOT_FOUND, "the check passed");
}

#[tokio::test]
async fn a_call_without_a_crumb_fails_with_crumb_fail_and_a_fresh_crumb() {
    let answer = send(&guarded(), post_with("/api/test/Record", None, None)).await;
    assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
    assert_eq!(answer.header("content-type"), "application/json");
    assert_eq!(
        answer.json(),
        serde_json::json!({ "crumbFail": true, "error": CRUMB_FAIL_TEXT })
    );
    assert!(answer.set_crumb().is_some());
}

#[tokio::test]
async fn a_mismatched_crumb_fails_and_is_replaced() {
    let uri = "/api/test/Record?crumb=someone-elses-crumb";
    let answer = send(&guarded(), post_with(uri, Some(CRUMB), None)).await;
    assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
    assert_eq!(answer.json()["crumbFail"], true);
    let fresh = answer.set_crumb().expect("a fresh crumb is set");
    assert_ne!(fresh, CRUMB);
}

#[tokio::test]
async fn a_crumb_without_its_cookie_fails() {
    let uri = format!("/api/test/Record?crumb={CRUMB}");
    let answer = send(&guarded(), post_with(&uri, None, None)).await;
    assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn the_crumb_query_parameter_passes_the_check() {
    let uri = format!("/api/test/Record?other=1&crumb={CRUMB}");
    let answer = send(&guarded(), post_with(&uri, Some(CRUMB), None)).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.text(), "recorded");
    assert_eq!(answer.set_crumb(), None, "a valid crumb is kept");
}

#[tokio::test]
async fn the_csrf_header_passes_the_check() {
    let answer = send(
        &guarded(),
        post_with("/api/test/Record", Some(CRUMB), Some(CRUMB)),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK);
}

#[tokio::test]
async fn every_state_changing_method_is_checked_and_reads_are_not() {
    for method in ["POST", "PUT", "PATCH", "DELETE"] {
        let app = Router::new()
            .route("/api/thing", axum::routing::any(|| async { "changed" }))
            .layer(from_fn_with_state(CrumbConfig::default(), guard));
        let request = Request::builder()
            .method(method)
            .uri("/api/thing")
            .body(Body::empty())
            .unwrap();
        assert_eq!(
            send(&app, request).await.status,
            StatusCode::UNAUTHORIZED,
            "{method}"
        );
        let read = Request::get("/api/thing").body(Body::empty()).unwrap();
        assert_eq!(send(&app, read).await.status, StatusCode::OK);
    }
}

#[tokio::test]
async fn the_site_router_checks_api_calls_before_routing_them() {
    let app = support::app().await;
    let refused = send(&app, post_with("/api/no-such-call", Some(CRUMB), None)).await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED);
    assert_eq!(refused.json()["crumbFail"], true);

    let uri = format!("/api/no-such-call?crumb={CRUMB}");
    let passed = send(&app, post_with(&uri, Some(CRUMB), None)).await;
    // The check passed; no such route exists, and unknown API paths answer JSON.
    assert_eq!(passed.status, StatusCode::NOT_FOUND);
    assert!(passed.json()["error"].is_string());
}
