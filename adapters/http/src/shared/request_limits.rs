//! Rate limits on every state-changing request (cart, checkout, census and events, newsletter,
//! reviews, widget renders, forms): a fixed window per client address and another per visitor
//! (the crumb cookie), counted through the core's `RateLimiter` port, so several servers
//! sharing Redis count together. The address limit is the one a script cannot escape by
//! dropping its cookie; the visitor limit is tighter, for one browser among many behind a
//! shared address. The forms keep their own, tighter limits besides (`core/src/forms`).
//!
//! Reads (GET, HEAD) are not limited here: pages are served from the page cache, and the
//! router's concurrency limit and time-out ([`bounds`]) bound what a flood of them can take.

use std::future::Ready;

use axum::Json;
use axum::error_handling::HandleErrorLayer;
use axum::extract::Request;
use axum::http::header::{CACHE_CONTROL, HeaderName, RETRY_AFTER};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use tower::ServiceBuilder;
use tower::layer::util::{Identity, Stack};
use tower::limit::GlobalConcurrencyLimitLayer;
use tower::load_shed::LoadShedLayer;
use tower_http::timeout::TimeoutLayer;
use vitrine_core::forms::messages::RATE_LIMITED;
use vitrine_core::forms::{RateDecision, RateLimit};

use crate::AppState;
use crate::shared::client_address::ClientAddress;
use crate::shared::request_parts::escape_html as escape;

/// How many state-changing requests a client may make per window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RequestLimits {
    /// Per client address (an IPv6 client by its /64).
    pub per_address: RateLimit,
    /// Per visitor, by the crumb cookie; requests without one count by address only.
    pub per_visitor: RateLimit,
}

impl Default for RequestLimits {
    /// 600 a minute per address and 120 per visitor: a page view sends a handful of census
    /// calls, so a quick reader stays far below, while a script is stopped within a minute.
    /// An office or a mobile carrier puts many visitors behind one address, hence the wider
    /// address limit.
    fn default() -> Self {
        let per_minute = |max| RateLimit {
            max,
            window_seconds: 60,
        };
        Self {
            per_address: per_minute(600),
            per_visitor: per_minute(120),
        }
    }
}

/// Counts a state-changing request against its address and its visitor, and answers 429 with
/// the `RateLimit-*` headers and `Retry-After` once either is spent. A read goes on untouched.
pub(crate) async fn limit(state: &AppState, request: Request) -> Result<Request, Response> {
    if matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    ) {
        return Ok(request);
    }
    let (parts, body) = request.into_parts();
    if let Some(refusal) = count(state, &parts, "request", state.config.request_limits).await {
        return Err(refusal);
    }
    Ok(Request::from_parts(parts, body))
}

/// Counts a request against its address and its visitor in the `kind` buckets; the 429 to
/// answer once either is spent.
pub(crate) async fn count(
    state: &AppState,
    parts: &Parts,
    kind: &str,
    limits: RequestLimits,
) -> Option<Response> {
    let address = ClientAddress::of(parts, state.config.trusted_proxies);
    let buckets = [
        address
            .bucket()
            .map(|address| (format!("{kind}:address:{address}"), limits.per_address)),
        crate::shared::crumb::visitor_crumb(&parts.headers)
            .map(|crumb| (format!("{kind}:visitor:{crumb}"), limits.per_visitor)),
    ];
    // The address first: a script rotating its crumb is stopped before it makes a bucket
    // per crumb.
    for (bucket, limit) in buckets.into_iter().flatten() {
        match state
            .request_limiter
            .hit(&bucket, limit, crate::shared::clock::now_secs())
            .await
        {
            Ok(decision) if !decision.allowed => {
                tracing::info!(path = parts.uri.path(), kind, "a client hit a rate limit");
                return Some(too_many(parts.uri.path(), &decision));
            }
            Ok(_) => {}
            // Counting is a safeguard; a limiter that is away must not take the site down.
            Err(error) => tracing::warn!(%error, "the request rate limiter is unavailable"),
        }
    }
    None
}

