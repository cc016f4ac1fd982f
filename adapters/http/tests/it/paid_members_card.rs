//! A paid member area bought with Stripe's own card fields through the router, against the
//! local fake: the signed-in buyer who types somebody else's confirmed address is the one
//! the subscription is recorded with, and becomes the member once the payment succeeds,
//! whether the browser's return or Stripe's webhook settles it first; a webhook alone (the
//! buyer never comes back) is enough.

use std::sync::Arc;

use axum::http::StatusCode;
use vitrine_core::checkout::{
    CartService, CommerceStore, InMemoryCommerceStore, OrderLinkKey, PaymentStatus, RenewalService,
    SubscriptionLinks,
};
use vitrine_services::stripe_fake::{BrowserStep, FakeStripe, cards};

use crate::card_payment::{gateway_of, last_event_delivered, order_id, webhooks};
use crate::cart::idempotency_key;
use crate::members::{Members, members_with};
use crate::paid_members::{
    CARD, membership_seen, paid_site, plan_checkout, shop_rules, with_cookies,
};

/// Where the pages are said to be, for the absolute return address Stripe needs.
const SITE: &str = "http://shop.test";

/// The paid members' site paying through Stripe's fields on the fake.
struct CardMembers {
    app: Members,
    fake: FakeStripe,
    store: Arc<InMemoryCommerceStore>,
}

async fn card_members() -> CardMembers {
    let fake = FakeStripe::start().await;
    let gateway = gateway_of(&fake);
    let store = Arc::new(InMemoryCommerceStore::new());
    let orders = store.clone();
    let app = members_with(&paid_site(), move |state, repository| {
        let renewals = RenewalService::new(
            orders.clone(),
            gateway.clone(),
            SubscriptionLinks::new(SITE, &OrderLinkKey::new([7; 32])),
        );
        let carts = CartService::new(repository, orders, shop_rules())
            .with_payments(gateway)
            .with_renewals(renewals);
        state
            .with_carts(Arc::new(carts))
            .with_payment_reports(webhooks())
    })
    .await;
    CardMembers { app, fake, store }
}

/// Ada, signed in, opens the card fields' payment of the plan with Bo's confirmed address
/// typed in, and pays with a card that needs no verification: Ada's session, her cart, and
/// where Stripe sends her browser back to.
async fn ada_pays_typing_bos_address(shop: &CardMembers, ada: &str) -> (String, String) {
    let (cart, html) = plan_checkout(&shop.app, Some(ada)).await;
    let fields: String = CARD
        .split('&')
        .map(str::trim)
        .filter(|pair| !pair.starts_with("card"))
        .collect::<Vec<_>>()
        .join("&");
    let body = format!(
        "{fields}&email=bo%40example.com&idempotencyKey={}",
        idempotency_key(&html)
    );
    let mut request = with_cookies("POST", "/checkout/card-payment", &body, &cart, Some(ada));
    request
        .headers_mut()
        .insert("accept", "application/json".parse().unwrap());
    let opened = shop.app.send(request).await;
    assert_eq!(opened.status, StatusCode::OK, "{}", opened.text());
    let step = opened.json();
    assert_eq!(step["next"], "confirm", "{step}");
    let return_url = format!("{SITE}{}", step["returnPath"].as_str().unwrap());
    let paid = shop
        .fake
        .confirm_in_browser(
            step["clientSecret"].as_str().unwrap(),
            cards::SUCCEEDS,
            &return_url,
        )
        .await;
    let BrowserStep::Return(back) = paid else {
        panic!("back to the shop: {paid:?}");
    };
    (cart, back)
}

/// Ada's browser arriving back at the shop from Stripe; where it is sent on.
async fn returns(shop: &CardMembers, back: &str, cart: &str, ada: &str) -> String {
    let path = back.strip_prefix(SITE).expect("an address of this site");
    let resumed = shop
        .app
        .send(with_cookies("GET", path, "", cart, Some(ada)))
        .await;
    assert_eq!(resumed.status, StatusCode::SEE_OTHER, "{}", resumed.text());
    let location = resumed.header("location").to_owned();
    assert!(
        location.starts_with("/commerce/orders/order-") && location.ends_with("/membership"),
        "{location}"
    );
    location
}

