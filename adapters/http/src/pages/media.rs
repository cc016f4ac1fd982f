//! Site media (`/media/...`): images and files imported with the site, read from the repository.
//! A file that only locked content shows answers that content's lock page instead.

use axum::extract::{Path, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, ETAG};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use vitrine_core::site::MEDIA_PREFIX;

use crate::AppState;
use crate::shared::entity_tag::{entity_tag, matches_etag};

/// Media paths are not content-hashed, so a re-import may change a file in place: a month's
/// cache plus an ETag keeps repeat visits fast and lets a changed file through on revalidation.
const MEDIA_CACHE: &str = "public, max-age=2592000";
/// A file of gated content: this viewer's browser may keep it, no shared cache may.
const GATED_MEDIA_CACHE: &str = "private, no-cache";

/// `GET /media/{*path}`.
pub(crate) async fn media(
    State(state): State<AppState>,
    Path(path): Path<String>,
    headers: HeaderMap,
) -> Response {
    let site_path = format!("{MEDIA_PREFIX}{path}");
    // A file only gated content shows is served to viewers the gate lets in, privately.
    let mut gated = false;
    match state.locked_media.permission(&state, &site_path).await {
        Ok(None) => {}
        Ok(Some(permission)) => {
            let viewer = crate::shared::viewer::page_viewer(&state, &headers).await;
            if !vitrine_core::pages::access::gate(permission, &viewer).is_allowed() {
                return crate::pages::published::locked_page(
                    &state, &site_path, permission, &viewer,
                )
                .await;
            }
            gated = true;
        }
        Err(error) => {
            tracing::error!(%error, path = site_path, "deciding who may see a media file failed");
            return unavailable();
        }
    }
    let file = match state.repository.media(&site_path).await {
        Ok(Some(file)) => file,
        Ok(None) => {
            return (
                StatusCode::NOT_FOUND,
                [(CACHE_CONTROL, "no-cache")],
                "Not found",
            )
                .into_response();
        }
        Err(error) => {
            tracing::error!(%error, path = site_path, "reading a media file failed");
            return unavailable();
        }
    };
    let etag = entity_tag(&file.bytes);
    let cache = if gated {
        GATED_MEDIA_CACHE
    } else {
        MEDIA_CACHE
    };
    let cache_headers = [(CACHE_CONTROL, cache.to_owned()), (ETAG, etag.clone())];
    if matches_etag(&headers, &etag) {
        return (StatusCode::NOT_MODIFIED, cache_headers).into_response();
    }
    let content_type = HeaderValue::from_str(&file.content_type)
        .unwrap_or_else(|_| HeaderValue::from_static("application/octet-stream"));
    let mut response = (cache_headers, file.bytes).into_response();
    response.headers_mut().insert(CONTENT_TYPE, content_type);
    response
}

fn unavailable() -> Response {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        [(CACHE_CONTROL, "no-store")],
        "This file is temporarily unavailable.",
    )
        .into_response()
}
