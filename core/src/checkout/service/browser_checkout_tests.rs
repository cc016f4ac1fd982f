//! Paying in the browser through the cart service: the order waits as payment pending with its
//! stock held until the provider, asked by the server, says the intent succeeded or failed;
//! a browser's word, another order's intent or another amount settles nothing.

use std::collections::BTreeMap;
use std::sync::Mutex;

use async_trait::async_trait;

use super::test_shop::{NOW, add_totes, address_form as form, key, token};
use super::*;
use crate::cart::{CartToken, Stock, Timestamp};
use crate::catalog::Sku;
use crate::checkout::browser_payment::{IntentReport, IntentRequest, IntentState, OpenIntent};
use crate::checkout::order::Order;
use crate::checkout::{
    InMemoryCommerceStore, Payer, Payment, PaymentEvent, PaymentEventLog, PaymentLedger,
    PaymentOutcome, PaymentRequest, PaymentStatus,
};
use crate::site::ItemId;

/// A provider whose intents the test settles, as a shopper's browser and bank would.
#[derive(Default)]
pub(crate) struct IntentGateway {
    /// Intent id by key, with its request and state.
    intents: Mutex<BTreeMap<String, (String, IntentRequest, IntentState)>>,
    /// The intents given back, in order.
    refunds: Mutex<Vec<String>>,
    /// Whether a refund is refused, as when the provider is away.
    refuses_refunds: std::sync::atomic::AtomicBool,
}

impl IntentGateway {
    pub(crate) fn only_intent(&self) -> (String, IntentRequest) {
        let intents = self.intents.lock().unwrap();
        assert_eq!(intents.len(), 1, "one intent");
        let (id, request, _) = intents.values().next().unwrap();
        (id.clone(), request.clone())
    }

    pub(crate) fn settle(&self, id: &str, state: IntentState) {
        for (intent, _, stored) in self.intents.lock().unwrap().values_mut() {
            if intent == id {
                *stored = state.clone();
            }
        }
    }
}

impl IntentGateway {
    /// The intents given back so far, in order.
    pub(crate) fn refunded(&self) -> Vec<String> {
        self.refunds.lock().unwrap().clone()
    }

    /// The intent `id` succeeded for the whole of what `order` leaves to pay.
    pub(crate) fn pay(&self, id: &str, order: &Order) {
        self.settle(
            id,
            IntentState::Succeeded(Payment {
                id: id.to_owned(),
                amount_minor: order.rest_due_cents(),
                currency: order.currency,
            }),
        );
    }
}

/// The provider's webhook saying intent `id` of `order` succeeded.
fn succeeded(order: &Order, id: &str) -> PaymentEvent {
    PaymentEvent {
        id: "evt_1".into(),
        payment_id: id.to_owned(),
        payment_key: Some(order.payment_key.clone()),
        outcome: PaymentOutcome::Succeeded,
    }
}

#[async_trait]
impl PaymentGateway for IntentGateway {
    async fn charge(&self, _request: &PaymentRequest) -> Result<Payment, PaymentError> {
        panic!("a browser payment never sends a card to the server")
    }

    async fn refund(&self, payment: &Payment) -> Result<(), PaymentError> {
        if self
            .refuses_refunds
            .load(std::sync::atomic::Ordering::SeqCst)
        {
            return Err(PaymentError::Unavailable("the provider is away".into()));
        }
        self.refunds.lock().unwrap().push(payment.id.clone());
        Ok(())
    }

    async fn open_intent(&self, request: &IntentRequest) -> Result<OpenIntent, PaymentError> {
        let mut intents = self.intents.lock().unwrap();
        let count = intents.len();
        let (id, first, _) = intents
            .entry(request.key.as_str().to_owned())
            .or_insert_with(|| (format!("pi_{count}"), request.clone(), IntentState::Open));
        // Stripe refuses a key repeated with other parameters.
        if &*first != request {
            return Err(PaymentError::Unavailable(format!(
                "keys for idempotent requests can only be used with the same parameters (key {})",
                request.key.as_str()
            )));
        }
        Ok(OpenIntent {
            id: id.clone(),
            client_secret: format!("{id}_secret"),
        })
    }

