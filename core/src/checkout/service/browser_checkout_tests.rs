//! Paying in the browser through the cart service: the order waits as payment pending with its
//! stock held until the provider, asked by the server, says the intent succeeded or failed;
//! a browser's word, another order's intent or another amount settles nothing.

use std::collections::BTreeMap;
use std::sync::Mutex;

use async_trait::async_trait;

use super::test_shop::{NOW, add_totes, address_form as form, key, token};
use super::*;
use crate::cart::{CartToken, Stock};
use crate::catalog::Sku;
use crate::checkout::browser_payment::{IntentReport, IntentRequest, IntentState, OpenIntent};
use crate::checkout::order::Order;
use crate::checkout::{
    InMemoryCommerceStore, Payer, Payment, PaymentEvent, PaymentEventLog, PaymentOutcome,
    PaymentRequest, PaymentStatus,
};
use crate::site::ItemId;

/// A provider whose intents the test settles, as a shopper's browser and bank would.
#[derive(Default)]
pub(crate) struct IntentGateway {
    /// Intent id by key, with its request and state.
    intents: Mutex<BTreeMap<String, (String, IntentRequest, IntentState)>>,
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
    /// The intent `id` succeeded for the whole of what `order` leaves to pay.
    fn pay(&self, id: &str, order: &Order) {
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

    async fn refund(&self, _payment: &Payment) -> Result<(), PaymentError> {
        Ok(())
    }

    async fn open_intent(&self, request: &IntentRequest) -> Result<OpenIntent, PaymentError> {
        let mut intents = self.intents.lock().unwrap();
        let count = intents.len();
        let (id, _, _) = intents
            .entry(request.key.as_str().to_owned())
            .or_insert_with(|| (format!("pi_{count}"), request.clone(), IntentState::Open));
        Ok(OpenIntent {
            id: id.clone(),
            client_secret: format!("{id}_secret"),
        })
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

struct Shop {
    service: CartService,
    store: Arc<InMemoryCommerceStore>,
    gateway: Arc<IntentGateway>,
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

fn payer() -> Payer {
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
async fn a_failed_verification_says_why_frees_the_stock_and_gives_the_cart_back() {
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
