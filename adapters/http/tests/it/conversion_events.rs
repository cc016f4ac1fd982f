//! Conversion events fired by the server where they happen (000 s7), through the router with
//! a recording pixel: a product page view (rendered and from the cache), adding to the cart
//! (API and form), placing an order, storing a newsletter sign-up (API and form), confirming a
//! double opt-in subscription and making a search each fire their event once for a visitor
//! who accepted cookies, and nothing for one who declined, did not decide, or sent GPC.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use vitrine_core::checkout::conformance::flat_rate_rules;
use vitrine_core::checkout::{CartService, InMemoryCommerceStore};
use vitrine_core::conversions::{ConversionEvent, ConversionEventName, InMemoryAdPixel};
use vitrine_core::forms::memory::{MemoryFormStore, MemoryRateLimiter};
use vitrine_core::forms::{DeliveryOutbox, FormService, NewsletterService};
use vitrine_core::money::Currency;
use vitrine_core::pages::PageService;
use vitrine_core::ports::SiteRepository;
use vitrine_core::ports::memory::MemorySiteRepository;
use vitrine_http::AppState;

use crate::support::{BASE_URL, cart_cookie, config, fixture_assets, letter_page, send, site};

const CRUMB: &str = "test-crumb-CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC";

/// Who is asking: their consent cookie, and whether their browser sends GPC.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Visitor {
    cookie: &'static str,
    gpc: bool,
}

pub(crate) const CONSENTING: Visitor = Visitor {
    cookie: "ss_cookieAllowed=true",
    gpc: false,
};

/// Declined, undecided, and GPC without a decision (which counts as a decline).
const NOT_CONSENTING: [Visitor; 3] = [
    Visitor {
        cookie: "ss_cookieAllowed=false",
        gpc: false,
    },
    Visitor {
        cookie: "",
        gpc: false,
    },
    Visitor {
        cookie: "",
        gpc: true,
    },
];

struct Shop {
    router: Router,
    pixel: Arc<InMemoryAdPixel>,
    forms: Arc<MemoryFormStore>,
}

/// The fixture shop (tote `TOTE-1` at $20.00, 3 in stock, flat shipping $5.00) with a
/// newsletter under double opt-in, and `pixel` as the ad pixel; and its form store.
async fn shop_parts(
    pixel: Arc<dyn vitrine_core::conversions::AdPixel>,
) -> (Router, Arc<MemoryFormStore>) {
    let repository = Arc::new(MemorySiteRepository::new());
    let mut fixture = site();
    fixture.collections.push(letter_page());
    repository.replace_site(&fixture).await.unwrap();
    let repository: Arc<dyn SiteRepository> = repository;
    let forms = Arc::new(MemoryFormStore::new());
    let form_service = FormService::new(
        repository.clone(),
        forms.clone(),
        forms.clone(),
        Arc::new(MemoryRateLimiter::new()),
    )
    .with_deliveries(Vec::new(), true);
    let carts = CartService::new(
        repository.clone(),
        Arc::new(InMemoryCommerceStore::new()),
        flat_rate_rules(),
    );
    let pages = Arc::new(PageService::new(repository.clone()));
    let state = AppState::new(pages, repository, Arc::new(fixture_assets()), config())
        .with_carts(Arc::new(carts))
        .with_forms(Arc::new(form_service))
        .with_newsletter(Arc::new(NewsletterService::new(forms.clone(), Vec::new())))
        .with_ad_pixel(pixel);
    (vitrine_http::router(state), forms)
}

async fn shop() -> Shop {
    let pixel = Arc::new(InMemoryAdPixel::new());
    let (router, forms) = shop_parts(pixel.clone()).await;
    Shop {
        router,
        pixel,
        forms,
    }
}

