//! What the order page says about the confirmation mail: it promises one only when the server
//! sends order mails (with SMTP configured), so a shopper is never told of a mail that never
//! comes.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use vitrine_core::checkout::conformance::flat_rate_rules;
use vitrine_core::checkout::{CartService, InMemoryCommerceStore, OrderMails};
use vitrine_core::pages::PageService;
use vitrine_http::AppState;

use crate::conversion_events::{CONSENTING, add_to_cart, place_order};
use crate::support::{config, fixture_assets, repository, send};

async fn shop(mails: OrderMails) -> axum::Router {
    let repository: Arc<dyn vitrine_core::ports::SiteRepository> = repository().await;
    let carts = CartService::new(
        repository.clone(),
        Arc::new(InMemoryCommerceStore::new()),
        flat_rate_rules(),
    )
    .with_order_mails(mails);
    let pages = Arc::new(PageService::new(repository.clone()));
    vitrine_http::router(
        AppState::new(pages, repository, Arc::new(fixture_assets()), config())
            .with_carts(Arc::new(carts)),
    )
}

async fn confirmation_page(mails: OrderMails) -> String {
    let router = shop(mails).await;
    let token = add_to_cart(&router, CONSENTING).await;
    let order_id = place_order(&router, CONSENTING, &token).await;
    let page = send(
        &router,
        Request::get(format!("/commerce/orders/{order_id}/confirmed"))
            .header("cookie", format!("vitrine_cart={token}"))
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(page.status, StatusCode::OK);
    page.text()
}

#[tokio::test]
async fn the_order_page_promises_a_confirmation_only_when_orders_send_mail() {
    let with_mail = confirmation_page(OrderMails {
        confirmation: true,
        review_request_delay_seconds: None,
    })
    .await;
    assert!(
        with_mail.contains(
            "Thank you. Your payment was received and your order is confirmed. \
             A confirmation goes to shopper@example.com."
        ),
        "{with_mail}"
    );
    let without = confirmation_page(OrderMails::default()).await;
    assert!(
        without.contains("Thank you. Your payment was received and your order is confirmed."),
        "{without}"
    );
    assert!(!without.contains("A confirmation goes to"), "{without}");
}
