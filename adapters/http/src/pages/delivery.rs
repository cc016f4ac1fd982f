//! How a page from the page cache goes out: the copy `Accept-Encoding` asks for, made once per
//! site revision, with its strong entity tag; 304 when the client holds that copy already; and a
//! `Cache-Control` that lets a shared cache (a CDN) in front keep it.
//!
//! Cached pages are the same for every visitor and carry no cookie (the crumb is issued by
//! `GET /api/crumb`, see `crumb.rs`), so a shared cache may keep them. Browsers revalidate on
//! every visit (`max-age=0`), which costs a 304 when nothing changed; a shared cache keeps a page
//! for at most a minute (`s-maxage`), so an import shows there within a minute, and may answer
//! with the old copy for another minute while it fetches the new one
//! (`stale-while-revalidate`).

use axum::body::Body;
use axum::http::header::{
    ACCEPT_ENCODING, CACHE_CONTROL, CONTENT_ENCODING, CONTENT_TYPE, ETAG, VARY,
};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::pages::cache::Page;
use crate::shared::encoding::Precompressed;
use crate::shared::entity_tag::matches_etag;

/// The longest a shared cache keeps a page before asking again, in seconds.
pub(crate) const SHARED_MAX_AGE: u32 = 60;
/// How long a shared cache may still answer with a page past that while it fetches the new one.
const STALE_WHILE_REVALIDATE: u32 = 60;

/// The cached `page` for a request with these headers.
pub(crate) fn cached_page(page: &Page, request: &HeaderMap) -> Response {
    let cache_control = cache_control(page.shared_max_age);
    let Some(encoded) = &page.encoded else {
        // The compressed copies are still being made: the HTML goes out for the router's layer
        // to compress, without an entity tag, since the layer's bytes are not the cached ones.
        return public_page(page.html.clone(), cache_control);
    };
    let accept = request
        .get(ACCEPT_ENCODING)
        .and_then(|value| value.to_str().ok());
    let (encoding, bytes, etag) = encoded.negotiate(accept);
    let mut response = if etag.to_str().is_ok_and(|etag| matches_etag(request, etag)) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let mut response = (
            [(CONTENT_TYPE, HeaderValue::from_static(HTML))],
            bytes.clone(),
        )
            .into_response();
        if let Some(coding) = encoding.header_value() {
            response
                .headers_mut()
                .insert(CONTENT_ENCODING, HeaderValue::from_static(coding));
        }
        response
    };
    let headers = response.headers_mut();
    headers.insert(CACHE_CONTROL, cache_control);
    headers.insert(VARY, HeaderValue::from_static("Accept-Encoding"));
    headers.insert(ETAG, etag.clone());
    response.extensions_mut().insert(Precompressed);
    response
}

/// A page every visitor sees alike, answered as HTML (compressed by the router's layer).
pub(crate) fn public_page(html: impl Into<Body>, cache_control: HeaderValue) -> Response {
    (
        [
            (CONTENT_TYPE, HeaderValue::from_static(HTML)),
            (CACHE_CONTROL, cache_control),
            (VARY, HeaderValue::from_static("Accept-Encoding")),
        ],
        html.into(),
    )
        .into_response()
}

const HTML: &str = "text/html; charset=utf-8";

/// `Cache-Control` of most pages, written once.
const USUAL_CACHE_CONTROL: &str = "public, max-age=0, s-maxage=60, stale-while-revalidate=60";

/// `Cache-Control` of a page a shared cache may keep for `shared_max_age` seconds.
pub(crate) fn cache_control(shared_max_age: u32) -> HeaderValue {
    if shared_max_age == SHARED_MAX_AGE {
        return HeaderValue::from_static(USUAL_CACHE_CONTROL);
    }
    let value = format!(
        "public, max-age=0, s-maxage={shared_max_age}, stale-while-revalidate={STALE_WHILE_REVALIDATE}"
    );
    HeaderValue::from_str(&value).unwrap_or_else(|_| HeaderValue::from_static("no-cache"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_caches_keep_a_page_briefly_and_browsers_revalidate() {
        assert_eq!(cache_control(SHARED_MAX_AGE), USUAL_CACHE_CONTROL);
        assert_eq!(
            cache_control(SHARED_MAX_AGE + 1),
            "public, max-age=0, s-maxage=61, stale-while-revalidate=60",
            "the usual value is the one written out"
        );
        assert_eq!(
            cache_control(5),
            "public, max-age=0, s-maxage=5, stale-while-revalidate=60"
        );
    }
}
