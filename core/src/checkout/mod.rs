//! Checkout: entry from the cart, orders, and the commerce store port through which an
//! order is placed atomically (stock never oversold, a double submit ordering once).

mod entry;
mod memory;
mod order;
mod service;
mod store;

#[cfg(any(test, feature = "test-support"))]
pub mod conformance;

pub use entry::{CheckoutEntryRefusal, SESSION_EXPIRED_ALERT, enter_checkout};
pub use memory::InMemoryCommerceStore;
pub use order::{IdempotencyKey, InvalidIdempotencyKey, Order, OrderLine, PlaceOrderError};
pub use service::{CartService, CartServiceError, CartUpdate};
pub use store::CommerceStore;

#[cfg(test)]
mod tests {
    use super::InMemoryCommerceStore;

    crate::commerce_store_conformance!(InMemoryCommerceStore::new());
}
