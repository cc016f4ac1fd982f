//! The tile server of map blocks, off unless configured: `--tile-url` (`VITRINE_TILE_URL`)
//! names an OpenStreetMap-style `{z}/{x}/{y}` template, `--tile-attribution` its credit.
//! Tiles are kept in `<data-dir>/map-tiles`.

use std::path::Path;
use std::sync::Arc;

use anyhow::Context;
use vitrine_core::map_tiles::{TileServer, TileUrlTemplate};
use vitrine_http::{AppState, StaticMaps};
use vitrine_services::HttpTileSource;

/// `state` drawing static maps from the tile server at `template`, or unchanged without one;
/// a template that is not usable stops the server with the reason.
pub fn apply(
    state: AppState,
    template: Option<&str>,
    attribution: Option<&str>,
    data_dir: &Path,
) -> anyhow::Result<AppState> {
    let Some(template) = template.map(str::trim).filter(|url| !url.is_empty()) else {
        return Ok(state);
    };
    let template = TileUrlTemplate::parse(template).context("--tile-url cannot be used")?;
    let server = TileServer::new(template, attribution.unwrap_or(""))
        .context("--tile-attribution cannot be used")?;
    let cache = data_dir.join("map-tiles");
    tracing::info!(tiles = server.template().as_str(), cache = %cache.display(), "map blocks draw static maps from a tile server");
    let source = HttpTileSource::new(server.clone(), &cache);
    Ok(state.with_static_maps(Arc::new(StaticMaps::new(server, Arc::new(source)))))
}
