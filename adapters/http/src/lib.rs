//! Vitrine's HTTP adapter: the axum router that serves published pages, crawler files, media
//! and the built web assets, with the crumb (CSRF) check, security headers and request logs
//! every response shares. Handlers parse, call one core service and map the result.

mod api_error;
pub mod assets;
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
mod events;
mod favicon;
mod forms;
mod forms_page;
mod forms_wire;
mod gift_card_page;
mod health;
mod media;
mod newsletter_page;
mod observability;
mod owner_throttle;
mod page_cache;
mod pages;
mod plugin_styles;
mod quick_view;
pub mod render;
mod request_limits;
mod request_parts;
mod reviews;
mod reviews_page;
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
pub use render::PageAssets;
pub use request_limits::RequestLimits;
pub use router::router;
pub use state::{AppState, HttpConfig};
