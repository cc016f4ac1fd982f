//! Failures the checkout must survive that the in-memory ports cannot produce on cue: the
//! database failing after the card was charged, or before anything happened. The store and
//! the gateway are mocked, so each test says exactly which call fails and which calls must
//! (or must never) follow.

use async_trait::async_trait;
use mockall::mock;

use super::test_shop::{NOW, card_form, standard_shipping};
use super::*;
use crate::cart::{CartState, CouponCode, CouponUsage, Stock};
use crate::cart::{CartToken, Timestamp};
use crate::catalog::Sku;
use crate::checkout::details::CheckoutForm;
use crate::checkout::follow_up::OrderFollowUp;
use crate::checkout::order::{CouponLimit, IdempotencyKey, Order};
use crate::checkout::payment::PaymentRequest;
use crate::checkout::store::HoldStockError;
use crate::checkout::{FailedRefund, InMemoryCommerceStore, Payment, PaymentLedger, RefundClaim};
use crate::gift_cards::{GiftCard, GiftCardCode};
use crate::money::Currency;
use crate::ports::conformance::fixture_site;
use crate::ports::memory::MemorySiteRepository;
use crate::site::ItemId;

mock! {
    Store {}

    #[async_trait]
    impl CommerceStore for Store {
        async fn load_cart(&self, token: &CartToken) -> Result<Option<CartState>, RepositoryError>;
        async fn save_cart(&self, token: &CartToken, cart: &CartState) -> Result<(), RepositoryError>;
        async fn set_stock(&self, sku: &Sku, stock: Stock) -> Result<(), RepositoryError>;
        async fn seed_stock(&self, sku: &Sku, stock: Stock) -> Result<(), RepositoryError>;
        async fn stock(&self, sku: &Sku) -> Result<Option<Stock>, RepositoryError>;
        async fn place_order_with_follow_up(
            &self,
            order: &Order,
            coupon_limits: &[CouponLimit],
            follow_up: &OrderFollowUp,
        ) -> Result<Order, PlaceOrderError>;
        async fn hold_stock(
            &self,
            token: &CartToken,
            lines: &[(Sku, u32)],
            now: Timestamp,
            seconds: i64,
        ) -> Result<Timestamp, HoldStockError>;
        async fn release_holds(&self, token: &CartToken) -> Result<(), RepositoryError>;
        async fn held_by_others(
            &self,
            sku: &Sku,
            token: &CartToken,
            now: Timestamp,
        ) -> Result<u32, RepositoryError>;
        async fn order(&self, id: &str) -> Result<Option<Order>, RepositoryError>;
        async fn order_by_key(&self, key: &IdempotencyKey) -> Result<Option<Order>, RepositoryError>;
        async fn orders_by_email(&self, email: &str, limit: u32) -> Result<Vec<Order>, RepositoryError>;
        async fn orders_placed_between(&self, email: &str, placed: crate::checkout::PlacedBetween, limit: u32) -> Result<Vec<Order>, RepositoryError>;
        async fn browser_payments_opened_before(
            &self,
            opened_before: Timestamp,
            limit: u32,
        ) -> Result<Vec<crate::checkout::WaitingBrowserPayment>, RepositoryError>;
        async fn order_page(
            &self,
            query: &crate::owners::tables::TableQuery,
        ) -> Result<crate::owners::tables::TablePage<crate::checkout::OwnerOrder>, RepositoryError>;

        async fn erase_orders_of(&self, email: &str, placed: crate::checkout::PlacedBetween) -> Result<u32, RepositoryError>;
        async fn subscription(&self, id: &str) -> Result<Option<super::super::subscription::Subscription>, RepositoryError>;
        async fn subscriptions_by_email(&self, email: &str) -> Result<Vec<super::super::subscription::Subscription>, RepositoryError>;
        async fn claim_subscription(&self, id: &str, account: &str) -> Result<Option<String>, RepositoryError>;
        async fn subscriptions_of_account(&self, account: &str) -> Result<Vec<super::super::subscription::Subscription>, RepositoryError>;
        async fn gift_card(&self, code: &GiftCardCode) -> Result<Option<GiftCard>, RepositoryError>;
        async fn order_gift_cards(&self, order_id: &str) -> Result<Vec<GiftCard>, RepositoryError>;
        async fn reveal_gift_card_codes(&self, order_id: &str) -> Result<bool, RepositoryError>;
        async fn coupon_usage(&self, code: &CouponCode, email: &str) -> Result<CouponUsage, RepositoryError>;
    }

    #[async_trait]
    impl PaymentLedger for Store {
        async fn refunded_attempts(&self, key: &IdempotencyKey) -> Result<u32, RepositoryError>;
        async fn claim_for_refund(
            &self,
            payment_id: &str,
            key: &IdempotencyKey,
            now: Timestamp,
        ) -> Result<RefundClaim, RepositoryError>;
        async fn record_refund_failure(&self, payment_id: &str, reason: &str) -> Result<(), RepositoryError>;
        async fn failed_refunds(&self) -> Result<Vec<FailedRefund>, RepositoryError>;
    }

    #[async_trait]
    impl crate::checkout::PaymentEventLog for Store {
        async fn reconcile_payment(
            &self,
            event: &crate::checkout::PaymentEvent,
            now: Timestamp,
        ) -> Result<crate::checkout::Reconciliation, RepositoryError>;
    }
}

