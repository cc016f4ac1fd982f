//! Checkout entry (`/commerce/goto-checkout`): whether a shopper may go on to checkout.

use crate::cart::{CartEntry, CheckoutBlocker, ShoppingCart, texts, units_by_sku};
use crate::enums::ProductType;

/// The most units of one item a cart may hold at checkout. Entering checkout keeps stock
/// from every other shopper for the hold's time, so an anonymous cart must not take a whole
/// stock at once; 100 matches the quantity the cart indicator shows before "100+".
pub const MAX_HELD_UNITS_PER_ITEM: u32 = 100;

/// The most units one cart may hold at checkout over all its items, for the same reason.
pub const MAX_HELD_UNITS_PER_CART: u32 = 250;

/// The alert of 000 s8 shown first when the session has expired or cookies are disabled.
pub const SESSION_EXPIRED_ALERT: &str = "Either your session has expired or you do not have cookies enabled. We cannot continue to checkout.";

/// Why the shopper stays on the cart page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckoutEntryRefusal {
    /// No cart came with the request: its cookie is gone or cookies are off.
    SessionExpired,
    /// The cart exists but is not ready (empty, under the minimum, no shipping chosen).
    NotReady(CheckoutBlocker),
    /// The cart asks to hold more than one checkout may: of one item when `product_name` is
    /// set (at most [`MAX_HELD_UNITS_PER_ITEM`]), or in all ([`MAX_HELD_UNITS_PER_CART`]).
    HoldTooLarge { product_name: Option<String> },
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
            // Our texts; the specification shows none.
            Self::HoldTooLarge {
                product_name: Some(name),
            } => format!(
                "You can check out at most {MAX_HELD_UNITS_PER_ITEM} of {name} at once. Lower the quantity to continue."
            ),
            Self::HoldTooLarge { product_name: None } => format!(
                "You can check out at most {MAX_HELD_UNITS_PER_CART} items at once. Lower a quantity to continue."
            ),
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

/// Refuses a hold past the caps. Digital goods are never held (they cannot run out), so only
/// the other lines count. Both checkout entry and order placement ask, so a checkout form
/// posted without entering checkout first cannot hold more either.
pub fn check_hold_caps(entries: &[CartEntry]) -> Result<(), CheckoutEntryRefusal> {
    let held = units_by_sku(
        entries
            .iter()
            .filter(|entry| entry.product_type != ProductType::Digital)
            .map(|entry| (&entry.sku, entry.quantity)),
    );
    if let Some((sku, _)) = held
        .iter()
        .find(|(_, units)| *units > MAX_HELD_UNITS_PER_ITEM)
    {
        let product_name = entries
            .iter()
            .find(|entry| &entry.sku == sku)
            .map(|entry| entry.product_name.clone());
        return Err(CheckoutEntryRefusal::HoldTooLarge { product_name });
    }
    let total = held
        .iter()
        .fold(0_u32, |total, (_, units)| total.saturating_add(*units));
    if total > MAX_HELD_UNITS_PER_CART {
        return Err(CheckoutEntryRefusal::HoldTooLarge { product_name: None });
    }
    Ok(())
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
    use crate::cart::CartState;

    fn cart_of(lines: &[(&str, ProductType, u32)]) -> CartState {
        let mut cart = CartState::new("c", "w", crate::cart::Timestamp(0));
        for &(sku, kind, quantity) in lines {
            let sku = crate::catalog::Sku::parse(sku).unwrap();
            let item = crate::cart::Purchasable::new(
                sku.as_str(),
                sku.as_str(),
                kind,
                sku.clone(),
                100,
                crate::cart::Stock::Unlimited,
            );
            cart.add_item(&item, quantity).unwrap();
        }
        cart
    }

    #[test]
    fn holds_are_capped_per_item_and_per_cart_but_digital_goods_are_never_held() {
        let physical = ProductType::Physical;
        let full = cart_of(&[
            ("A", physical, 100),
            ("B", physical, 100),
            ("C", physical, 50),
        ]);
        assert_eq!(check_hold_caps(&full.entries), Ok(()));
        let over = cart_of(&[
            ("A", physical, 100),
            ("B", physical, 100),
            ("C", physical, 51),
        ]);
        let refusal = check_hold_caps(&over.entries).unwrap_err();
        assert_eq!(
            refusal,
            CheckoutEntryRefusal::HoldTooLarge { product_name: None }
        );
        assert_eq!(
            refusal.message(),
            "You can check out at most 250 items at once. Lower a quantity to continue."
        );
        let one = cart_of(&[("A", ProductType::Service, 101)]);
        assert_eq!(
            check_hold_caps(&one.entries),
            Err(CheckoutEntryRefusal::HoldTooLarge {
                product_name: Some("A".into())
            })
        );
        let ebooks = cart_of(&[("E", ProductType::Digital, 9_999), ("A", physical, 100)]);
        assert_eq!(check_hold_caps(&ebooks.entries), Ok(()));
    }

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
