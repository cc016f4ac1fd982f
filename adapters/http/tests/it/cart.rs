//! The cart API and the add-to-cart form's no-JavaScript path, through the router with the
//! in-memory commerce store and the fixture site (product `tote`, SKU `TOTE-1`, on sale at
//! $20.00, 3 in stock).

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{Value, json};

use crate::support::{app, cart_cookie, send};

const CRUMB: &str = "test-crumb";

pub(crate) fn call(
    method: &str,
    path: &str,
    body: Option<String>,
    cart: Option<&str>,
) -> Request<Body> {
    let cookies = match cart {
        Some(token) => format!("crumb={CRUMB}; vitrine_cart={token}"),
        None => format!("crumb={CRUMB}"),
    };
    Request::builder()
        .method(method)
        .uri(format!("{path}?crumb={CRUMB}"))
        .header("cookie", cookies)
        .header("content-type", "application/json")
        .body(body.map_or_else(Body::empty, Body::from))
        .unwrap()
}

fn add_body(quantity: Value) -> String {
    json!({ "itemId": "tote", "sku": "TOTE-1", "quantity": quantity }).to_string()
}

#[tokio::test]
async fn adding_an_item_starts_a_cart_kept_by_its_cookie() {
    let app = app().await;
    let first = send(
        &app,
        call(
            "POST",
            "/api/commerce/cart/items",
            Some(add_body(json!(2))),
            None,
        ),
    )
    .await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text());
    let token = cart_cookie(&first);
    let set_cookie = first.header("set-cookie");
    assert!(set_cookie.contains("HttpOnly") && set_cookie.contains("SameSite=Lax"));
    assert_eq!(first.header("x-cart-token"), token);
    let cart = &first.json()["cart"];
    assert_eq!(cart["subtotalCents"], 4000);
    assert_eq!(cart["totalQuantity"], 2);
    assert_eq!(cart["requiresShipping"], true);
    assert_eq!(cart["subtotalAmount"]["text"], "$40.00");
    assert_eq!(cart["indicator"]["label"], "2 items in cart");

    let again = send(
        &app,
        call(
            "POST",
            "/api/commerce/cart/items",
            Some(add_body(json!(1))),
            Some(&token),
        ),
    )
    .await;
    assert_eq!(again.json()["cart"]["totalQuantity"], 3);
    assert!(
        again
            .headers
            .get("set-cookie")
            .is_none_or(|c| !c.to_str().unwrap().contains("vitrine_cart"))
    );

    // Apps send the token in a header instead of the cookie.
    let by_header = Request::get("/api/commerce/cart")
        .header("x-cart-token", &token)
        .body(Body::empty())
        .unwrap();
    let shown = send(&app, by_header).await;
    assert_eq!(shown.json()["cart"]["totalQuantity"], 3);
}

#[tokio::test]
async fn short_stock_comes_back_as_a_typed_warning() {
    let app = app().await;
    let answer = send(
        &app,
        call(
            "POST",
            "/api/commerce/cart/items",
            Some(add_body(json!(5))),
            None,
        ),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK);
    let body = answer.json();
    assert_eq!(body["cart"]["totalQuantity"], 3);
    assert_eq!(
        body["warnings"],
        json!([{
            "code": "QUANTITY_REDUCED",
            "target": "TOTE-1",
            "message": "Only 3 are available, so your cart holds 3."
        }])
    );
}

#[tokio::test]
async fn wrong_types_are_a_400_that_names_the_field() {
    let app = app().await;
    let cases = [
        (add_body(json!("2")), "quantity"),
        (add_body(json!(-1)), "quantity"),
        (add_body(json!(1.5)), "quantity"),
        (
            json!({ "itemId": 7, "sku": "TOTE-1", "quantity": 1 }).to_string(),
            "itemId",
        ),
        (
            json!({ "itemId": "tote", "sku": ["TOTE-1"], "quantity": 1 }).to_string(),
            "sku",
        ),
        ("[1, 2]".to_owned(), "body"),
        ("not json".to_owned(), "body"),
    ];
    for (body, field) in cases {
        let answer = send(
            &app,
            call("POST", "/api/commerce/cart/items", Some(body.clone()), None),
        )
        .await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(answer.json()["field"], field, "{body}");
    }
}

