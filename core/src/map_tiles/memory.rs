//! The in-memory tile source: every tile the same bytes, counting the tiles asked for, or
//! down. The core's and the HTTP adapter's tests use it.

use std::sync::Mutex;

use async_trait::async_trait;

use super::{TileCoordinate, TileSource, TileUnavailable};

#[derive(Debug)]
pub struct MemoryTileSource {
    /// The image every tile is; `None` is a tile server that is down.
    image: Option<Vec<u8>>,
    asked: Mutex<Vec<TileCoordinate>>,
}

impl MemoryTileSource {
    /// A tile server answering `image` for every tile.
    pub fn new(image: Vec<u8>) -> Self {
        Self {
            image: Some(image),
            asked: Mutex::new(Vec::new()),
        }
    }

    /// A tile server that answers nothing.
    pub fn down() -> Self {
        Self {
            image: None,
            asked: Mutex::new(Vec::new()),
        }
    }

    /// The tiles asked for so far, in order.
    pub fn asked(&self) -> Vec<TileCoordinate> {
        self.asked
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }
}

#[async_trait]
impl TileSource for MemoryTileSource {
    async fn tile(&self, tile: TileCoordinate) -> Result<Vec<u8>, TileUnavailable> {
        self.asked
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(tile);
        self.image.clone().ok_or_else(|| TileUnavailable {
            tile,
            reason: "the tile server is down".to_owned(),
        })
    }
}
