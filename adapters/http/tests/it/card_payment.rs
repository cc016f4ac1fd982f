//! Checkout with Stripe's own card fields through the router, with the production Stripe
//! gateway pointed at the local fake: the checkout page loads the fields' script and alone
//! names Stripe's hosts in its Content-Security-Policy; the form without a card opens one
//! PaymentIntent per attempt after holding the stock and places the order as payment pending;
//! the return address resumes it on Stripe's own word (a 3-D Secure approval confirms it, a
//! failed verification or a decline says why and gives the cart back), and so does Stripe's
//! webhook. A card declined in the fields leaves the order waiting for another card on the
//! same intent; a cancelled intent fails it. No card number ever reaches the server on this path.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use vitrine_core::checkout::{
    CARD_FIELDS_NEED_JAVASCRIPT, CartService, CommerceStore, IdempotencyKey, InMemoryCommerceStore,
    OrderLinkKey, PaymentStatus, RenewalService, SubscriptionLinks,
};
use vitrine_core::pages::PageService;
use vitrine_core::ports::SiteRepository;
use vitrine_http::AppState;
use vitrine_services::stripe_fake::{
    BrowserStep, FAKE_PUBLISHABLE_KEY, FAKE_SECRET_KEY, FakeStripe, cards,
};
use vitrine_services::{
    StripeBrowser, StripeGateway, StripePublishableKey, StripeSecretKey, StripeWebhookSecret,
    StripeWebhooks,
};

use crate::cart::{CHECKOUT_FIELDS, at_checkout, form};
use crate::support::{Answer, config, fixture_assets, send};

const WEBHOOK_SECRET: &str = "whsec_cardpayment";

/// Where the pages are said to be, for the absolute return address Stripe needs.
const SITE: &str = "http://shop.test";

pub(crate) struct Shop {
    pub(crate) app: axum::Router,
    pub(crate) store: Arc<InMemoryCommerceStore>,
    pub(crate) fake: FakeStripe,
    /// Renewals through the same Stripe gateway, as `vitrine serve` wires them.
    pub(crate) renewals: RenewalService,
}

async fn shop() -> Shop {
    shop_over(crate::support::repository().await).await
}

/// The production Stripe gateway pointed at `fake`, with Stripe's fields for the browser.
pub(crate) fn gateway_of(fake: &FakeStripe) -> Arc<StripeGateway> {
    Arc::new(
        StripeGateway::new(
            fake.base().clone(),
            StripeSecretKey::parse(FAKE_SECRET_KEY).unwrap(),
        )
        .with_browser(StripeBrowser {
            publishable_key: StripePublishableKey::parse(FAKE_PUBLISHABLE_KEY).unwrap(),
            script_url: fake.base().join("/v3/").unwrap(),
        }),
    )
}

/// Stripe's webhook events, checked against the test endpoint's signing secret.
pub(crate) fn webhooks() -> Arc<StripeWebhooks> {
    Arc::new(StripeWebhooks::new(vec![
        StripeWebhookSecret::parse(WEBHOOK_SECRET).unwrap(),
    ]))
}

/// The last event `fake` sent, of `kind`, as Stripe delivers it to the webhook: signed now.
pub(crate) fn last_event_delivered(fake: &FakeStripe, kind: &str) -> Request<Body> {
    let event = fake.events().last().cloned().expect("an event");
    assert_eq!(event.kind, kind);
    let body = event.body.to_string();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    let signature = StripeWebhookSecret::parse(WEBHOOK_SECRET)
        .unwrap()
        .signature_header(now, body.as_bytes());
    Request::post("/api/commerce/stripe/webhook")
        .header("content-type", "application/json")
        .header("stripe-signature", signature)
        .body(Body::from(body))
        .unwrap()
}

/// The shop of `repository`'s site paying through Stripe's fields on the fake, keeping
/// subscription cards for renewals.
pub(crate) async fn shop_over(repository: Arc<dyn SiteRepository>) -> Shop {
    let rules = vitrine_core::checkout::conformance::flat_rate_rules();
    shop_with_rules(repository, rules).await
}

