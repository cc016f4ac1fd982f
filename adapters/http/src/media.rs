//! Site media (`/media/...`): images and files imported with the site, read from the repository.
//! A file that only locked content shows answers that content's lock page instead.

use axum::extract::{Path, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, ETAG, IF_NONE_MATCH};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};
use vitrine_core::site::MEDIA_PREFIX;

use crate::AppState;

/// Media paths are not content-hashed, so a re-import may change a file in place: a month's
/// cache plus an ETag keeps repeat visits fast and lets a changed file through on revalidation.
const MEDIA_CACHE: &str = "public, max-age=2592000";

/// `GET /media/{*path}`.
pub(crate) async fn media(
    State(state): State<AppState>,
    Path(path): Path<String>,
    headers: HeaderMap,
) -> Response {
    let site_path = format!("{MEDIA_PREFIX}{path}");
    match state.locked_media.permission(&state, &site_path).await {
        Ok(None) => {}
        Ok(Some(permission)) => {
            return crate::pages::locked_page(&state, &site_path, permission).await;
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
    let cache_headers = [
        (CACHE_CONTROL, MEDIA_CACHE.to_owned()),
        (ETAG, etag.clone()),
    ];
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

/// A strong entity tag from the file's content: equal bytes, equal tag, whatever the import.
fn entity_tag(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    format!("\"{}\"", hex::encode(&digest[..16]))
}

fn matches_etag(headers: &HeaderMap, etag: &str) -> bool {
    headers
        .get_all(IF_NONE_MATCH)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(|tag| tag.trim().trim_start_matches("W/"))
        .any(|tag| tag == etag || tag == "*")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entity_tags_follow_the_content() {
        assert_eq!(entity_tag(b"a"), entity_tag(b"a"));
        assert_ne!(entity_tag(b"a"), entity_tag(b"b"));
        assert_eq!(entity_tag(b"a").len(), 34);
    }

    #[test]
    fn if_none_match_accepts_lists_and_weak_tags() {
        let etag = entity_tag(b"a");
        let mut headers = HeaderMap::new();
        headers.insert(
            IF_NONE_MATCH,
            HeaderValue::from_str(&format!("\"other\", W/{etag}")).unwrap(),
        );
        assert!(matches_etag(&headers, &etag));
        assert!(!matches_etag(&HeaderMap::new(), &etag));
    }
}
