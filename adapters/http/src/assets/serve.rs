//! Serving built assets: the representation the client accepts best, cached for a year, since a
//! hashed file name changes whenever its content does.

use axum::extract::{Path, State};
use axum::http::header::{ACCEPT_ENCODING, CACHE_CONTROL, CONTENT_ENCODING, CONTENT_TYPE, VARY};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use super::ASSETS_DIR;
use crate::AppState;
use crate::shared::encoding::Precompressed;

pub(crate) const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// `GET /assets/{*path}`.
pub(crate) async fn serve_asset(
    State(state): State<AppState>,
    Path(path): Path<String>,
    headers: HeaderMap,
) -> Response {
    let Some(asset) = state.assets.get(&format!("{ASSETS_DIR}{path}")) else {
        return (
            StatusCode::NOT_FOUND,
            [(CACHE_CONTROL, "no-cache")],
            "Not found",
        )
            .into_response();
    };
    let accept = headers
        .get(ACCEPT_ENCODING)
        .and_then(|value| value.to_str().ok());
    let (encoding, body) = asset.body.negotiate(accept);
    let mut response = body.clone().into_response();
    let response_headers = response.headers_mut();
    if let Ok(content_type) = HeaderValue::from_str(&asset.content_type) {
        response_headers.insert(CONTENT_TYPE, content_type);
    }
    response_headers.insert(CACHE_CONTROL, HeaderValue::from_static(IMMUTABLE));
    // Caches must keep one copy per encoding, even for files sent as they are: whether a copy
    // exists is this server's choice, and it may change with the next build.
    response_headers.insert(VARY, HeaderValue::from_static("Accept-Encoding"));
    if let Some(coding) = encoding.header_value() {
        response_headers.insert(CONTENT_ENCODING, HeaderValue::from_static(coding));
    }
    response.extensions_mut().insert(Precompressed);
    response
}
