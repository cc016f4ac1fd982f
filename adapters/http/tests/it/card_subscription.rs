//! A subscription bought with Stripe's own card fields through the router, against the local
//! fake: the subscription checkout shows the fields (told to keep the card) and takes no card
//! in its own form; the intent is opened for a new Stripe Customer with
//! `setup_future_usage=off_session`; after the bank's 3-D Secure approval the return address
//! leads to the subscription's page, and the card Stripe attached to the customer is recorded
//! on the subscription, so the renewal is charged off session to it.

use axum::http::StatusCode;
use vitrine_core::checkout::{CARD_FIELDS_NEED_JAVASCRIPT, RenewalResult, RenewalStore};
use vitrine_services::stripe_fake::{BrowserStep, cards};

use crate::card_payment::{Shop, open_request_with, opened, order_id, shop_over, visit};
use crate::cart::{form, idempotency_key};
use crate::donate_subscribe::{SUBSCRIBER, club_cart, kiln_and_club};
use crate::support::send;

/// The subscriber's form as the island posts it: every field but the card's.
fn without_card(fields: &str) -> String {
    fields
        .split('&')
        .map(str::trim)
        .filter(|pair| !pair.starts_with("card"))
        .collect::<Vec<_>>()
        .join("&")
}

/// A club in a new cart, at its subscription checkout: the cart's token, the page's form key
/// and the page.
async fn at_subscription_checkout(shop: &Shop) -> (String, String, String) {
    let token = club_cart(&shop.app).await;
    let entry = send(
        &shop.app,
        form("POST", "/commerce/goto-checkout", "", Some(&token)),
    )
    .await;
    let subscribe = entry.header("location").to_owned();
    assert!(subscribe.starts_with("/checkout/subscribe?"), "{subscribe}");
    let page = send(&shop.app, form("GET", &subscribe, "", Some(&token))).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text());
    let html = page.text();
    (token, idempotency_key(&html), html)
}

#[tokio::test]
async fn the_subscription_checkout_takes_the_card_in_stripes_fields_told_to_keep_it() {
    let shop = shop_over(kiln_and_club().await).await;
    let (token, key, html) = at_subscription_checkout(&shop).await;
    assert!(html.contains("data-island=\"card-payment\""), "{html}");
    let props = html
        .split("saveForRenewals")
        .nth(1)
        .expect("the fields are told about renewals");
    assert!(props[..12].contains(":true"), "{html}");
    assert!(
        !html.contains("name=\"cardNumber\""),
        "no card field of ours: {html}"
    );
    // Posted without JavaScript (and so with whatever card it carried): nothing is placed.
    let subscribe = format!("/checkout/subscribe?cartToken={token}");
    let posted = send(
        &shop.app,
        form(
            "POST",
            &subscribe,
            &format!("{SUBSCRIBER}&idempotencyKey={key}"),
            Some(&token),
        ),
    )
    .await;
    assert_eq!(posted.status, StatusCode::BAD_REQUEST);
    assert!(posted.text().contains(CARD_FIELDS_NEED_JAVASCRIPT));
    assert_eq!(shop.fake.requests(), 0, "Stripe was not asked");
}

#[tokio::test]
async fn a_subscription_paid_through_3d_secure_keeps_its_card_and_renews_off_session() {
    let shop = shop_over(kiln_and_club().await).await;
    let (token, key, _) = at_subscription_checkout(&shop).await;
    let fields = without_card(SUBSCRIBER);
    let (secret, return_url) = opened(&shop, open_request_with(&fields, &token, &key)).await;
    // A double click opens the same intent for the same customer.
    let (again, _) = opened(&shop, open_request_with(&fields, &token, &key)).await;
    assert_eq!(secret, again);
    let customers = shop.fake.customers();
    assert_eq!(customers.len(), 1, "{customers:?}");
    assert_eq!(customers[0].1, "club@example.com");
    let intents = shop.fake.payment_intents();
    assert_eq!(intents.len(), 1, "{intents:?}");
    assert_eq!(intents[0].customer, customers[0].0);
    assert_eq!(intents[0].setup_future_usage, "off_session");
    assert_eq!(intents[0].card_last4, "", "no card went from the server");

    // A card whose bank verifies it once, when it is set up for renewals.
    let step = shop
        .fake
        .confirm_in_browser(&secret, cards::AUTHENTICATION_UNLESS_SET_UP, &return_url)
        .await;
    let BrowserStep::Bank(bank) = step else {
        panic!("the bank's page: {step:?}");
    };
    let back = shop.fake.answer_bank(&bank, true).await;
    let resumed = visit(&shop, &back, &token).await;
    assert_eq!(resumed.status, StatusCode::SEE_OTHER, "{}", resumed.text());
    let order = order_id(&return_url);
    let subscription_page = format!("/commerce/subscriptions/{order}-subscription/confirmed");
    assert_eq!(resumed.header("location"), subscription_page);
    let page = send(&shop.app, form("GET", &subscription_page, "", Some(&token))).await;
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(page.page_context()["pageType"], 206);

    let subscription = shop
        .store
        .find_subscription(&format!("{order}-subscription"))
        .await
        .unwrap()
        .expect("the subscription started");
    let method = shop.fake.payment_intents()[0].payment_method.clone();
    assert!(method.starts_with("pm_"), "{method}");
    assert_eq!(
        subscription.payment_method.as_deref(),
        Some(format!("{}:{method}", customers[0].0).as_str()),
        "the card Stripe attached is the subscription's"
    );
    // Loading the return again records nothing twice.
    let reloaded = visit(&shop, &back, &token).await;
    assert_eq!(reloaded.header("location"), subscription_page);

    // The renewal is charged to the kept card without the shopper.
    let due = subscription.next_billing.expect("a next payment");
    let renewed = shop.renewals.renew(&subscription, due).await.unwrap();
    let RenewalResult::Paid { payment_id } = renewed else {
        panic!("renewed: {renewed:?}");
    };
    let intents = shop.fake.payment_intents();
    let renewal = intents
        .iter()
        .find(|intent| intent.id == payment_id)
        .expect("the renewal's intent");
    assert_eq!(renewal.status, "succeeded");
    assert_eq!(renewal.customer, customers[0].0);
    assert_eq!(renewal.payment_method, method);
    assert_eq!(
        renewal.card_last4,
        cards::AUTHENTICATION_UNLESS_SET_UP[12..]
    );
}
