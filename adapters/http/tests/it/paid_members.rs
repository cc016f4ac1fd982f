//! Paid member areas through the router: a signed-in site user buys the area's plan through
//! the subscription checkout (test gateway), becomes a member as the payment succeeds, once,
//! and is led to the membership-confirmed page (208); the page opens only for the buyer; a
//! buyer whose address has no confirmed account yet becomes a member when it is confirmed;
//! the membership follows the account, not its address, through an email change.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use vitrine_core::cart::{ShippingOption, ShippingRate, StoreRules};
use vitrine_core::catalog::{BillingPeriod, BillingUnit, SubscriptionPlan};
use vitrine_core::checkout::{CartService, InMemoryCommerceStore};
use vitrine_core::ports::SiteRepository;
use vitrine_core::site::{MemberAreaAccess, PermissionType, Site};
use vitrine_http::AppState;

use crate::cart::idempotency_key;
use crate::members::{Members, form_post, members_site, members_with, page};
use crate::support::cart_cookie;

/// The members' site with the journal's area `readers` paid: the tote, moved to a public
/// shop and sold every month, is its plan.
pub(crate) fn paid_site() -> Site {
    let mut site = members_site();
    let mut shop = site
        .collections
        .iter()
        .find(|collection| collection.id.as_str() == "journal")
        .cloned()
        .unwrap();
    shop.id = "shop".to_owned().try_into().unwrap();
    shop.slug = vitrine_core::site::Slug::parse("shop").unwrap();
    shop.title = "Shop".into();
    shop.collection_type = vitrine_core::enums::CollectionType::Products;
    shop.permission_type = PermissionType::Public;
    shop.body.layout = vitrine_core::site::Layout::stacked(vec![]).unwrap();
    let shop_id = shop.id.clone();
    site.collections.push(shop);
    let tote = site
        .items
        .iter_mut()
        .find(|item| item.id.as_str() == "tote")
        .expect("the fixture has the tote");
    let plan = tote.id.clone();
    let product = tote.product.as_mut().unwrap();
    product.variants[0].unlimited = true;
    product.subscription_plan = Some(SubscriptionPlan {
        num_billing_cycles: None,
        billing_period: BillingPeriod {
            value: 1,
            unit: BillingUnit::Month,
        },
    });
    tote.collection_id = shop_id;
    site.settings.member_areas[0].access = MemberAreaAccess::Paid { plans: vec![plan] };
    site
}

async fn paid_members() -> Members {
    members_with(&paid_site(), with_store).await
}

/// The state with an in-memory store over `repository`, paying through the test gateway.
fn with_store(state: AppState, repository: Arc<dyn SiteRepository>) -> AppState {
    with_store_in(state, repository, Arc::new(InMemoryCommerceStore::new()))
}

/// [`with_store`], keeping carts and orders in `store`.
pub(crate) fn with_store_in(
    state: AppState,
    repository: Arc<dyn SiteRepository>,
    store: Arc<dyn vitrine_core::checkout::CommerceStore>,
) -> AppState {
    let carts = CartService::new(repository, store, shop_rules());
    state.with_carts(Arc::new(carts))
}

/// The shop's rules: one flat-rate shipping option, `standard`.
pub(crate) fn shop_rules() -> StoreRules {
    StoreRules {
        shipping_options: vec![ShippingOption {
            id: "standard".into(),
            name: "Standard shipping".into(),
            rate: ShippingRate::FlatRate { cost_cents: 500 },
        }],
        ..StoreRules::default()
    }
}

/// A request carrying the cart cookie and, when given, the site-user session.
pub(crate) fn with_cookies(
    method: &str,
    path: &str,
    body: &str,
    cart: &str,
    session: Option<&str>,
) -> Request<Body> {
    let cookie = match session {
        Some(session) => format!("vitrine_cart={cart}; siteuser={session}"),
        None => format!("vitrine_cart={cart}"),
    };
    Request::builder()
        .method(method)
        .uri(path)
        .header("content-type", "application/x-www-form-urlencoded")
        .header("sec-fetch-site", "same-origin")
        .header("cookie", cookie)
        .body(Body::from(body.to_owned()))
        .unwrap()
}

