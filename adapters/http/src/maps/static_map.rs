//! `GET /api/maps/static`: the static map image of a map block, a PNG of
//! 640 x 320 pixels with the marker drawn at the location. The page's `<img>` names the
//! location, zoom and marker in the query, plus `v`, the tile server's fingerprint: an image
//! asked for with the current fingerprint is `immutable` for a year, since a change of tile
//! server changes every URL. Images are composed once per location (concurrent requests share
//! the work) and kept in memory; their tiles are kept in the data directory by the tile
//! source. Composing counts against the request limits in a bucket of its own, since it may
//! fetch up to 12 tiles from another server; an image already composed does not.

use std::sync::Arc;

use axum::Json;
use axum::body::Body;
use axum::extract::{RawQuery, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, ETAG, RETRY_AFTER};
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use quick_cache::sync::Cache;
use vitrine_core::forms::RateLimit;
use vitrine_core::map_tiles::{
    StaticMapPlan, StaticMapRequest, TileCoordinate, TileServer, TileSource, TileUnavailable,
};
use vitrine_media::{StaticMapError, TileImage, draw_static_map};

use crate::AppState;
use crate::shared::entity_tag::{entity_tag, matches_etag};
use crate::shared::request_limits::{RequestLimits, count};
use crate::shared::route_table::Routes;

pub(crate) const STATIC_MAP_PATH: &str = "/api/maps/static";

/// What the image URL answers on a site without a tile server.
pub const NO_TILE_SERVER_MESSAGE: &str =
    "This site shows no map images: it has no tile server configured.";
/// What the image URL answers when the tile server cannot give the tiles; the page around it
/// still shows the address and the link to the map.
pub const TILE_SERVER_DOWN_MESSAGE: &str = "The map image cannot be shown right now: the tile server did not answer. Please try again later.";

/// Composed images kept in memory: each is 50 to 300 KB.
const IMAGES_IN_MEMORY: usize = 128;
/// An image asked for with the current fingerprint never changes at its URL.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// An image asked for with another fingerprint (a page rendered before the tile server
/// changed) is the current server's, so it may change again: an hour.
const REVALIDATE: &str = "public, max-age=3600";
/// When to ask again after the tile server failed.
const RETRY_SECONDS: &str = "60";

/// 30 images composed a minute per visitor, 120 per address: a page shows a few maps, and an
/// image composed once is served from memory without counting.
const COMPOSE_LIMITS: RequestLimits = RequestLimits {
    per_address: RateLimit {
        max: 120,
        window_seconds: 60,
    },
    per_visitor: RateLimit {
        max: 30,
        window_seconds: 60,
    },
};

/// The static maps of a site: its tile server, where tiles come from, and the images
/// composed so far.
pub struct StaticMaps {
    server: TileServer,
    source: Arc<dyn TileSource>,
    images: Cache<String, Arc<StaticImage>>,
}

struct StaticImage {
    png: axum::body::Bytes,
    etag: String,
}

/// Why an image could not be composed.
#[derive(Debug, thiserror::Error)]
enum ComposeError {
    #[error(transparent)]
    Tile(#[from] TileUnavailable),
    #[error("{0}")]
    Drawing(#[from] StaticMapError),
    #[error("the drawing task stopped: {0}")]
    Task(#[from] tokio::task::JoinError),
}

impl StaticMaps {
    pub fn new(server: TileServer, source: Arc<dyn TileSource>) -> Self {
        Self {
            server,
            source,
            images: Cache::new(IMAGES_IN_MEMORY),
        }
    }

    pub fn server(&self) -> &TileServer {
        &self.server
    }

    async fn compose(&self, request: &StaticMapRequest) -> Result<Arc<StaticImage>, ComposeError> {
        let plan = StaticMapPlan::new(request);
        let mut fetches = tokio::task::JoinSet::new();
        for tile in plan.distinct_tiles() {
            let source = self.source.clone();
            fetches.spawn(async move { source.tile(tile).await.map(|bytes| (tile, bytes)) });
        }
        let mut tiles: Vec<(TileCoordinate, Vec<u8>)> = Vec::new();
        while let Some(fetched) = fetches.join_next().await {
            tiles.push(fetched??);
        }
        let png = tokio::task::spawn_blocking(move || {
            let placed: Vec<TileImage<'_>> = plan
                .tiles
                .iter()
                .filter_map(|placed| {
                    let (_, bytes) = tiles.iter().find(|(tile, _)| *tile == placed.tile)?;
                    Some(TileImage {
                        bytes,
                        left: placed.left,
                        top: placed.top,
                    })
                })
                .collect();
            draw_static_map(plan.width, plan.height, &placed, plan.marker)
        })
        .await??;
        Ok(Arc::new(StaticImage {
            etag: entity_tag(&png),
            png: png.into(),
        }))
    }
}

pub(crate) fn routes() -> Routes {
    Routes::new().route(STATIC_MAP_PATH, get(static_map))
}

/// A JSON error with the given text.
fn refusal(status: StatusCode, message: &str) -> Response {
    (status, Json(serde_json::json!({ "error": message }))).into_response()
}

async fn static_map(
    State(state): State<AppState>,
    parts: Parts,
    RawQuery(query): RawQuery,
) -> Response {
    let Some(maps) = state.static_maps.clone() else {
        return refusal(StatusCode::NOT_FOUND, NO_TILE_SERVER_MESSAGE);
    };
    let pairs: Vec<(String, String)> =
        url::form_urlencoded::parse(query.unwrap_or_default().as_bytes())
            .into_owned()
            .collect();
    let request = match StaticMapRequest::parse(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
    {
        Ok(request) => request,
        Err(error) => return refusal(StatusCode::BAD_REQUEST, &error.to_string()),
    };
    let current = pairs
        .iter()
        .find(|(name, _)| name == "v")
        .is_some_and(|(_, version)| *version == maps.server.fingerprint());
    let key = request.query();
    let image = match maps.images.get(&key) {
        Some(image) => image,
        None => {
            if let Some(refused) = count(&state, &parts, "static-maps", COMPOSE_LIMITS).await {
                return refused;
            }
            let composed = maps
                .images
                .get_or_insert_async(&key, maps.compose(&request))
                .await;
            match composed {
                Ok(image) => image,
                Err(error) => {
                    tracing::warn!(%error, location = %key, "a static map could not be composed");
                    let mut response =
                        refusal(StatusCode::SERVICE_UNAVAILABLE, TILE_SERVER_DOWN_MESSAGE);
                    response
                        .headers_mut()
                        .insert(RETRY_AFTER, HeaderValue::from_static(RETRY_SECONDS));
                    return response;
                }
            }
        }
    };
    let cache_control = if current { IMMUTABLE } else { REVALIDATE };
    let etag = HeaderValue::from_str(&image.etag).unwrap_or(HeaderValue::from_static("\"\""));
    if matches_etag(&parts.headers, &image.etag) {
        return (
            StatusCode::NOT_MODIFIED,
            [
                (ETAG, etag),
                (CACHE_CONTROL, HeaderValue::from_static(cache_control)),
            ],
        )
            .into_response();
    }
    (
        [
            (CONTENT_TYPE, HeaderValue::from_static("image/png")),
            (ETAG, etag),
            (CACHE_CONTROL, HeaderValue::from_static(cache_control)),
        ],
        Body::from(image.png.clone()),
    )
        .into_response()
}