#[tokio::test]
async fn failures_answer_the_cart_texts_of_the_spec() {
    let app = app().await;
    let unknown = json!({ "itemId": "tote", "sku": "NOPE", "quantity": 1 }).to_string();
    let answer = send(
        &app,
        call("POST", "/api/commerce/cart/items", Some(unknown), None),
    )
    .await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    assert_eq!(answer.json()["error"], "Unable to add item");

    let no_cart = send(
        &app,
        call(
            "PUT",
            "/api/commerce/cart/items/TOTE-1",
            Some(json!({"quantity": 1}).to_string()),
            None,
        ),
    )
    .await;
    assert_eq!(
        no_cart.json()["error"],
        "You have nothing in your shopping cart"
    );

    let started = send(
        &app,
        call(
            "POST",
            "/api/commerce/cart/items",
            Some(add_body(json!(1))),
            None,
        ),
    )
    .await;
    let token = cart_cookie(&started);
    let missing = send(
        &app,
        call(
            "DELETE",
            "/api/commerce/cart/items/OTHER",
            None,
            Some(&token),
        ),
    )
    .await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert_eq!(missing.json()["error"], "Unable to remove item");
    let bad = send(
        &app,
        call(
            "PUT",
            "/api/commerce/cart/items/TOTE-1",
            Some(json!({"quantity": true}).to_string()),
            Some(&token),
        ),
    )
    .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert_eq!(bad.json()["field"], "quantity");
}

#[tokio::test]
async fn quantities_change_and_lines_are_removed() {
    let app = app().await;
    let started = send(
        &app,
        call(
            "POST",
            "/api/commerce/cart/items",
            Some(add_body(json!(1))),
            None,
        ),
    )
    .await;
    let token = cart_cookie(&started);
    let changed = send(
        &app,
        call(
            "PUT",
            "/api/commerce/cart/items/TOTE-1",
            Some(json!({"quantity": 2}).to_string()),
            Some(&token),
        ),
    )
    .await;
    assert_eq!(changed.status, StatusCode::OK);
    assert_eq!(changed.json()["cart"]["grandTotalCents"], 4000);
    let removed = send(
        &app,
        call(
            "DELETE",
            "/api/commerce/cart/items/TOTE-1",
            None,
            Some(&token),
        ),
    )
    .await;
    assert_eq!(removed.status, StatusCode::OK);
    let cart = &removed.json()["cart"];
    assert_eq!(cart["entries"], json!([]));
    assert_eq!(cart["indicator"]["items"], 0);
    assert_eq!(cart["indicator"]["label"], "0 items in cart");
}

#[tokio::test]
async fn without_a_token_the_cart_is_the_spec_default() {
    let app = app().await;
    let answer = send(
        &app,
        Request::get("/api/commerce/cart")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK);
    let cart = &answer.json()["cart"];
    for list in [
        "entries",
        "shippingOptions",
        "applicableTaxRules",
        "coupons",
        "validCoupons",
        "invalidCoupons",
    ] {
        assert_eq!(cart[list], json!([]), "{list}");
    }
    for number in [
        "subtotalCents",
        "taxCents",
        "shippingCostCents",
        "discountCents",
        "grandTotalCents",
        "totalQuantity",
    ] {
        assert_eq!(cart[number], 0, "{number}");
    }
    for flag in [
        "isPurchased",
        "hasDigital",
        "purelyDigital",
        "requiresShipping",
    ] {
        assert_eq!(cart[flag], false, "{flag}");
    }
    assert_eq!(
        cart["subtotalAmount"],
        json!({ "value": 0, "currency": "USD", "text": "$0.00" })
    );
    assert_eq!(cart["selectedShippingOption"], Value::Null);
    assert_eq!(cart["shippingLocation"], Value::Null);
}