pub(crate) const CARD: &str = "name=Ada+Member&addressLine1=1+Main+St&city=Boston&region=MA\
     &postalCode=02139&country=US&shippingOption=standard\
     &cardExpiry=12%2F40&cardCvc=123&cardNumber=4242+4242+4242+4242";

/// Puts the plan in a new cart and opens its subscription checkout; the cart token and the
/// checkout page's HTML.
pub(crate) async fn plan_checkout(app: &Members, session: Option<&str>) -> (String, String) {
    let added = app
        .send(form_post(
            "/cart",
            &[("itemId", "tote"), ("sku", "TOTE-1"), ("quantity", "1")],
            None,
        ))
        .await;
    assert_eq!(added.status, StatusCode::SEE_OTHER, "{}", added.text());
    let cart = cart_cookie(&added);
    let subscribe = format!("/checkout/subscribe?cartToken={cart}");
    let form = app
        .send(with_cookies("GET", &subscribe, "", &cart, session))
        .await;
    assert_eq!(form.status, StatusCode::OK, "{}", form.text());
    (cart, form.text())
}

/// Places the plan's order with `email`; where the checkout leads.
pub(crate) async fn subscribe(
    app: &Members,
    cart: &str,
    html: &str,
    email: &str,
    session: Option<&str>,
) -> String {
    let email: String = url::form_urlencoded::byte_serialize(email.as_bytes()).collect();
    let body = format!(
        "{CARD}&email={email}&idempotencyKey={}",
        idempotency_key(html)
    );
    let path = format!("/checkout/subscribe?cartToken={cart}");
    let placed = app
        .send(with_cookies("POST", &path, &body, cart, session))
        .await;
    assert_eq!(placed.status, StatusCode::SEE_OTHER, "{}", placed.text());
    // The same form again (a double click) pays once and leads to the same place.
    let again = app
        .send(with_cookies("POST", &path, &body, cart, session))
        .await;
    assert_eq!(again.header("location"), placed.header("location"));
    placed.header("location").to_owned()
}

#[tokio::test]
async fn buying_a_paid_area_makes_the_buyer_a_member_once_and_shows_page_208() {
    let app = paid_members().await;
    let session = app.member("ada@example.com").await;
    assert_eq!(
        app.send(page("/journal", Some(&session))).await.status,
        StatusCode::FORBIDDEN,
        "not a member before paying"
    );
    let (cart, html) = plan_checkout(&app, Some(&session)).await;
    assert!(
        html.contains("value=\"ada@example.com\""),
        "the signed-in user's address is the contact email: {html}"
    );
    let location = subscribe(&app, &cart, &html, "ada@example.com", Some(&session)).await;
    assert!(
        location.starts_with("/commerce/orders/order-") && location.ends_with("/membership"),
        "{location}"
    );
    // A member as the payment succeeded, before any page is seen.
    let journal = app.send(page("/journal/first", Some(&session))).await;
    assert_eq!(journal.status, StatusCode::OK);
    assert!(journal.text().contains("Post first"));

    let confirmed = app
        .send(with_cookies("GET", &location, "", &cart, Some(&session)))
        .await;
    assert_eq!(confirmed.status, StatusCode::OK, "{}", confirmed.text());
    assert_eq!(confirmed.page_context()["pageType"], 208);
    assert_eq!(confirmed.header("cache-control"), "no-store");
    let html = confirmed.text();
    assert!(html.contains("Membership confirmed"), "{html}");
    assert!(
        html.contains("your account ada@example.com is now a member of Readers"),
        "{html}"
    );
    assert!(
        html.contains("class=\"membership-page__pages\">\n<li><a href=\"/journal\">Journal</a>"),
        "{html}"
    );
    assert!(html.contains("Every month, until cancelled"), "{html}");

    // The account page lists the area once: joining again on the page changed nothing.
    app.send(with_cookies("GET", &location, "", &cart, Some(&session)))
        .await;
    let account = app.send(page("/account", Some(&session))).await.text();
    assert_eq!(account.matches("<li>Readers").count(), 1, "{account}");
}