/// A request from `visitor`'s browser: its cookies (the crumb, the consent, the cart), the
/// crumb in the query for API calls, and a same-site Referer and Origin as browsers send.
fn request(
    visitor: Visitor,
    method: &str,
    path: &str,
    body: &str,
    cart: Option<&str>,
) -> Request<Body> {
    let mut cookies = vec![format!("crumb={CRUMB}")];
    if !visitor.cookie.is_empty() {
        cookies.push(visitor.cookie.to_owned());
    }
    if let Some(token) = cart {
        cookies.push(format!("vitrine_cart={token}"));
    }
    let uri = if path.starts_with("/api/") {
        format!("{path}?crumb={CRUMB}")
    } else {
        path.to_owned()
    };
    let content_type = if body.starts_with('{') {
        "application/json"
    } else {
        "application/x-www-form-urlencoded"
    };
    let mut builder = Request::builder()
        .method(method)
        .uri(uri)
        .header("cookie", cookies.join("; "))
        .header("content-type", content_type)
        .header("sec-fetch-site", "same-origin")
        .header("host", "shop.example")
        .header("origin", BASE_URL)
        .header("referer", format!("{BASE_URL}/journal/tote"));
    if visitor.gpc {
        builder = builder.header("sec-gpc", "1");
    }
    builder.body(Body::from(body.to_owned())).unwrap()
}

/// The pixel is called in the background; give it a moment to get `expected` events.
async fn sent(pixel: &InMemoryAdPixel, expected: usize) -> Vec<ConversionEvent> {
    for _ in 0..100 {
        if pixel.sent().len() >= expected {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // Anything sent beyond what was expected would show up meanwhile too.
    tokio::time::sleep(Duration::from_millis(50)).await;
    pixel.sent()
}

fn names(events: &[ConversionEvent]) -> Vec<ConversionEventName> {
    events.iter().map(|event| event.name).collect()
}

async fn view_the_product(shop: &Shop, visitor: Visitor) {
    // The first view renders the page, the second comes from the page cache.
    for _ in 0..2 {
        let answer = send(
            &shop.router,
            request(visitor, "GET", "/journal/tote", "", None),
        )
        .await;
        assert_eq!(answer.status, StatusCode::OK);
    }
}

/// Adds the tote through the API, then through the no-JavaScript form; answers the cart.
pub(crate) async fn add_to_cart(router: &Router, visitor: Visitor) -> String {
    let api = r#"{"itemId": "tote", "sku": "TOTE-1", "quantity": 2}"#;
    let added = send(
        router,
        request(visitor, "POST", "/api/commerce/cart/items", api, None),
    )
    .await;
    assert_eq!(added.status, StatusCode::OK, "{}", added.text());
    let token = cart_cookie(&added);
    let form = "itemId=tote&sku=TOTE-1&quantity=1";
    let added = send(
        router,
        request(visitor, "POST", "/cart", form, Some(&token)),
    )
    .await;
    assert_eq!(added.status, StatusCode::SEE_OTHER, "{}", added.text());
    token
}

/// Checks out the cart `token`, submitting the form twice; answers the order's id.
pub(crate) async fn place_order(router: &Router, visitor: Visitor, token: &str) -> String {
    let entry = send(
        router,
        request(visitor, "POST", "/commerce/goto-checkout", "", Some(token)),
    )
    .await;
    assert_eq!(entry.status, StatusCode::SEE_OTHER, "{}", entry.text());
    let page = send(
        router,
        request(visitor, "GET", "/checkout", "", Some(token)),
    )
    .await
    .text();
    let marker = "name=\"idempotencyKey\" value=\"";
    let start = page.find(marker).expect("the form carries a key") + marker.len();
    let key = &page[start..start + 32];
    let form = format!(
        "email=shopper%40example.com&name=Ada+Shopper&addressLine1=1+Main+St&city=Boston\
         &region=MA&postalCode=02139&country=US&shippingOption=standard\
         &cardNumber=4242+4242+4242+4242&cardExpiry=12%2F40&cardCvc=123&idempotencyKey={key}"
    );
    let first = send(
        router,
        request(visitor, "POST", "/checkout", &form, Some(token)),
    )
    .await;
    assert_eq!(first.status, StatusCode::SEE_OTHER, "{}", first.text());
    let again = send(
        router,
        request(visitor, "POST", "/checkout", &form, Some(token)),
    )
    .await;
    assert_eq!(again.header("location"), first.header("location"));
    first
        .header("location")
        .trim_start_matches("/commerce/orders/")
        .trim_end_matches("/confirmed")
        .to_owned()
}

fn sign_up_body(key: &str, email: &str, honeypot: &str) -> String {
    let form = serde_json::json!({ "email": email }).to_string();
    url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs([
            ("key", key),
            ("formId", "letter"),
            ("objectName", "letter"),
            ("form", form.as_str()),
            ("honeypot", honeypot),
        ])
        .finish()
}

/// Signs up through the island's calls (and sends the same submission again), through the
/// no-JavaScript form, and as a bot filling the honeypot.
async fn sign_up(shop: &Shop, visitor: Visitor) {
    let key = |shop: &Shop| {
        let router = shop.router.clone();
        async move {
            let answer = send(
                &router,
                request(visitor, "POST", "/api/form/FormSubmissionKey", "", None),
            )
            .await;
            answer.json()["key"].as_str().unwrap().to_owned()
        }
    };
    let first = key(shop).await;
    let body = sign_up_body(&first, "ada@example.com", "");
    for _ in 0..2 {
        let saved = send(
            &shop.router,
            request(visitor, "POST", "/api/form/SaveFormSubmission", &body, None),
        )
        .await;
        assert_eq!(saved.status, StatusCode::OK, "{}", saved.text());
    }
    let bot = key(shop).await;
    let body = sign_up_body(&bot, "bot@example.com", "http://spam.example");
    let saved = send(
        &shop.router,
        request(visitor, "POST", "/api/form/SaveFormSubmission", &body, None),
    )
    .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text());
    let form = "formId=letter&email=grace%40example.com&honeypot=";
    let page = send(
        &shop.router,
        request(visitor, "POST", "/form-submission", form, None),
    )
    .await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text());
}

