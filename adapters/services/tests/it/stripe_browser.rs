//! The Stripe gateway's browser half against the local fake: an intent opened without a card
//! under the attempt's key (once however often it is asked), confirmed by the fake's stand-in
//! of a browser, and Stripe's own word on it read back as the core's intent report: succeeded,
//! still open while the bank waits, or failed with a sentence a shopper understands.

use vitrine_core::checkout::{
    IdempotencyKey, IntentRequest, IntentState, PaymentError, PaymentGateway, RecurringPayments,
    RenewalCharge,
};
use vitrine_core::money::Currency;
use vitrine_services::stripe_fake::{BrowserStep, FAKE_SECRET_KEY, FakeStripe, cards};
use vitrine_services::{StripeGateway, StripeSecretKey};

const RETURN: &str = "http://shop.test/checkout/card-payment/return?order=order-1";

fn gateway(fake: &FakeStripe) -> StripeGateway {
    StripeGateway::new(
        fake.base().clone(),
        StripeSecretKey::parse(FAKE_SECRET_KEY).unwrap(),
    )
}

fn request(key: &str) -> IntentRequest {
    IntentRequest {
        key: IdempotencyKey::parse(format!("{key:0>32}")).unwrap(),
        amount_minor: 3700,
        currency: Currency::Eur,
        email: "shopper@example.com".into(),
        description: "1 × Sea Glass Mug".into(),
        save_for_renewals: false,
    }
}

#[tokio::test]
async fn an_intent_is_opened_once_per_key_without_a_card_and_succeeds_when_the_browser_pays() {
    let fake = FakeStripe::start().await;
    let gateway = gateway(&fake);
    let opened = gateway.open_intent(&request("a1")).await.unwrap();
    let again = gateway.open_intent(&request("a1")).await.unwrap();
    assert_eq!(opened, again, "the same key opens one intent");
    let intents = fake.payment_intents();
    assert_eq!(intents.len(), 1);
    assert_eq!(intents[0].status, "requires_payment_method");
    assert_eq!(intents[0].amount, 3700);
    assert_eq!(intents[0].card_last4, "", "no card went with it");
    let open = gateway.intent_report(&opened.id).await.unwrap();
    assert_eq!(open.state, IntentState::Open);
    assert_eq!(open.key.as_deref(), Some(request("a1").key.as_str()));

    let step = fake
        .confirm_in_browser(&opened.client_secret, cards::SUCCEEDS, RETURN)
        .await;
    let BrowserStep::Return(back) = step else {
        panic!("a card without 3-D Secure returns at once: {step:?}");
    };
    assert!(back.starts_with(RETURN), "{back}");
    assert!(
        back.contains(&format!("payment_intent={}", opened.id)),
        "{back}"
    );
    let report = gateway.intent_report(&opened.id).await.unwrap();
    let IntentState::Succeeded(payment) = report.state else {
        panic!("paid: {report:?}");
    };
    assert_eq!(
        (payment.id.as_str(), payment.amount_minor, payment.currency),
        (opened.id.as_str(), 3700, Currency::Eur)
    );
    assert_eq!(
        fake.events()
            .last()
            .map(|event| event.kind.clone())
            .as_deref(),
        Some("payment_intent.succeeded")
    );
}

#[tokio::test]
async fn a_3ds_card_waits_for_the_bank_and_an_approval_pays_a_failure_says_why() {
    let fake = FakeStripe::start().await;
    let gateway = gateway(&fake);
    for (key, approve) in [("b1", true), ("b2", false)] {
        let opened = gateway.open_intent(&request(key)).await.unwrap();
        let step = fake
            .confirm_in_browser(
                &opened.client_secret,
                cards::AUTHENTICATION_REQUIRED,
                RETURN,
            )
            .await;
        let BrowserStep::Bank(bank) = step else {
            panic!("3-D Secure goes to the bank: {step:?}");
        };
        let waiting = gateway.intent_report(&opened.id).await.unwrap();
        assert_eq!(
            waiting.state,
            IntentState::Open,
            "the bank has not answered"
        );
        let back = fake.answer_bank(&bank, approve).await;
        assert!(back.starts_with(RETURN), "{back}");
        let status = if approve { "succeeded" } else { "failed" };
        assert!(
            back.contains(&format!("redirect_status={status}")),
            "{back}"
        );
        let report = gateway.intent_report(&opened.id).await.unwrap();
        match (approve, report.state) {
            (true, IntentState::Succeeded(payment)) => assert_eq!(payment.amount_minor, 3700),
            (false, IntentState::Failed { message }) => assert_eq!(
                message,
                "Your bank could not verify this payment, so nothing was charged. Please try again or use another card."
            ),
            (_, other) => panic!("{key}: {other:?}"),
        }
    }
}