/// [`shop_over`] with the store rules `rules` (its coupons, shipping and taxes).
pub(crate) async fn shop_with_rules(
    repository: Arc<dyn SiteRepository>,
    rules: vitrine_core::cart::StoreRules,
) -> Shop {
    shop_with(repository, rules, |carts| carts).await
}

/// [`shop_with_rules`], its cart service given what `configure` adds (gift cards, mails).
pub(crate) async fn shop_with(
    repository: Arc<dyn SiteRepository>,
    rules: vitrine_core::cart::StoreRules,
    configure: impl FnOnce(CartService) -> CartService,
) -> Shop {
    let fake = FakeStripe::start().await;
    let gateway = gateway_of(&fake);
    let store = Arc::new(InMemoryCommerceStore::new());
    let renewals = || {
        RenewalService::new(
            store.clone(),
            gateway.clone(),
            SubscriptionLinks::new(SITE, &OrderLinkKey::new([7; 32])),
        )
    };
    let carts = configure(
        CartService::new(repository.clone(), store.clone(), rules)
            .with_payments(gateway.clone())
            .with_renewals(renewals()),
    );
    let state = AppState::new(
        Arc::new(PageService::new(repository.clone())),
        repository,
        Arc::new(fixture_assets()),
        config(),
    )
    .with_carts(Arc::new(carts))
    .with_payment_reports(webhooks());
    Shop {
        app: vitrine_http::router(state),
        renewals: renewals(),
        store,
        fake,
    }
}

/// The island's post of the checkout form: no card, the page's key.
fn open_request(token: &str, key: &str) -> Request<Body> {
    open_request_with(CHECKOUT_FIELDS, token, key)
}

/// The island's post of a checkout form filled with `fields` (none of them a card's).
pub(crate) fn open_request_with(fields: &str, token: &str, key: &str) -> Request<Body> {
    let mut request = form(
        "POST",
        "/checkout/card-payment",
        &format!("{fields}&idempotencyKey={key}"),
        Some(token),
    );
    request
        .headers_mut()
        .insert("accept", "application/json".parse().unwrap());
    request
}

/// The form's answer: the client secret and the absolute return address.
async fn open(shop: &Shop, token: &str, key: &str) -> (String, String) {
    opened(shop, open_request(token, key)).await
}

/// The answer to the island's post `request`: the client secret and the return address.
pub(crate) async fn opened(shop: &Shop, request: Request<Body>) -> (String, String) {
    let answer = send(&shop.app, request).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    let step = answer.json();
    assert_eq!(step["next"], "confirm", "{step}");
    // The island updates the fields to the amount the intent carries before confirming.
    let secret = step["clientSecret"].as_str().unwrap();
    let intent = shop
        .fake
        .payment_intents()
        .into_iter()
        .find(|intent| secret.starts_with(&format!("{}_secret_", intent.id)))
        .expect("the intent of the secret");
    assert_eq!(step["amountMinor"], intent.amount, "{step}");
    (
        step["clientSecret"].as_str().unwrap().to_owned(),
        format!("{SITE}{}", step["returnPath"].as_str().unwrap()),
    )
}

/// The shopper's browser arriving at an address of this site.
pub(crate) async fn visit(shop: &Shop, url: &str, token: &str) -> Answer {
    let path = url.strip_prefix(SITE).expect("an address of this site");
    send(&shop.app, form("GET", path, "", Some(token))).await
}

/// A 3-D Secure card confirmed in the browser, and the bank's answer; where the bank sends
/// the shopper back to.
async fn through_the_bank(shop: &Shop, secret: &str, return_url: &str, approve: bool) -> String {
    let step = shop
        .fake
        .confirm_in_browser(secret, cards::AUTHENTICATION_REQUIRED, return_url)
        .await;
    let BrowserStep::Bank(bank) = step else {
        panic!("the bank's page: {step:?}");
    };
    shop.fake.answer_bank(&bank, approve).await
}

