//! The owner's calls on an order after checkout through the router: behind the owner
//! credential and the crumb, a refund by units puts them back in stock and mails the
//! shopper, the rules' refusals answer 409 with the reason, and an order sent with its
//! tracking link can no longer be cancelled.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use vitrine_core::cart::Stock;
use vitrine_core::catalog::Sku;
use vitrine_core::checkout::{
    CartService, CommerceStore, InMemoryCommerceStore, OrderAftercareService, TEST_CARD_SUCCEEDS,
};
use vitrine_core::consent::MemoryConsentReceiptStore;
use vitrine_core::forms::SiteLinks;
use vitrine_core::pages::PageService;
use vitrine_http::AppState;

use crate::cart::{CHECKOUT_FIELDS, at_checkout, form};
use crate::support::{config, fixture_assets, send};

const TOKEN: &str = "owner-secret-owner-secret-owner-secret";
const CRUMB: &str = "test-crumb";

async fn shop(store: Arc<InMemoryCommerceStore>) -> axum::Router {
    let repository = crate::support::repository().await;
    let carts = CartService::new(
        repository.clone(),
        store.clone(),
        vitrine_core::checkout::conformance::flat_rate_rules(),
    );
    let aftercare = OrderAftercareService::new(
        store,
        carts.payments().clone(),
        SiteLinks::new("https://shop.example"),
    );
    let state = AppState::new(
        Arc::new(PageService::new(repository.clone())),
        repository,
        Arc::new(fixture_assets()),
        config(),
    )
    .with_carts(Arc::new(carts))
    .with_order_aftercare(Arc::new(aftercare))
    .with_consent_receipts(
        Arc::new(MemoryConsentReceiptStore::new()),
        Some(TOKEN.to_owned()),
    );
    vitrine_http::router(state)
}

/// A paid order of 2 totes; its id.
async fn paid_order(app: &axum::Router) -> String {
    let (token, key) = at_checkout(app, 2).await;
    let paid = send(
        app,
        form(
            "POST",
            "/checkout",
            &format!("{CHECKOUT_FIELDS}&cardNumber={TEST_CARD_SUCCEEDS}&idempotencyKey={key}"),
            Some(&token),
        ),
    )
    .await;
    assert_eq!(paid.status, StatusCode::SEE_OTHER, "{}", paid.text());
    let location = paid.header("location");
    location
        .trim_start_matches("/commerce/orders/")
        .trim_end_matches("/confirmed")
        .to_owned()
}

fn owner(method: &str, path: &str, body: &str) -> Request<Body> {
    Request::builder()
        .method(method)
        .uri(format!("{path}?crumb={CRUMB}"))
        .header("authorization", format!("Bearer {TOKEN}"))
        .header("cookie", format!("crumb={CRUMB}"))
        .header("content-type", "application/json")
        .body(Body::from(body.to_owned()))
        .unwrap()
}

async fn totes(store: &InMemoryCommerceStore) -> Option<Stock> {
    store.stock(&Sku::parse("TOTE-1").unwrap()).await.unwrap()
}

