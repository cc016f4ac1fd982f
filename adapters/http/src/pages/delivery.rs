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

/// How many headers a cached page's answer carries at most once the router and every layer
/// have added their own: the five of [`cached_page`], `Content-Length` (the router's), the
/// page's `Content-Security-Policy`, the security headers (`Strict-Transport-Security` and five
/// more) and the request id. The map is reserved for them all at once, so it never grows (and
/// moves its entries) on the way out.
const CACHED_PAGE_HEADERS: usize = 14;

/// The cached `page` for a request with these headers.
pub(crate) fn cached_page(page: &Page, request: &HeaderMap) -> Response {
    let Some(encoded) = &page.encoded else {
        // The compressed copies are still being made: the HTML goes out for the router to
        // compress, without an entity tag, since those bytes are not the cached ones.
        return public_page(page.html.clone(), page.cache_control.clone());
    };
    let accept = request
        .get(ACCEPT_ENCODING)
        .and_then(|value| value.to_str().ok());
    let (encoding, bytes, etag) = encoded.negotiate(accept);
    let mut headers = HeaderMap::with_capacity(CACHED_PAGE_HEADERS);
    let (status, body) = if etag.to_str().is_ok_and(|etag| matches_etag(request, etag)) {
        (StatusCode::NOT_MODIFIED, Body::empty())
    } else {
        headers.insert(CONTENT_TYPE, HTML_CONTENT_TYPE);
        if let Some(coding) = encoding.header_value() {
            headers.insert(CONTENT_ENCODING, HeaderValue::from_static(coding));
        }
        (StatusCode::OK, Body::from(bytes.clone()))
    };
    headers.insert(CACHE_CONTROL, page.cache_control.clone());
    headers.insert(VARY, VARY_ACCEPT_ENCODING);
    headers.insert(ETAG, etag.clone());
    let mut response = Response::new(body);
    *response.status_mut() = status;
    *response.headers_mut() = headers;
    response.extensions_mut().insert(Precompressed);
    response
}

/// A page every visitor sees alike, answered as HTML (compressed by the router's layer).
pub(crate) fn public_page(html: impl Into<Body>, cache_control: HeaderValue) -> Response {
    (
        [
            (CONTENT_TYPE, HTML_CONTENT_TYPE),
            (CACHE_CONTROL, cache_control),
            (VARY, VARY_ACCEPT_ENCODING),
        ],
        html.into(),
    )
        .into_response()
}

/// The header values every page answer carries, checked once, when compiled
/// (`HeaderValue::from_static` checks each byte again when called at run time).
const HTML_CONTENT_TYPE: HeaderValue = HeaderValue::from_static("text/html; charset=utf-8");
const VARY_ACCEPT_ENCODING: HeaderValue = HeaderValue::from_static("Accept-Encoding");

/// `Cache-Control` of most pages, written once.
const USUAL_CACHE_CONTROL: &str = "public, max-age=0, s-maxage=60, stale-while-revalidate=60";

/// `Cache-Control` of a page a shared cache may keep for `shared_max_age` seconds.
pub(crate) fn cache_control(shared_max_age: u32) -> HeaderValue {
    if shared_max_age == SHARED_MAX_AGE {
        const USUAL: HeaderValue = HeaderValue::from_static(USUAL_CACHE_CONTROL);
        return USUAL;
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
