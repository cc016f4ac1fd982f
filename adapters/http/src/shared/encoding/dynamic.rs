//! Compression of the answers made per request (a page's first render, crawler files, the API,
//! per-shopper pages), by tower-http's compression at a level cheap enough for dynamic HTML.
//! Answers marked [`Precompressed`] (cached pages, assets) pass untouched: their copies were
//! chosen by [`super::choose`] and their entity tags name those bytes.
//!
//! tower-http's layer reads `Accept-Encoding` (into an allocated list) on every request, before
//! it knows whether the answer will be compressed; the router's one middleware keeps the header
//! instead and hands the layer an answer only when it is to be compressed, so a cached page
//! costs it nothing.

use std::convert::Infallible;

use axum::body::Body;
use axum::http::header::ACCEPT_ENCODING;
use axum::http::{HeaderMap, HeaderValue, Request};
use axum::response::Response;
use tower::{Layer, ServiceExt};
use tower_http::CompressionLevel;
use tower_http::compression::CompressionLayer;
use tower_http::compression::predicate::DefaultPredicate;

use super::Precompressed;

/// A request's `Accept-Encoding`, kept until its answer is known. Cloning a header value read
/// off the connection shares its bytes; a second header line (rare) is the only allocation.
#[derive(Debug, Default)]
pub(crate) struct AcceptEncoding {
    first: Option<HeaderValue>,
    more: Vec<HeaderValue>,
}

impl AcceptEncoding {
    /// The `Accept-Encoding` lines of a request.
    pub(crate) fn of(request: &HeaderMap) -> Self {
        let mut lines = request.get_all(ACCEPT_ENCODING).iter();
        Self {
            first: lines.next().cloned(),
            more: lines.cloned().collect(),
        }
    }

    /// `response` compressed as the request asked (images and small bodies excepted, by the
    /// layer's default predicate), unless it is [`Precompressed`].
    pub(crate) async fn compress(self, response: Response) -> Response {
        if response.extensions().get::<Precompressed>().is_some() {
            return response;
        }
        let mut request = Request::new(());
        let headers = request.headers_mut();
        for line in self.first.into_iter().chain(self.more) {
            headers.append(ACCEPT_ENCODING, line);
        }
        // The layer is a service around a service: around one that answers `response`.
        let mut answer = Some(response);
        let answered = tower::service_fn(move |_: Request<()>| {
            std::future::ready(Ok::<_, Infallible>(answer.take().unwrap_or_default()))
        });
        match layer().layer(answered).oneshot(request).await {
            Ok(compressed) => compressed.map(Body::new),
            Err(never) => match never {},
        }
    }
}

/// Brotli and gzip at quality 4: a few milliseconds for a page, paid on every such answer.
fn layer() -> CompressionLayer<DefaultPredicate> {
    CompressionLayer::new()
        .br(true)
        .gzip(true)
        .quality(CompressionLevel::Precise(4))
        .compress_when(DefaultPredicate::new())
}