/// Follows the double opt-in link of the first subscriber and presses its button twice.
async fn confirm_subscription(shop: &Shop, visitor: Visitor) {
    let claimed = shop.forms.claim_due(i64::MAX / 4, 0, 100).await.unwrap();
    let token = claimed
        .iter()
        .find_map(|due| due.subscriber().cloned())
        .and_then(|subscriber| subscriber.confirm_token)
        .expect("a confirmation mail is enqueued");
    for _ in 0..2 {
        let confirmed = send(
            &shop.router,
            request(
                visitor,
                "POST",
                &format!("/newsletter/confirm?token={token}"),
                "",
                None,
            ),
        )
        .await;
        assert_eq!(confirmed.status, StatusCode::OK, "{}", confirmed.text());
    }
}

#[tokio::test]
async fn a_product_view_fires_view_content_each_time_even_from_the_cache() {
    let shop = shop().await;
    view_the_product(&shop, CONSENTING).await;
    let events = sent(&shop.pixel, 2).await;
    assert_eq!(names(&events), [ConversionEventName::ViewContent; 2]);
    for event in &events {
        assert_eq!(event.content_ids, ["TOTE-1"]);
        assert_eq!(event.value, Some((2000, Currency::Usd)), "the sale price");
        assert_eq!(event.source_url, format!("{BASE_URL}/journal/tote"));
    }
    assert_ne!(events[0].event_id, events[1].event_id, "one id per view");

    // A HEAD, a prefetch and a page that is not a product are no views of a product.
    let head = request(CONSENTING, "HEAD", "/journal/tote", "", None);
    send(&shop.router, head).await;
    let mut prefetch = request(CONSENTING, "GET", "/journal/tote", "", None);
    prefetch
        .headers_mut()
        .insert("sec-purpose", "prefetch".parse().unwrap());
    send(&shop.router, prefetch).await;
    send(&shop.router, request(CONSENTING, "GET", "/", "", None)).await;
    assert_eq!(sent(&shop.pixel, 3).await.len(), 2);
}

#[tokio::test]
async fn a_quick_view_fires_view_content_like_the_product_page() {
    let shop = shop().await;
    let quick_view = request(
        CONSENTING,
        "POST",
        "/api/census/RecordQuickView/tote",
        "",
        None,
    );
    assert_eq!(send(&shop.router, quick_view).await.status, StatusCode::OK);
    let events = sent(&shop.pixel, 1).await;
    assert_eq!(names(&events), [ConversionEventName::ViewContent]);
    assert_eq!(events[0].content_ids, ["TOTE-1"]);
    assert_eq!(events[0].value, Some((2000, Currency::Usd)));
}