#[tokio::test]
async fn the_form_adds_without_javascript_and_shows_the_cart() {
    let app = app().await;
    let form = Request::post("/cart")
        .header("content-type", "application/x-www-form-urlencoded")
        .header("sec-fetch-site", "same-origin")
        .body(Body::from("itemId=tote&sku=TOTE-1&quantity=2"))
        .unwrap();
    let added = send(&app, form).await;
    assert_eq!(added.status, StatusCode::SEE_OTHER);
    assert_eq!(added.header("location"), "/cart");
    let token = cart_cookie(&added);

    let page = Request::get("/cart")
        .header("cookie", format!("vitrine_cart={token}"))
        .body(Body::empty())
        .unwrap();
    let page = send(&app, page).await;
    assert_eq!(page.status, StatusCode::OK);
    let html = page.text();
    // The cart app's root inside its container (001 s2), in the site's chrome, page type 205.
    assert!(
        html.contains("<div class=\"sqs-cart-container\">"),
        "{html}"
    );
    assert!(
        html.contains("<div id=\"sqs-cart-root\" data-island=\"cart\""),
        "{html}"
    );
    assert!(html.contains("class=\"site-header\""), "{html}");
    assert!(html.contains("class=\"site-footer\""), "{html}");
    assert!(html.contains("\"pageType\":205"), "{html}");
    assert!(html.contains("$40.00"), "{html}");
    assert_eq!(page.header("cache-control"), "no-store");

    let empty = send(&app, Request::get("/cart").body(Body::empty()).unwrap()).await;
    assert!(
        empty
            .text()
            .contains("You have nothing in your shopping cart")
    );

    let bad = Request::post("/cart")
        .header("content-type", "application/x-www-form-urlencoded")
        .header("sec-fetch-site", "same-origin")
        .body(Body::from("itemId=tote&sku=TOTE-1&quantity=lots"))
        .unwrap();
    let refused = send(&app, bad).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    assert!(refused.text().contains("Unable to add item"));
}

#[tokio::test]
async fn a_first_add_cut_to_the_stock_keeps_its_new_cart_without_javascript() {
    let app = app().await;
    // Three totes are in stock: the new cart keeps three and the page says why.
    let added = send(
        &app,
        form("POST", "/cart", "itemId=tote&sku=TOTE-1&quantity=5", None),
    )
    .await;
    assert_eq!(added.status, StatusCode::OK);
    let token = cart_cookie(&added);
    let page = send(&app, form("GET", "/cart", "", Some(&token))).await;
    assert!(page.text().contains("$60.00"), "{}", page.text());
}

/// The fixture site with a store that ships at a flat rate, as the server wires it.
pub(crate) async fn shop() -> axum::Router {
    shop_over(crate::support::repository().await).await
}

/// The site in `repository` with the store of [`shop`].
pub(crate) async fn shop_over(
    repository: std::sync::Arc<dyn vitrine_core::ports::SiteRepository>,
) -> axum::Router {
    shop_paying(repository, None).await
}

/// [`shop_over`], taking payments through `payments` (the test gateway when none).
async fn shop_paying(
    repository: std::sync::Arc<dyn vitrine_core::ports::SiteRepository>,
    payments: Option<std::sync::Arc<dyn vitrine_core::checkout::PaymentGateway>>,
) -> axum::Router {
    use std::sync::Arc;
    use vitrine_core::cart::{
        Coupon, CouponCode, CouponKind, ShippingOption, ShippingRate, StoreRules, Timestamp,
    };
    use vitrine_core::checkout::{CartService, InMemoryCommerceStore};
    use vitrine_core::pages::PageService;
    use vitrine_http::AppState;

    let rules = StoreRules {
        shipping_options: vec![ShippingOption {
            id: "standard".into(),
            name: "Standard shipping".into(),
            rate: ShippingRate::FlatRate { cost_cents: 500 },
        }],
        coupons: vec![
            Coupon::new(
                CouponCode::parse("WELCOME10").unwrap(),
                CouponKind::Percentage { basis_points: 1000 },
                None,
                None,
            )
            .unwrap(),
            Coupon::new(
                CouponCode::parse("GONE").unwrap(),
                CouponKind::FixedAmount { amount_cents: 100 },
                None,
                Some(Timestamp(1)),
            )
            .unwrap(),
        ],
        ..StoreRules::default()
    };
    let carts = CartService::new(
        repository.clone(),
        Arc::new(InMemoryCommerceStore::new()),
        rules,
    );
    let carts = match payments {
        Some(payments) => carts.with_payments(payments),
        None => carts,
    };
    let pages = Arc::new(PageService::new(repository.clone()));
    vitrine_http::router(
        AppState::new(
            pages,
            repository,
            Arc::new(crate::support::fixture_assets()),
            crate::support::config(),
        )
        .with_carts(Arc::new(carts)),
    )
}

