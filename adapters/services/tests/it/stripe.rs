//! The Stripe gateway against the local fake of Stripe's API (`vitrine_services::stripe_fake`),
//! which checks the key, the form fields and the API version, replays the first answer to a
//! repeated idempotency key, refuses a key still in flight with a 409, and behaves as
//! Stripe's test cards do.

use std::time::Duration;

use vitrine_core::checkout::{
    CardDetails, IdempotencyKey, PaymentError, PaymentGateway, PaymentRequest,
};
use vitrine_core::money::Currency;
use vitrine_services::stripe_fake::{FAKE_SECRET_KEY, FakeStripe, cards};
use vitrine_services::{
    StripeGateway, StripeRetries, StripeSecretKey, VERIFICATION_NEEDED_MESSAGE,
};

/// Short pauses, so retry tests take milliseconds.
const QUICK: StripeRetries = StripeRetries {
    attempts: 3,
    first_delay: Duration::from_millis(20),
    timeout: Duration::from_secs(5),
};

fn gateway(fake: &FakeStripe) -> StripeGateway {
    StripeGateway::new(
        fake.base().clone(),
        StripeSecretKey::parse(FAKE_SECRET_KEY).unwrap(),
    )
    .with_retries(QUICK)
}

fn request(key: &str, number: &str) -> PaymentRequest {
    PaymentRequest {
        key: IdempotencyKey::parse(format!("{key:0>32}")).unwrap(),
        amount_minor: 3700,
        currency: Currency::Eur,
        card: CardDetails {
            number: number.into(),
            expiry_month: 12,
            expiry_year: 2040,
            cvc: "123".into(),
        },
        email: "shopper@example.com".into(),
        description: "1 × Sea Glass Mug".into(),
    }
}

#[tokio::test]
async fn a_charge_creates_and_confirms_one_payment_intent_with_the_orders_details() {
    let fake = FakeStripe::start().await;
    let payment = gateway(&fake)
        .charge(&request("a1", cards::SUCCEEDS))
        .await
        .unwrap();
    let intents = fake.payment_intents();
    assert_eq!(intents.len(), 1);
    let intent = &intents[0];
    assert_eq!(payment.id, intent.id);
    assert!(payment.id.starts_with("pi_"), "{payment:?}");
    assert_eq!(
        (payment.amount_minor, payment.currency),
        (3700, Currency::Eur)
    );
    assert_eq!(intent.status, "succeeded");
    assert_eq!((intent.amount, intent.currency.as_str()), (3700, "eur"));
    assert_eq!(intent.card_last4, "4242");
    assert_eq!(intent.receipt_email, "shopper@example.com");
    assert_eq!(intent.description, "1 × Sea Glass Mug");
    let key = request("a1", cards::SUCCEEDS).key;
    assert_eq!(intent.idempotency_key.as_deref(), Some(key.as_str()));
    assert_eq!(
        intent
            .metadata
            .get("vitrine_idempotency_key")
            .map(String::as_str),
        Some(key.as_str())
    );
}

#[tokio::test]
async fn yen_are_charged_whole() {
    let fake = FakeStripe::start().await;
    let mut yen = request("y1", cards::SUCCEEDS);
    yen.amount_minor = 1500;
    yen.currency = Currency::Jpy;
    gateway(&fake).charge(&yen).await.unwrap();
    let intent = &fake.payment_intents()[0];
    assert_eq!((intent.amount, intent.currency.as_str()), (1500, "jpy"));
}

#[tokio::test]
async fn the_same_key_charges_once_and_answers_the_same_payment() {
    let fake = FakeStripe::start().await;
    let gateway = gateway(&fake);
    let first = gateway
        .charge(&request("k1", cards::SUCCEEDS))
        .await
        .unwrap();
    let again = gateway
        .charge(&request("k1", cards::SUCCEEDS))
        .await
        .unwrap();
    assert_eq!(first, again);
    assert_eq!(fake.requests(), 2);
    assert_eq!(fake.payment_intents().len(), 1);
}

