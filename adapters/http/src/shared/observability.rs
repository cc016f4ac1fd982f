//! Request ids and request logs: each request gets an `x-request-id` (the caller's, or a new
//! UUID), recorded in the span every log line of that request carries and echoed back in the
//! response so a visitor's report can be matched to the logs.

use axum::Router;
use axum::body::Body;
use axum::http::Request;
use tower::ServiceBuilder;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::{DefaultOnResponse, TraceLayer};
use tracing::{Level, Span};

const REQUEST_ID_HEADER: &str = "x-request-id";

/// Wraps `router` (as a whole: see `router.rs`) in the request-id and tracing layers; the id
/// is set before the span opens.
pub(crate) fn instrument(router: Router) -> Router {
    Router::new().fallback_service(
        ServiceBuilder::new()
            .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
            .layer(
                TraceLayer::new_for_http()
                    .make_span_with(request_span)
                    .on_response(DefaultOnResponse::new().level(Level::INFO)),
            )
            .layer(PropagateRequestIdLayer::x_request_id())
            .service(router),
    )
}

/// The span of one request. The query string is left out: it carries the crumb.
fn request_span(request: &Request<Body>) -> Span {
    let request_id = request
        .headers()
        .get(REQUEST_ID_HEADER)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default();
    tracing::info_span!(
        "request",
        method = %request.method(),
        path = %request.uri().path(),
        request_id = %request_id,
    )
}