    /// Cancels the intent unless it succeeded, as Stripe does.
    async fn cancel_intent(&self, id: &str) -> Result<IntentReport, PaymentError> {
        for (intent, _, state) in self.intents.lock().unwrap().values_mut() {
            if intent == id && !matches!(state, IntentState::Succeeded(_)) {
                *state = IntentState::Canceled;
            }
        }
        self.intent_report(id).await
    }

    async fn intent_report(&self, id: &str) -> Result<IntentReport, PaymentError> {
        let intents = self.intents.lock().unwrap();
        let (key, (_, _, state)) = intents
            .iter()
            .find(|(_, (intent, _, _))| intent == id)
            .ok_or_else(|| PaymentError::Unavailable(format!("no intent {id}")))?;
        Ok(IntentReport {
            key: Some(key.clone()),
            state: state.clone(),
            saved_card: None,
        })
    }
}

/// A shop paying through an [`IntentGateway`], with its store at hand.
pub(super) struct Shop {
    pub(super) service: CartService,
    pub(super) store: Arc<InMemoryCommerceStore>,
    pub(super) gateway: Arc<IntentGateway>,
}

async fn shop() -> Shop {
    let gateway = Arc::new(IntentGateway::default());
    let (service, store) = super::test_shop::shop(gateway.clone()).await;
    let service = service.with_order_mails(crate::checkout::OrderMails {
        confirmation: true,
        review_request_delay_seconds: None,
    });
    Shop {
        service,
        store,
        gateway,
    }
}

pub(super) fn payer() -> Payer {
    Payer {
        visitor: Some("visitor".into()),
        cart: None,
        address: Some("127.0.0.1".into()),
    }
}

/// A cart of two totes (the last two in stock) under `name`, at checkout.
async fn at_checkout(shop: &Shop, name: &str) -> CartToken {
    let buyer = token(name);
    let sku = Sku::parse("TOTE-1").unwrap();
    shop.store.set_stock(&sku, Stock::Limited(2)).await.unwrap();
    add_totes(&shop.service, &buyer, 2).await;
    buyer
}

async fn open(shop: &Shop, buyer: &CartToken, form_key: &str) -> BrowserCheckout {
    shop.service
        .open_browser_payment(
            &payer(),
            buyer,
            key(form_key),
            format!("order-{form_key}"),
            &form(),
            NOW,
        )
        .await
        .unwrap()
}

#[tokio::test]
async fn the_order_waits_as_pending_with_one_intent_for_the_rest_due_however_often_it_is_opened() {
    let shop = shop().await;
    let buyer = at_checkout(&shop, "alice").await;
    let BrowserCheckout::Confirm { order, intent } = open(&shop, &buyer, "k1").await else {
        panic!("a card payment is left to confirm");
    };
    assert_eq!(order.payment_status, PaymentStatus::Pending);
    assert_eq!(order.payment_id, "");
    let (id, request) = shop.gateway.only_intent();
    assert_eq!(intent.id, id);
    assert_eq!(request.amount_minor, order.rest_due_cents());
    assert_eq!(request.key.as_str(), order.payment_key);
    // A double click or a reload: the same order and the same intent.
    let BrowserCheckout::Confirm {
        order: again,
        intent: same,
    } = open(&shop, &buyer, "k1").await
    else {
        panic!("still to confirm");
    };
    assert_eq!((again.id, same), (order.id, intent));
    shop.gateway.only_intent();
}