/// A card declined in Stripe's fields for the intent of `secret`: the address Stripe.js
/// sends the shopper back to.
pub(crate) async fn declined_in_the_fields(shop: &Shop, secret: &str, return_url: &str) -> String {
    let step = shop
        .fake
        .confirm_in_browser(secret, cards::DECLINED, return_url)
        .await;
    let BrowserStep::Declined { return_url, .. } = step else {
        panic!("declined: {step:?}");
    };
    return_url
}

/// The order a return address names, as the store holds it.
async fn stored(shop: &Shop, return_url: &str) -> vitrine_core::checkout::Order {
    shop.store
        .order(&order_id(return_url))
        .await
        .unwrap()
        .expect("the order is placed")
}

pub(crate) fn order_id(return_url: &str) -> String {
    url::Url::parse(return_url)
        .unwrap()
        .query_pairs()
        .find(|(name, _)| name == "order")
        .map(|(_, value)| value.into_owned())
        .expect("the return address names the order")
}

#[tokio::test]
async fn the_checkout_page_shows_stripes_fields_and_alone_names_stripes_hosts_in_its_policy() {
    let shop = shop().await;
    let (token, _) = at_checkout(&shop.app, 1).await;
    let page = send(&shop.app, form("GET", "/checkout", "", Some(&token))).await;
    assert_eq!(page.status, StatusCode::OK);
    let html = page.text();
    let script = format!(
        "<script src=\"{}v3/\" id=\"stripe-js\"></script>",
        shop.fake.base()
    );
    assert!(html.contains(&script), "{html}");
    assert!(html.contains("data-island=\"card-payment\""), "{html}");
    assert!(html.contains(FAKE_PUBLISHABLE_KEY), "{html}");
    assert!(
        html.contains(CARD_FIELDS_NEED_JAVASCRIPT),
        "the note without JavaScript"
    );
    assert!(
        !html.contains("name=\"cardNumber\""),
        "no card field of ours: {html}"
    );
    assert!(!html.contains("name=\"cardCvc\""), "{html}");
    let origin = shop.fake.base().origin().ascii_serialization();
    let policy = page.header("content-security-policy");
    for directive in ["script-src 'self'", "connect-src 'self'", "frame-src"] {
        assert!(
            policy.contains(&format!("{directive} {origin}")),
            "{directive}: {policy}"
        );
    }
    // Every other page keeps the strict policy.
    for path in ["/cart", "/"] {
        let other = send(&shop.app, form("GET", path, "", Some(&token))).await;
        let policy = other.header("content-security-policy");
        assert!(!policy.contains(&origin), "{path}: {policy}");
    }
}

#[tokio::test]
async fn a_form_posted_without_javascript_says_so_and_keeps_the_cart() {
    let shop = shop().await;
    let (token, key) = at_checkout(&shop.app, 1).await;
    let posted = send(
        &shop.app,
        form(
            "POST",
            "/checkout",
            &format!("{CHECKOUT_FIELDS}&cardNumber=4242424242424242&idempotencyKey={key}"),
            Some(&token),
        ),
    )
    .await;
    assert_eq!(posted.status, StatusCode::BAD_REQUEST);
    let html = posted.text();
    assert!(
        html.contains(&format!(
            "role=\"alert\" id=\"checkout-alert\">{CARD_FIELDS_NEED_JAVASCRIPT}"
        )),
        "{html}"
    );
    assert!(
        html.contains("value=\"shopper@example.com\""),
        "what was typed stays"
    );
    assert_eq!(shop.fake.requests(), 0, "Stripe was not asked");
    let checkout = send(&shop.app, form("GET", "/checkout", "", Some(&token))).await;
    assert_eq!(checkout.status, StatusCode::OK, "the cart is still there");
}

