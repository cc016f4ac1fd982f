//! The cart page without JavaScript: `POST /cart` is the add-to-cart form's action, and
//! `GET /cart` shows the cart rendered on the server, inside the root element the cart app
//! mounts on (`sqs-cart-root` in `sqs-cart-container`, 001 s2).

use axum::body::Bytes;
use axum::extract::State;
use axum::http::header::CACHE_CONTROL;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use vitrine_core::cart::{CartError, CouponCode, ShoppingCart};
use vitrine_core::catalog::Sku;
use vitrine_core::checkout::CartServiceError;
use vitrine_core::money::{FormatOptions, Locale, Money, format};
use vitrine_core::site::ItemId;

use crate::AppState;
use crate::cart::{give_token, now, request_token, see_other, token_or_new};
use crate::cart_wire::{NOTHING_IN_CART, UNABLE_TO_ADD, UNKNOWN_COUPON};
use crate::request_parts::escape_html as escape;

/// A complete small page, never cached: it shows one shopper's cart.
fn page(status: StatusCode, body: &str) -> Response {
    let html = format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"robots\" content=\"noindex\"><title>Cart</title></head>\
         <body><main class=\"sqs-cart-container\"><h1>Cart</h1>\
         <div id=\"sqs-cart-root\">{body}</div></main></body></html>"
    );
    (status, [(CACHE_CONTROL, "no-store")], Html(html)).into_response()
}

fn money(cents: i64, like: Money) -> String {
    format(
        Money::new(cents, like.currency),
        &Locale::default(),
        FormatOptions::default(),
    )
}

/// The cart's lines and totals as HTML.
pub(crate) fn cart_html(cart: &ShoppingCart) -> String {
    if cart.entries.is_empty() {
        return format!("<p class=\"cart-empty\">{NOTHING_IN_CART}</p>");
    }
    let unit = cart.subtotal_amount;
    let mut html = String::from(
        "<table class=\"cart-lines\"><thead><tr><th scope=\"col\">Item</th>\
         <th scope=\"col\">Quantity</th><th scope=\"col\">Price</th></tr></thead><tbody>",
    );
    for entry in &cart.entries {
        html.push_str(&format!(
            "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&entry.product_name),
            entry.quantity,
            money(entry.line_total_cents(), unit)
        ));
    }
    html.push_str("</tbody></table><dl class=\"cart-totals\">");
    let rows = [
        ("Subtotal", cart.subtotal_cents),
        ("Discount", cart.discount_cents),
        ("Shipping", cart.shipping_cost_cents),
        ("Tax", cart.tax_cents),
        ("Total", cart.grand_total_cents),
    ];
    for (label, cents) in rows {
        html.push_str(&format!("<dt>{label}</dt><dd>{}</dd>", money(cents, unit)));
    }
    html.push_str("</dl>");
    for warning in &cart.warnings {
        html.push_str(&format!(
            "<p role=\"status\">{}</p>",
            escape(&warning.message)
        ));
    }
    html
}

/// The cart with its coupon form and the way on to checkout, and an alert when given.
fn cart_page(status: StatusCode, cart: &ShoppingCart, alert: Option<&str>) -> Response {
    let mut body = String::new();
    if let Some(alert) = alert {
        body.push_str(&format!("<p role=\"alert\">{}</p>", escape(alert)));
    }
    body.push_str(&cart_html(cart));
    if !cart.entries.is_empty() && !cart.is_purchased {
        body.push_str(
            "<form class=\"cart-coupon\" method=\"post\" action=\"/cart/coupon\">\
             <div class=\"field\"><label class=\"field__label\" for=\"cart-coupon-code\">Coupon code</label>\
             <input class=\"field__control\" id=\"cart-coupon-code\" name=\"code\" required></div>\
             <button class=\"button\" type=\"submit\">Apply coupon</button></form>\
             <p><a class=\"button button--primary\" href=\"/commerce/goto-checkout\">Checkout</a></p>",
        );
    }
    page(status, &body)
}

async fn current_cart(state: &AppState, headers: &HeaderMap) -> ShoppingCart {
    let cart = match request_token(headers) {
        Some(token) => state.carts.cart(&token, now()).await.ok().flatten(),
        None => None,
    };
    cart.unwrap_or_default()
}

pub(crate) async fn show(State(state): State<AppState>, headers: HeaderMap) -> Response {
    cart_page(StatusCode::OK, &current_cart(&state, &headers).await, None)
}

/// The coupon form posted without JavaScript: apply, then show the cart again (303); a
/// refusal shows the cart with the reason.
pub(crate) async fn apply_coupon(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let code = url::form_urlencoded::parse(&body)
        .find(|(key, _)| key == "code")
        .and_then(|(_, value)| CouponCode::parse(value.as_ref()).ok());
    let Some(token) = request_token(&headers) else {
        return cart_page(
            StatusCode::BAD_REQUEST,
            &ShoppingCart::default(),
            Some(NOTHING_IN_CART),
        );
    };
    let outcome = match &code {
        Some(code) => state.carts.apply_coupon(&token, code, "", now()).await,
        None => Err(CartServiceError::UnknownCoupon(String::new())),
    };
    match outcome {
        Ok(_) => see_other("/cart"),
        Err(error) => {
            let reason = match &error {
                CartServiceError::Cart(CartError::CouponNotApplicable { reason, .. }) => {
                    reason.message()
                }
                CartServiceError::Cart(CartError::CouponAlreadyApplied(_)) => {
                    "This coupon is already applied."
                }
                _ => UNKNOWN_COUPON,
            };
            let cart = current_cart(&state, &headers).await;
            cart_page(StatusCode::CONFLICT, &cart, Some(reason))
        }
    }
}

/// The add-to-cart form posted without JavaScript: add, then show the cart (303, so a
/// reload does not add again). A failure shows the spec's text with a link back.
pub(crate) async fn add(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let pairs: Vec<(String, String)> = url::form_urlencoded::parse(&body).into_owned().collect();
    let field = |name: &str| {
        pairs
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.trim().to_owned())
    };
    let item = field("itemId").and_then(|value| ItemId::parse(value).ok());
    let sku = field("sku").and_then(|value| Sku::parse(value).ok());
    let quantity = field("quantity").and_then(|value| value.parse::<u32>().ok());
    let refused = |status| {
        page(
            status,
            &format!(
                "<p role=\"alert\">{UNABLE_TO_ADD}</p><p><a href=\"/\">Back to the shop</a></p>"
            ),
        )
    };
    let (Some(item), Some(sku), Some(quantity)) = (item, sku, quantity) else {
        return refused(StatusCode::BAD_REQUEST);
    };
    let (token, is_new) = token_or_new(&headers);
    match state
        .carts
        .add_item(&token, &item, &sku, quantity, now())
        .await
    {
        Ok(_) => {
            let mut response = see_other("/cart");
            if is_new {
                give_token(&mut response, &token, state.config.secure_cookies);
            }
            response
        }
        Err(_) => refused(StatusCode::CONFLICT),
    }
}
