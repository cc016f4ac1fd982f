//! Request ids and request logs: each request gets an `x-request-id` (the caller's, or a new
//! UUID), recorded in the span every log line of that request carries and echoed back in the
//! response so a visitor's report can be matched to the logs.

use axum::body::Body;
use axum::http::Request;
use tower::ServiceBuilder;
use tower::layer::util::{Identity, Stack};
use tower_http::classify::{ServerErrorsAsFailures, SharedClassifier};
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::{DefaultOnRequest, DefaultOnResponse, TraceLayer};
use tracing::{Level, Span};

const REQUEST_ID_HEADER: &str = "x-request-id";

/// The tracing layer, with each request's span made by [`request_span`].
type Tracing = TraceLayer<
    SharedClassifier<ServerErrorsAsFailures>,
    fn(&Request<Body>) -> Span,
    DefaultOnRequest,
    DefaultOnResponse,
>;

/// The request-id and tracing layers (a `Stack` names the inner layer first).
pub(crate) type Instrumentation = ServiceBuilder<
    Stack<
        PropagateRequestIdLayer,
        Stack<Tracing, Stack<SetRequestIdLayer<MakeRequestUuid>, Identity>>,
    >,
>;

/// The request-id and tracing layers, for the router to put around everything else (see
/// `router.rs`); the id is set before the span opens.
pub(crate) fn instrumentation() -> Instrumentation {
    ServiceBuilder::new()
        .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(request_span as fn(&Request<Body>) -> Span)
                .on_response(DefaultOnResponse::new().level(Level::INFO)),
        )
        .layer(PropagateRequestIdLayer::x_request_id())
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