#[tokio::test]
async fn the_membership_page_opens_only_for_the_buyer() {
    let app = paid_members().await;
    let session = app.member("ada@example.com").await;
    let (cart, html) = plan_checkout(&app, Some(&session)).await;
    let location = subscribe(&app, &cart, &html, "ada@example.com", Some(&session)).await;
    let stranger = app.send(page(&location, None)).await;
    assert_eq!(stranger.status, StatusCode::NOT_FOUND);
    let text = stranger.text();
    assert!(
        !text.contains("ada@example.com") && !text.contains("Readers"),
        "{text}"
    );
}

#[tokio::test]
async fn an_order_without_an_account_joins_when_the_address_is_confirmed() {
    let app = paid_members().await;
    let (cart, html) = plan_checkout(&app, None).await;
    let location = subscribe(&app, &cart, &html, "Bob@Example.com", None).await;
    let confirmed = app
        .send(with_cookies("GET", &location, "", &cart, None))
        .await;
    assert_eq!(confirmed.status, StatusCode::OK);
    assert_eq!(confirmed.page_context()["pageType"], 208);
    let html = confirmed.text();
    assert!(
        html.contains("Create an account with Bob@Example.com and confirm the address"),
        "{html}"
    );
    assert!(
        !html.contains("membership-page__pages"),
        "no member yet: {html}"
    );

    // Signing up with the address and confirming it makes the account a member.
    let session = app.member("bob@example.com").await;
    let journal = app.send(page("/journal/first", Some(&session))).await;
    assert_eq!(journal.status, StatusCode::OK, "{}", journal.text());
}

#[tokio::test]
async fn a_plan_of_no_paid_area_is_a_plain_subscription() {
    let mut site = paid_site();
    site.settings.member_areas[0].access = MemberAreaAccess::Free;
    let app = members_with(&site, with_store).await;
    let session = app.member("ada@example.com").await;
    let (cart, html) = plan_checkout(&app, Some(&session)).await;
    let location = subscribe(&app, &cart, &html, "ada@example.com", Some(&session)).await;
    assert!(
        location.starts_with("/commerce/subscriptions/"),
        "{location}"
    );
    assert_eq!(
        app.send(page("/journal", Some(&session))).await.status,
        StatusCode::FORBIDDEN,
        "a free area is joined on the member-access page, not by buying"
    );
}

/// A newsletter service whose store holds one live subscription of `email` to the list
/// `letter` and one ended one to `kiln`.
async fn newsletter_of(email: &str) -> Arc<vitrine_core::forms::NewsletterService> {
    Arc::new(vitrine_core::forms::NewsletterService::new(
        subscriptions_of(email).await,
        vec![],
    ))
}

/// The store of [`newsletter_of`]'s service.
pub(crate) async fn subscriptions_of(
    email: &str,
) -> Arc<vitrine_core::forms::memory::MemoryFormStore> {
    use vitrine_core::forms::memory::MemoryFormStore;
    use vitrine_core::forms::submission::{KEY_BYTES, fingerprint};
    use vitrine_core::forms::{
        FieldValue, FollowUp, NewSubmission, NewsletterSubscriptions, SubmissionKey,
        SubmissionKeyStore, SubmissionStore, SubmittedValues, SubscriptionTokens,
    };
    let store = Arc::new(MemoryFormStore::new());
    for (n, list) in [(1u8, "letter"), (2, "kiln")] {
        let key = SubmissionKey::from_random([n; KEY_BYTES]);
        store.issue(&key, i64::MAX).await.unwrap();
        let values = SubmittedValues(vec![("email".into(), FieldValue::Single(email.to_owned()))]);
        let submission = NewSubmission {
            form_id: list.into(),
            collection_id: None,
            object_name: list.into(),
            is_overlay_form: false,
            values: values.clone(),
            spam: false,
            subscription: Some(email.to_lowercase()),
            created_at: 1,
            follow_up: FollowUp {
                deliveries: vec![],
                tokens: Some(SubscriptionTokens {
                    unsubscribe: format!("{n}").repeat(64),
                    confirm: None,
                }),
            },
        };
        let print = fingerprint(list, list, &values);
        store.save(&key, &print, &submission, 1).await.unwrap();
    }
    store.unsubscribe(&"2".repeat(64), 1).await.unwrap();
    store
}

