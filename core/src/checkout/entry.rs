//! Checkout entry (`/commerce/goto-checkout`): whether a shopper may go on to checkout.

use crate::cart::{CheckoutBlocker, ShoppingCart, texts};

/// The alert of 000 s8 shown first when the session has expired or cookies are disabled.
pub const SESSION_EXPIRED_ALERT: &str = "Either your session has expired or you do not have cookies enabled. We cannot continue to checkout.";

/// Why the shopper stays on the cart page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckoutEntryRefusal {
    /// No cart came with the request: its cookie is gone or cookies are off.
    SessionExpired,
    /// The cart exists but is not ready (empty, under the minimum, no shipping chosen).
    NotReady(CheckoutBlocker),
    /// Other shoppers at checkout hold the rest of an item: only `available` can be had now.
    Held {
        product_name: String,
        available: u32,
    },
}

impl CheckoutEntryRefusal {
    /// The text shown to the shopper.
    pub fn message(&self) -> String {
        match self {
            Self::SessionExpired => SESSION_EXPIRED_ALERT.to_owned(),
            Self::NotReady(CheckoutBlocker::Empty) => texts::NOTHING_IN_CART.to_owned(),
            Self::NotReady(CheckoutBlocker::BelowMinimumSubtotal(text)) => text.clone(),
            Self::NotReady(CheckoutBlocker::NoShippingOption) => {
                texts::UPDATE_MISSING_INFORMATION.to_owned()
            }
            Self::NotReady(CheckoutBlocker::TotalTooLarge) => texts::TOTAL_TOO_LARGE.to_owned(),
            Self::Held {
                product_name,
                available,
            } => held_message(product_name, *available),
        }
    }
}

/// What a shopper reads when others at checkout hold the rest of an item (our text; the
/// specification shows none).
pub fn held_message(product_name: &str, available: u32) -> String {
    match available {
        0 => format!(
            "{product_name} is being held for other shoppers at checkout. Please try again in a few minutes."
        ),
        n => format!(
            "Only {n} of {product_name} can be held for you right now; other shoppers at checkout hold the rest. Lower the quantity or try again in a few minutes."
        ),
    }
}

/// Decides checkout entry for the cart the request carried, if any.
pub fn enter_checkout(cart: Option<&ShoppingCart>) -> Result<(), CheckoutEntryRefusal> {
    let cart = cart.ok_or(CheckoutEntryRefusal::SessionExpired)?;
    match cart.checkout_blocker() {
        // Shipping is chosen on the checkout page itself, so it cannot keep a shopper out.
        None | Some(CheckoutBlocker::NoShippingOption) => Ok(()),
        Some(blocker) => Err(CheckoutEntryRefusal::NotReady(blocker)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_cart_means_the_session_alert_comes_first() {
        let refusal = enter_checkout(None).unwrap_err();
        assert_eq!(refusal.message(), SESSION_EXPIRED_ALERT);
        let empty = ShoppingCart::default();
        assert_eq!(
            enter_checkout(Some(&empty)).unwrap_err().message(),
            "You have nothing in your shopping cart"
        );
    }
}
