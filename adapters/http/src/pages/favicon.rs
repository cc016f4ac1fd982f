//! The favicon: a small SVG (a shop-window awning over a V), served at `/favicon.svg` and at
//! `/favicon.ico`, which browsers and crawlers ask for without being told.

use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};

pub(crate) const FAVICON_SVG: &str = include_str!("../../static/favicon.svg");

/// `GET /favicon.svg` and `GET /favicon.ico`. Browsers go by the content type, not the name,
/// so one SVG serves both; it changes only with a release, hence a day's cache.
pub(crate) async fn favicon() -> Response {
    (
        [
            (CONTENT_TYPE, "image/svg+xml"),
            (CACHE_CONTROL, "public, max-age=86400"),
        ],
        FAVICON_SVG,
    )
        .into_response()
}
