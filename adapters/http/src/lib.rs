//! Vitrine's HTTP adapter: the axum router that serves published pages, crawler files, media
//! and the built web assets, with the crumb (CSRF) check, security headers and request logs
//! every response shares. Handlers parse, call one core service and map the result.

mod api_error;
pub mod assets;
mod bounded_body;
mod cart;
mod cart_form_page;
mod cart_forms;
mod cart_page;
mod cart_wire;
mod census;
mod checkout_page;
mod client_address;
mod commerce_page;
mod consent;
mod conversion_events;
mod conversions;
pub mod crumb;
mod donate_page;
mod encoding;
mod entity_tag;
mod events;
mod favicon;
mod forms;
mod forms_page;
mod forms_wire;
mod gift_card_page;
mod health;
mod image_variants;
mod locked_media;
mod media;
mod media_variant;
mod newsletter_page;
mod observability;
pub mod openapi;
mod owner_throttle;
mod page_cache;
mod page_delivery;
mod pages;
mod plugin_styles;
mod quick_view;
pub mod render;
mod render_pool;
mod request_limits;
mod request_parts;
mod reviews;
mod reviews_page;
mod route_table;
mod router;
mod same_origin;
mod search_page;
pub mod security_headers;
mod seo;
mod state;
mod subscribe_page;
mod widgets;

pub use api_error::{ApiError, ApiErrorBody};
pub use assets::{AssetError, AssetStore};
pub use census::{CensusLog, CensusRow, REPORT_PATH, VisitorKey};
pub use consent::RECEIPTS_PATH;
pub use gift_card_page::RandomGiftCardCodes;
pub use image_variants::{
    DEFAULT_IMAGE_QUEUE, DEFAULT_MEMORY_BYTES, ImageVariants, default_image_workers,
};
pub use render::PageAssets;
pub use render_pool::{DEFAULT_RENDER_QUEUE, default_render_workers};
pub use request_limits::RequestLimits;
pub use route_table::Routes;
pub use router::{feature_routes, router};
pub use state::{AppState, HttpConfig};
