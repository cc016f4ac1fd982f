//! The owner's list of refunds the payment provider did not make: behind the owner token,
//! read from the commerce store's payment ledger, oldest first.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use vitrine_core::cart::{StoreRules, Timestamp};
use vitrine_core::checkout::{CartService, IdempotencyKey, InMemoryCommerceStore, PaymentLedger};
use vitrine_core::consent::MemoryConsentReceiptStore;
use vitrine_core::pages::PageService;
use vitrine_core::ports::SiteRepository;
use vitrine_core::ports::memory::MemorySiteRepository;
use vitrine_http::AppState;

use crate::support::{config, fetch, fixture_assets, send, site};

const OWNER_TOKEN: &str = "owner-secret-owner-secret-owner-secret";

async fn shop(store: Arc<InMemoryCommerceStore>) -> axum::Router {
    let repository = Arc::new(MemorySiteRepository::new());
    repository.replace_site(&site()).await.unwrap();
    let pages = Arc::new(PageService::new(repository.clone()));
    let carts = CartService::new(repository.clone(), store, StoreRules::default());
    let state = AppState::new(pages, repository, Arc::new(fixture_assets()), config())
        .with_carts(Arc::new(carts))
        .with_consent_receipts(
            Arc::new(MemoryConsentReceiptStore::new()),
            Some(OWNER_TOKEN.to_owned()),
        );
    vitrine_http::router(state)
}

fn as_owner(token: &str) -> Request<Body> {
    Request::get("/api/commerce/failed-refunds")
        .header("authorization", format!("Bearer {token}"))
        .body(Body::empty())
        .unwrap()
}

#[tokio::test]
async fn a_failed_refund_is_listed_for_the_owner_only() {
    let store = Arc::new(InMemoryCommerceStore::new());
    let app = shop(store.clone()).await;
    let empty = send(&app, as_owner(OWNER_TOKEN)).await;
    assert_eq!(empty.status, StatusCode::OK);
    assert_eq!(empty.json(), serde_json::json!({ "refunds": [] }));

    // A checkout's charge was asked back and the provider did not answer.
    let key = IdempotencyKey::parse("form-key-0001").unwrap();
    store
        .claim_for_refund("pi_lost", &key, Timestamp(1_795_269_600_000))
        .await
        .unwrap();
    store
        .record_refund_failure("pi_lost", "payment gateway unavailable: timed out")
        .await
        .unwrap();
    assert_eq!(store.failed_refunds().await.unwrap().len(), 1);

    let listed = send(&app, as_owner(OWNER_TOKEN)).await;
    assert_eq!(listed.status, StatusCode::OK);
    assert_eq!(
        listed.json(),
        serde_json::json!({ "refunds": [{
            "paymentId": "pi_lost",
            "idempotencyKey": "form-key-0001",
            "reason": "payment gateway unavailable: timed out",
            "claimedAt": 1_795_269_600_000_i64,
        }]})
    );
    for refused in [
        fetch(&app, "/api/commerce/failed-refunds").await,
        send(&app, as_owner("a-wrong-token-a-wrong-token-a-wrong")).await,
    ] {
        assert_eq!(refused.status, StatusCode::NOT_FOUND);
        assert!(!refused.text().contains("pi_lost"));
    }
}