pub(crate) fn form(method: &str, path: &str, body: &str, token: Option<&str>) -> Request<Body> {
    let mut request = Request::builder()
        .method(method)
        .uri(path)
        .header("content-type", "application/x-www-form-urlencoded")
        // What a browser says of a form on this site's own page.
        .header("sec-fetch-site", "same-origin");
    if let Some(token) = token {
        request = request.header("cookie", format!("vitrine_cart={token}"));
    }
    request.body(Body::from(body.to_owned())).unwrap()
}

/// A filled checkout form for a US address, without the card number and key.
pub(crate) const CHECKOUT_FIELDS: &str = "email=shopper%40example.com&name=Ada+Shopper&addressLine1=1+Main+St\
     &city=Boston&region=MA&postalCode=02139&country=US&shippingOption=standard\
     &cardExpiry=12%2F40&cardCvc=123";

pub(crate) fn idempotency_key(checkout_html: &str) -> String {
    let marker = "name=\"idempotencyKey\" value=\"";
    let start = checkout_html.find(marker).expect("the form carries a key") + marker.len();
    checkout_html[start..start + 32].to_owned()
}

#[tokio::test]
async fn checkout_entry_without_a_cart_shows_the_session_alert_first() {
    let app = shop().await;
    let answer = send(&app, form("POST", "/commerce/goto-checkout", "", None)).await;
    assert!(answer.text().contains(
        "Either your session has expired or you do not have cookies enabled. We cannot continue to checkout."
    ));
}

#[tokio::test]
async fn a_shopper_checks_out_once_even_when_submitting_twice() {
    let app = shop().await;
    let added = send(
        &app,
        form("POST", "/cart", "itemId=tote&sku=TOTE-1&quantity=3", None),
    )
    .await;
    let token = cart_cookie(&added);
    let entry = send(
        &app,
        form("POST", "/commerce/goto-checkout", "", Some(&token)),
    )
    .await;
    assert_eq!(entry.status, StatusCode::SEE_OTHER);
    assert_eq!(entry.header("location"), "/checkout");

    let checkout = send(&app, form("GET", "/checkout", "", Some(&token))).await;
    let key = idempotency_key(&checkout.text());
    let submit = format!("{CHECKOUT_FIELDS}&cardNumber=4242+4242+4242+4242&idempotencyKey={key}");
    let first = send(&app, form("POST", "/checkout", &submit, Some(&token))).await;
    assert_eq!(first.status, StatusCode::SEE_OTHER, "{}", first.text());
    let second = send(&app, form("POST", "/checkout", &submit, Some(&token))).await;
    assert_eq!(second.header("location"), first.header("location"));

    let confirmed = send(
        &app,
        form("GET", first.header("location"), "", Some(&token)),
    )
    .await;
    assert_eq!(confirmed.status, StatusCode::OK);
    let html = confirmed.text();
    assert!(html.contains("Order confirmed"), "{html}");
    assert!(html.contains("\"pageType\":202"), "{html}");
    // Coming back later, the same order shows its status (211).
    let status_path = first
        .header("location")
        .trim_end_matches("/confirmed")
        .to_owned();
    let status = send(&app, form("GET", &status_path, "", Some(&token)))
        .await
        .text();
    assert!(status.contains("\"pageType\":211"), "{status}");
    // 3 x $20.00 plus $5.00 shipping.
    assert!(html.contains("Total: $65.00"), "{html}");

    // The last units are gone: another shopper cannot add the product any more.
    let late = send(
        &app,
        call(
            "POST",
            "/api/commerce/cart/items",
            Some(add_body(json!(1))),
            None,
        ),
    )
    .await;
    assert_eq!(late.status, StatusCode::CONFLICT);
    assert_eq!(late.json()["reason"], "OUT_OF_STOCK");
    assert_eq!(late.json()["error"], "Unable to add item");
}

#[tokio::test]
async fn a_checkout_without_an_email_is_refused_with_the_spec_text() {
    let app = shop().await;
    let added = send(
        &app,
        form("POST", "/cart", "itemId=tote&sku=TOTE-1&quantity=1", None),
    )
    .await;
    let token = cart_cookie(&added);
    let refused = send(
        &app,
        form(
            "POST",
            "/checkout",
            "email=&idempotencyKey=0123456789abcdef",
            Some(&token),
        ),
    )
    .await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    assert!(
        refused
            .text()
            .contains("Update the missing or invalid information above")
    );
}