#[tokio::test]
async fn a_declined_card_fails_the_intent_in_the_shoppers_words_and_a_wrong_secret_pays_nothing() {
    let fake = FakeStripe::start().await;
    let gateway = gateway(&fake);
    let opened = gateway.open_intent(&request("c1")).await.unwrap();
    let step = fake
        .confirm_in_browser(&opened.client_secret, cards::INSUFFICIENT_FUNDS, RETURN)
        .await;
    let BrowserStep::Declined {
        message,
        return_url,
    } = step
    else {
        panic!("declined: {step:?}");
    };
    assert_eq!(message, "Your card has insufficient funds.");
    assert!(return_url.contains(&opened.id), "{return_url}");
    let report = gateway.intent_report(&opened.id).await.unwrap();
    assert_eq!(
        report.state,
        IntentState::Failed {
            message:
                "Your card has insufficient funds. Nothing was charged. Please use another card."
                    .into()
        }
    );

    let other = gateway.open_intent(&request("c2")).await.unwrap();
    let forged = format!("{}_secret_guessed", other.id);
    let step = fake
        .confirm_in_browser(&forged, cards::SUCCEEDS, RETURN)
        .await;
    assert!(matches!(step, BrowserStep::Declined { .. }), "{step:?}");
    let untouched = gateway.intent_report(&other.id).await.unwrap();
    assert_eq!(untouched.state, IntentState::Open);
}

#[tokio::test]
async fn a_declined_intent_pays_with_another_card_and_cancelling_ends_only_an_unpaid_one() {
    let fake = FakeStripe::start().await;
    let gateway = gateway(&fake);
    let opened = gateway.open_intent(&request("r1")).await.unwrap();
    let step = fake
        .confirm_in_browser(&opened.client_secret, cards::DECLINED, RETURN)
        .await;
    assert!(matches!(step, BrowserStep::Declined { .. }), "{step:?}");
    // The same intent, the same client secret, another card.
    let step = fake
        .confirm_in_browser(&opened.client_secret, cards::SUCCEEDS, RETURN)
        .await;
    assert!(!matches!(step, BrowserStep::Declined { .. }), "{step:?}");
    let paid = gateway.intent_report(&opened.id).await.unwrap();
    assert!(matches!(paid.state, IntentState::Succeeded(_)), "{paid:?}");
    // Cancelling a paid intent is refused by Stripe: the answer is its success.
    let kept = gateway.cancel_intent(&opened.id).await.unwrap();
    assert!(matches!(kept.state, IntentState::Succeeded(_)), "{kept:?}");

    let left = gateway.open_intent(&request("r2")).await.unwrap();
    let cancelled = gateway.cancel_intent(&left.id).await.unwrap();
    assert_eq!(cancelled.state, IntentState::Canceled);
    assert_eq!(
        cancelled.key.as_deref(),
        Some(request("r2").key.as_str()),
        "the report still ties the intent to its order"
    );
    // Asked again (another server, or after a crash): still cancelled, nothing else.
    let again = gateway.cancel_intent(&left.id).await.unwrap();
    assert_eq!(again.state, IntentState::Canceled);
    let step = fake
        .confirm_in_browser(&left.client_secret, cards::SUCCEEDS, RETURN)
        .await;
    assert!(matches!(step, BrowserStep::Declined { .. }), "{step:?}");
}

fn renewal(token: &str, key: &str) -> RenewalCharge {
    RenewalCharge {
        key: IdempotencyKey::parse(format!("{key:0>32}")).unwrap(),
        payment_method: token.to_owned(),
        amount_minor: 3000,
        currency: Currency::Eur,
        email: "member@example.com".into(),
        description: "1 × Clay Club, renewal 2".into(),
    }
}