#[tokio::test]
async fn the_account_page_lists_the_addresss_orders_and_newsletters_without_javascript() {
    let newsletter = newsletter_of("ada@example.com").await;
    // The account's orders are read from the store its deletion erases, the shop's own.
    let orders = Arc::new(InMemoryCommerceStore::new());
    let store = orders.clone();
    let app =
        crate::members::members_erasing(&paid_site(), orders, None, move |state, repository| {
            with_store_in(state, repository, store).with_newsletter(newsletter)
        })
        .await;
    let session = app.member("ada@example.com").await;
    let empty = app.send(page("/account", Some(&session))).await.text();
    assert!(
        empty.contains("No orders have been placed with ada@example.com yet."),
        "{empty}"
    );
    let (cart, html) = plan_checkout(&app, Some(&session)).await;
    subscribe(&app, &cart, &html, "ADA@example.com", Some(&session)).await;
    // Someone else's order is not listed.
    let (other_cart, other_html) = plan_checkout(&app, None).await;
    subscribe(&app, &other_cart, &other_html, "bo@example.com", None).await;

    let account = app.send(page("/account", Some(&session))).await;
    assert_eq!(account.header("cache-control"), "no-store");
    let html = account.text();
    assert_eq!(html.matches("/commerce/orders/order-").count(), 1, "{html}");
    assert!(html.contains("Post tote"), "{html}");
    let start = html.find("href=\"/commerce/orders/order-").unwrap() + 6;
    let link = html[start..]
        .split('"')
        .next()
        .unwrap()
        .replace("&amp;", "&");
    assert!(link.contains("?link="), "a signed order link: {link}");
    // The link opens the order's page without the cart it was bought with.
    let order = app.send(page(&link, None)).await;
    assert_eq!(order.status, StatusCode::OK, "{}", order.text());
    assert_eq!(order.page_context()["pageType"], 211);

    // The export holds the same: the address's one order with its lines, and the newsletters.
    let export = app
        .send(page("/account/export.json", Some(&session)))
        .await
        .json();
    let orders = export["orders"].as_array().unwrap();
    assert_eq!(orders.len(), 1, "{export}");
    assert_eq!(orders[0]["lines"][0]["product"], "Post tote", "{export}");
    assert!(orders[0]["totalCents"].as_i64().unwrap() > 0, "{export}");
    assert_eq!(orders[0]["paymentStatus"], "paid", "{export}");
    let newsletters = export["newsletters"].as_array().unwrap();
    assert_eq!(newsletters.len(), 1, "only the live subscription: {export}");
    assert_eq!(newsletters[0]["confirmed"], true, "{export}");

    // The live subscription is listed with its unsubscribe button; the ended one is not.
    assert!(
        html.contains("action=\"/newsletter/unsubscribe\""),
        "{html}"
    );
    assert!(html.contains(&"1".repeat(64)), "{html}");
    assert!(!html.contains(&"2".repeat(64)), "{html}");
    let unsubscribed = app
        .send(form_post(
            "/newsletter/unsubscribe",
            &[("token", &"1".repeat(64))],
            None,
        ))
        .await;
    assert_eq!(
        unsubscribed.status,
        StatusCode::OK,
        "{}",
        unsubscribed.text()
    );
    let after = app.send(page("/account", Some(&session))).await.text();
    assert!(
        after.contains("ada@example.com receives no newsletter from this site."),
        "{after}"
    );
}

