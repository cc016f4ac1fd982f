//! The map block's static map (issue 15 §1): an image composed on this server from the tiles
//! of the tile server the owner configures, so a visitor sees a map with no script and no
//! third party.

pub(crate) mod static_map;

pub use static_map::StaticMaps;
