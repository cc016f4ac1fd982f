//! A failed order gives back what placing it took: whichever way its payment fails (the
//! provider cancels the intent, the shopper returns from a cancelled or unverified payment,
//! the payer fails too often, the payment is abandoned, or a charge the server asked for is
//! declined after its answer was lost), the gift card balance it spent comes back to the
//! card and the coupon use it counted is free again, with its stock and cart; and once only,
//! however many reports of the failure arrive.

use std::sync::Mutex;

use async_trait::async_trait;

use super::browser_checkout_tests::IntentGateway;
use super::test_shop::{NOW, add_totes, address_form, card_form, key, standard_shipping, token};
use super::*;
use crate::cart::{CartToken, Coupon, CouponCode, CouponKind, Stock, Timestamp};
use crate::catalog::Sku;
use crate::checkout::browser_payment::{IntentState, OpenIntent};
use crate::checkout::conformance::{issue_card, paying_with};
use crate::checkout::details::CheckoutForm;
use crate::checkout::order::Order;
use crate::checkout::{
    InMemoryCommerceStore, Payer, Payment, PaymentEvent, PaymentEventLog, PaymentOutcome,
    PaymentRequest, PaymentStatus, TEST_CARD_DECLINED, TEST_CARD_SUCCEEDS,
};
use crate::gift_cards::GiftCard;
use crate::ports::conformance::fixture_site;
use crate::ports::memory::MemorySiteRepository;

/// What the card holds before the failing order: 5,000 issued, 1,000 spent by a paid order,
/// so that a balance given back twice would show (a card is never filled above its value).
const CARD_LEFT: i64 = 4_000;
/// Four totes on sale at 20.00, 5.00 shipping, 1.00 off: the card pays 4,000 of it.
const TOTES: u32 = 4;
const STOCK: u32 = 10;

fn once() -> CouponCode {
    CouponCode::parse("ONCE").unwrap()
}

/// The cart service paying through `gateway`, with standard shipping and the coupon `ONCE`
/// (1.00 off) that one order in all may use; its store holds a card with [`CARD_LEFT`].
async fn shop(
    gateway: Arc<dyn PaymentGateway>,
) -> (CartService, Arc<InMemoryCommerceStore>, GiftCard) {
    let repository = MemorySiteRepository::new();
    repository
        .replace_site(&fixture_site("Shop"))
        .await
        .unwrap();
    let store = Arc::new(InMemoryCommerceStore::new());
    let coupon = Coupon::new(
        once(),
        CouponKind::FixedAmount { amount_cents: 100 },
        None,
        None,
    )
    .unwrap()
    .with_limits(Some(1), None);
    let rules = StoreRules {
        coupons: vec![coupon],
        ..standard_shipping()
    };
    let service =
        CartService::new(Arc::new(repository), store.clone(), rules).with_payments(gateway);
    let card = issue_card(&*store, 1, 5_000).await;
    let spender = paying_with(&*store, 2, &card.code, 1_000, 1_000).await;
    store.place_order(&spender, &[]).await.unwrap();
    store
        .set_stock(&Sku::parse("TOTE-1").unwrap(), Stock::Limited(STOCK))
        .await
        .unwrap();
    (service, store, card)
}

/// Alice's cart of [`TOTES`] totes with the coupon `ONCE`.
async fn alices_cart(service: &CartService) -> CartToken {
    let alice = token("alice");
    add_totes(service, &alice, TOTES).await;
    service
        .apply_coupon(&alice, &once(), "ada@example.com", NOW)
        .await
        .unwrap();
    alice
}

/// What a failing order took, to check that it comes back once.
struct Taken {
    store: Arc<InMemoryCommerceStore>,
    card: GiftCard,
    cart: CartToken,
}

impl Taken {
    async fn balance(&self) -> i64 {
        let card = self.store.gift_card(&self.card.code).await.unwrap();
        card.unwrap().remaining_cents
    }

    async fn tote_stock(&self) -> Option<Stock> {
        let sku = Sku::parse("TOTE-1").unwrap();
        self.store.stock(&sku).await.unwrap()
    }

    async fn coupon_uses(&self) -> u32 {
        let usage = self.store.coupon_usage(&once(), "ada@example.com").await;
        usage.unwrap().total
    }

