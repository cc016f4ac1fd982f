//! The subscription page the renewal mails link to: it opens with the mail's signature only,
//! shows where the subscription stands, and its forms pause, resume, cancel or save a new
//! card through the renewal service, each answered with a redirect back to the page.

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use vitrine_core::cart::{CartState, CartToken, Purchasable, Stock, StoreRules, Timestamp};
use vitrine_core::catalog::{BillingPeriod, BillingUnit, Sku, SubscriptionPlan};
use vitrine_core::checkout::{
    CommerceStore, IdempotencyKey, InMemoryCommerceStore, Order, OrderLinkKey, RenewalService,
    RenewalStore, SubscriptionLinks, SubscriptionStatus, TestPaymentGateway,
};
use vitrine_core::pages::PageService;
use vitrine_http::AppState;

use crate::support::{config, fetch, fixture_assets, repository, send};

const ID: &str = "order-club-subscription";

pub fn now() -> Timestamp {
    let millis = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis();
    Timestamp(i64::try_from(millis).unwrap())
}

/// Places `order_id`, a monthly Clay Club ($19.00) bought by `email` now and paid with the
/// test gateway; its subscription `{order_id}-subscription` starts with it.
pub async fn club_order(store: &InMemoryCommerceStore, order_id: &str, email: &str) {
    let started = now();
    let item = Purchasable {
        subscription_plan: Some(SubscriptionPlan {
            num_billing_cycles: None,
            billing_period: BillingPeriod {
                value: 1,
                unit: BillingUnit::Month,
            },
        }),
        ..Purchasable::new(
            "club",
            "Clay Club",
            vitrine_core::enums::ProductType::Service,
            Sku::parse("CLUB").unwrap(),
            1_900,
            Stock::Unlimited,
        )
    };
    let mut cart = CartState::new("cart", "site", started);
    cart.add_item(&item, 1).unwrap();
    let token = CartToken::parse(format!("{order_id}-cart-token")).unwrap();
    store.save_cart(&token, &cart).await.unwrap();
    let priced = cart.price(&StoreRules::default(), started);
    let key = IdempotencyKey::parse(format!("{order_id}-key")).unwrap();
    let mut order = Order::from_cart(&priced, order_id, key, token, email, started).unwrap();
    order.payment_id = format!("test_ch_{order_id}");
    store.place_order(&order, &[]).await.unwrap();
}

/// The fixture site's router with a store holding one monthly subscription.
async fn app() -> (Router, Arc<InMemoryCommerceStore>, SubscriptionLinks) {
    let store = Arc::new(InMemoryCommerceStore::new());
    club_order(&store, "order-club", "member@example.com").await;
    let links = SubscriptionLinks::new("http://shop.test", &OrderLinkKey::new([9; 32]));
    let renewals = RenewalService::new(
        store.clone(),
        Arc::new(TestPaymentGateway::new()),
        links.clone(),
    );
    let repository = repository().await;
    let state = AppState::new(
        Arc::new(PageService::new(repository.clone())),
        repository,
        Arc::new(fixture_assets()),
        config(),
    )
    .with_renewals(Arc::new(renewals));
    (vitrine_http::router(state), store, links)
}

fn path_of(link: &str) -> String {
    link.trim_start_matches("http://shop.test").to_owned()
}

fn post(path: &str, body: &str) -> Request<Body> {
    Request::post(path)
        .header("sec-fetch-site", "same-origin")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from(body.to_owned()))
        .unwrap()
}

/// Posts `action` from the page and follows the redirect back to it; the page's text.
async fn act(router: &Router, page: &str, action: &str, body: &str) -> String {
    let (path, query) = page.split_once('?').unwrap();
    let answer = send(router, post(&format!("{path}/{action}?{query}"), body)).await;
    assert_eq!(answer.status, StatusCode::SEE_OTHER, "{}", answer.text());
    let location = answer.header("location").to_owned();
    assert!(location.starts_with(path), "{location}");
    let shown = fetch(router, &location).await;
    assert_eq!(shown.status, StatusCode::OK);
    shown.text()
}

#[tokio::test]
async fn the_signed_link_opens_the_page_and_nothing_else_does() {
    let (router, _, links) = app().await;
    let page = path_of(&links.manage(ID, now()));
    let answer = fetch(&router, &page).await;
    assert_eq!(answer.status, StatusCode::OK);
    let text = answer.text();
    assert!(
        text.contains("Your subscription to Clay Club is active."),
        "{text}"
    );
    assert!(text.contains("Pause the subscription") && text.contains("Cancel the subscription"));
    assert!(text.contains("Update your card"));
    for refused in [
        format!("/commerce/subscriptions/{ID}"),
        format!("/commerce/subscriptions/{ID}?sig=1.00"),
        page.replace(ID, "order-other-subscription"),
    ] {
        assert_eq!(
            fetch(&router, &refused).await.status,
            StatusCode::NOT_FOUND,
            "{refused}"
        );
    }
    let (path, query) = page.split_once('?').unwrap();
    let forged = send(&router, post(&format!("{path}/cancel?sig=9.ab"), "")).await;
    assert_eq!(forged.status, StatusCode::NOT_FOUND);
    let unknown = send(&router, post(&format!("{path}/delete?{query}"), "")).await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_shopper_pauses_resumes_saves_a_card_and_cancels_from_the_page() {
    let (router, store, links) = app().await;
    let page = path_of(&links.manage(ID, now()));
    let paused = act(&router, &page, "pause", "").await;
    assert!(paused.contains("Your subscription is paused."), "{paused}");
    assert!(paused.contains("Resume the subscription"));
    let resumed = act(&router, &page, "resume", "").await;
    assert!(
        resumed.contains("Your subscription is running again."),
        "{resumed}"
    );
    let refused = act(
        &router,
        &page,
        "card",
        "cardNumber=1234&cardExpiry=12%2F40&cardCvc=123",
    )
    .await;
    assert!(
        refused.contains("That card could not be saved."),
        "{refused}"
    );
    let saved = act(
        &router,
        &page,
        "card",
        "cardNumber=4242+4242+4242+4242&cardExpiry=12%2F40&cardCvc=123",
    )
    .await;
    assert!(saved.contains("Your new card is saved."), "{saved}");
    let stored = store.find_subscription(ID).await.unwrap().unwrap();
    assert_eq!(stored.payment_method.as_deref(), Some("test_pm_4242"));
    let cancelled = act(&router, &page, "cancel", "").await;
    assert!(
        cancelled.contains("You will not be charged again."),
        "{cancelled}"
    );
    assert!(!cancelled.contains("Pause the subscription"));
    let again = act(&router, &page, "pause", "").await;
    assert!(
        again.contains("That is not possible for this subscription now."),
        "{again}"
    );
    let stored = store.find_subscription(ID).await.unwrap().unwrap();
    assert_eq!(stored.status, SubscriptionStatus::Cancelled);
    let subjects: Vec<String> = store
        .renewal_mails()
        .into_iter()
        .map(|mail| mail.subject)
        .collect();
    assert_eq!(
        subjects,
        vec![
            "Your Clay Club subscription is paused",
            "Your Clay Club subscription is resumed",
            "Your card for Clay Club is updated",
            "Your Clay Club subscription is cancelled",
        ]
    );
}