#[tokio::test]
async fn a_second_request_while_the_first_runs_waits_for_its_answer() {
    let fake = FakeStripe::start().await;
    // The first request takes 300 ms; the second comes 30 ms in and is sent again after
    // 400 ms, when the first one's answer is saved.
    fake.slow_down(Duration::from_millis(300));
    let gateway = StripeGateway::new(
        fake.base().clone(),
        StripeSecretKey::parse(FAKE_SECRET_KEY).unwrap(),
    )
    .with_retries(StripeRetries {
        first_delay: Duration::from_millis(400),
        ..QUICK
    });
    let double_click = request("d1", cards::SUCCEEDS);
    let (first, second) = tokio::join!(gateway.charge(&double_click), async {
        tokio::time::sleep(Duration::from_millis(30)).await;
        gateway.charge(&double_click).await
    });
    assert_eq!(first.unwrap(), second.unwrap());
    assert_eq!(fake.payment_intents().len(), 1);
    // The second one met the first in flight (409) and was sent again.
    assert!(fake.requests() >= 3, "{}", fake.requests());
}

#[tokio::test]
async fn a_decline_carries_stripes_message_for_the_shopper() {
    let fake = FakeStripe::start().await;
    let gateway = gateway(&fake);
    for (number, message) in [
        (cards::DECLINED, "Your card was declined."),
        (
            cards::INSUFFICIENT_FUNDS,
            "Your card has insufficient funds.",
        ),
    ] {
        let declined = gateway.charge(&request(number, number)).await;
        assert_eq!(
            declined,
            Err(PaymentError::Declined {
                message: message.into()
            })
        );
    }
    // A decline is an answer, not a failure: nothing was sent twice.
    assert_eq!(fake.requests(), 2);
    assert!(
        fake.payment_intents()
            .iter()
            .all(|intent| intent.status == "requires_payment_method")
    );
}

#[tokio::test]
async fn a_card_asking_for_3d_secure_is_declined_with_our_message_and_its_intent_cancelled() {
    let fake = FakeStripe::start().await;
    let answer = gateway(&fake)
        .charge(&request("3ds", cards::AUTHENTICATION_REQUIRED))
        .await;
    assert_eq!(
        answer,
        Err(PaymentError::Declined {
            message: VERIFICATION_NEEDED_MESSAGE.into()
        })
    );
    let intents = fake.payment_intents();
    assert_eq!(intents.len(), 1);
    assert_eq!(intents[0].status, "canceled");
}

#[tokio::test]
async fn server_errors_are_retried_with_the_same_key_a_bounded_number_of_times() {
    let fake = FakeStripe::start().await;
    let gateway = gateway(&fake);
    fake.fail_next(2, 500);
    let payment = gateway
        .charge(&request("r1", cards::SUCCEEDS))
        .await
        .unwrap();
    assert_eq!(fake.requests(), 3);
    assert_eq!(fake.payment_intents().len(), 1);
    assert_eq!(fake.payment_intents()[0].id, payment.id);

    fake.fail_next(3, 503);
    let down = gateway.charge(&request("r2", cards::SUCCEEDS)).await;
    // Stripe's 5xx does not say whether the charge was made.
    assert!(
        matches!(down, Err(PaymentError::OutcomeUnknown(_))),
        "{down:?}"
    );
    assert_eq!(fake.requests(), 6, "three attempts, no more");
    assert_eq!(fake.payment_intents().len(), 1);
}

#[tokio::test]
async fn a_timed_out_charge_is_sent_again_and_stripes_saved_answer_is_taken() {
    let fake = FakeStripe::start().await;
    // Stripe takes 300 ms; the first attempt gives up after 100 ms and the retry comes
    // 600 ms later, after Stripe finished, so it is answered from Stripe's saved answer.
    fake.slow_down(Duration::from_millis(300));
    let gateway = StripeGateway::new(
        fake.base().clone(),
        StripeSecretKey::parse(FAKE_SECRET_KEY).unwrap(),
    )
    .with_retries(StripeRetries {
        attempts: 2,
        first_delay: Duration::from_millis(600),
        timeout: Duration::from_millis(100),
    });
    let payment = gateway
        .charge(&request("t1", cards::SUCCEEDS))
        .await
        .unwrap();
    assert_eq!(fake.payment_intents().len(), 1);
    assert_eq!(fake.payment_intents()[0].id, payment.id);
    assert_eq!(fake.requests(), 2);
}