/// The subscription of the order Stripe sent the browser back for, with the account it
/// is recorded for.
async fn recorded_holder(shop: &CardMembers, back: &str) -> Option<String> {
    let order = order_id(back);
    shop.store
        .subscription(&format!("{order}-subscription"))
        .await
        .unwrap()
        .expect("the subscription started")
        .account
}

/// The account id behind the session `session`.
async fn account_id(shop: &CardMembers, session: &str) -> String {
    let account = shop
        .app
        .send(crate::members::page(
            "/api/site-users/account",
            Some(session),
        ))
        .await
        .json();
    account["id"].as_str().expect("the account's id").to_owned()
}

#[tokio::test]
async fn the_signed_in_buyer_paying_in_stripes_fields_is_the_member_whatever_address_was_typed() {
    let shop = card_members().await;
    let bo = shop.app.member("bo@example.com").await;
    let ada = shop.app.member("ada@example.com").await;
    let (cart, back) = ada_pays_typing_bos_address(&shop, &ada).await;
    assert_eq!(
        recorded_holder(&shop, &back).await,
        Some(account_id(&shop, &ada).await),
        "recorded with Ada as the order was placed"
    );

    let location = returns(&shop, &back, &cart, &ada).await;
    let order = shop.store.order(&order_id(&back)).await.unwrap().unwrap();
    assert_eq!(order.payment_status, PaymentStatus::Paid);
    assert_eq!(order.email, "bo@example.com");
    assert_eq!(
        membership_seen(&shop.app, &ada).await,
        (StatusCode::OK, serde_json::json!(["readers"])),
        "the signed-in buyer is the member"
    );
    // The membership page, which claims for the order's address, finds it recorded.
    let confirmed = shop
        .app
        .send(with_cookies("GET", &location, "", &cart, Some(&ada)))
        .await;
    assert_eq!(confirmed.status, StatusCode::OK, "{}", confirmed.text());
    // Stripe's webhook, arriving after the browser, changes nothing.
    let delivered = shop
        .app
        .send(last_event_delivered(&shop.fake, "payment_intent.succeeded"))
        .await;
    assert_eq!(delivered.status, StatusCode::OK, "{}", delivered.text());
    assert_eq!(
        membership_seen(&shop.app, &bo).await,
        (StatusCode::FORBIDDEN, serde_json::json!([])),
        "the typed address's account gets nothing"
    );
}

#[tokio::test]
async fn stripes_webhook_alone_makes_the_signed_in_buyer_the_member_and_the_late_return_keeps_it() {
    let shop = card_members().await;
    let bo = shop.app.member("bo@example.com").await;
    let ada = shop.app.member("ada@example.com").await;
    let (cart, back) = ada_pays_typing_bos_address(&shop, &ada).await;
    assert_eq!(
        membership_seen(&shop.app, &ada).await,
        (StatusCode::FORBIDDEN, serde_json::json!([])),
        "not a member while the payment is pending"
    );

    // Ada closed the tab before the return address loaded; Stripe reports the payment.
    let delivered = shop
        .app
        .send(last_event_delivered(&shop.fake, "payment_intent.succeeded"))
        .await;
    assert_eq!(delivered.status, StatusCode::OK, "{}", delivered.text());
    let order = shop.store.order(&order_id(&back)).await.unwrap().unwrap();
    assert_eq!(order.payment_status, PaymentStatus::Paid);
    assert_eq!(
        membership_seen(&shop.app, &ada).await,
        (StatusCode::OK, serde_json::json!(["readers"])),
        "a member on Stripe's word alone, no page of ours seen"
    );
    assert_eq!(
        membership_seen(&shop.app, &bo).await,
        (StatusCode::FORBIDDEN, serde_json::json!([])),
        "the typed address's account gets nothing"
    );

    // The browser coming back late leads to the membership page, and changes nothing.
    let location = returns(&shop, &back, &cart, &ada).await;
    let confirmed = shop
        .app
        .send(with_cookies("GET", &location, "", &cart, Some(&ada)))
        .await;
    assert_eq!(confirmed.status, StatusCode::OK, "{}", confirmed.text());
    assert_eq!(
        membership_seen(&shop.app, &ada).await,
        (StatusCode::OK, serde_json::json!(["readers"]))
    );
    assert_eq!(
        membership_seen(&shop.app, &bo).await,
        (StatusCode::FORBIDDEN, serde_json::json!([]))
    );
    assert_eq!(
        recorded_holder(&shop, &back).await,
        Some(account_id(&shop, &ada).await)
    );
}
