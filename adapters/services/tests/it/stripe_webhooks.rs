//! The fake's webhooks against the production reader of Stripe's events: every charge,
//! decline, refund and dispute becomes an event that the fake signs as Stripe does and sends
//! when asked, and that [`StripeWebhooks`] verifies and reads into the core's report.

use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode};
use vitrine_core::checkout::{
    CardDetails, IdempotencyKey, PaymentEvent, PaymentGateway, PaymentOutcome, PaymentReports,
    PaymentRequest, ProviderReport,
};
use vitrine_core::money::Currency;
use vitrine_services::stripe_fake::{FAKE_SECRET_KEY, FakeStripe, cards};
use vitrine_services::{StripeGateway, StripeSecretKey, StripeWebhookSecret, StripeWebhooks};

const SECRET: &str = "whsec_fakeendpoint";

/// A webhook endpoint that reads what it is sent with the production reader, answering
/// 500 to the first `refuse` deliveries (as a server that is restarting would).
#[derive(Clone, Default)]
struct Endpoint {
    reports: Arc<Mutex<Vec<ProviderReport>>>,
    refuse: Arc<Mutex<u32>>,
}

async fn endpoint() -> (url::Url, Endpoint) {
    let seen = Endpoint::default();
    let reader = StripeWebhooks::new(vec![StripeWebhookSecret::parse(SECRET).unwrap()]);
    let state = seen.clone();
    let app = axum::Router::new().route(
        "/hook",
        axum::routing::post(move |headers: HeaderMap, body: Bytes| {
            let state = state.clone();
            let reader = reader.clone();
            async move {
                {
                    let mut refuse = state.refuse.lock().unwrap();
                    if *refuse > 0 {
                        *refuse -= 1;
                        return StatusCode::INTERNAL_SERVER_ERROR;
                    }
                }
                let signature = headers
                    .get("stripe-signature")
                    .and_then(|value| value.to_str().ok())
                    .unwrap_or_default();
                let now = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .unwrap()
                    .as_secs() as i64;
                match reader.read(signature, &body, now) {
                    Ok(report) => {
                        state.reports.lock().unwrap().push(report);
                        StatusCode::OK
                    }
                    Err(_) => StatusCode::BAD_REQUEST,
                }
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (url.parse().unwrap(), seen)
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

fn payment_report(report: &ProviderReport) -> &PaymentEvent {
    match report {
        ProviderReport::Payment(event) => event,
        other => panic!("not a payment report: {other:?}"),
    }
}

#[tokio::test]
async fn charges_refunds_and_disputes_arrive_signed_and_read_as_their_outcomes() {
    let (url, seen) = endpoint().await;
    let fake = FakeStripe::start()
        .await
        .with_webhook(url, StripeWebhookSecret::parse(SECRET).unwrap());
    let gateway = StripeGateway::new(
        fake.base().clone(),
        StripeSecretKey::parse(FAKE_SECRET_KEY).unwrap(),
    );
    let paid = gateway
        .charge(&request("w1", cards::SUCCEEDS))
        .await
        .unwrap();
    assert!(
        gateway
            .charge(&request("w2", cards::DECLINED))
            .await
            .is_err()
    );
    gateway.refund(&paid).await.unwrap();
    fake.dispute(&paid.id);
    assert_eq!(fake.deliver_events().await, vec![200, 200, 200, 200]);
    assert_eq!(
        fake.deliver_events().await,
        Vec::<u16>::new(),
        "each is taken once"
    );

    let reports = seen.reports.lock().unwrap().clone();
    let events: Vec<&PaymentEvent> = reports.iter().map(payment_report).collect();
    let outcomes: Vec<PaymentOutcome> = events.iter().map(|event| event.outcome).collect();
    assert_eq!(
        outcomes,
        [
            PaymentOutcome::Succeeded,
            PaymentOutcome::Declined,
            PaymentOutcome::Refunded,
            PaymentOutcome::Disputed
        ]
    );
    assert_eq!(events[0].payment_id, paid.id);
    assert_eq!(
        events[0].payment_key.as_deref(),
        Some(request("w1", cards::SUCCEEDS).key.as_str()),
        "the charge's key finds an order whose answer was lost"
    );
    assert_eq!(
        (events[2].payment_id.as_str(), events[3].payment_id.as_str()),
        (paid.id.as_str(), paid.id.as_str())
    );
    let ids: std::collections::BTreeSet<&str> =
        events.iter().map(|event| event.id.as_str()).collect();
    assert_eq!(ids.len(), 4, "every event has its own id");
}

#[tokio::test]
async fn an_event_the_endpoint_refused_is_sent_again_and_a_redelivery_repeats_its_id() {
    let (url, seen) = endpoint().await;
    let fake = FakeStripe::start()
        .await
        .with_webhook(url, StripeWebhookSecret::parse(SECRET).unwrap());
    let gateway = StripeGateway::new(
        fake.base().clone(),
        StripeSecretKey::parse(FAKE_SECRET_KEY).unwrap(),
    );
    gateway
        .charge(&request("r1", cards::SUCCEEDS))
        .await
        .unwrap();
    *seen.refuse.lock().unwrap() = 1;
    assert_eq!(fake.deliver_events().await, vec![500]);
    assert!(!fake.events()[0].delivered);
    assert_eq!(fake.deliver_events().await, vec![200]);
    let id = fake.events()[0].id.clone();
    assert_eq!(fake.redeliver(&id).await, 200);
    let reports = seen.reports.lock().unwrap().clone();
    assert_eq!(reports.len(), 2);
    assert_eq!(
        payment_report(&reports[0]).id,
        payment_report(&reports[1]).id
    );
}

#[tokio::test]
async fn an_endpoint_with_another_secret_refuses_the_fakes_events() {
    let (url, seen) = endpoint().await;
    let fake = FakeStripe::start().await.with_webhook(
        url,
        StripeWebhookSecret::parse("whsec_someoneelse").unwrap(),
    );
    let gateway = StripeGateway::new(
        fake.base().clone(),
        StripeSecretKey::parse(FAKE_SECRET_KEY).unwrap(),
    );
    gateway
        .charge(&request("s1", cards::SUCCEEDS))
        .await
        .unwrap();
    assert_eq!(fake.deliver_events().await, vec![400]);
    assert!(seen.reports.lock().unwrap().is_empty());
}
