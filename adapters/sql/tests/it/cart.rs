//! The commerce store on both databases: the core's conformance suite, including the race
//! of many buyers for the last unit, each test on a fresh database.

use std::sync::Arc;

use async_trait::async_trait;
use vitrine_core::cart::{CartState, CartToken, CouponCode, CouponUsage, Stock, Timestamp};
use vitrine_core::catalog::Sku;
use vitrine_core::checkout::{
    CommerceStore, CouponLimit, HoldStockError, IdempotencyKey, Order, OrderFollowUp,
    PlaceOrderError, Subscription,
};
use vitrine_core::gift_cards::{GiftCard, GiftCardCode};
use vitrine_core::ports::RepositoryError;

/// A commerce store with what must outlive it (the test database).
pub struct CommerceStoreUnderTest<Guard> {
    store: Arc<dyn CommerceStore>,
    _guard: Guard,
}

crate::ledger::ledger_through_store!(CommerceStoreUnderTest);

#[async_trait]
impl<Guard: Send + Sync> vitrine_core::checkout::PaymentEventLog for CommerceStoreUnderTest<Guard> {
    async fn reconcile_payment(
        &self,
        event: &vitrine_core::checkout::PaymentEvent,
        now: Timestamp,
    ) -> Result<vitrine_core::checkout::Reconciliation, RepositoryError> {
        self.store.reconcile_payment(event, now).await
    }
}

#[async_trait]
impl<Guard: Send + Sync> CommerceStore for CommerceStoreUnderTest<Guard> {
    async fn load_cart(&self, token: &CartToken) -> Result<Option<CartState>, RepositoryError> {
        self.store.load_cart(token).await
    }

    async fn save_cart(&self, token: &CartToken, cart: &CartState) -> Result<(), RepositoryError> {
        self.store.save_cart(token, cart).await
    }

    async fn set_stock(&self, sku: &Sku, stock: Stock) -> Result<(), RepositoryError> {
        self.store.set_stock(sku, stock).await
    }

    async fn seed_stock(&self, sku: &Sku, stock: Stock) -> Result<(), RepositoryError> {
        self.store.seed_stock(sku, stock).await
    }

    async fn stock(&self, sku: &Sku) -> Result<Option<Stock>, RepositoryError> {
        self.store.stock(sku).await
    }

    async fn place_order_with_follow_up(
        &self,
        order: &Order,
        coupon_limits: &[CouponLimit],
        follow_up: &OrderFollowUp,
    ) -> Result<Order, PlaceOrderError> {
        self.store
            .place_order_with_follow_up(order, coupon_limits, follow_up)
            .await
    }

    async fn hold_stock(
        &self,
        token: &CartToken,
        lines: &[(Sku, u32)],
        now: Timestamp,
        seconds: i64,
    ) -> Result<Timestamp, HoldStockError> {
        self.store.hold_stock(token, lines, now, seconds).await
    }

    async fn release_holds(&self, token: &CartToken) -> Result<(), RepositoryError> {
        self.store.release_holds(token).await
    }

    async fn held_by_others(
        &self,
        sku: &Sku,
        token: &CartToken,
        now: Timestamp,
    ) -> Result<u32, RepositoryError> {
        self.store.held_by_others(sku, token, now).await
    }

    async fn order(&self, id: &str) -> Result<Option<Order>, RepositoryError> {
        self.store.order(id).await
    }

    async fn order_by_key(&self, key: &IdempotencyKey) -> Result<Option<Order>, RepositoryError> {
        self.store.order_by_key(key).await
    }

    async fn orders_by_email(
        &self,
        email: &str,
        limit: u32,
    ) -> Result<Vec<Order>, RepositoryError> {
        self.store.orders_by_email(email, limit).await
    }

    async fn orders_placed_between(
        &self,
        email: &str,
        placed: vitrine_core::checkout::PlacedBetween,
        limit: u32,
    ) -> Result<Vec<Order>, RepositoryError> {
        self.store.orders_placed_between(email, placed, limit).await
    }

    async fn browser_payments_opened_before(
        &self,
        opened_before: Timestamp,
        limit: u32,
    ) -> Result<Vec<vitrine_core::checkout::WaitingBrowserPayment>, RepositoryError> {
        self.store
            .browser_payments_opened_before(opened_before, limit)
            .await
    }

    async fn order_page(
        &self,
        query: &vitrine_core::owners::tables::TableQuery,
    ) -> Result<
        vitrine_core::owners::tables::TablePage<vitrine_core::checkout::OwnerOrder>,
        RepositoryError,
    > {
        self.store.order_page(query).await
    }

    async fn erase_orders_of(
        &self,
        email: &str,
        placed: vitrine_core::checkout::PlacedBetween,
    ) -> Result<u32, RepositoryError> {
        self.store.erase_orders_of(email, placed).await
    }

    async fn subscription(&self, id: &str) -> Result<Option<Subscription>, RepositoryError> {
        self.store.subscription(id).await
    }

    async fn subscriptions_by_email(
        &self,
        email: &str,
    ) -> Result<Vec<vitrine_core::checkout::Subscription>, RepositoryError> {
        self.store.subscriptions_by_email(email).await
    }

    async fn claim_subscription(
        &self,
        id: &str,
        account: &str,
    ) -> Result<Option<String>, RepositoryError> {
        self.store.claim_subscription(id, account).await
    }

    async fn subscriptions_of_account(
        &self,
        account: &str,
    ) -> Result<Vec<Subscription>, RepositoryError> {
        self.store.subscriptions_of_account(account).await
    }

    async fn gift_card(&self, code: &GiftCardCode) -> Result<Option<GiftCard>, RepositoryError> {
        self.store.gift_card(code).await
    }

    async fn order_gift_cards(&self, order_id: &str) -> Result<Vec<GiftCard>, RepositoryError> {
        self.store.order_gift_cards(order_id).await
    }

    async fn reveal_gift_card_codes(&self, order_id: &str) -> Result<bool, RepositoryError> {
        self.store.reveal_gift_card_codes(order_id).await
    }

    async fn coupon_usage(
        &self,
        code: &CouponCode,
        email: &str,
    ) -> Result<CouponUsage, RepositoryError> {
        self.store.coupon_usage(code, email).await
    }
}

mod sqlite {
    use super::CommerceStoreUnderTest;

    async fn fresh() -> CommerceStoreUnderTest<impl Send + Sync> {
        let store = crate::sqlite::fresh().await;
        CommerceStoreUnderTest {
            store: store.database.commerce_store(),
            _guard: store,
        }
    }

    vitrine_core::commerce_store_conformance!(fresh().await);

    mod subscriptions {
        use super::fresh;

        vitrine_core::subscription_conformance!(fresh().await);
    }

    mod erasure {
        use super::fresh;

        vitrine_core::order_erasure_conformance!(fresh().await);
    }
}

mod postgres {
    use super::CommerceStoreUnderTest;

    async fn fresh() -> Option<CommerceStoreUnderTest<impl Send + Sync>> {
        let store = crate::postgres::fresh().await?;
        Some(CommerceStoreUnderTest {
            store: store.database.commerce_store(),
            _guard: store,
        })
    }

    vitrine_core::commerce_store_conformance!(match fresh().await {
        Some(store) => store,
        None => return,
    });

    mod subscriptions {
        use super::fresh;

        vitrine_core::subscription_conformance!(match fresh().await {
            Some(store) => store,
            None => return,
        });
    }

    mod erasure {
        use super::fresh;

        vitrine_core::order_erasure_conformance!(match fresh().await {
            Some(store) => store,
            None => return,
        });
    }
}