/// 429 in the caller's language: JSON for the API's request layer, a small page for a form.
pub(crate) fn too_many(path: &str, decision: &RateDecision) -> Response {
    let mut response = if path == "/api" || path.starts_with("/api/") {
        (
            StatusCode::TOO_MANY_REQUESTS,
            Json(serde_json::json!({ "error": RATE_LIMITED })),
        )
            .into_response()
    } else {
        let html = format!(
            "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
             <meta name=\"robots\" content=\"noindex\"><title>Please wait</title></head>\
             <body><main class=\"form-result\"><h1>Please wait</h1><p>{message}</p>\
             <p><a href=\"/\">Go to the home page</a></p></main></body></html>",
            message = escape(RATE_LIMITED),
        );
        (
            StatusCode::TOO_MANY_REQUESTS,
            [(CACHE_CONTROL, "no-store")],
            Html(html),
        )
            .into_response()
    };
    rate_limit_headers(response.headers_mut(), decision);
    response
}

/// The time-out and the concurrency limit (a `Stack` names the inner layer first).
pub(crate) type Bounds = ServiceBuilder<
    Stack<
        TimeoutLayer,
        Stack<
            GlobalConcurrencyLimitLayer,
            Stack<LoadShedLayer, Stack<HandleErrorLayer<Shed, ()>, Identity>>,
        >,
    >,
>;

/// What answers a request shed at the concurrency limit.
type Shed = fn(tower::BoxError) -> Ready<Response>;

/// The layers that bound the router: a request taking longer than `config.request_timeout`
/// answers 503 and frees its place; beyond `config.concurrency_limit` requests at once, more
/// answer 503 with `Retry-After` at once instead of queueing without bound. They go around the
/// whole router, not each route: see `router.rs`.
pub(crate) fn bounds(config: &crate::HttpConfig) -> Bounds {
    let shed: Shed = |_| std::future::ready(busy());
    ServiceBuilder::new()
        .layer(HandleErrorLayer::new(shed))
        .load_shed()
        .layer(GlobalConcurrencyLimitLayer::new(config.concurrency_limit))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::SERVICE_UNAVAILABLE,
            config.request_timeout,
        ))
}

/// The answer when every place is taken: the API's unavailable message, retry in a second.
fn busy() -> Response {
    let body = crate::ApiError::Unavailable("the server is at its concurrency limit".into()).body();
    (
        StatusCode::SERVICE_UNAVAILABLE,
        [(RETRY_AFTER, "1")],
        Json(body),
    )
        .into_response()
}

/// Adds `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` and `Retry-After`.
pub(crate) fn rate_limit_headers(headers: &mut HeaderMap, decision: &RateDecision) {
    let reset = decision.reset_after.max(1).to_string();
    for (name, value) in [
        ("ratelimit-limit", decision.limit.to_string()),
        ("ratelimit-remaining", decision.remaining.to_string()),
        ("ratelimit-reset", reset.clone()),
    ] {
        if let Ok(value) = HeaderValue::from_str(&value) {
            headers.insert(HeaderName::from_static(name), value);
        }
    }
    if let Ok(value) = HeaderValue::from_str(&reset) {
        headers.insert(RETRY_AFTER, value);
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use axum::body::Body;
    use axum::routing::get;
    use tower::ServiceExt;

    use super::*;

    fn slow_router(config: &crate::HttpConfig) -> axum::Router {
        let slow = axum::Router::new().route(
            "/",
            get(|| async {
                tokio::time::sleep(Duration::from_millis(300)).await;
                "done"
            }),
        );
        axum::Router::new().fallback_service(bounds(config).service(slow))
    }

    fn get_root() -> axum::http::Request<Body> {
        axum::http::Request::get("/").body(Body::empty()).unwrap()
    }

    #[tokio::test]
    async fn a_request_past_its_time_answers_503() {
        let config = crate::HttpConfig::new("https://shop.example", true)
            .with_request_timeout(Duration::from_millis(50));
        let answer = slow_router(&config).oneshot(get_root()).await.unwrap();
        assert_eq!(answer.status(), StatusCode::SERVICE_UNAVAILABLE);
    }

    #[tokio::test]
    async fn past_the_concurrency_limit_a_request_answers_503_at_once() {
        let config = crate::HttpConfig::new("https://shop.example", true).with_concurrency_limit(1);
        let router = slow_router(&config);
        let first = tokio::spawn(router.clone().oneshot(get_root()));
        tokio::time::sleep(Duration::from_millis(50)).await;
        let second = router.clone().oneshot(get_root()).await.unwrap();
        assert_eq!(second.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(second.headers()[RETRY_AFTER], "1");
        assert_eq!(first.await.unwrap().unwrap().status(), StatusCode::OK);
        // The place is free again.
        let third = router.oneshot(get_root()).await.unwrap();
        assert_eq!(third.status(), StatusCode::OK);
    }
}