#[tokio::test]
async fn answers_that_are_not_worth_retrying_are_unavailable_at_once() {
    let fake = FakeStripe::start().await;
    let gateway = gateway(&fake);
    // Too many requests, without Stripe saying to retry.
    fake.fail_next(1, 429);
    let limited = gateway.charge(&request("l1", cards::SUCCEEDS)).await;
    assert!(
        matches!(limited, Err(PaymentError::Unavailable(_))),
        "{limited:?}"
    );
    assert_eq!(fake.requests(), 1);
    // The same key with other parameters.
    gateway
        .charge(&request("m1", cards::SUCCEEDS))
        .await
        .unwrap();
    let mut changed = request("m1", cards::SUCCEEDS);
    changed.amount_minor += 100;
    let mismatch = gateway.charge(&changed).await;
    assert!(
        matches!(&mismatch, Err(PaymentError::Unavailable(detail)) if detail.contains("idempotency_error")),
        "{mismatch:?}"
    );
    assert_eq!(fake.requests(), 3);
    assert_eq!(fake.payment_intents().len(), 1);
}

#[tokio::test]
async fn a_wrong_key_is_unavailable_and_the_key_is_never_in_the_error() {
    let fake = FakeStripe::start().await;
    let wrong = StripeGateway::new(
        fake.base().clone(),
        StripeSecretKey::parse("sk_test_wrongkey123").unwrap(),
    )
    .with_retries(QUICK);
    let refused = wrong.charge(&request("w1", cards::SUCCEEDS)).await;
    let Err(PaymentError::Unavailable(detail)) = refused else {
        panic!("a refused key is not a decline: {refused:?}");
    };
    assert!(detail.contains("401"), "{detail}");
    assert!(!detail.contains("wrongkey123"), "{detail}");
    assert!(!detail.contains(cards::SUCCEEDS), "{detail}");
    assert_eq!(fake.requests(), 1);
}

#[tokio::test]
async fn an_unreachable_or_garbled_stripe_is_unavailable() {
    let key = StripeSecretKey::parse(FAKE_SECRET_KEY).unwrap();
    let down = StripeGateway::new("http://127.0.0.1:9".parse().unwrap(), key.clone())
        .with_retries(QUICK)
        .charge(&request("u1", cards::SUCCEEDS))
        .await;
    assert!(
        matches!(down, Err(PaymentError::Unavailable(_))),
        "{down:?}"
    );

    let app = axum::Router::new().route(
        "/v1/payment_intents",
        axum::routing::post(|| async { "<html>Bad gateway</html>" }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let garbled = StripeGateway::new(base.parse().unwrap(), key)
        .with_retries(QUICK)
        .charge(&request("g1", cards::SUCCEEDS))
        .await;
    assert!(
        matches!(&garbled, Err(PaymentError::Unavailable(detail)) if detail.contains("not a PaymentIntent")),
        "{garbled:?}"
    );
}

#[tokio::test]
async fn a_refund_gives_the_whole_payment_back_once() {
    let fake = FakeStripe::start().await;
    let gateway = gateway(&fake);
    let payment = gateway
        .charge(&request("f1", cards::SUCCEEDS))
        .await
        .unwrap();
    gateway.refund(&payment).await.unwrap();
    // Asked again (a retried order failure), the same refund answers.
    gateway.refund(&payment).await.unwrap();
    let refunds = fake.refunds();
    assert_eq!(refunds.len(), 1);
    assert_eq!(refunds[0].payment_intent, payment.id);

    let mut unknown = payment.clone();
    unknown.id = "pi_unknown".into();
    assert!(matches!(
        gateway.refund(&unknown).await,
        Err(PaymentError::Unavailable(_))
    ));
}