#[tokio::test]
async fn the_server_settles_the_order_only_on_the_providers_word_of_success() {
    let shop = shop().await;
    let buyer = at_checkout(&shop, "alice").await;
    let BrowserCheckout::Confirm { order, intent } = open(&shop, &buyer, "k1").await else {
        panic!("to confirm");
    };
    // Back from the bank before the provider knows: still pending.
    let waiting = shop
        .service
        .resume_browser_payment(&payer(), &order.id, &intent.id, NOW)
        .await
        .unwrap();
    assert_eq!(waiting.order.payment_status, PaymentStatus::Pending);
    assert_eq!(waiting.failure, None);
    shop.gateway.pay(&intent.id, &order);
    let paid = shop
        .service
        .resume_browser_payment(&payer(), &order.id, &intent.id, NOW)
        .await
        .unwrap();
    assert_eq!(paid.order.payment_status, PaymentStatus::Paid);
    assert_eq!(paid.order.payment_id, intent.id);
    // The provider's webhook about the same success changes nothing more.
    shop.store
        .reconcile_payment(&succeeded(&order, &intent.id), NOW)
        .await
        .unwrap();
    let stored = shop.store.order(&order.id).await.unwrap().unwrap();
    assert_eq!(stored.payment_status, PaymentStatus::Paid);
}

#[tokio::test]
async fn the_confirmation_waits_for_the_payment_and_goes_out_once_when_it_succeeds() {
    let shop = shop().await;
    let buyer = at_checkout(&shop, "alice").await;
    let BrowserCheckout::Confirm { order, intent } = open(&shop, &buyer, "k1").await else {
        panic!("to confirm");
    };
    let follow_ups = shop.store.follow_ups();
    let [(placed, follow_up)] = &follow_ups[..] else {
        panic!("one order placed: {follow_ups:?}");
    };
    assert_eq!(placed, &order.id);
    assert!(follow_up.confirmation && follow_up.confirmation_waits_for_payment);
    assert!(shop.store.released_confirmations().is_empty());
    shop.gateway.pay(&intent.id, &order);
    for _ in 0..2 {
        shop.service
            .resume_browser_payment(&payer(), &order.id, &intent.id, NOW)
            .await
            .unwrap();
    }
    shop.store
        .reconcile_payment(&succeeded(&order, &intent.id), NOW)
        .await
        .unwrap();
    assert_eq!(shop.store.released_confirmations(), [order.id]);
}

#[tokio::test]
async fn a_declined_card_leaves_the_intent_payable_and_another_card_pays_it_once() {
    let shop = shop().await;
    let buyer = at_checkout(&shop, "alice").await;
    let BrowserCheckout::Confirm { order, intent } = open(&shop, &buyer, "k1").await else {
        panic!("to confirm");
    };
    let why = "Your card was declined. Nothing was charged.";
    shop.gateway.settle(
        &intent.id,
        IntentState::Failed {
            message: why.into(),
        },
    );
    let declined = shop
        .service
        .decline_in_browser(&payer(), &order.id, &intent.id, NOW)
        .await
        .unwrap();
    let DeclinedAttempt::TryAgain {
        order: waiting,
        message,
    } = declined
    else {
        panic!("another card may be tried: {declined:?}");
    };
    assert_eq!(waiting.payment_status, PaymentStatus::Pending);
    assert_eq!(message, why);
    let cart = shop.service.cart(&buyer, NOW).await.unwrap().unwrap();
    assert!(
        cart.is_purchased,
        "the order still holds its cart and stock"
    );
    // The provider's webhook of the decline changes nothing either.
    let webhook = PaymentEvent {
        id: "evt_declined".into(),
        payment_id: intent.id.clone(),
        payment_key: Some(order.payment_key.clone()),
        outcome: PaymentOutcome::Declined,
    };
    shop.store.reconcile_payment(&webhook, NOW).await.unwrap();
    // The same checkout again answers the same intent, which another card pays, once.
    let BrowserCheckout::Confirm { intent: same, .. } = open(&shop, &buyer, "k1").await else {
        panic!("still to confirm");
    };
    assert_eq!(same, intent);
    shop.gateway.pay(&intent.id, &order);
    for _ in 0..2 {
        let paid = shop
            .service
            .resume_browser_payment(&payer(), &order.id, &intent.id, NOW)
            .await
            .unwrap();
        assert_eq!(paid.order.payment_status, PaymentStatus::Paid);
        assert_eq!(paid.failure, None);
    }
    shop.gateway.only_intent();
    assert_eq!(shop.store.released_confirmations(), [order.id]);
}

