//! Conversion events for an ad pixel (000 s7): ViewContent, AddToCart, Search, Lead,
//! CompleteRegistration and Purchase, and Donate for contributions, sent through the [`AdPixel`] port only for visitors who
//! consented to marketing.

mod event;
mod pixel;

pub use event::{ConversionEvent, ConversionEventName, marketing_allowed};
pub use pixel::{AdPixel, AdPixelError, InMemoryAdPixel};
