//! The cart indicator's count and spoken label (000 s4, 001 s9), for the app's native badge.

use vitrine_core::cart::{CartIndicator, indicator};

/// What the cart badge shows and says for a count.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct CartIndicatorLabel {
    /// The count as shown: `100+` above the cap.
    pub display_count: String,
    /// What a screen reader announces: `one item`, `N items in cart`, `more than 100 items`.
    pub spoken_label: String,
    /// True for an empty cart, which the badge marks as such.
    pub empty: bool,
}

#[uniffi::export]
pub fn cart_indicator_label(items: u32) -> CartIndicatorLabel {
    let indicator = CartIndicator {
        initialized: true,
        items,
        subtotal: String::new(),
    };
    CartIndicatorLabel {
        display_count: indicator.display_count(),
        spoken_label: indicator.spoken_label(),
        empty: indicator.is_empty(),
    }
}

/// The highest count the badge shows as a number.
#[uniffi::export]
pub fn cart_display_cap() -> u32 {
    indicator::DISPLAY_CAP
}