#[tokio::test]
async fn one_intent_per_attempt_is_opened_after_holding_stock_and_the_order_waits_as_pending() {
    let shop = shop().await;
    let (token, key) = at_checkout(&shop.app, 2).await;
    let (secret, return_url) = open(&shop, &token, &key).await;
    // A double click: the same intent.
    let (again, _) = open(&shop, &token, &key).await;
    assert_eq!(secret, again);
    let intents = shop.fake.payment_intents();
    assert_eq!(intents.len(), 1, "{intents:?}");
    let order = shop
        .store
        .order_by_key(&IdempotencyKey::parse(key.clone()).unwrap())
        .await
        .unwrap()
        .expect("the order is placed");
    assert_eq!(order.payment_status, PaymentStatus::Pending);
    assert_eq!(order.id, order_id(&return_url));
    assert_eq!(intents[0].amount, order.rest_due_cents());
    assert_eq!(intents[0].idempotency_key.as_deref(), Some(key.as_str()));
    assert_eq!(intents[0].metadata["vitrine_idempotency_key"], key);
    assert_eq!(intents[0].card_last4, "", "no card went from the server");
    // Refused fields answer what to fix, and open nothing.
    let (other, other_key) = at_checkout(&shop.app, 1).await;
    let mut bad = open_request(&other, &other_key);
    *bad.body_mut() = Body::from(format!("email=nope&idempotencyKey={other_key}"));
    let refused = send(&shop.app, bad).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    let step = refused.json();
    assert_eq!(step["next"], "refused");
    assert!(step["fieldErrors"]["email"].is_string(), "{step}");
    assert_eq!(shop.fake.payment_intents().len(), 1);
}

#[tokio::test]
async fn a_3d_secure_approval_confirms_the_order_on_return_and_the_return_before_it_says_pending() {
    let shop = shop().await;
    let (token, key) = at_checkout(&shop.app, 1).await;
    let (secret, return_url) = open(&shop, &token, &key).await;
    let step = shop
        .fake
        .confirm_in_browser(&secret, cards::AUTHENTICATION_REQUIRED, &return_url)
        .await;
    let BrowserStep::Bank(bank) = step else {
        panic!("the bank's page: {step:?}");
    };
    let order = order_id(&return_url);
    let confirmed_page = format!("/commerce/orders/{order}/confirmed");
    // Back before the bank answered (another tab, a reload): received, payment pending (207).
    let pending = visit(
        &shop,
        &format!(
            "{return_url}&payment_intent={}",
            secret.split("_secret_").next().unwrap()
        ),
        &token,
    )
    .await;
    assert_eq!(pending.status, StatusCode::SEE_OTHER);
    assert_eq!(pending.header("location"), confirmed_page);
    let received = send(&shop.app, form("GET", &confirmed_page, "", Some(&token))).await;
    let html = received.text();
    assert!(html.contains("\"pageType\":207"), "{html}");
    assert!(html.contains("Your payment is pending"), "{html}");

    let back = shop.fake.answer_bank(&bank, true).await;
    let resumed = visit(&shop, &back, &token).await;
    assert_eq!(resumed.status, StatusCode::SEE_OTHER, "{}", resumed.text());
    assert_eq!(resumed.header("location"), confirmed_page);
    let stored = shop.store.order(&order).await.unwrap().unwrap();
    assert_eq!(stored.payment_status, PaymentStatus::Paid);
    let confirmed = send(&shop.app, form("GET", &confirmed_page, "", Some(&token))).await;
    let html = confirmed.text();
    assert!(html.contains("\"pageType\":202"), "{html}");
    assert!(html.contains("Order confirmed"), "{html}");
}