/// Now, for the renewal service's changes.
fn now() -> vitrine_core::cart::Timestamp {
    let millis = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis();
    vitrine_core::cart::Timestamp(i64::try_from(millis).unwrap())
}

/// The member's status and `memberAreas` for `session`: the journal page's status, and the
/// areas the account call names.
pub(crate) async fn membership_seen(
    app: &Members,
    session: &str,
) -> (StatusCode, serde_json::Value) {
    let journal = app.send(page("/journal/first", Some(session))).await;
    let account = app
        .send(page("/api/site-users/account", Some(session)))
        .await
        .json();
    (journal.status, account["memberAreas"].clone())
}

#[tokio::test]
async fn a_paid_membership_closes_with_its_subscription_and_opens_again_on_resuming_or_buying_anew()
{
    use vitrine_core::checkout::{
        CommerceStore, OrderLinkKey, RenewalService, SubscriptionLinks, TestPaymentGateway,
    };
    let store = Arc::new(InMemoryCommerceStore::new());
    let orders = store.clone();
    let app = members_with(&paid_site(), move |state, repository| {
        with_store_in(state, repository, orders)
    })
    .await;
    let renewals = RenewalService::new(
        store.clone(),
        Arc::new(TestPaymentGateway::new()),
        SubscriptionLinks::new("http://shop.test", &OrderLinkKey::new([9; 32])),
    );
    let session = app.member("ada@example.com").await;
    let (cart, html) = plan_checkout(&app, Some(&session)).await;
    subscribe(&app, &cart, &html, "ada@example.com", Some(&session)).await;
    let member = (StatusCode::OK, serde_json::json!(["readers"]));
    let lapsed = (StatusCode::FORBIDDEN, serde_json::json!([]));
    assert_eq!(membership_seen(&app, &session).await, member);
    let [subscription] = store
        .subscriptions_by_email("ada@example.com")
        .await
        .unwrap()
        .try_into()
        .unwrap();
    let me = app
        .send(page("/api/site-users/account", Some(&session)))
        .await
        .json();
    assert_eq!(
        subscription.account.as_deref(),
        me["id"].as_str(),
        "the subscription is recorded with the signed-in buyer"
    );

    // Paused: the periods are not paid for, so the area closes until it is resumed.
    renewals.pause(&subscription.id, now()).await.unwrap();
    assert_eq!(membership_seen(&app, &session).await, lapsed);
    let refused = app.send(page("/journal", Some(&session))).await;
    assert_eq!(refused.page_context()["pageType"], 106);
    assert!(!refused.text().contains("Post first"), "{}", refused.text());
    renewals.resume(&subscription.id, now()).await.unwrap();
    assert_eq!(membership_seen(&app, &session).await, member);

    // Cancelled: closed for good; the account page no longer lists the area and the
    // member-access page offers its plans again.
    renewals.cancel(&subscription.id, now()).await.unwrap();
    assert_eq!(membership_seen(&app, &session).await, lapsed);
    let account = app.send(page("/account", Some(&session))).await.text();
    assert!(!account.contains("<li>Readers"), "{account}");
    let access = app
        .send(page("/account/member-access", Some(&session)))
        .await
        .text();
    assert!(
        !access.contains("You are a member") && access.contains(">Subscribe</a>"),
        "the lapsed area is offered again: {access}"
    );
    // Search, like every path, asks the same gate.
    let search = app
        .send(page("/search?q=first", Some(&session)))
        .await
        .text();
    assert!(!search.contains("Post first"), "{search}");

    // A new subscription opens it again, whatever address the signed-in buyer gave.
    let (cart, html) = plan_checkout(&app, Some(&session)).await;
    subscribe(&app, &cart, &html, "ada.work@example.com", Some(&session)).await;
    assert_eq!(membership_seen(&app, &session).await, member);
}