#[tokio::test]
async fn an_owner_refunds_units_back_to_stock_and_the_shopper_is_mailed() {
    let store = Arc::new(InMemoryCommerceStore::new());
    let app = shop(store.clone()).await;
    let order = paid_order(&app).await;
    let path = format!("/api/commerce/orders/{order}");

    let anonymous = send(
        &app,
        Request::get(format!("{path}/aftercare"))
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(anonymous.status, StatusCode::NOT_FOUND);
    let shown = send(&app, owner("GET", &format!("{path}/aftercare"), "")).await;
    assert_eq!(shown.status, StatusCode::OK);
    let shown = shown.json();
    assert_eq!(shown["paymentStatus"], "paid");
    assert_eq!(shown["fulfilment"], "open");
    let charged = shown["grandTotalCents"].as_i64().unwrap();
    assert_eq!(shown["refundableCents"].as_i64(), Some(charged));
    let before = totes(&store).await;

    let refunded = send(
        &app,
        owner(
            "POST",
            &format!("{path}/refunds"),
            r#"{"lines":[{"sku":"TOTE-1","quantity":1}]}"#,
        ),
    )
    .await;
    assert_eq!(refunded.status, StatusCode::CREATED, "{}", refunded.text());
    let refund = refunded.json();
    assert_eq!(refund["state"], "refunded");
    assert_eq!(refund["id"], format!("{order}-refund-1"));
    let Some(Stock::Limited(left)) = before else {
        panic!("the tote's stock is counted: {before:?}")
    };
    assert_eq!(totes(&store).await, Some(Stock::Limited(left + 1)));
    let mails = store.aftercare_mails();
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].subject, "Your refund");
    assert!(mails[0].html.as_deref().unwrap().contains("1 x "));

    let too_much = send(
        &app,
        owner(
            "POST",
            &format!("{path}/refunds"),
            &format!(r#"{{"amountCents":{charged}}}"#),
        ),
    )
    .await;
    assert_eq!(too_much.status, StatusCode::CONFLICT);
    assert!(
        too_much.json()["error"]
            .as_str()
            .unwrap()
            .contains("left to refund")
    );
    let unknown_sku = send(
        &app,
        owner(
            "POST",
            &format!("{path}/refunds"),
            r#"{"lines":[{"sku":"NOPE-1","quantity":1}]}"#,
        ),
    )
    .await;
    assert_eq!(unknown_sku.status, StatusCode::CONFLICT);
    let no_crumb = send(
        &app,
        Request::post(format!("{path}/refunds"))
            .header("authorization", format!("Bearer {TOKEN}"))
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_ne!(no_crumb.status, StatusCode::CREATED);
}

#[tokio::test]
async fn a_sent_order_keeps_its_tracking_link_and_cannot_be_cancelled() {
    let store = Arc::new(InMemoryCommerceStore::new());
    let app = shop(store.clone()).await;
    let order = paid_order(&app).await;
    let path = format!("/api/commerce/orders/{order}");
    let bad = send(
        &app,
        owner(
            "POST",
            &format!("{path}/fulfilment"),
            r#"{"trackingUrl":"ftp://x"}"#,
        ),
    )
    .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    let sent = send(
        &app,
        owner(
            "POST",
            &format!("{path}/fulfilment"),
            r#"{"trackingUrl":"https://track.example/parcel/42"}"#,
        ),
    )
    .await;
    assert_eq!(sent.status, StatusCode::NO_CONTENT, "{}", sent.text());
    let shown = send(&app, owner("GET", &format!("{path}/aftercare"), ""))
        .await
        .json();
    assert_eq!(shown["fulfilment"], "fulfilled");
    assert_eq!(shown["trackingUrl"], "https://track.example/parcel/42");
    let cancelled = send(&app, owner("POST", &format!("{path}/cancellation"), "")).await;
    assert_eq!(cancelled.status, StatusCode::CONFLICT);
    let mails = store.aftercare_mails();
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].subject, "Your order has shipped");
    assert!(mails[0].text.contains("https://track.example/parcel/42"));
}

#[tokio::test]
async fn a_cancelled_order_is_refunded_whole_and_its_units_restocked() {
    let store = Arc::new(InMemoryCommerceStore::new());
    let app = shop(store.clone()).await;
    let order = paid_order(&app).await;
    let Some(Stock::Limited(left)) = totes(&store).await else {
        panic!("the tote's stock is counted")
    };
    let path = format!("/api/commerce/orders/{order}");
    let charged = send(&app, owner("GET", &format!("{path}/aftercare"), ""))
        .await
        .json()["grandTotalCents"]
        .as_i64()
        .unwrap();
    let cancelled = send(&app, owner("POST", &format!("{path}/cancellation"), "")).await;
    assert_eq!(cancelled.status, StatusCode::OK, "{}", cancelled.text());
    assert_eq!(cancelled.json()["refundedCents"].as_i64(), Some(charged));
    assert_eq!(
        totes(&store).await,
        Some(Stock::Limited(left + 2)),
        "every unit is back"
    );
    let shown = send(&app, owner("GET", &format!("{path}/aftercare"), ""))
        .await
        .json();
    assert_eq!(shown["fulfilment"], "cancelled");
    assert_eq!(shown["refundableCents"], 0);
    let mails = store.aftercare_mails();
    assert_eq!(
        mails.len(),
        1,
        "one mail tells of the cancellation and its refund"
    );
    assert_eq!(mails[0].subject, "Your order was cancelled");
    let missing = send(
        &app,
        owner("GET", "/api/commerce/orders/order-nope/aftercare", ""),
    )
    .await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
}