#[tokio::test]
async fn adding_to_the_cart_fires_add_to_cart_from_the_api_and_the_form() {
    let shop = shop().await;
    add_to_cart(&shop.router, CONSENTING).await;
    let events = sent(&shop.pixel, 2).await;
    assert_eq!(names(&events), [ConversionEventName::AddToCart; 2]);
    let values: Vec<_> = events.iter().map(|event| event.value).collect();
    assert_eq!(
        values,
        [Some((4000, Currency::Usd)), Some((2000, Currency::Usd))],
        "the units each add put in the cart"
    );
    assert!(events.iter().all(|event| event.content_ids == ["TOTE-1"]));
    assert_eq!(events[0].source_url, format!("{BASE_URL}/journal/tote"));
}

#[tokio::test]
async fn placing_an_order_fires_purchase_once_with_its_grand_total() {
    let shop = shop().await;
    let token = add_to_cart(&shop.router, CONSENTING).await;
    let order_id = place_order(&shop.router, CONSENTING, &token).await;
    let events = sent(&shop.pixel, 3).await;
    let purchases: Vec<&ConversionEvent> = events
        .iter()
        .filter(|event| event.name == ConversionEventName::Purchase)
        .collect();
    assert_eq!(
        purchases.len(),
        1,
        "a second submit of the form is no purchase"
    );
    let purchase = purchases[0];
    assert!(
        !purchase
            .event_id
            .contains(order_id.trim_start_matches("order-")),
        "the event id is random, never the order's id that opens its page: {}",
        purchase.event_id
    );
    assert!(
        purchase.event_id.starts_with("Purchase-"),
        "{}",
        purchase.event_id
    );
    // 3 x $20.00 plus $5.00 shipping.
    assert_eq!(purchase.value, Some((6500, Currency::Usd)));
    assert_eq!(purchase.content_ids, ["TOTE-1"]);
}

#[tokio::test]
async fn a_stored_sign_up_fires_lead_and_a_replay_or_a_honeypot_catch_does_not() {
    let shop = shop().await;
    sign_up(&shop, CONSENTING).await;
    let events = sent(&shop.pixel, 2).await;
    assert_eq!(names(&events), [ConversionEventName::Lead; 2]);
    assert!(events.iter().all(|event| event.content_ids == ["letter"]));
    assert_ne!(events[0].event_id, events[1].event_id);
}

#[tokio::test]
async fn confirming_a_subscription_fires_complete_registration_once() {
    let shop = shop().await;
    sign_up(&shop, CONSENTING).await;
    sent(&shop.pixel, 2).await;
    confirm_subscription(&shop, CONSENTING).await;
    let events = sent(&shop.pixel, 3).await;
    assert_eq!(
        names(&events[2..]),
        [ConversionEventName::CompleteRegistration],
        "the second press finds it confirmed already"
    );
    assert_eq!(events[2].content_ids, ["letter"]);
}

#[tokio::test]
async fn without_marketing_consent_nothing_fires_anywhere() {
    for visitor in NOT_CONSENTING {
        let shop = shop().await;
        view_the_product(&shop, visitor).await;
        let quick_view = request(
            visitor,
            "POST",
            "/api/census/RecordQuickView/tote",
            "",
            None,
        );
        assert_eq!(send(&shop.router, quick_view).await.status, StatusCode::OK);
        let token = add_to_cart(&shop.router, visitor).await;
        place_order(&shop.router, visitor, &token).await;
        sign_up(&shop, visitor).await;
        confirm_subscription(&shop, visitor).await;
        assert!(
            sent(&shop.pixel, 1).await.is_empty(),
            "{visitor:?} consented to nothing"
        );
    }
}

#[tokio::test]
async fn a_search_fires_search_with_its_text_for_a_consenting_visitor_only() {
    let consenting = shop().await;
    for path in [
        "/search",
        "/search?q=",
        "/search?q=Post+first",
        "/search?q=teapot",
    ] {
        let answer = send(
            &consenting.router,
            request(CONSENTING, "GET", path, "", None),
        )
        .await;
        assert_eq!(answer.status, StatusCode::OK, "{path}");
    }
    let events = sent(&consenting.pixel, 2).await;
    assert_eq!(
        names(&events),
        [ConversionEventName::Search, ConversionEventName::Search],
        "an empty query is no search"
    );
    assert_eq!(events[0].search_string.as_deref(), Some("Post first"));
    assert_eq!(
        events[0].source_url,
        format!("{BASE_URL}/search?q=Post+first")
    );
    assert_eq!(events[1].search_string.as_deref(), Some("teapot"));
    assert_ne!(events[0].event_id, events[1].event_id);

    for visitor in NOT_CONSENTING {
        let shop = shop().await;
        let answer = send(
            &shop.router,
            request(visitor, "GET", "/search?q=post", "", None),
        )
        .await;
        assert_eq!(answer.status, StatusCode::OK);
        assert!(
            sent(&shop.pixel, 1).await.is_empty(),
            "{visitor:?} consented to nothing"
        );
    }
}