/// The browser confirms the intent of `secret` with `card`, and the shopper approves at the
/// bank's page.
async fn approved_at_the_bank(fake: &FakeStripe, secret: &str, card: &str) {
    let step = fake.confirm_in_browser(secret, card, RETURN).await;
    let BrowserStep::Bank(bank) = step else {
        panic!("the bank's page: {step:?}");
    };
    fake.answer_bank(&bank, true).await;
}

#[tokio::test]
async fn an_intent_for_renewals_keeps_the_card_on_a_new_customer_that_renewals_charge_off_session()
{
    let fake = FakeStripe::start().await;
    let gateway = gateway(&fake);
    let kept = IntentRequest {
        save_for_renewals: true,
        email: "member@example.com".into(),
        ..request("c1")
    };
    let opened = gateway.open_intent(&kept).await.unwrap();
    let again = gateway.open_intent(&kept).await.unwrap();
    assert_eq!(opened, again);
    let customers = fake.customers();
    assert_eq!(
        customers.len(),
        1,
        "one customer per attempt: {customers:?}"
    );
    assert_eq!(customers[0].1, "member@example.com");
    let intent = fake.payment_intents()[0].clone();
    assert_eq!(intent.customer, customers[0].0);
    assert_eq!(intent.setup_future_usage, "off_session");
    let open = gateway.intent_report(&opened.id).await.unwrap();
    assert_eq!(open.saved_card, None, "nothing kept before it is paid");

    // Verified once at the bank, as Stripe asks when a card is set up for later.
    approved_at_the_bank(
        &fake,
        &opened.client_secret,
        cards::AUTHENTICATION_UNLESS_SET_UP,
    )
    .await;
    let report = gateway.intent_report(&opened.id).await.unwrap();
    assert!(
        matches!(report.state, IntentState::Succeeded(_)),
        "{report:?}"
    );
    let method = fake.payment_intents()[0].payment_method.clone();
    let token = format!("{}:{method}", customers[0].0);
    assert_eq!(report.saved_card.as_deref(), Some(token.as_str()));

    // The renewal is charged without the shopper, and the bank does not ask again.
    let paid = gateway.charge_saved(&renewal(&token, "r1")).await.unwrap();
    let renewal_intent = fake
        .payment_intents()
        .into_iter()
        .find(|intent| intent.id == paid.id)
        .unwrap();
    assert_eq!(renewal_intent.status, "succeeded");
    assert_eq!(renewal_intent.customer, customers[0].0);

    // A card that always asks the bank is declined off session, even once kept.
    let always = IntentRequest {
        save_for_renewals: true,
        ..request("c2")
    };
    let opened = gateway.open_intent(&always).await.unwrap();
    approved_at_the_bank(&fake, &opened.client_secret, cards::AUTHENTICATION_REQUIRED).await;
    let token = gateway
        .intent_report(&opened.id)
        .await
        .unwrap()
        .saved_card
        .expect("kept");
    let declined = gateway.charge_saved(&renewal(&token, "r2")).await;
    assert!(
        matches!(declined, Err(PaymentError::Declined { .. })),
        "{declined:?}"
    );
}

#[tokio::test]
async fn an_intent_naming_an_unknown_customer_or_a_declined_card_keeps_nothing() {
    let fake = FakeStripe::start().await;
    let gateway = gateway(&fake);
    let kept = IntentRequest {
        save_for_renewals: true,
        ..request("d1")
    };
    let opened = gateway.open_intent(&kept).await.unwrap();
    fake.confirm_in_browser(&opened.client_secret, cards::DECLINED, RETURN)
        .await;
    let report = gateway.intent_report(&opened.id).await.unwrap();
    assert!(
        matches!(report.state, IntentState::Failed { .. }),
        "{report:?}"
    );
    assert_eq!(report.saved_card, None);
    assert_eq!(fake.payment_intents()[0].payment_method, "");
    // Stripe refuses an intent for a customer it does not know.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let refused = reqwest::Client::new()
        .post(fake.base().join("/v1/payment_intents").unwrap())
        .bearer_auth(FAKE_SECRET_KEY)
        .header("content-type", "application/x-www-form-urlencoded")
        .body("amount=100&currency=eur&payment_method_types%5B0%5D=card&customer=cus_nobody&setup_future_usage=off_session")
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status().as_u16(), 400);
    let text = refused.text().await.unwrap();
    assert!(text.contains("No such customer"), "{text}");
}