#[tokio::test]
async fn coupons_are_applied_refused_with_a_reason_and_removed() {
    let app = shop().await;
    let started = send(
        &app,
        call(
            "POST",
            "/api/commerce/cart/items",
            Some(add_body(json!(2))),
            None,
        ),
    )
    .await;
    let token = cart_cookie(&started);
    let coupon = |code: &str| Some(json!({ "code": code }).to_string());

    let applied = send(
        &app,
        call(
            "POST",
            "/api/commerce/cart/coupons",
            coupon("welcome10"),
            Some(&token),
        ),
    )
    .await;
    assert_eq!(applied.status, StatusCode::OK, "{}", applied.text());
    let cart = &applied.json()["cart"];
    assert_eq!(cart["discountCents"], 400);
    assert_eq!(cart["validCoupons"], json!(["WELCOME10"]));
    assert_eq!(cart["grandTotalCents"], 3600);

    let expired = send(
        &app,
        call(
            "POST",
            "/api/commerce/cart/coupons",
            coupon("GONE"),
            Some(&token),
        ),
    )
    .await;
    assert_eq!(expired.status, StatusCode::BAD_REQUEST);
    assert_eq!(expired.json()["error"], "This coupon has expired.");
    assert_eq!(expired.json()["target"], "GONE");

    let unknown = send(
        &app,
        call(
            "POST",
            "/api/commerce/cart/coupons",
            coupon("NOPE"),
            Some(&token),
        ),
    )
    .await;
    assert_eq!(unknown.status, StatusCode::BAD_REQUEST);
    assert_eq!(unknown.json()["error"], "This coupon code is not valid.");

    let wrong_type = send(
        &app,
        call(
            "POST",
            "/api/commerce/cart/coupons",
            Some(json!({ "code": 10 }).to_string()),
            Some(&token),
        ),
    )
    .await;
    assert_eq!(wrong_type.status, StatusCode::BAD_REQUEST);
    assert_eq!(wrong_type.json()["field"], "code");

    let removed = send(
        &app,
        call(
            "DELETE",
            "/api/commerce/cart/coupons/WELCOME10",
            None,
            Some(&token),
        ),
    )
    .await;
    assert_eq!(removed.status, StatusCode::OK);
    assert_eq!(removed.json()["cart"]["discountCents"], 0);
}

#[tokio::test]
async fn the_coupon_form_works_without_javascript() {
    let app = shop().await;
    let added = send(
        &app,
        form("POST", "/cart", "itemId=tote&sku=TOTE-1&quantity=1", None),
    )
    .await;
    let token = cart_cookie(&added);
    let applied = send(
        &app,
        form("POST", "/cart/coupon", "code=welcome10", Some(&token)),
    )
    .await;
    assert_eq!(applied.status, StatusCode::SEE_OTHER);
    let page = send(&app, form("GET", "/cart", "", Some(&token)))
        .await
        .text();
    assert!(page.contains("$18.00"), "{page}");
    let refused = send(
        &app,
        form("POST", "/cart/coupon", "code=GONE", Some(&token)),
    )
    .await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    assert!(refused.text().contains("This coupon has expired."));
}

/// A cart of the fixture's tote that has entered checkout, and the checkout page's key.
pub(crate) async fn at_checkout(app: &axum::Router, quantity: u32) -> (String, String) {
    let added = send(
        app,
        form(
            "POST",
            "/cart",
            &format!("itemId=tote&sku=TOTE-1&quantity={quantity}"),
            None,
        ),
    )
    .await;
    let token = cart_cookie(&added);
    let entry = send(
        app,
        form("POST", "/commerce/goto-checkout", "", Some(&token)),
    )
    .await;
    assert_eq!(entry.status, StatusCode::SEE_OTHER, "{}", entry.text());
    let checkout = send(app, form("GET", "/checkout", "", Some(&token))).await;
    assert_eq!(checkout.status, StatusCode::OK);
    (token, idempotency_key(&checkout.text()))
}