    /// The order holds its stock, the card's balance and the coupon's only use.
    async fn assert_held(&self, order: &Order) {
        assert_eq!(order.payment_status, PaymentStatus::Pending);
        assert_eq!(
            order.gift_card_payment.as_ref().map(|p| p.amount_cents),
            Some(CARD_LEFT)
        );
        assert_eq!(order.coupon_codes, [once()]);
        assert_eq!(self.balance().await, 0);
        assert_eq!(self.coupon_uses().await, 1);
        assert_eq!(self.tote_stock().await, Some(Stock::Limited(STOCK - TOTES)));
    }

    /// Everything is back, once, and the coupon is usable again.
    async fn assert_given_back(&self, service: &CartService, order_id: &str) {
        let order = self.store.order(order_id).await.unwrap().unwrap();
        assert_eq!(order.payment_status, PaymentStatus::Failed);
        assert_eq!(
            self.balance().await,
            CARD_LEFT,
            "the card's part is back, once"
        );
        assert_eq!(self.coupon_uses().await, 0, "the coupon's use is back");
        assert_eq!(self.tote_stock().await, Some(Stock::Limited(STOCK)));
        let cart = self.store.load_cart(&self.cart).await.unwrap().unwrap();
        assert!(!cart.is_purchased, "the cart is the shopper's again");
        // Another shopper may now use the coupon that one order in all may use.
        let bob = token("bob");
        add_totes(service, &bob, 1).await;
        service
            .apply_coupon(&bob, &once(), "bob@example.com", NOW)
            .await
            .expect("the coupon is usable again");
    }
}

fn payer() -> Payer {
    Payer {
        visitor: Some("visitor".into()),
        cart: None,
        address: Some("127.0.0.1".into()),
    }
}

/// A shop paying in the browser, and Alice's order waiting on its intent, paid in part with
/// the card and using the coupon.
async fn waiting_in_browser() -> (CartService, Arc<IntentGateway>, Taken, Order, OpenIntent) {
    let gateway = Arc::new(IntentGateway::default());
    let (service, store, card) = shop(gateway.clone()).await;
    let alice = alices_cart(&service).await;
    let form = CheckoutForm {
        gift_card_code: card.code.as_str().to_owned(),
        ..address_form()
    };
    let opened = service
        .open_browser_payment(&payer(), &alice, key("k1"), "order-k1".into(), &form, NOW)
        .await
        .unwrap();
    let BrowserCheckout::Confirm { order, intent } = opened else {
        panic!("the card leaves the rest to pay: {opened:?}");
    };
    let taken = Taken {
        store,
        card,
        cart: alice,
    };
    taken.assert_held(&order).await;
    (service, gateway, taken, order, intent)
}

/// The provider's webhook: the intent was cancelled.
fn cancelled(order: &Order, intent: &OpenIntent) -> PaymentEvent {
    PaymentEvent {
        id: "evt_cancelled".into(),
        payment_id: intent.id.clone(),
        payment_key: Some(order.payment_key.clone()),
        outcome: PaymentOutcome::Failed,
    }
}

#[tokio::test]
async fn a_cancelled_intent_reported_twice_gives_the_card_balance_and_the_coupon_back_once() {
    let (service, gateway, taken, order, intent) = waiting_in_browser().await;
    gateway.settle(&intent.id, IntentState::Canceled);
    // The webhook, delivered twice, and another server's record of the same cancellation
    // under its own id: three reports under two ids of one failure.
    let by_another_server = PaymentEvent {
        id: format!("checkout:{}:failed", order.payment_key),
        ..cancelled(&order, &intent)
    };
    for report in [
        cancelled(&order, &intent),
        cancelled(&order, &intent),
        by_another_server,
    ] {
        taken.store.reconcile_payment(&report, NOW).await.unwrap();
    }
    let resumed = service
        .resume_browser_payment(&payer(), &order.id, &intent.id, NOW)
        .await
        .unwrap();
    assert_eq!(resumed.order.payment_status, PaymentStatus::Failed);
    taken.assert_given_back(&service, &order.id).await;
}

