//! Payments whose outcome is not known: the gateway was asked, and its answer was lost. The
//! order waits as "payment pending" until the gateway says what happened, through a retry of
//! the same checkout (same idempotency key) or its webhook; nothing guesses meanwhile.

use std::sync::Mutex;

use async_trait::async_trait;

use super::test_shop::{NOW, add_totes, card_form as form};
use super::*;
use crate::cart::CartToken;
use crate::catalog::Sku;
use crate::checkout::order::IdempotencyKey;
use crate::checkout::{
    InMemoryCommerceStore, Payment, PaymentEvent, PaymentEventLog, PaymentOutcome, PaymentRequest,
    PaymentStatus, TEST_CARD_DECLINED, TEST_CARD_SUCCEEDS,
};
use crate::site::ItemId;

/// The test gateway, whose next answers can be lost after it charged (a time-out while the
/// provider finished the work), as a payment provider's can.
#[derive(Default)]
struct LossyGateway {
    inner: TestPaymentGateway,
    lose_next: Mutex<u32>,
    asked: Mutex<Vec<String>>,
}

impl LossyGateway {
    fn lose_next(&self, answers: u32) {
        *self.lose_next.lock().unwrap() = answers;
    }

    fn asked(&self) -> Vec<String> {
        self.asked.lock().unwrap().clone()
    }
}

#[async_trait]
impl PaymentGateway for LossyGateway {
    async fn charge(&self, request: &PaymentRequest) -> Result<Payment, PaymentError> {
        self.asked
            .lock()
            .unwrap()
            .push(request.key.as_str().to_owned());
        let answer = self.inner.charge(request).await;
        let mut lose = self.lose_next.lock().unwrap();
        if *lose > 0 {
            *lose -= 1;
            return Err(PaymentError::OutcomeUnknown("timed out".into()));
        }
        answer
    }

    async fn refund(&self, payment: &Payment) -> Result<(), PaymentError> {
        self.inner.refund(payment).await
    }
}

async fn service() -> (CartService, Arc<LossyGateway>, Arc<InMemoryCommerceStore>) {
    let gateway = Arc::new(LossyGateway::default());
    let (service, store) = super::test_shop::shop(gateway.clone()).await;
    (service, gateway, store)
}

fn token() -> CartToken {
    CartToken::parse("buyer-cart-token-1").unwrap()
}

fn key() -> IdempotencyKey {
    IdempotencyKey::parse("pending-form-key-1").unwrap()
}

/// A checkout whose charge was made but whose answer was lost: the pending order.
async fn pending_order(service: &CartService, gateway: &LossyGateway) -> crate::checkout::Order {
    add_totes(service, &token(), 1).await;
    gateway.lose_next(1);
    let order = service
        .checkout(
            &token(),
            key(),
            "order-1".into(),
            &form(TEST_CARD_SUCCEEDS),
            NOW,
        )
        .await
        .unwrap();
    assert_eq!(order.payment_status, PaymentStatus::Pending);
    assert_eq!(order.payment_id, "", "no charge is assumed");
    assert_eq!(order.payment_key, key().as_str());
    order
}

#[tokio::test]
async fn a_lost_answer_leaves_the_order_pending_until_a_retry_of_the_same_key_settles_it() {
    let (service, gateway, store) = service().await;
    let order = pending_order(&service, &gateway).await;
    let cart = store.load_cart(&token()).await.unwrap().unwrap();
    assert!(cart.is_purchased, "the pending order keeps its stock");

    // The gateway is still not answering: the order keeps waiting.
    gateway.lose_next(1);
    let still = service
        .checkout(
            &token(),
            key(),
            "order-2".into(),
            &form(TEST_CARD_SUCCEEDS),
            NOW,
        )
        .await
        .unwrap();
    assert_eq!(
        (still.id.as_str(), still.payment_status),
        ("order-1", PaymentStatus::Pending)
    );

    let settled = service
        .checkout(
            &token(),
            key(),
            "order-3".into(),
            &form(TEST_CARD_SUCCEEDS),
            NOW,
        )
        .await
        .unwrap();
    assert_eq!(settled.id, order.id);
    assert_eq!(settled.payment_status, PaymentStatus::Paid);
    assert_eq!(settled.payment_id, format!("test_ch_{}", key().as_str()));
    assert_eq!(
        gateway.inner.charge_count(),
        1,
        "one charge however often it was asked for"
    );
    assert!(gateway.asked().iter().all(|asked| asked == key().as_str()));
    // Settled, the same form answers the order and asks the gateway nothing more.
    let asked = gateway.asked().len();
    service
        .checkout(
            &token(),
            key(),
            "order-4".into(),
            &form(TEST_CARD_SUCCEEDS),
            NOW,
        )
        .await
        .unwrap();
    assert_eq!(gateway.asked().len(), asked);
}

#[tokio::test]
async fn the_providers_report_settles_a_pending_order_without_a_retry() {
    let (service, gateway, store) = service().await;
    let order = pending_order(&service, &gateway).await;
    let report = PaymentEvent {
        id: "evt_1".into(),
        payment_id: format!("test_ch_{}", key().as_str()),
        payment_key: Some(key().as_str().to_owned()),
        outcome: PaymentOutcome::Succeeded,
    };
    store.reconcile_payment(&report, NOW).await.unwrap();
    let settled = store.order(&order.id).await.unwrap().unwrap();
    assert_eq!(settled.payment_status, PaymentStatus::Paid);
    assert_eq!(settled.payment_id, report.payment_id);
    // The shopper's retry then charges nothing more.
    let asked = gateway.asked().len();
    let again = service
        .checkout(
            &token(),
            key(),
            "order-2".into(),
            &form(TEST_CARD_SUCCEEDS),
            NOW,
        )
        .await
        .unwrap();
    assert_eq!(again.payment_status, PaymentStatus::Paid);
    assert_eq!(gateway.asked().len(), asked);
}

#[tokio::test]
async fn a_retry_the_gateway_declines_fails_the_pending_order_and_charges_nothing() {
    let (service, gateway, store) = service().await;
    let (tote, sku) = (
        ItemId::parse("tote").unwrap(),
        Sku::parse("TOTE-1").unwrap(),
    );
    service
        .add_item(&token(), &tote, &sku, 1, NOW)
        .await
        .unwrap();
    // The first ask never reached a decision the shop heard of; the card is one the gateway
    // declines, as it says when asked again.
    gateway.lose_next(1);
    let order = service
        .checkout(
            &token(),
            key(),
            "order-1".into(),
            &form(TEST_CARD_DECLINED),
            NOW,
        )
        .await
        .unwrap();
    assert_eq!(order.payment_status, PaymentStatus::Pending);
    let failed = service
        .checkout(
            &token(),
            key(),
            "order-2".into(),
            &form(TEST_CARD_DECLINED),
            NOW,
        )
        .await
        .unwrap();
    assert_eq!(failed.payment_status, PaymentStatus::Failed);
    assert_eq!(failed.payment_id, "");
    assert_eq!(gateway.inner.charge_count(), 0);
    assert_eq!(
        store
            .order(&order.id)
            .await
            .unwrap()
            .unwrap()
            .payment_status,
        PaymentStatus::Failed
    );
}
