//! Stripe's webhook against the router: only events signed with one of the shop's secrets,
//! at most five minutes old, are taken; each event moves its order once however often it is
//! delivered; kinds the shop does not act on are acknowledged and ignored; no crumb is asked
//! for, and without a secret the route is not there.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use vitrine_core::cart::StoreRules;
use vitrine_core::checkout::conformance::{place_order_paid_with, place_pending_order};
use vitrine_core::checkout::{
    CartService, CommerceStore, InMemoryCommerceStore, PaymentLedger, PaymentStatus,
    TestPaymentGateway,
};
use vitrine_core::pages::PageService;
use vitrine_core::ports::SiteRepository;
use vitrine_core::ports::memory::MemorySiteRepository;
use vitrine_http::AppState;
use vitrine_services::{StripeWebhookSecret, StripeWebhooks};

use crate::support::{Answer, config, fixture_assets, send, site};

const PATH: &str = "/api/commerce/stripe/webhook";

fn secret(text: &str) -> StripeWebhookSecret {
    StripeWebhookSecret::parse(text).unwrap()
}

async fn shop(store: Arc<InMemoryCommerceStore>, secrets: &[&str]) -> axum::Router {
    shop_paying_with(store, Arc::new(TestPaymentGateway::new()), secrets).await
}

/// [`shop`] whose charges and refunds go through `payments`.
async fn shop_paying_with(
    store: Arc<InMemoryCommerceStore>,
    payments: Arc<TestPaymentGateway>,
    secrets: &[&str],
) -> axum::Router {
    let repository = Arc::new(MemorySiteRepository::new());
    repository.replace_site(&site()).await.unwrap();
    let pages = Arc::new(PageService::new(repository.clone()));
    let carts =
        CartService::new(repository.clone(), store, StoreRules::default()).with_payments(payments);
    let state = AppState::new(pages, repository, Arc::new(fixture_assets()), config())
        .with_carts(Arc::new(carts));
    let state = if secrets.is_empty() {
        state
    } else {
        state.with_payment_reports(Arc::new(StripeWebhooks::new(
            secrets.iter().map(|text| secret(text)).collect(),
        )))
    };
    vitrine_http::router(state)
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

fn event(id: &str, kind: &str, object: serde_json::Value) -> String {
    serde_json::json!({ "id": id, "object": "event", "type": kind, "data": { "object": object } })
        .to_string()
}

fn refunded(id: &str, payment_intent: &str) -> String {
    event(
        id,
        "charge.refunded",
        serde_json::json!({ "id": "ch_1", "object": "charge", "payment_intent": payment_intent, "refunded": true }),
    )
}

/// A POST as Stripe sends it: no cookie, no crumb, no Origin.
async fn deliver(app: &axum::Router, signature: &str, body: &str) -> Answer {
    let request = Request::post(PATH)
        .header("content-type", "application/json; charset=utf-8")
        .header("stripe-signature", signature)
        .body(Body::from(body.to_owned()))
        .unwrap();
    send(app, request).await
}

async fn status_of(store: &InMemoryCommerceStore, order_id: &str) -> PaymentStatus {
    store.order(order_id).await.unwrap().unwrap().payment_status
}

#[tokio::test]
async fn a_signed_refund_moves_its_order_once_however_often_it_is_delivered() {
    let store = Arc::new(InMemoryCommerceStore::new());
    let order = place_order_paid_with(&*store, 1, "pi_paid").await;
    let app = shop(store.clone(), &["whsec_current"]).await;
    let body = refunded("evt_refund", "pi_paid");
    let signature = secret("whsec_current").signature_header(now(), body.as_bytes());

    let first = deliver(&app, &signature, &body).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text());
    assert_eq!(
        first.json(),
        serde_json::json!({ "received": true, "outcome": "recorded" })
    );
    assert_eq!(status_of(&store, &order.id).await, PaymentStatus::Refunded);

    // Stripe delivers again (it did not see the answer), signed anew.
    let again = secret("whsec_current").signature_header(now() + 1, body.as_bytes());
    let duplicate = deliver(&app, &again, &body).await;
    assert_eq!(duplicate.status, StatusCode::OK);
    assert_eq!(duplicate.json()["outcome"], "duplicate");
    // A captured request replayed as it was, within the tolerance: taken once all the same.
    let replayed = deliver(&app, &signature, &body).await;
    assert_eq!(replayed.status, StatusCode::OK);
    assert_eq!(replayed.json()["outcome"], "duplicate");
    assert_eq!(status_of(&store, &order.id).await, PaymentStatus::Refunded);
}