#[tokio::test]
async fn a_cancelled_payment_at_the_return_address_gives_back_what_it_took() {
    let (service, gateway, taken, order, intent) = waiting_in_browser().await;
    gateway.settle(&intent.id, IntentState::Canceled);
    for _ in 0..2 {
        service
            .resume_browser_payment(&payer(), &order.id, &intent.id, NOW)
            .await
            .unwrap();
    }
    // The webhook arrives after the return address settled it: nothing more comes back.
    taken
        .store
        .reconcile_payment(&cancelled(&order, &intent), NOW)
        .await
        .unwrap();
    taken.assert_given_back(&service, &order.id).await;
}

#[tokio::test]
async fn a_failed_bank_verification_gives_back_what_it_took() {
    let (service, gateway, taken, order, intent) = waiting_in_browser().await;
    gateway.settle(
        &intent.id,
        IntentState::Failed {
            message: "Your bank could not verify this payment.".into(),
        },
    );
    let failed = service
        .resume_browser_payment(&payer(), &order.id, &intent.id, NOW)
        .await
        .unwrap();
    assert!(failed.failure.is_some());
    taken.assert_given_back(&service, &order.id).await;
}

#[tokio::test]
async fn a_payer_over_the_card_testing_limit_gets_back_what_the_order_took() {
    let (service, _gateway, taken, order, intent) = waiting_in_browser().await;
    // The provider reports five declines: the cart failed too often, its intent is cancelled.
    for _ in 0..5 {
        service
            .count_declined_attempt(&order.id, &intent.id, NOW)
            .await
            .unwrap();
    }
    taken.assert_given_back(&service, &order.id).await;
}

#[tokio::test]
async fn an_abandoned_payment_cancelled_by_two_runs_gives_back_what_it_took_once() {
    let (service, _gateway, taken, order, _intent) = waiting_in_browser().await;
    let later = Timestamp(NOW.millis() + ABANDONED_BROWSER_PAYMENT_SECONDS * 1000 + 1);
    for _ in 0..2 {
        service
            .cancel_abandoned_browser_payments(later)
            .await
            .unwrap();
    }
    taken.assert_given_back(&service, &order.id).await;
}

/// The test gateway, whose first answer is lost after it was asked (a time-out), so that the
/// order waits as payment pending.
#[derive(Default)]
struct LosesFirstAnswer {
    inner: TestPaymentGateway,
    answered: Mutex<bool>,
}

#[async_trait]
impl PaymentGateway for LosesFirstAnswer {
    async fn charge(&self, request: &PaymentRequest) -> Result<Payment, PaymentError> {
        let answer = self.inner.charge(request).await;
        let mut answered = self.answered.lock().unwrap();
        if !*answered {
            *answered = true;
            return Err(PaymentError::OutcomeUnknown("timed out".into()));
        }
        answer
    }

    async fn refund(&self, payment: &Payment) -> Result<(), PaymentError> {
        self.inner.refund(payment).await
    }
}

#[tokio::test]
async fn a_pending_charge_declined_on_retry_gives_back_what_it_took() {
    let gateway = Arc::new(LosesFirstAnswer::default());
    let (service, store, card) = shop(gateway).await;
    let alice = alices_cart(&service).await;
    let declined = CheckoutForm {
        gift_card_code: card.code.as_str().to_owned(),
        ..card_form(TEST_CARD_DECLINED)
    };
    let taken = Taken {
        store,
        card,
        cart: alice.clone(),
    };
    let order = service
        .checkout(&alice, key("k1"), "order-k1".into(), &declined, NOW)
        .await
        .unwrap();
    taken.assert_held(&order).await;
    // The same form again: the gateway now answers, declining the card.
    for _ in 0..2 {
        let failed = service
            .checkout(&alice, key("k1"), "order-k2".into(), &declined, NOW)
            .await
            .unwrap();
        assert_eq!(failed.id, order.id);
    }
    taken.assert_given_back(&service, &order.id).await;
    // The cart given back pays another way, with the card's balance and the coupon again.
    let paid = service
        .checkout(
            &alice,
            key("k3"),
            "order-k3".into(),
            &CheckoutForm {
                gift_card_code: taken.card.code.as_str().to_owned(),
                ..card_form(TEST_CARD_SUCCEEDS)
            },
            NOW,
        )
        .await
        .unwrap();
    assert_eq!(paid.payment_status, PaymentStatus::Paid);
    assert_eq!(taken.balance().await, 0);
    assert_eq!(taken.coupon_uses().await, 1);
}
