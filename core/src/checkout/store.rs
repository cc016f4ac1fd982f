//! The commerce store port: carts kept by token, stock, and orders placed atomically.

use async_trait::async_trait;

use super::follow_up::OrderFollowUp;
use super::fulfilment::OwnerOrder;
use super::ledger::PaymentLedger;
use super::order::{CouponLimit, IdempotencyKey, Order, PlaceOrderError};
use super::payment_events::PaymentEventLog;
use super::placed_between::PlacedBetween;
use super::subscription::Subscription;
use crate::cart::{CartState, CartToken, CouponCode, HoldError, Stock, Timestamp};
use crate::catalog::Sku;
use crate::gift_cards::{GiftCard, GiftCardCode};
use crate::owners::tables::{TablePage, TableQuery};
use crate::ports::RepositoryError;

/// Why stock could not be held for a cart.
#[derive(Debug, thiserror::Error)]
pub enum HoldStockError {
    /// Other carts at checkout hold so much of a SKU that too little is left.
    #[error(transparent)]
    Short(#[from] HoldError),
    #[error(transparent)]
    Repository(#[from] RepositoryError),
}

/// Where carts, stock levels and orders live. One port rather than three, because placing
/// an order touches all of them in one transaction; and a payment ledger, because an order
/// claims its charge in that transaction too; and the log of payment reports, because a
/// report moves its order's payment status in the transaction that records it.
#[async_trait]
pub trait CommerceStore: PaymentLedger + PaymentEventLog + Send + Sync {
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
    /// the same idempotency key is returned as it is, and nothing happens again. Each of
    /// `coupon_limits` is counted again inside the transaction (in all, and for the order's
    /// email): a coupon at its limit answers `CouponLimitReached` and changes nothing.
    /// An order with a subscription line starts its subscription
    /// ([`Subscription::start`]) in the same transaction.
    /// The order's `gift_cards` are issued with it, and its `gift_card_payment` is taken
    /// from that card's balance in the same transaction, only while the card (in the order's
    /// currency) still holds the amount: otherwise the answer is `GiftCardBalanceChanged` and
    /// nothing changes, so two orders can never both spend the same balance.
    /// An order with a `payment_id` claims that charge in the ledger in the same transaction;
    /// a charge claimed already (for a refund) answers `PaymentRefunded` and nothing changes.
    async fn place_order(
        &self,
        order: &Order,
        coupon_limits: &[CouponLimit],
    ) -> Result<Order, PlaceOrderError> {
        self.place_order_with_follow_up(order, coupon_limits, &OrderFollowUp::default())
            .await
    }

    /// [`Self::place_order`], writing `follow_up` in the same transaction: the review
    /// request is stored and the mails are enqueued in the delivery outbox, due when the
    /// follow-up says. Written only when this call places the order: a replay of its
    /// idempotency key and a refused order write nothing.
    async fn place_order_with_follow_up(
        &self,
        order: &Order,
        coupon_limits: &[CouponLimit],
        follow_up: &OrderFollowUp,
    ) -> Result<Order, PlaceOrderError>;

    /// The orders still waiting on the intent their payer confirms in the browser
    /// ([`OrderFollowUp::browser_intent`]) that were placed before `opened_before`, oldest
    /// first, at most `limit`. An order leaves this list when its payment is settled.
    async fn browser_payments_opened_before(
        &self,
        opened_before: Timestamp,
        limit: u32,
    ) -> Result<Vec<super::browser_payment::WaitingBrowserPayment>, RepositoryError>;

    /// Holds `lines` for the cart `token` from `now` for `seconds`, all or nothing, in
    /// place of the holds it had: what other carts hold (unexpired) is not available to it.
    /// SKUs that are unlimited or not tracked need no hold. Returns when the hold ends.
    async fn hold_stock(
        &self,
        token: &CartToken,
        lines: &[(Sku, u32)],
        now: Timestamp,
        seconds: i64,
    ) -> Result<Timestamp, HoldStockError>;

    /// Ends the cart's holds (placing its order ends them too).
    async fn release_holds(&self, token: &CartToken) -> Result<(), RepositoryError>;

    /// Units of `sku` held by carts other than `token` at `now`.
    async fn held_by_others(
        &self,
        sku: &Sku,
        token: &CartToken,
        now: Timestamp,
    ) -> Result<u32, RepositoryError>;

    async fn order(&self, id: &str) -> Result<Option<Order>, RepositoryError>;

    async fn order_by_key(&self, key: &IdempotencyKey) -> Result<Option<Order>, RepositoryError>;

    /// The newest `limit` orders placed with `email`, compared without case (a shopper types
    /// their address as they like), newest first: a site user's account page lists them.
    async fn orders_by_email(&self, email: &str, limit: u32)
    -> Result<Vec<Order>, RepositoryError>;

    /// The newest `limit` orders placed with `email` (compared without case) within
    /// `placed`, newest first (ties by id, later first): the orders of one account's hold of
    /// the address, which a later or earlier holder must not see.
    async fn orders_placed_between(
        &self,
        email: &str,
        placed: PlacedBetween,
        limit: u32,
    ) -> Result<Vec<Order>, RepositoryError>;

    /// The owner's table: the page `query` asks for of the orders whose id or address
    /// contains its search, newest first (ties by id, later first), each with its
    /// fulfilment, and how many match in all.
    async fn order_page(
        &self,
        query: &TableQuery,
    ) -> Result<TablePage<OwnerOrder>, RepositoryError>;

    /// Removes the personal fields of every order placed with `email` (compared without
    /// case) within `placed`, in one transaction: the order's email becomes empty, its
    /// shipping address is [`ShippingAddress::erased`](super::ShippingAddress::erased), and
    /// the address is removed from the orders' coupon uses and the subscriptions they
    /// started. Gift cards sent to `email` within `placed` lose their recipient (name,
    /// address and message) in the same transaction; their codes and balances stay. When
    /// `placed` has no end (the address is still the erased account's), the composed mails
    /// to `email` not yet sent are withdrawn too; otherwise they are the later holder's.
    /// Amounts, lines, SKUs, payment ids and dates stay: the site owner's books must still
    /// add up. Answers how many orders changed; an address without orders changes no order.
    async fn erase_orders_of(
        &self,
        email: &str,
        placed: PlacedBetween,
    ) -> Result<u32, RepositoryError>;

    /// The subscription with this id, as its order started it.
    async fn subscription(&self, id: &str) -> Result<Option<Subscription>, RepositoryError>;

    /// The subscriptions bought with `email` (compared without case), newest first, as they
    /// stand now: what decides whether the paid member areas they bought stay open.
    async fn subscriptions_by_email(
        &self,
        email: &str,
    ) -> Result<Vec<Subscription>, RepositoryError>;

    /// Records `account` as the site-user account the subscription `id` belongs to, unless
    /// one already holds it (atomically: of two claims, the first stands). Answers the
    /// account holding it afterwards; none when there is no such subscription.
    async fn claim_subscription(
        &self,
        id: &str,
        account: &str,
    ) -> Result<Option<String>, RepositoryError>;

    /// The subscriptions that belong to the site-user account `account`, newest first, as
    /// they stand now, whatever address they were bought with: what decides whether the
    /// paid member areas they bought stay open.
    async fn subscriptions_of_account(
        &self,
        account: &str,
    ) -> Result<Vec<Subscription>, RepositoryError>;

    /// The gift card with `code`, with its balance now.
    async fn gift_card(&self, code: &GiftCardCode) -> Result<Option<GiftCard>, RepositoryError>;

    /// The gift cards the order `order_id` issued, in the order they were issued: what the
    /// order pages list and what mails to recipients read.
    async fn order_gift_cards(&self, order_id: &str) -> Result<Vec<GiftCard>, RepositoryError>;

    /// Marks the codes of the gift cards the order `order_id` issued as shown to the buyer;
    /// true only for the first call on a placed order, atomically, so the order's first
    /// confirmation view shows the codes in full and every later view shows their last 4.
    async fn reveal_gift_card_codes(&self, order_id: &str) -> Result<bool, RepositoryError>;

    /// How many placed orders used a coupon: in all, and with this email address.
    async fn coupon_usage(
        &self,
        code: &CouponCode,
        email: &str,
    ) -> Result<crate::cart::CouponUsage, RepositoryError>;
}