mock! {
    Gateway {}

    #[async_trait]
    impl PaymentGateway for Gateway {
        async fn charge(&self, request: &PaymentRequest) -> Result<Payment, PaymentError>;
        async fn refund(&self, payment: &Payment) -> Result<(), PaymentError>;
    }
}

fn token() -> CartToken {
    CartToken::parse("00000000000alice").unwrap()
}

fn form() -> CheckoutForm {
    card_form("4242 4242 4242 4242")
}

/// A cart holding one tote, as a real cart service stores it.
async fn cart_with_a_tote(site: Arc<MemorySiteRepository>) -> CartState {
    let memory = Arc::new(InMemoryCommerceStore::new());
    let service = CartService::new(site, memory.clone(), standard_shipping());
    let tote = (
        ItemId::parse("tote").unwrap(),
        Sku::parse("TOTE-1").unwrap(),
    );
    service
        .add_item(&token(), &tote.0, &tote.1, 1, NOW)
        .await
        .unwrap();
    memory.load_cart(&token()).await.unwrap().unwrap()
}

async fn site() -> Arc<MemorySiteRepository> {
    let site = MemorySiteRepository::new();
    site.replace_site(&fixture_site("Shop")).await.unwrap();
    Arc::new(site)
}

fn key() -> IdempotencyKey {
    IdempotencyKey::parse("00000000000000k1").unwrap()
}

/// A store whose cart checks out and holds its stock, and whose order then fails to be
/// placed because the database went away after the charge.
fn store_failing_after_the_charge(cart: CartState) -> MockStore {
    let mut store = MockStore::new();
    store.expect_order_by_key().returning(|_| Ok(None));
    store
        .expect_load_cart()
        .returning(move |_| Ok(Some(cart.clone())));
    store.expect_save_cart().returning(|_, _| Ok(()));
    store
        .expect_hold_stock()
        .times(1)
        .returning(|_, _, now, seconds| Ok(Timestamp(now.millis() + seconds * 1000)));
    store.expect_refunded_attempts().returning(|_| Ok(0));
    store
        .expect_place_order_with_follow_up()
        .times(1)
        .returning(|_, _, _| {
            Err(PlaceOrderError::Repository(RepositoryError::Unavailable(
                "connection reset by peer".into(),
            )))
        });
    store
}

/// A gateway that charges once as `ch_1`, and refunds it as `refund` says (or never).
fn gateway_charging_once(refund: Option<Result<(), PaymentError>>) -> MockGateway {
    let mut gateway = MockGateway::new();
    gateway.expect_charge().times(1).returning(|request| {
        Ok(Payment {
            id: "ch_1".into(),
            amount_minor: request.amount_minor,
            currency: request.currency,
        })
    });
    match refund {
        Some(answer) => {
            gateway
                .expect_refund()
                .withf(|payment| payment.id == "ch_1" && payment.currency == Currency::Usd)
                .times(1)
                .returning(move |_| answer.clone());
        }
        None => {
            gateway.expect_refund().never();
        }
    }
    gateway
}