#[tokio::test]
async fn a_failed_verification_or_a_decline_says_why_and_gives_the_cart_back() {
    let shop = shop().await;
    let (token, key) = at_checkout(&shop.app, 1).await;
    let (secret, return_url) = open(&shop, &token, &key).await;
    let back = through_the_bank(&shop, &secret, &return_url, false).await;
    let failed = visit(&shop, &back, &token).await;
    assert_eq!(failed.status, StatusCode::PAYMENT_REQUIRED);
    let html = failed.text();
    assert!(
        html.contains("Your bank could not verify this payment, so nothing was charged. Please try again or use another card."),
        "{html}"
    );
    let order = stored(&shop, &return_url).await;
    assert_eq!(order.payment_status, PaymentStatus::Failed);
    // The cart is the shopper's again: checkout opens, and another card pays.
    let entry = send(
        &shop.app,
        form("POST", "/commerce/goto-checkout", "", Some(&token)),
    )
    .await;
    assert_eq!(entry.status, StatusCode::SEE_OTHER, "{}", entry.text());
    let checkout = send(&shop.app, form("GET", "/checkout", "", Some(&token))).await;
    let key = crate::cart::idempotency_key(&checkout.text());
    let (secret, return_url) = open(&shop, &token, &key).await;
    let return_url = declined_in_the_fields(&shop, &secret, &return_url).await;
    let declined = visit(&shop, &return_url, &token).await;
    assert_eq!(declined.status, StatusCode::PAYMENT_REQUIRED);
    assert!(declined.text().contains("Your card was declined."));
}

#[tokio::test]
async fn a_return_naming_another_orders_intent_settles_nothing() {
    let shop = shop().await;
    let (alice, alice_key) = at_checkout(&shop.app, 1).await;
    let (_, alice_return) = open(&shop, &alice, &alice_key).await;
    let (mallory, mallory_key) = at_checkout(&shop.app, 1).await;
    let (mallory_secret, mallory_return) = open(&shop, &mallory, &mallory_key).await;
    through_the_bank(&shop, &mallory_secret, &mallory_return, true).await;
    let mallory_intent = mallory_secret.split("_secret_").next().unwrap();
    let forged = visit(
        &shop,
        &format!("{alice_return}&payment_intent={mallory_intent}"),
        &alice,
    )
    .await;
    assert_eq!(forged.status, StatusCode::NOT_FOUND);
    let order = stored(&shop, &alice_return).await;
    assert_eq!(order.payment_status, PaymentStatus::Pending);
}

#[tokio::test]
async fn stripes_webhook_settles_an_order_whose_shopper_never_came_back() {
    let shop = shop().await;
    let (token, key) = at_checkout(&shop.app, 1).await;
    let (secret, return_url) = open(&shop, &token, &key).await;
    // The shopper paid and closed the tab before the return address loaded.
    shop.fake
        .confirm_in_browser(&secret, cards::SUCCEEDS, &return_url)
        .await;
    let delivered = deliver_last_event(&shop, "payment_intent.succeeded").await;
    assert_eq!(delivered.status, StatusCode::OK, "{}", delivered.text());
    let order = stored(&shop, &return_url).await;
    assert_eq!(order.payment_status, PaymentStatus::Paid);
    assert!(order.payment_id.starts_with("pi_"), "{order:?}");
}

/// Delivers the fake's last event, of `kind`, to the webhook as Stripe signs it.
async fn deliver_last_event(shop: &Shop, kind: &str) -> Answer {
    send(&shop.app, last_event_delivered(&shop.fake, kind)).await
}

/// The island telling the server that the provider declined a card for `return_url`'s order.
async fn tell_declined(shop: &Shop, token: &str, return_url: &str, intent: &str) -> Answer {
    let body = format!("order={}&paymentIntent={intent}", order_id(return_url));
    let mut request = form(
        "POST",
        "/checkout/card-payment/declined",
        &body,
        Some(token),
    );
    request
        .headers_mut()
        .insert("accept", "application/json".parse().unwrap());
    send(&shop.app, request).await
}

pub(crate) fn intent_of(secret: &str) -> &str {
    secret.split("_secret_").next().unwrap()
}