#[tokio::test]
async fn an_event_without_a_valid_signature_changes_nothing() {
    let store = Arc::new(InMemoryCommerceStore::new());
    let order = place_order_paid_with(&*store, 1, "pi_paid").await;
    let app = shop(store.clone(), &["whsec_current"]).await;
    let body = refunded("evt_forged", "pi_paid");
    let forged = secret("whsec_guessed").signature_header(now(), body.as_bytes());
    let genuine_for_other_body = secret("whsec_current").signature_header(now(), b"{}");
    for signature in [
        forged.as_str(),
        genuine_for_other_body.as_str(),
        "",
        "t=1,v1=zz",
    ] {
        let refused = deliver(&app, signature, &body).await;
        assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{signature}");
        assert_eq!(
            refused.json()["error"],
            "The event's signature could not be verified."
        );
    }
    // Signed with the right secret, but six minutes ago: a captured request sent later.
    let old = secret("whsec_current").signature_header(now() - 360, body.as_bytes());
    assert_eq!(
        deliver(&app, &old, &body).await.status,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(status_of(&store, &order.id).await, PaymentStatus::Paid);
    // The refused event was not recorded: once signed properly it is taken.
    let valid = secret("whsec_current").signature_header(now(), body.as_bytes());
    assert_eq!(
        deliver(&app, &valid, &body).await.json()["outcome"],
        "recorded"
    );
}

#[tokio::test]
async fn every_secret_of_a_rotation_is_accepted() {
    let store = Arc::new(InMemoryCommerceStore::new());
    let order = place_order_paid_with(&*store, 1, "pi_paid").await;
    let app = shop(store.clone(), &["whsec_old", "whsec_new"]).await;
    let dispute = event(
        "evt_dispute",
        "charge.dispute.created",
        serde_json::json!({ "id": "dp_1", "object": "dispute", "charge": "ch_1", "payment_intent": "pi_paid" }),
    );
    let by_old = secret("whsec_old").signature_header(now(), dispute.as_bytes());
    assert_eq!(
        deliver(&app, &by_old, &dispute).await.status,
        StatusCode::OK
    );
    assert_eq!(status_of(&store, &order.id).await, PaymentStatus::Disputed);
    let other = refunded("evt_refund", "pi_paid");
    let by_new = secret("whsec_new").signature_header(now(), other.as_bytes());
    assert_eq!(deliver(&app, &by_new, &other).await.status, StatusCode::OK);
    assert_eq!(
        status_of(&store, &order.id).await,
        PaymentStatus::Disputed,
        "a refund after a dispute leaves it for the owner to answer"
    );
}

#[tokio::test]
async fn an_unknown_event_kind_is_acknowledged_and_ignored() {
    let store = Arc::new(InMemoryCommerceStore::new());
    let order = place_order_paid_with(&*store, 1, "pi_paid").await;
    let app = shop(store.clone(), &["whsec_current"]).await;
    let body = event(
        "evt_customer",
        "customer.created",
        serde_json::json!({ "id": "cus_1", "object": "customer" }),
    );
    let signature = secret("whsec_current").signature_header(now(), body.as_bytes());
    let answer = deliver(&app, &signature, &body).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(
        answer.json(),
        serde_json::json!({ "received": true, "outcome": "ignored" })
    );
    assert_eq!(status_of(&store, &order.id).await, PaymentStatus::Paid);
    // A signed body that is not an event is refused, so Stripe's retries show it.
    let broken = "{\"id\":1}";
    let signature = secret("whsec_current").signature_header(now(), broken.as_bytes());
    assert_eq!(
        deliver(&app, &signature, broken).await.status,
        StatusCode::BAD_REQUEST
    );
}

#[tokio::test]
async fn without_a_signing_secret_the_webhook_is_not_there() {
    let store = Arc::new(InMemoryCommerceStore::new());
    let app = shop(store, &[]).await;
    let body = refunded("evt_refund", "pi_paid");
    let signature = secret("whsec_current").signature_header(now(), body.as_bytes());
    assert_eq!(
        deliver(&app, &signature, &body).await.status,
        StatusCode::NOT_FOUND
    );
}

/// An intent's event as Stripe sends it, naming the checkout attempt's key.
fn intent_event(id: &str, kind: &str, intent: &str, key: &str) -> String {
    event(
        id,
        kind,
        serde_json::json!({
            "id": intent,
            "object": "payment_intent",
            "amount": 1000,
            "currency": "usd",
            "metadata": { "vitrine_idempotency_key": key },
        }),
    )
}

#[tokio::test]
async fn a_success_delivered_after_its_order_failed_is_refunded_once_and_the_order_stays_failed() {
    let store = Arc::new(InMemoryCommerceStore::new());
    let order = place_pending_order(&*store, 1).await;
    let payments = Arc::new(TestPaymentGateway::new());
    let app = shop_paying_with(store.clone(), payments.clone(), &["whsec_current"]).await;
    let signed = |body: &str| secret("whsec_current").signature_header(now(), body.as_bytes());

    let cancelled = intent_event(
        "evt_cancelled",
        "payment_intent.canceled",
        "pi_late",
        &order.payment_key,
    );
    assert_eq!(
        deliver(&app, &signed(&cancelled), &cancelled).await.status,
        StatusCode::OK
    );
    assert_eq!(status_of(&store, &order.id).await, PaymentStatus::Failed);

    let late = intent_event(
        "evt_late",
        "payment_intent.succeeded",
        "pi_late",
        &order.payment_key,
    );
    for _ in 0..2 {
        let answer = deliver(&app, &signed(&late), &late).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    }
    assert_eq!(
        payments.refunded(),
        vec!["pi_late".to_owned()],
        "the late charge goes back, once however often it is delivered"
    );
    assert_eq!(
        status_of(&store, &order.id).await,
        PaymentStatus::Failed,
        "the order gave its stock and cart back when it failed, so it is not paid now"
    );
    assert!(store.failed_refunds().await.unwrap().is_empty());
}
