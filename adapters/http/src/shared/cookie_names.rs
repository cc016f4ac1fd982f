//! Cookie names more than one capability reads or clears: the cart's owner is commerce, but
//! signing out (people) clears it when the visitor asks not to keep the cart.

/// The visitor's cart token.
pub(crate) const CART_COOKIE: &str = "vitrine_cart";
