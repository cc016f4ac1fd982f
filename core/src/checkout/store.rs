//! The commerce store port: carts kept by token, stock, and orders placed atomically.

use async_trait::async_trait;

use super::order::{IdempotencyKey, Order, PlaceOrderError};
use crate::cart::{CartState, CartToken, CouponCode, Stock};
use crate::catalog::Sku;
use crate::ports::RepositoryError;

/// Where carts, stock levels and orders live. One port rather than three, because placing
/// an order touches all of them in one transaction.
#[async_trait]
pub trait CommerceStore: Send + Sync {
    /// The cart stored under `token`; a purchased cart reads back purchased.
    async fn load_cart(&self, token: &CartToken) -> Result<Option<CartState>, RepositoryError>;

    /// Stores a cart under `token`, replacing what was there. A cart that has been
    /// purchased is never changed again: saving over it is refused as `Rejected`.
    async fn save_cart(&self, token: &CartToken, cart: &CartState) -> Result<(), RepositoryError>;

    /// Sets a SKU's stock, as an import of the catalogue does.
    async fn set_stock(&self, sku: &Sku, stock: Stock) -> Result<(), RepositoryError>;

    /// Sets a SKU's stock only when the store does not track it yet, so that the
    /// catalogue's figure seeds the count once and later orders are never undone.
    async fn seed_stock(&self, sku: &Sku, stock: Stock) -> Result<(), RepositoryError>;

    /// A SKU's stock; none for a SKU the store does not track.
    async fn stock(&self, sku: &Sku) -> Result<Option<Stock>, RepositoryError>;

    /// Places an order in one transaction: every limited line's stock is decremented, never
    /// below zero; the cart is marked purchased; the order is recorded. When any line is
    /// short nothing changes and the answer is `OutOfStock`. An order already placed with
    /// the same idempotency key is returned as it is, and nothing happens again.
    async fn place_order(&self, order: &Order) -> Result<Order, PlaceOrderError>;

    async fn order(&self, id: &str) -> Result<Option<Order>, RepositoryError>;

    async fn order_by_key(&self, key: &IdempotencyKey) -> Result<Option<Order>, RepositoryError>;

    /// How many placed orders used a coupon: in all, and with this email address.
    async fn coupon_usage(
        &self,
        code: &CouponCode,
        email: &str,
    ) -> Result<crate::cart::CouponUsage, RepositoryError>;
}
