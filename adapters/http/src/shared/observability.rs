//! Request ids and request logs: each request gets an `x-request-id` (the caller's, or a new
//! UUID), recorded in the span every log line of that request carries and echoed back in the
//! response so a visitor's report can be matched to the logs.

use std::time::Instant;

use axum::body::Body;
use axum::http::{HeaderValue, Request, Response};
use tower::ServiceBuilder;
use tower::layer::util::{Identity, Stack};
use tower_http::classify::{ServerErrorsAsFailures, SharedClassifier};
use tower_http::request_id::{
    MakeRequestId, PropagateRequestIdLayer, RequestId, SetRequestIdLayer,
};
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
        Stack<Tracing, Stack<SetRequestIdLayer<RandomRequestId>, Identity>>,
    >,
>;

/// The request-id and tracing layers, for the router to put around everything else (see
/// `router.rs`); the id is set before the span opens.
pub(crate) fn instrumentation() -> Instrumentation {
    ServiceBuilder::new()
        .layer(SetRequestIdLayer::x_request_id(RandomRequestId))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(request_span as fn(&Request<Body>) -> Span)
                .on_response(DefaultOnResponse::new().level(Level::INFO)),
        )
        .layer(PropagateRequestIdLayer::x_request_id())
}

/// Makes each request a random (version 4) UUID as its id, like tower-http's
/// `MakeRequestUuid`, but writes it into the header value from a buffer on the stack: that one
/// formats it into a `String` first, through the formatting machinery, and copies it again,
/// which costs every request an allocation more.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RandomRequestId;

impl MakeRequestId for RandomRequestId {
    fn make_request_id<B>(&mut self, _request: &Request<B>) -> Option<RequestId> {
        let mut text = [0; uuid::fmt::Hyphenated::LENGTH];
        let id = uuid::Uuid::new_v4().hyphenated().encode_lower(&mut text);
        // Hexadecimal digits and hyphens are always a valid header value.
        HeaderValue::from_str(id).ok().map(RequestId::new)
    }
}

/// The span of one request. The query string is left out: it carries the crumb.
fn request_span(request: &Request<Body>) -> Span {
    let request_id = request
        .headers()
        .get(REQUEST_ID_HEADER)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default();
    span_of(request, request_id)
}

fn span_of<B>(request: &Request<B>, request_id: &str) -> Span {
    tracing::info_span!(
        "request",
        method = %request.method(),
        path = %request.uri().path(),
        request_id = %request_id,
    )
}

/// What the layers of [`instrumentation`] do to a request answered without them (a cached page
/// answered before the router, `pages/shortcut.rs`): the answer carries the caller's request id
/// or a new one, and the request is logged as the tracing layer logs it, in the same span,
/// with the same messages and targets, so the logs cannot tell the two paths apart.
pub(crate) fn answered_without_layers<B>(
    request: &Request<B>,
    mut response: Response<Body>,
    started: Instant,
) -> Response<Body> {
    let id = request
        .headers()
        .get(REQUEST_ID_HEADER)
        .cloned()
        .or_else(|| {
            RandomRequestId
                .make_request_id(request)
                .map(RequestId::into_header_value)
        });
    let span = span_of(
        request,
        id.as_ref()
            .and_then(|id| id.to_str().ok())
            .unwrap_or_default(),
    );
    let status = i32::from(response.status().as_u16());
    span.in_scope(|| {
        tracing::debug!(target: "tower_http::trace::on_request", "started processing request");
        tracing::info!(
            target: "tower_http::trace::on_response",
            latency = %format_args!("{} ms", started.elapsed().as_millis()),
            status,
            "finished processing request"
        );
    });
    if let Some(id) = id {
        response.headers_mut().insert(REQUEST_ID_HEADER, id);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_ids_are_distinct_version_4_uuids_in_their_usual_text() {
        let request = Request::new(());
        let mut make = RandomRequestId;
        let ids: Vec<String> = (0..2)
            .filter_map(|_| make.make_request_id(&request))
            .map(|id| id.header_value().to_str().unwrap_or_default().to_owned())
            .collect();
        assert_eq!(ids.len(), 2);
        assert_ne!(ids[0], ids[1]);
        for id in &ids {
            let parsed = uuid::Uuid::parse_str(id).expect("a UUID");
            assert_eq!(parsed.get_version_num(), 4);
            assert_eq!(*id, parsed.to_string(), "lowercase, hyphenated");
        }
    }
}
