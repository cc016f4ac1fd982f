//! The origin check of state-changing routes outside `/api`: a cross-site page (or a script
//! naming no origin) cannot add to a cart, enter checkout, place an order, donate, post a
//! review or a form; checkout entry, which holds stock, is a POST; and a mail provider's
//! one-click unsubscribe still works.

use axum::body::Body;
use axum::http::{Request, StatusCode};

use crate::cart::{form, shop};
use crate::support::{cart_cookie, send};

/// A POST as a browser sends it from a page of another site.
fn cross_site(path: &str, body: &str, origin: Option<&str>) -> Request<Body> {
    let mut request = Request::post(path)
        .header("host", "shop.example")
        .header("content-type", "application/x-www-form-urlencoded");
    request = match origin {
        Some(origin) => request.header("origin", origin),
        None => request.header("sec-fetch-site", "cross-site"),
    };
    request.body(Body::from(body.to_owned())).unwrap()
}

#[tokio::test]
async fn cross_site_posts_to_every_form_route_outside_the_api_are_refused() {
    let app = shop().await;
    let routes = [
        ("/cart", "itemId=tote&sku=TOTE-1&quantity=1"),
        ("/cart/quantity", "line=TOTE-1&quantity=0"),
        ("/cart/remove", "line=TOTE-1"),
        ("/cart/coupon", "code=WELCOME10"),
        ("/cart/coupon/remove", ""),
        ("/cart/shipping-location", "country=US"),
        ("/cart/shipping-option", "shippingOption=standard"),
        ("/cart/form", "line=TOTE-1"),
        ("/commerce/goto-checkout", ""),
        ("/checkout", "email=a%40example.com"),
        ("/checkout/subscribe", ""),
        ("/checkout/donate", "amount=10"),
        ("/checkout/giftcard", "websiteId=w&giftCardProductId=g"),
        ("/commerce/review-request", "token=abc&rating=5"),
        ("/form-submission", "formId=contact&message=hi"),
        ("/newsletter/confirm", "token=abc"),
        ("/newsletter/unsubscribe", "token=abc"),
    ];
    for (path, body) in routes {
        for origin in [None, Some("https://evil.example"), Some("null")] {
            let answer = send(&app, cross_site(path, body, origin)).await;
            assert_eq!(
                answer.status,
                StatusCode::FORBIDDEN,
                "{path} from {origin:?}"
            );
            assert!(
                answer
                    .text()
                    .contains("Unable to submit form. Please try again later."),
                "{path}: {}",
                answer.text()
            );
        }
    }
}

#[tokio::test]
async fn a_post_naming_no_origin_at_all_is_refused_outside_the_newsletter() {
    let app = shop().await;
    let request = Request::post("/cart")
        .header("host", "shop.example")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from("itemId=tote&sku=TOTE-1&quantity=1"))
        .unwrap();
    assert_eq!(send(&app, request).await.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn a_same_origin_post_passes_by_sec_fetch_site_or_by_origin() {
    let app = shop().await;
    let by_fetch_metadata = send(
        &app,
        form("POST", "/cart", "itemId=tote&sku=TOTE-1&quantity=1", None),
    )
    .await;
    assert_eq!(by_fetch_metadata.status, StatusCode::SEE_OTHER);
    let by_origin = Request::post("/cart")
        .header("host", "shop.example")
        .header("origin", "https://shop.example")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from("itemId=tote&sku=TOTE-1&quantity=1"))
        .unwrap();
    assert_eq!(send(&app, by_origin).await.status, StatusCode::SEE_OTHER);
}

#[tokio::test]
async fn a_get_of_checkout_entry_holds_no_stock_and_leads_to_the_cart() {
    let app = shop().await;
    // One shopper takes all 3 totes and follows a link (or a prefetch) to checkout entry.
    let first = send(
        &app,
        form("POST", "/cart", "itemId=tote&sku=TOTE-1&quantity=3", None),
    )
    .await;
    let first = cart_cookie(&first);
    let followed = send(
        &app,
        form("GET", "/commerce/goto-checkout", "", Some(&first)),
    )
    .await;
    assert_eq!(followed.status, StatusCode::SEE_OTHER);
    assert_eq!(followed.header("location"), "/cart");
    // Nothing was held, so another shopper may still enter checkout with a tote.
    let second = send(
        &app,
        form("POST", "/cart", "itemId=tote&sku=TOTE-1&quantity=1", None),
    )
    .await;
    let second = cart_cookie(&second);
    let entered = send(
        &app,
        form("POST", "/commerce/goto-checkout", "", Some(&second)),
    )
    .await;
    assert_eq!(entered.status, StatusCode::SEE_OTHER, "{}", entered.text());
    assert_eq!(entered.header("location"), "/checkout");
}

#[tokio::test]
async fn the_cart_page_enters_checkout_with_a_posting_button() {
    let app = shop().await;
    let added = send(
        &app,
        form("POST", "/cart", "itemId=tote&sku=TOTE-1&quantity=1", None),
    )
    .await;
    let token = cart_cookie(&added);
    let html = send(&app, form("GET", "/cart", "", Some(&token)))
        .await
        .text();
    assert!(
        html.contains(
            r#"<form class="cart-page__checkout" method="post" action="/commerce/goto-checkout">"#
        ),
        "{html}"
    );
    assert!(
        !html.contains(r#"href="/commerce/goto-checkout""#),
        "{html}"
    );
}