/// A call of the site-user API as the browser's script makes it: with the crumb, the
/// session cookie and its XSRF token.
pub(crate) fn api_post(
    path: &str,
    body: serde_json::Value,
    session: &str,
    xsrf: &str,
) -> Request<Body> {
    const CRUMB: &str = "paid-members-crumb";
    Request::builder()
        .method("POST")
        .uri(format!("{path}?crumb={CRUMB}"))
        .header(
            "cookie",
            format!("crumb={CRUMB}; __Host-crumb={CRUMB}; siteuser={session}"),
        )
        .header("content-type", "application/json")
        .header("x-siteuser-xsrf-token", xsrf)
        .body(Body::from(body.to_string()))
        .unwrap()
}

#[tokio::test]
async fn a_paid_membership_stays_with_the_account_when_its_address_changes() {
    let app = paid_members().await;
    let session = app.member("ada@example.com").await;
    let (cart, html) = plan_checkout(&app, Some(&session)).await;
    subscribe(&app, &cart, &html, "ada@example.com", Some(&session)).await;
    let member = (StatusCode::OK, serde_json::json!(["readers"]));
    assert_eq!(membership_seen(&app, &session).await, member);

    let account = app.send(page("/account", Some(&session))).await.text();
    let xsrf = crate::members::hidden(&account, "xsrf");
    let asked = app
        .send(api_post(
            "/api/site-users/account/email",
            serde_json::json!({ "email": "ada.new@example.com" }),
            &session,
            &xsrf,
        ))
        .await;
    assert_eq!(asked.status, StatusCode::ACCEPTED, "{}", asked.text());
    let token = app.token_mailed_to("ada.new@example.com").await;
    let changed = app
        .send(api_post(
            "/api/site-users/account/email/confirm",
            serde_json::json!({ "token": token }),
            &session,
            &xsrf,
        ))
        .await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.text());
    let me = app
        .send(page("/api/site-users/account", Some(&session)))
        .await
        .json();
    assert_eq!(me["email"], "ada.new@example.com");

    assert_eq!(
        membership_seen(&app, &session).await,
        member,
        "the subscription bought with the old address still pays for the area"
    );
    let account = app.send(page("/account", Some(&session))).await.text();
    assert!(account.contains("<li>Readers"), "{account}");

    // Whoever takes the old address over gets nothing its former holder paid for.
    let newcomer = app.member("ada@example.com").await;
    assert_eq!(
        membership_seen(&app, &newcomer).await,
        (StatusCode::FORBIDDEN, serde_json::json!([]))
    );
}

#[tokio::test]
async fn a_plan_bought_through_the_cart_checkout_belongs_to_the_signed_in_buyer() {
    let app = paid_members().await;
    let bo = app.member("bo@example.com").await;
    let ada = app.member("ada@example.com").await;
    let (cart, html) = plan_checkout(&app, Some(&ada)).await;
    // The cart's own checkout, as a form shown before the plan joined the cart posts it,
    // with the address of somebody else's confirmed account typed in.
    let body = format!(
        "{CARD}&email=bo%40example.com&idempotencyKey={}",
        idempotency_key(&html)
    );
    let placed = app
        .send(with_cookies("POST", "/checkout", &body, &cart, Some(&ada)))
        .await;
    assert_eq!(placed.status, StatusCode::SEE_OTHER, "{}", placed.text());
    let location = placed.header("location").to_owned();
    assert!(
        location.starts_with("/commerce/orders/order-") && location.ends_with("/membership"),
        "{location}"
    );

    assert_eq!(
        membership_seen(&app, &ada).await,
        (StatusCode::OK, serde_json::json!(["readers"])),
        "the signed-in buyer is the member"
    );
    // The membership page, which claims for the order's address, finds it recorded.
    let confirmed = app
        .send(with_cookies("GET", &location, "", &cart, Some(&ada)))
        .await;
    assert_eq!(confirmed.status, StatusCode::OK, "{}", confirmed.text());
    assert_eq!(
        membership_seen(&app, &bo).await,
        (StatusCode::FORBIDDEN, serde_json::json!([])),
        "the typed address's account gets nothing"
    );
}