#[tokio::test]
async fn a_declined_card_says_why_and_another_card_pays_the_same_order_once() {
    let shop = shop().await;
    let (token, key) = at_checkout(&shop.app, 1).await;
    let (secret, return_url) = open(&shop, &token, &key).await;
    let step = shop
        .fake
        .confirm_in_browser(&secret, cards::DECLINED, &return_url)
        .await;
    assert!(matches!(step, BrowserStep::Declined { .. }), "{step:?}");
    // Stripe's report of the decline leaves the order waiting for another card.
    let reported = deliver_last_event(&shop, "payment_intent.payment_failed").await;
    assert_eq!(reported.status, StatusCode::OK, "{}", reported.text());
    assert_eq!(
        stored(&shop, &return_url).await.payment_status,
        PaymentStatus::Pending
    );
    let told = tell_declined(&shop, &token, &return_url, intent_of(&secret)).await;
    assert_eq!(told.status, StatusCode::OK, "{}", told.text());
    let answer = told.json();
    assert_eq!(answer["next"], "tryAgain", "{answer}");
    assert_eq!(
        answer["message"],
        "Your card was declined. Please use another card."
    );
    // The same checkout answers the same intent, which another card pays.
    let (again, same_return) = open(&shop, &token, &key).await;
    assert_eq!((&again, &same_return), (&secret, &return_url));
    shop.fake
        .confirm_in_browser(&secret, cards::SUCCEEDS, &return_url)
        .await;
    let back = format!("{return_url}&payment_intent={}", intent_of(&secret));
    let resumed = visit(&shop, &back, &token).await;
    assert_eq!(resumed.status, StatusCode::SEE_OTHER, "{}", resumed.text());
    let order = stored(&shop, &return_url).await;
    assert_eq!(order.payment_status, PaymentStatus::Paid);
    assert_eq!(order.payment_id, intent_of(&secret));
    assert_eq!(
        shop.fake.payment_intents().len(),
        1,
        "one intent for the checkout"
    );
    // A decline told after the payment names the paid order.
    let late = tell_declined(&shop, &token, &return_url, intent_of(&secret)).await;
    assert_eq!(late.json()["next"], "order", "{}", late.text());
}

#[tokio::test]
async fn a_decline_of_another_orders_intent_is_refused() {
    let shop = shop().await;
    let (alice, alice_key) = at_checkout(&shop.app, 1).await;
    let (_, alice_return) = open(&shop, &alice, &alice_key).await;
    let (mallory, mallory_key) = at_checkout(&shop.app, 1).await;
    let (mallory_secret, _) = open(&shop, &mallory, &mallory_key).await;
    let forged = tell_declined(&shop, &alice, &alice_return, intent_of(&mallory_secret)).await;
    assert_eq!(forged.status, StatusCode::NOT_FOUND, "{}", forged.text());
    assert_eq!(forged.json()["next"], "refused");
}

#[tokio::test]
async fn stripes_report_of_a_cancelled_intent_fails_the_order_once_and_gives_the_cart_back() {
    let shop = shop().await;
    let (token, key) = at_checkout(&shop.app, 1).await;
    let (secret, return_url) = open(&shop, &token, &key).await;
    let gateway = StripeGateway::new(
        shop.fake.base().clone(),
        StripeSecretKey::parse(FAKE_SECRET_KEY).unwrap(),
    );
    let cancelled =
        vitrine_core::checkout::PaymentGateway::cancel_intent(&gateway, intent_of(&secret))
            .await
            .unwrap();
    assert_eq!(
        cancelled.state,
        vitrine_core::checkout::IntentState::Canceled
    );
    for _ in 0..2 {
        let delivered = deliver_last_event(&shop, "payment_intent.canceled").await;
        assert_eq!(delivered.status, StatusCode::OK, "{}", delivered.text());
    }
    let order = stored(&shop, &return_url).await;
    assert_eq!(order.payment_status, PaymentStatus::Failed);
    // The return address now names a failed order; the cart is the shopper's again.
    let back = format!("{return_url}&payment_intent={}", intent_of(&secret));
    let resumed = visit(&shop, &back, &token).await;
    assert_eq!(resumed.status, StatusCode::SEE_OTHER, "{}", resumed.text());
    let entry = send(
        &shop.app,
        form("POST", "/commerce/goto-checkout", "", Some(&token)),
    )
    .await;
    assert_eq!(entry.status, StatusCode::SEE_OTHER, "{}", entry.text());
}