#[tokio::test]
async fn a_failed_verification_at_the_return_address_says_why_and_gives_the_cart_back() {
    let shop = shop().await;
    let buyer = at_checkout(&shop, "alice").await;
    let BrowserCheckout::Confirm { order, intent } = open(&shop, &buyer, "k1").await else {
        panic!("to confirm");
    };
    let why = "Your bank could not verify this payment.";
    shop.gateway.settle(
        &intent.id,
        IntentState::Failed {
            message: why.into(),
        },
    );
    let failed = shop
        .service
        .resume_browser_payment(&payer(), &order.id, &intent.id, NOW)
        .await
        .unwrap();
    assert_eq!(failed.order.payment_status, PaymentStatus::Failed);
    assert_eq!(failed.failure.as_deref(), Some(why));
    assert_eq!(
        shop.gateway.intent_report(&intent.id).await.unwrap().state,
        IntentState::Canceled
    );
    let cart = shop.service.cart(&buyer, NOW).await.unwrap().unwrap();
    assert!(!cart.is_purchased, "the cart is the shopper's again");
}

#[tokio::test]
async fn a_cancelled_intent_fails_the_order_once_frees_the_stock_and_gives_the_cart_back() {
    let shop = shop().await;
    let buyer = at_checkout(&shop, "alice").await;
    let BrowserCheckout::Confirm { order, intent } = open(&shop, &buyer, "k1").await else {
        panic!("to confirm");
    };
    shop.gateway.settle(&intent.id, IntentState::Canceled);
    let failed = shop
        .service
        .resume_browser_payment(&payer(), &order.id, &intent.id, NOW)
        .await
        .unwrap();
    assert_eq!(failed.order.payment_status, PaymentStatus::Failed);
    assert_eq!(failed.failure.as_deref(), Some(BROWSER_PAYMENT_CANCELLED));
    assert!(failed.settled_now);
    let again = shop
        .service
        .resume_browser_payment(&payer(), &order.id, &intent.id, NOW)
        .await
        .unwrap();
    assert!(!again.settled_now, "failed once");
    let cart = shop.service.cart(&buyer, NOW).await.unwrap().unwrap();
    assert!(!cart.is_purchased, "the cart is the shopper's again");
    // The two totes are for sale again: another shopper can hold them.
    let bob = token("bob");
    shop.service
        .add_item(
            &bob,
            &ItemId::parse("tote").unwrap(),
            &Sku::parse("TOTE-1").unwrap(),
            2,
            NOW,
        )
        .await
        .unwrap();
    shop.service.enter_checkout(Some(&bob), NOW).await.unwrap();
}

#[tokio::test]
async fn a_success_recorded_after_the_order_failed_meanwhile_is_given_back_not_kept() {
    for refused in [false, true] {
        let shop = shop().await;
        shop.gateway
            .refuses_refunds
            .store(refused, std::sync::atomic::Ordering::SeqCst);
        let buyer = at_checkout(&shop, "alice").await;
        let BrowserCheckout::Confirm { order, intent } = open(&shop, &buyer, "k1").await else {
            panic!("to confirm");
        };
        // One tab's return address finds the intent cancelled and fails the order ...
        shop.gateway.settle(&intent.id, IntentState::Canceled);
        shop.service
            .resume_browser_payment(&payer(), &order.id, &intent.id, NOW)
            .await
            .unwrap();
        // ... while another, which read the order pending, records a success.
        let payment = Payment {
            id: intent.id.clone(),
            amount_minor: order.rest_due_cents(),
            currency: order.currency,
        };
        let settled = shop
            .service
            .settle_success(&order, &payment, None, NOW)
            .await
            .unwrap();
        assert_eq!(
            settled.payment_status,
            PaymentStatus::Failed,
            "refused {refused}"
        );
        let cart = shop.service.cart(&buyer, NOW).await.unwrap().unwrap();
        assert!(!cart.is_purchased, "the cart stays the shopper's");
        let (given_back, failed): (Vec<String>, Vec<String>) = (
            shop.gateway.refunded(),
            shop.store
                .failed_refunds()
                .await
                .unwrap()
                .into_iter()
                .map(|failed| failed.payment_id)
                .collect(),
        );
        if refused {
            assert!(given_back.is_empty());
            assert_eq!(failed, vec![intent.id.clone()], "kept for the owner");
        } else {
            assert_eq!(given_back, vec![intent.id.clone()]);
            assert!(failed.is_empty());
        }
        // Recorded again (the webhook after the return address), it is not given back twice.
        shop.service
            .settle_success(&order, &payment, None, NOW)
            .await
            .unwrap();
        assert_eq!(shop.gateway.refunded().len(), given_back.len());
    }
}

