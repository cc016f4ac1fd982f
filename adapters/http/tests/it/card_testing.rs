//! The card-testing defence through the router: failed payments counted per cart, visitor
//! and address, the next attempt refused with 429 before the gateway is asked, and the
//! refusals in the owner's analytics report.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use vitrine_core::analytics::{BatchPolicy, MemoryAnalyticsStore};
use vitrine_core::checkout::{
    CardTestingGuard, CartService, FailedPaymentLimits, InMemoryCommerceStore, TEST_CARD_DECLINED,
    TEST_CARD_SUCCEEDS, TOO_MANY_FAILED_PAYMENTS,
};
use vitrine_core::consent::MemoryConsentReceiptStore;
use vitrine_core::forms::RateLimit;
use vitrine_core::forms::memory::MemoryRateLimiter;
use vitrine_core::pages::PageService;
use vitrine_http::{AppState, CensusLog};

use crate::cart::{CHECKOUT_FIELDS, at_checkout};
use crate::support::{config, fixture_assets, send};

const TOKEN: &str = "owner-secret";

fn per_hour(max: u32) -> RateLimit {
    RateLimit {
        max,
        window_seconds: 3600,
    }
}

/// The fixture shop counting failures within `limits`, with a census log and analytics
/// store the test flushes and reads.
async fn shop(
    limits: FailedPaymentLimits,
) -> (axum::Router, Arc<CensusLog>, Arc<MemoryAnalyticsStore>) {
    let repository = crate::support::repository().await;
    let log = Arc::new(CensusLog::new(BatchPolicy::default(), false));
    let store = Arc::new(MemoryAnalyticsStore::new());
    let carts = CartService::new(
        repository.clone(),
        Arc::new(InMemoryCommerceStore::new()),
        vitrine_core::checkout::conformance::flat_rate_rules(),
    )
    .with_card_testing(CardTestingGuard::new(
        Arc::new(MemoryRateLimiter::new()),
        limits,
    ));
    let state = AppState::new(
        Arc::new(PageService::new(repository.clone())),
        repository,
        Arc::new(fixture_assets()),
        config(),
    )
    .with_carts(Arc::new(carts))
    .with_census(log.clone())
    .with_analytics_store(store.clone())
    .with_consent_receipts(
        Arc::new(MemoryConsentReceiptStore::new()),
        Some(TOKEN.to_owned()),
    );
    (vitrine_http::router(state), log, store)
}

/// A checkout of the cart `token` with card `number`, from `peer` as visitor `crumb`.
fn pay(token: &str, key: &str, number: &str, peer: &str, crumb: &str) -> Request<Body> {
    let mut request = Request::post("/checkout")
        .header("content-type", "application/x-www-form-urlencoded")
        .header("sec-fetch-site", "same-origin")
        .header("cookie", format!("vitrine_cart={token}; crumb={crumb}"))
        .body(Body::from(format!(
            "{CHECKOUT_FIELDS}&cardNumber={number}&idempotencyKey={key}"
        )))
        .unwrap();
    request
        .extensions_mut()
        .insert(ConnectInfo(peer.parse::<SocketAddr>().unwrap()));
    request
}

#[tokio::test]
async fn five_declined_cards_refuse_the_sixth_payment_of_the_cart_and_the_owner_sees_it() {
    let (app, log, store) = shop(FailedPaymentLimits::default()).await;
    let (token, key) = at_checkout(&app, 1).await;
    // A script tries one card after another, each from a fresh visitor and address: the
    // cart is what they share.
    for attempt in 0..5 {
        let declined = send(
            &app,
            pay(
                &token,
                &key,
                TEST_CARD_DECLINED,
                &format!("192.0.2.{attempt}:1"),
                &format!("script{attempt}"),
            ),
        )
        .await;
        assert_eq!(declined.status, StatusCode::PAYMENT_REQUIRED, "{attempt}");
    }
    let refused = send(
        &app,
        pay(&token, &key, TEST_CARD_SUCCEEDS, "192.0.2.99:1", "script99"),
    )
    .await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
    let html = refused.text();
    assert!(html.contains(TOO_MANY_FAILED_PAYMENTS), "{html}");

    // Nothing was charged: the cart is not purchased and checks out once the hour is over
    // (here: another cart of an honest shopper pays at once).
    let (other, other_key) = at_checkout(&app, 1).await;
    let paid = send(
        &app,
        pay(
            &other,
            &other_key,
            TEST_CARD_SUCCEEDS,
            "198.51.100.1:1",
            "shopper",
        ),
    )
    .await;
    assert_eq!(paid.status, StatusCode::SEE_OTHER, "{}", paid.text());

    log.flush_due(&*store, i64::MAX).await.unwrap();
    let report = send(
        &app,
        Request::get("/api/analytics/report")
            .header("authorization", format!("Bearer {TOKEN}"))
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(report.status, StatusCode::OK);
    assert_eq!(
        report.json()["refusedPayments"],
        serde_json::json!([{ "key": "cart", "count": 1 }])
    );
}

#[tokio::test]
async fn failures_from_one_address_refuse_its_next_payment_whatever_its_cart_and_crumb() {
    // The fixture has three totes: two carts fail, the third is refused.
    let (app, _log, _store) = shop(FailedPaymentLimits {
        per_visitor: per_hour(100),
        per_cart: per_hour(100),
        per_address: per_hour(2),
    })
    .await;
    let peer = "203.0.113.5:1";
    for attempt in 0..2 {
        let (token, key) = at_checkout(&app, 1).await;
        let crumb = format!("rotating{attempt}");
        let declined = send(&app, pay(&token, &key, TEST_CARD_DECLINED, peer, &crumb)).await;
        assert_eq!(declined.status, StatusCode::PAYMENT_REQUIRED, "{attempt}");
    }
    let (token, key) = at_checkout(&app, 1).await;
    let refused = send(
        &app,
        pay(&token, &key, TEST_CARD_SUCCEEDS, peer, "rotating-again"),
    )
    .await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(refused.text().contains(TOO_MANY_FAILED_PAYMENTS));
    let elsewhere = send(
        &app,
        pay(
            &token,
            &key,
            TEST_CARD_SUCCEEDS,
            "203.0.113.6:1",
            "rotating-again",
        ),
    )
    .await;
    assert_eq!(
        elsewhere.status,
        StatusCode::SEE_OTHER,
        "another address pays"
    );
}
