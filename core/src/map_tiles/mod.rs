//! The map block's tiles (issue 15 §1, 001 s2's map view): the tile server an owner configures
//! with an OpenStreetMap-style `{z}/{x}/{y}` template, the [`TileSource`] port that fetches
//! one tile, and the plan of a static map composed from tiles on the server
//! ([`StaticMapPlan`]), so a visitor sees a map without a script or a third party. The
//! adapter that asks a tile server is in `adapters/services`, the composition of the image in
//! `adapters/media`, and [`MemoryTileSource`] serves tests.

mod memory;
mod plan;
mod template;

use async_trait::async_trait;
use thiserror::Error;

pub use memory::MemoryTileSource;
pub use plan::{
    PlacedTile, STATIC_MAP_HEIGHT, STATIC_MAP_WIDTH, StaticMapError, StaticMapPlan,
    StaticMapRequest, TILE_SIZE, decimal as coordinate_text,
};
pub use template::{TileServer, TileServerError, TileUrlTemplate};

/// The largest tile accepted from a tile server, in bytes: a 256-pixel PNG or JPEG tile is
/// 5 to 100 KiB, so more than this is not a tile.
pub const MAX_TILE_BYTES: usize = 1024 * 1024;

/// One tile of the world at a zoom: `x` from the antimeridian eastwards, `y` from the north.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TileCoordinate {
    pub z: u8,
    pub x: u32,
    pub y: u32,
}

impl TileCoordinate {
    /// The tile at `z`/`x`/`y`, when the world at zoom `z` has one there.
    pub fn new(z: u8, x: u32, y: u32) -> Option<Self> {
        let side = 1u64 << u32::from(z.min(31));
        (z <= StaticMapRequest::MAX_ZOOM && u64::from(x) < side && u64::from(y) < side)
            .then_some(Self { z, x, y })
    }
}

/// The tile server could not give a tile: it is down, slow, refused the request or answered
/// something that is not a tile. The text says which, for the log.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("the tile server could not give tile {z}/{x}/{y}: {reason}", z = .tile.z, x = .tile.x, y = .tile.y)]
pub struct TileUnavailable {
    pub tile: TileCoordinate,
    pub reason: String,
}

/// Fetches the encoded image (PNG or JPEG) of one tile from the configured tile server.
/// Implementations keep what they fetched, so a tile is fetched once.
#[async_trait]
pub trait TileSource: Send + Sync {
    async fn tile(&self, tile: TileCoordinate) -> Result<Vec<u8>, TileUnavailable>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tile_exists_only_inside_its_zoom_world() {
        assert!(TileCoordinate::new(0, 0, 0).is_some());
        assert!(TileCoordinate::new(1, 1, 1).is_some());
        assert!(TileCoordinate::new(1, 2, 0).is_none());
        assert!(TileCoordinate::new(12, 4095, 4095).is_some());
        assert!(TileCoordinate::new(12, 4096, 0).is_none());
        assert!(TileCoordinate::new(21, 0, 0).is_none());
    }
}
