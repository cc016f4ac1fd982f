//! Vitrine's HTTP adapter: the axum router that serves published pages, crawler files, media
//! and the built web assets, with the crumb (CSRF) check, security headers and request logs
//! every response shares. Handlers parse, call one core service and map the result.

// The wiring: the router, the state every handler receives, the health check, the built web
// assets and the API description.
pub mod assets;
mod health;
pub mod openapi;
mod router;
mod state;

// The capabilities, mirroring the core; none imports another (the test in `layering.rs`).
mod commerce;
mod forms;
mod maps;
mod owner;
mod pages;
pub mod people;
mod places;
mod plugins;
mod privacy;

// The layers below them: request parts and the page renderer.
pub mod render;
mod shared;

#[cfg(test)]
mod layering;

pub use assets::{AssetError, AssetStore};
pub use commerce::gift_card_page::RandomGiftCardCodes;
pub use maps::StaticMaps;
pub use maps::static_map::{NO_TILE_SERVER_MESSAGE, TILE_SERVER_DOWN_MESSAGE};
pub use pages::image_variants::{
    DEFAULT_IMAGE_QUEUE, DEFAULT_MEMORY_BYTES, ImageVariants, default_image_workers,
};
pub use people::site_users;
pub use privacy::census::REPORT_PATH;
pub use privacy::consent::RECEIPTS_PATH;
pub use render::PageAssets;
pub use render::pool::{DEFAULT_RENDER_QUEUE, default_render_workers};
pub use router::{feature_routes, router, server_routes, unlisted_segments};
pub use shared::api_error::{ApiError, ApiErrorBody};
pub use shared::attempt_limits::default_attempt_limits;
pub use shared::census_log::{CensusLog, CensusRow, VisitorKey};
pub use shared::clock::SystemClock;
pub use shared::request_limits::RequestLimits;
pub use shared::route_table::Routes;
pub use shared::{crumb, security_headers};
pub use state::{AppState, HttpConfig, random_order_link_key};