#[tokio::test]
async fn a_payer_declined_too_often_has_the_intent_cancelled_and_the_order_failed() {
    let shop = shop().await;
    let buyer = at_checkout(&shop, "alice").await;
    let BrowserCheckout::Confirm { order, intent } = open(&shop, &buyer, "k1").await else {
        panic!("to confirm");
    };
    let declined = IntentState::Failed {
        message: "Your card was declined.".into(),
    };
    for attempt in 1..=4 {
        shop.gateway.settle(&intent.id, declined.clone());
        let next = shop
            .service
            .decline_in_browser(&payer(), &order.id, &intent.id, NOW)
            .await
            .unwrap();
        assert!(
            matches!(next, DeclinedAttempt::TryAgain { ref message, .. } if message == "Your card was declined."),
            "attempt {attempt}: {next:?}"
        );
    }
    shop.gateway.settle(&intent.id, declined);
    let refused = shop
        .service
        .decline_in_browser(&payer(), &order.id, &intent.id, NOW)
        .await
        .unwrap();
    let DeclinedAttempt::Ended {
        order: ended,
        failure,
    } = refused
    else {
        panic!("the fifth decline ends the payment: {refused:?}");
    };
    assert_eq!(ended.payment_status, PaymentStatus::Failed);
    assert_eq!(
        failure.as_deref(),
        Some(crate::checkout::TOO_MANY_FAILED_PAYMENTS)
    );
    let report = shop.gateway.intent_report(&intent.id).await.unwrap();
    assert_eq!(
        report.state,
        IntentState::Canceled,
        "no card can be tried any more"
    );
    // A browser that claims a decline the provider does not report counts nothing.
    let shop = self::shop().await;
    let other = at_checkout(&shop, "bob").await;
    let BrowserCheckout::Confirm { order, intent } = open(&shop, &other, "k2").await else {
        panic!("to confirm");
    };
    let fresh = Payer {
        visitor: Some("another visitor".into()),
        cart: None,
        address: Some("192.0.2.1".into()),
    };
    for _ in 0..10 {
        let open = shop
            .service
            .decline_in_browser(&fresh, &order.id, &intent.id, NOW)
            .await
            .unwrap();
        assert!(matches!(open, DeclinedAttempt::Open(_)), "{open:?}");
    }
}

#[tokio::test]
async fn the_providers_reports_of_declines_count_against_the_orders_cart() {
    let shop = shop().await;
    let buyer = at_checkout(&shop, "alice").await;
    let BrowserCheckout::Confirm { order, intent } = open(&shop, &buyer, "k1").await else {
        panic!("to confirm");
    };
    // A script confirming the intent with its client secret, without the shop's page.
    for _ in 0..4 {
        shop.service
            .count_declined_attempt(&order.id, &intent.id, NOW)
            .await
            .unwrap();
    }
    let waiting = shop.store.order(&order.id).await.unwrap().unwrap();
    assert_eq!(waiting.payment_status, PaymentStatus::Pending);
    shop.service
        .count_declined_attempt(&order.id, &intent.id, NOW)
        .await
        .unwrap();
    let failed = shop.store.order(&order.id).await.unwrap().unwrap();
    assert_eq!(failed.payment_status, PaymentStatus::Failed);
}

