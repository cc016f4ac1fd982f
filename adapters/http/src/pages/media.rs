//! Site media (`/media/...`): images and files imported with the site, read from the repository,
//! as stored or, for images, at one of the spec's widths (`media_variant.rs`). A file that only
//! locked content shows answers that content's lock page instead.

use std::sync::Arc;

use axum::extract::{Path, RawQuery, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, ETAG};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use vitrine_core::site::{MEDIA_PREFIX, MediaFile};

use crate::AppState;
use crate::pages::media_variant::{MediaRequest, not_found};
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
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    let request = match MediaRequest::parse(&path, query.as_deref()) {
        Ok(request) => request,
        Err(message) => {
            return (
                StatusCode::BAD_REQUEST,
                [(CACHE_CONTROL, "no-store")],
                message,
            )
                .into_response();
        }
    };
    let (name, width, version, literal) = match request {
        MediaRequest::File { name } => return file(&state, &name, &headers).await,
        MediaRequest::Variant {
            name,
            width,
            version,
            literal,
        } => (name, width, version, literal),
    };
    let site_path = format!("{MEDIA_PREFIX}{name}");
    let gated = match access(&state, &site_path, &headers).await {
        Ok(gated) => gated,
        Err(refused) => return refused,
    };
    let revision = match state.page_cache.revision(state.repository.as_ref()).await {
        Ok(revision) => revision,
        Err(error) => {
            tracing::error!(%error, "reading the site revision failed");
            return unavailable();
        }
    };
    let facts = match state.image_variants.known_facts(revision, &site_path) {
        Some(facts) => facts,
        None => match read(&state, &site_path).await {
            Ok(Some(file)) => match state.image_variants.learn_facts(revision, file).await {
                Ok(facts) => facts,
                Err(_) => return unavailable(),
            },
            // `photo-500w.jpg` without a `photo.jpg` may be a file of that name.
            Ok(None) => match literal {
                Some(literal) => return file(&state, &literal, &headers).await,
                None => return not_found(),
            },
            Err(response) => return response,
        },
    };
    let mut response = crate::pages::media_variant::answer(
        &state,
        &facts,
        width,
        version.as_deref(),
        &headers,
        async || read(&state, &site_path).await,
    )
    .await;
    if gated {
        response
            .headers_mut()
            .insert(CACHE_CONTROL, HeaderValue::from_static(GATED_MEDIA_CACHE));
    }
    response
}

/// Whether the viewer may see the file at `site_path`: `Ok(true)` when only gated content
/// shows it and the gate lets this viewer in (served privately), `Ok(false)` for a public
/// file, and the lock page (or 503) otherwise.
async fn access(state: &AppState, site_path: &str, headers: &HeaderMap) -> Result<bool, Response> {
    match state.locked_media.lock(state, site_path).await {
        Ok(None) => Ok(false),
        Ok(Some(lock)) => {
            let viewer = crate::shared::viewer::page_viewer(state, headers).await;
            if vitrine_core::pages::access::gate(&lock, &viewer).is_allowed() {
                return Ok(true);
            }
            Err(crate::pages::published::locked_page(state, site_path, &lock, &viewer).await)
        }
        Err(error) => {
            tracing::error!(%error, path = site_path, "deciding who may see a media file failed");
            Err(unavailable())
        }
    }
}

async fn read(state: &AppState, site_path: &str) -> Result<Option<Arc<MediaFile>>, Response> {
    state
        .repository
        .media(site_path)
        .await
        .map(|file| file.map(Arc::new))
        .map_err(|error| {
            tracing::error!(%error, path = site_path, "reading a media file failed");
            unavailable()
        })
}

/// The file `name` as stored.
async fn file(state: &AppState, name: &str, headers: &HeaderMap) -> Response {
    let site_path = format!("{MEDIA_PREFIX}{name}");
    let gated = match access(state, &site_path, headers).await {
        Ok(gated) => gated,
        Err(refused) => return refused,
    };
    let file = match read(state, &site_path).await {
        Ok(Some(file)) => file,
        Ok(None) => return not_found(),
        Err(response) => return response,
    };
    let etag = entity_tag(&file.bytes);
    let cache = if gated {
        GATED_MEDIA_CACHE
    } else {
        MEDIA_CACHE
    };
    let cache_headers = [(CACHE_CONTROL, cache.to_owned()), (ETAG, etag.clone())];
    if matches_etag(headers, &etag) {
        return (StatusCode::NOT_MODIFIED, cache_headers).into_response();
    }
    let content_type = HeaderValue::from_str(&file.content_type)
        .unwrap_or_else(|_| HeaderValue::from_static("application/octet-stream"));
    let mut response = (cache_headers, file.bytes.clone()).into_response();
    response.headers_mut().insert(CONTENT_TYPE, content_type);
    response
}

pub(crate) fn unavailable() -> Response {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        [(CACHE_CONTROL, "no-store")],
        "This file is temporarily unavailable.",
    )
        .into_response()
}