async fn checkout_fails_unavailable(service: CartService) {
    let error = service
        .checkout(&token(), key(), "order-1".into(), &form(), NOW)
        .await
        .unwrap_err();
    assert!(
        matches!(
            error,
            CheckoutError::Order(PlaceOrderError::Repository(RepositoryError::Unavailable(_)))
        ),
        "{error:?}"
    );
}

#[tokio::test]
async fn a_charge_whose_order_the_database_failed_to_store_is_refunded() {
    let site = site().await;
    let mut store = store_failing_after_the_charge(cart_with_a_tote(site.clone()).await);
    store
        .expect_claim_for_refund()
        .withf(|payment_id, key, _| payment_id == "ch_1" && key.as_str() == "00000000000000k1")
        .times(1)
        .returning(|_, _, _| Ok(RefundClaim::Claimed));
    store.expect_record_refund_failure().never();
    let gateway = gateway_charging_once(Some(Ok(())));
    let service = CartService::new(site, Arc::new(store), standard_shipping())
        .with_payments(Arc::new(gateway));

    checkout_fails_unavailable(service).await;
}

#[tokio::test]
async fn a_charge_that_cannot_be_claimed_for_its_refund_is_kept_for_a_retry() {
    let site = site().await;
    let mut store = store_failing_after_the_charge(cart_with_a_tote(site.clone()).await);
    store
        .expect_claim_for_refund()
        .times(1)
        .returning(|_, _, _| Err(RepositoryError::Unavailable("still down".into())));
    // Refunding a charge the ledger does not know as refunded would let a retry of the
    // same form place its order on money given back.
    let gateway = gateway_charging_once(None);
    let service = CartService::new(site, Arc::new(store), standard_shipping())
        .with_payments(Arc::new(gateway));

    checkout_fails_unavailable(service).await;
}

#[tokio::test]
async fn a_charge_a_second_submit_placed_its_order_on_is_not_refunded() {
    let site = site().await;
    let mut store = store_failing_after_the_charge(cart_with_a_tote(site.clone()).await);
    store
        .expect_claim_for_refund()
        .times(1)
        .returning(|_, _, _| Ok(RefundClaim::AlreadyClaimed));
    let gateway = gateway_charging_once(None);
    let service = CartService::new(site, Arc::new(store), standard_shipping())
        .with_payments(Arc::new(gateway));

    checkout_fails_unavailable(service).await;
}

#[tokio::test]
async fn a_refund_the_gateway_refuses_is_recorded_for_the_owner() {
    let site = site().await;
    let mut store = store_failing_after_the_charge(cart_with_a_tote(site.clone()).await);
    store
        .expect_claim_for_refund()
        .times(1)
        .returning(|_, _, _| Ok(RefundClaim::Claimed));
    store
        .expect_record_refund_failure()
        .withf(|payment_id, reason| payment_id == "ch_1" && reason.contains("timed out"))
        .times(1)
        .returning(|_, _| Ok(()));
    let gateway = gateway_charging_once(Some(Err(PaymentError::Unavailable(
        "the refund timed out".into(),
    ))));
    let service = CartService::new(site, Arc::new(store), standard_shipping())
        .with_payments(Arc::new(gateway));

    checkout_fails_unavailable(service).await;
}

#[tokio::test]
async fn a_database_that_fails_before_the_charge_charges_nothing() {
    let site = site().await;
    let mut store = MockStore::new();
    store.expect_order_by_key().returning(|_| Ok(None));
    store
        .expect_load_cart()
        .times(1)
        .returning(|_| Err(RepositoryError::Unavailable("database restarting".into())));
    store.expect_save_cart().never();
    store.expect_place_order_with_follow_up().never();
    let mut gateway = MockGateway::new();
    gateway.expect_charge().never();
    gateway.expect_refund().never();
    let service = CartService::new(site, Arc::new(store), standard_shipping())
        .with_payments(Arc::new(gateway));

    let error = service
        .checkout(&token(), key(), "order-1".into(), &form(), NOW)
        .await
        .unwrap_err();

    assert!(
        matches!(
            error,
            CheckoutError::Order(PlaceOrderError::Repository(RepositoryError::Unavailable(_)))
        ),
        "{error:?}"
    );
}