#[tokio::test]
async fn abandoned_payments_are_cancelled_after_the_window_unless_they_succeeded_meanwhile() {
    let shop = shop().await;
    let alice = at_checkout(&shop, "alice").await;
    let BrowserCheckout::Confirm {
        order: abandoned,
        intent: left,
    } = open(&shop, &alice, "k1").await
    else {
        panic!("to confirm");
    };
    let bob = at_checkout(&shop, "bob").await;
    let BrowserCheckout::Confirm {
        order: paid_late,
        intent: paid,
    } = open(&shop, &bob, "k2").await
    else {
        panic!("to confirm");
    };
    // Bob paid, but neither his browser came back nor the webhook arrived.
    shop.gateway.pay(&paid.id, &paid_late);
    let window = ABANDONED_BROWSER_PAYMENT_SECONDS * 1000;
    let too_soon = Timestamp(NOW.millis() + window);
    assert_eq!(
        shop.service
            .cancel_abandoned_browser_payments(too_soon)
            .await
            .unwrap(),
        0
    );
    let status = |id: String| {
        let store = shop.store.clone();
        async move { store.order(&id).await.unwrap().unwrap().payment_status }
    };
    assert_eq!(status(abandoned.id.clone()).await, PaymentStatus::Pending);
    let later = Timestamp(too_soon.millis() + 1);
    // Two servers, or one after a crash, run the same clean-up: each order changes once.
    for _ in 0..2 {
        shop.service
            .cancel_abandoned_browser_payments(later)
            .await
            .unwrap();
    }
    assert_eq!(status(abandoned.id.clone()).await, PaymentStatus::Failed);
    assert_eq!(status(paid_late.id.clone()).await, PaymentStatus::Paid);
    assert_eq!(
        shop.gateway.intent_report(&left.id).await.unwrap().state,
        IntentState::Canceled
    );
    assert!(matches!(
        shop.gateway.intent_report(&paid.id).await.unwrap().state,
        IntentState::Succeeded(_)
    ));
    assert_eq!(
        shop.store.released_confirmations(),
        std::slice::from_ref(&paid_late.id)
    );
    let alice_cart = shop.service.cart(&alice, later).await.unwrap().unwrap();
    assert!(
        !alice_cart.is_purchased,
        "the abandoned order's cart is back"
    );
    assert_eq!(
        shop.service
            .cancel_abandoned_browser_payments(later)
            .await
            .unwrap(),
        0,
        "nothing waits any more"
    );
}

#[tokio::test]
async fn an_intent_of_another_order_or_another_amount_settles_nothing() {
    let shop = shop().await;
    let alice = at_checkout(&shop, "alice").await;
    let BrowserCheckout::Confirm { order, intent } = open(&shop, &alice, "k1").await else {
        panic!("to confirm");
    };
    // Mallory's own cheap intent, succeeded, named on Alice's order's return address.
    let cheap = IntentRequest {
        key: key("mallory"),
        amount_minor: 1,
        currency: order.currency,
        email: "m@example.com".into(),
        description: String::new(),
        save_for_renewals: false,
    };
    let forged = shop.gateway.open_intent(&cheap).await.unwrap();
    shop.gateway.settle(
        &forged.id,
        IntentState::Succeeded(Payment {
            id: forged.id.clone(),
            amount_minor: 1,
            currency: order.currency,
        }),
    );
    let refused = shop
        .service
        .resume_browser_payment(&payer(), &order.id, &forged.id, NOW)
        .await;
    assert!(matches!(
        refused,
        Err(ResumePaymentError::UnknownPayment(_))
    ));
    // The provider reports Alice's own intent paid for less than the order: not settled.
    shop.gateway.settle(
        &intent.id,
        IntentState::Succeeded(Payment {
            id: intent.id.clone(),
            amount_minor: order.rest_due_cents() - 1,
            currency: order.currency,
        }),
    );
    let short = shop
        .service
        .resume_browser_payment(&payer(), &order.id, &intent.id, NOW)
        .await
        .unwrap();
    assert_eq!(short.order.payment_status, PaymentStatus::Pending);
    let unknown = shop
        .service
        .resume_browser_payment(&payer(), "order-nope", &intent.id, NOW)
        .await;
    assert!(matches!(
        unknown,
        Err(ResumePaymentError::UnknownPayment(_))
    ));
}