#[tokio::test]
async fn the_checkout_page_is_page_type_201_with_the_hold_countdown_and_every_field() {
    let app = shop().await;
    let (token, _) = at_checkout(&app, 1).await;
    let html = send(&app, form("GET", "/checkout", "", Some(&token)))
        .await
        .text();
    assert!(html.contains("\"pageType\":201"), "{html}");
    assert!(html.contains("class=\"site-header\""), "{html}");
    assert!(html.contains("data-island=\"hold-countdown\""), "{html}");
    assert!(html.contains("data-countdown-seconds=\"600\""), "{html}");
    for name in [
        "email",
        "name",
        "addressLine1",
        "city",
        "postalCode",
        "country",
        "shippingOption",
        "cardNumber",
        "cardExpiry",
        "cardCvc",
    ] {
        assert!(html.contains(&format!("name=\"{name}\"")), "{name}: {html}");
    }
    assert!(
        html.contains("4242 4242 4242 4242"),
        "the test card is named"
    );
    assert!(
        html.contains("<p class=\"test-mode-ribbon\" role=\"note\"><strong>Test mode</strong>: payments here are simulated and no money is taken.</p>"),
        "test payments wear the ribbon, in words: {html}"
    );
}

#[tokio::test]
async fn a_shop_without_payments_says_so_at_checkout_and_places_no_order() {
    let app = shop_paying(
        crate::support::repository().await,
        Some(std::sync::Arc::new(
            vitrine_core::checkout::NoPaymentGateway,
        )),
    )
    .await;
    let (token, key) = at_checkout(&app, 1).await;
    let html = send(&app, form("GET", "/checkout", "", Some(&token)))
        .await
        .text();
    assert!(
        html.contains("This shop cannot take payments yet."),
        "{html}"
    );
    assert!(
        !html.contains("name=\"cardNumber\""),
        "no card fields: {html}"
    );
    assert!(!html.contains("Place order"), "no button: {html}");
    assert!(!html.contains("test-mode-ribbon"), "{html}");
    // A form posted all the same is refused, and the cart stays open.
    let submit = format!("{CHECKOUT_FIELDS}&cardNumber=4242+4242+4242+4242&idempotencyKey={key}");
    let refused = send(&app, form("POST", "/checkout", &submit, Some(&token))).await;
    assert_eq!(refused.status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(
        refused
            .text()
            .contains("This shop cannot take payments yet.")
    );
    let cart = send(&app, call("GET", "/api/commerce/cart", None, Some(&token))).await;
    assert_eq!(cart.json()["cart"]["isPurchased"], false, "{}", cart.text());
}

#[tokio::test]
async fn a_held_item_cannot_be_taken_to_checkout_by_another_shopper() {
    let app = shop().await;
    at_checkout(&app, 3).await;
    let added = send(
        &app,
        form("POST", "/cart", "itemId=tote&sku=TOTE-1&quantity=1", None),
    )
    .await;
    let other = cart_cookie(&added);
    let refused = send(
        &app,
        form("POST", "/commerce/goto-checkout", "", Some(&other)),
    )
    .await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    assert!(
        refused
            .text()
            .contains("is being held for other shoppers at checkout"),
        "{}",
        refused.text()
    );
}

#[tokio::test]
async fn wrong_checkout_fields_are_named_and_a_declined_card_says_so() {
    let app = shop().await;
    let (token, key) = at_checkout(&app, 1).await;
    let bad_zip = CHECKOUT_FIELDS.replace("postalCode=02139", "postalCode=0213");
    let refused = send(
        &app,
        form(
            "POST",
            "/checkout",
            &format!("{bad_zip}&cardNumber=4242424242424242&idempotencyKey={key}"),
            Some(&token),
        ),
    )
    .await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    let html = refused.text();
    assert!(
        html.contains("Zip code must be exactly 5 digits."),
        "{html}"
    );
    assert!(html.contains("Update the missing or invalid information above"));
    assert!(html.contains("aria-invalid=\"true\""));
    // What the shopper typed stays, except the card.
    assert!(html.contains("value=\"Ada Shopper\""));
    assert!(!html.contains("4242424242424242"));

    let declined = send(
        &app,
        form(
            "POST",
            "/checkout",
            &format!("{CHECKOUT_FIELDS}&cardNumber=4000000000000002&idempotencyKey={key}"),
            Some(&token),
        ),
    )
    .await;
    assert_eq!(declined.status, StatusCode::PAYMENT_REQUIRED);
    assert!(
        declined
            .text()
            .contains("Your card was declined. Please use another card.")
    );
}

#[tokio::test]
async fn the_shipping_location_and_option_are_set_over_http() {
    let app = shop().await;
    let started = send(
        &app,
        call(
            "POST",
            "/api/commerce/cart/items",
            Some(add_body(json!(1))),
            None,
        ),
    )
    .await;
    let token = cart_cookie(&started);
    let located = send(
        &app,
        call(
            "PUT",
            "/api/commerce/cart/shipping-location",
            Some(json!({ "country": "us", "region": "ny", "postalCode": "10001" }).to_string()),
            Some(&token),
        ),
    )
    .await;
    assert_eq!(located.status, StatusCode::OK, "{}", located.text());
    assert_eq!(
        located.json()["cart"]["shippingLocation"],
        json!({ "country": "US", "region": "NY", "postalCode": "10001" })
    );
    let wrong = send(
        &app,
        call(
            "PUT",
            "/api/commerce/cart/shipping-location",
            Some(json!({ "country": 1 }).to_string()),
            Some(&token),
        ),
    )
    .await;
    assert_eq!(wrong.status, StatusCode::BAD_REQUEST);
    assert_eq!(wrong.json()["field"], "country");

    let chosen = send(
        &app,
        call(
            "PUT",
            "/api/commerce/cart/shipping-option",
            Some(json!({ "id": "standard" }).to_string()),
            Some(&token),
        ),
    )
    .await;
    assert_eq!(chosen.status, StatusCode::OK);
    let cart = &chosen.json()["cart"];
    assert_eq!(cart["shippingCostCents"], 500);
    assert_eq!(cart["totalsText"]["grandTotal"], "$25.00");
    let unknown = send(
        &app,
        call(
            "PUT",
            "/api/commerce/cart/shipping-option",
            Some(json!({ "id": "teleport" }).to_string()),
            Some(&token),
        ),
    )
    .await;
    assert_eq!(unknown.status, StatusCode::CONFLICT);
    assert_eq!(
        unknown.json()["error"],
        "Update the missing or invalid information above"
    );

    // The same without JavaScript: forms on the cart page, back to the cart.
    let by_form = send(
        &app,
        form(
            "POST",
            "/cart/shipping-location",
            "country=GB&region=&postalCode=SW1A+1AA",
            Some(&token),
        ),
    )
    .await;
    assert_eq!(by_form.status, StatusCode::SEE_OTHER);
    let page = send(&app, form("GET", "/cart", "", Some(&token)))
        .await
        .text();
    assert!(page.contains("value=\"SW1A 1AA\""), "{page}");
}

#[tokio::test]
async fn lines_change_and_go_without_javascript_and_show_cart_is_page_type_200() {
    let app = shop().await;
    let added = send(
        &app,
        form("POST", "/cart", "itemId=tote&sku=TOTE-1&quantity=1", None),
    )
    .await;
    let token = cart_cookie(&added);
    let changed = send(
        &app,
        form(
            "POST",
            "/cart/quantity",
            "sku=TOTE-1&quantity=2",
            Some(&token),
        ),
    )
    .await;
    assert_eq!(changed.status, StatusCode::SEE_OTHER);
    let shown = send(&app, form("GET", "/commerce/show-cart", "", Some(&token)))
        .await
        .text();
    assert!(shown.contains("\"pageType\":200"), "{shown}");
    assert!(shown.contains("$40.00"), "{shown}");
    // More than is in stock keeps what there is and says so.
    let reduced = send(
        &app,
        form(
            "POST",
            "/cart/quantity",
            "sku=TOTE-1&quantity=9",
            Some(&token),
        ),
    )
    .await;
    assert_eq!(reduced.status, StatusCode::OK);
    assert!(reduced.text().contains("Only 3 are available"));
    let removed = send(
        &app,
        form("POST", "/cart/remove", "sku=TOTE-1", Some(&token)),
    )
    .await;
    assert_eq!(removed.status, StatusCode::SEE_OTHER);
    let empty = send(&app, form("GET", "/cart", "", Some(&token)))
        .await
        .text();
    assert!(empty.contains("You have nothing in your shopping cart"));
    let gone = send(
        &app,
        form("POST", "/cart/remove", "sku=TOTE-1", Some(&token)),
    )
    .await;
    assert_eq!(gone.status, StatusCode::CONFLICT);
    assert!(gone.text().contains("Unable to remove item"));
}
