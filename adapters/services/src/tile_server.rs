//! The tile source on an OpenStreetMap-style tile server (`--tile-url`): a tile is fetched
//! once, kept in the data directory (`<dir>/<template fingerprint>/<z>/<x>/<y>`) and in a
//! small memory cache, and concurrent requests for one missing tile share a single fetch.
//! Tiles larger than [`MAX_TILE_BYTES`] or answered with an error status are refused and
//! not kept, so a later request asks again.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use async_trait::async_trait;
use quick_cache::sync::Cache;
use vitrine_core::map_tiles::{
    MAX_TILE_BYTES, TileCoordinate, TileServer, TileSource, TileUnavailable,
};

/// How many tiles are kept in memory: a few hundred static maps' worth.
const TILES_IN_MEMORY: usize = 1_024;

pub struct HttpTileSource {
    client: reqwest::Client,
    server: TileServer,
    directory: PathBuf,
    memory: Cache<TileCoordinate, Arc<Vec<u8>>>,
}

impl HttpTileSource {
    /// A source fetching from `server` and keeping tiles under `cache_directory`, in a folder
    /// of the server's template, so a change of tile server never serves the old one's tiles.
    pub fn new(server: TileServer, cache_directory: &Path) -> Self {
        let directory = cache_directory.join(server.fingerprint());
        Self {
            client: crate::http_client::client(),
            server,
            directory,
            memory: Cache::new(TILES_IN_MEMORY),
        }
    }

    fn path(&self, tile: TileCoordinate) -> PathBuf {
        self.directory
            .join(tile.z.to_string())
            .join(tile.x.to_string())
            .join(tile.y.to_string())
    }

    async fn kept_or_fetched(&self, tile: TileCoordinate) -> Result<Vec<u8>, TileUnavailable> {
        let path = self.path(tile);
        if let Ok(bytes) = tokio::fs::read(&path).await {
            return Ok(bytes);
        }
        let bytes = self.fetch(tile).await?;
        if let Err(error) = keep(&path, &bytes).await {
            // The map still draws; the tile is fetched again next time.
            tracing::warn!(%error, path = %path.display(), "could not keep a map tile");
        }
        Ok(bytes)
    }

    async fn fetch(&self, tile: TileCoordinate) -> Result<Vec<u8>, TileUnavailable> {
        let unavailable = |reason: String| TileUnavailable { tile, reason };
        let mut response = self
            .client
            .get(self.server.template().url(tile))
            .header("Accept", "image/png,image/jpeg;q=0.9")
            .send()
            .await
            .map_err(|error| unavailable(error.to_string()))?;
        if !response.status().is_success() {
            return Err(unavailable(format!(
                "the tile server answered {}",
                response.status()
            )));
        }
        if response
            .content_length()
            .is_some_and(|length| length > MAX_TILE_BYTES as u64)
        {
            return Err(unavailable(format!(
                "a tile of more than {MAX_TILE_BYTES} bytes"
            )));
        }
        let mut bytes = Vec::new();
        while let Some(chunk) = response
            .chunk()
            .await
            .map_err(|error| unavailable(error.to_string()))?
        {
            if bytes.len() + chunk.len() > MAX_TILE_BYTES {
                return Err(unavailable(format!(
                    "a tile of more than {MAX_TILE_BYTES} bytes"
                )));
            }
            bytes.extend_from_slice(&chunk);
        }
        Ok(bytes)
    }
}

/// Writes a tile beside its final place and renames it there, so a reader never sees half
/// a tile.
async fn keep(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if let Some(folder) = path.parent() {
        tokio::fs::create_dir_all(folder).await?;
    }
    let partial = path.with_extension(format!("partial-{}", std::process::id()));
    tokio::fs::write(&partial, bytes).await?;
    tokio::fs::rename(&partial, path).await
}

#[async_trait]
impl TileSource for HttpTileSource {
    async fn tile(&self, tile: TileCoordinate) -> Result<Vec<u8>, TileUnavailable> {
        let bytes = self
            .memory
            .get_or_insert_async(&tile, async {
                self.kept_or_fetched(tile).await.map(Arc::new)
            })
            .await?;
        Ok(bytes.as_ref().clone())
    }
}