#[tokio::test]
async fn an_absolute_restrictive_policy_allows_no_event_even_after_an_accept() {
    let shop_with_policy = {
        let pixel = Arc::new(InMemoryAdPixel::new());
        let repository = Arc::new(MemorySiteRepository::new());
        let mut fixture = site();
        fixture.settings.cookies.is_cookie_banner_enabled = true;
        fixture
            .settings
            .cookies
            .is_restrictive_cookie_policy_absolute = true;
        repository.replace_site(&fixture).await.unwrap();
        let pages = Arc::new(PageService::new(repository.clone()));
        let state = AppState::new(pages, repository, Arc::new(fixture_assets()), config())
            .with_ad_pixel(pixel.clone());
        (vitrine_http::router(state), pixel)
    };
    let (router, pixel) = shop_with_policy;
    send(
        &router,
        request(CONSENTING, "GET", "/journal/tote", "", None),
    )
    .await;
    assert!(sent(&pixel, 1).await.is_empty());
}

/// A local server speaking the Graph API's events endpoint, keeping what it receives.
async fn graph_server() -> (String, Arc<std::sync::Mutex<Vec<serde_json::Value>>>) {
    use axum::extract::{Path, Query, State};
    type Received = Arc<std::sync::Mutex<Vec<serde_json::Value>>>;
    async fn events(
        State(received): State<Received>,
        Path((_version, pixel)): Path<(String, String)>,
        Query(query): Query<std::collections::HashMap<String, String>>,
        body: String,
    ) -> StatusCode {
        if pixel != PIXEL || query.get("access_token").map(String::as_str) != Some(TOKEN) {
            return StatusCode::BAD_REQUEST;
        }
        let Ok(json) = serde_json::from_str(&body) else {
            return StatusCode::BAD_REQUEST;
        };
        received.lock().unwrap().push(json);
        StatusCode::OK
    }
    let received: Received = Arc::default();
    let app = Router::new()
        .route("/{version}/{pixel}/events", axum::routing::post(events))
        .with_state(received.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (base, received)
}

const PIXEL: &str = "1234567890";
const TOKEN: &str = "capi-access-token";

#[tokio::test]
async fn a_server_side_purchase_reaches_the_meta_conversions_api() {
    let (base, received) = graph_server().await;
    let meta = vitrine_services::MetaConversionsApi::new(&base, PIXEL, TOKEN);
    let (router, _) = shop_parts(Arc::new(meta)).await;
    let token = add_to_cart(&router, CONSENTING).await;
    let order_id = place_order(&router, CONSENTING, &token).await;

    let mut purchase = None;
    for _ in 0..200 {
        purchase = received
            .lock()
            .unwrap()
            .iter()
            .flat_map(|body| body["data"].as_array().cloned().unwrap_or_default())
            .find(|event| event["event_name"] == "Purchase");
        if purchase.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let purchase = purchase.expect("the Purchase event reached the Graph API");
    let event_id = purchase["event_id"].as_str().unwrap();
    assert!(
        event_id.starts_with("Purchase-")
            && !event_id.contains(order_id.trim_start_matches("order-")),
        "a random event id, not the order's id that opens its page: {event_id}"
    );
    assert!(
        !purchase.to_string().contains(&order_id),
        "the order's id reaches no ad network: {purchase}"
    );
    assert_eq!(purchase["action_source"], "website");
    assert_eq!(purchase["event_source_url"], format!("{BASE_URL}/checkout"));
    assert_eq!(purchase["custom_data"]["value"], 65.0);
    assert_eq!(purchase["custom_data"]["currency"], "USD");
    assert_eq!(purchase["custom_data"]["content_ids"][0], "TOTE-1");
}
