//! Checkout entry and the checkout page, server-rendered so they work without JavaScript:
//! `/commerce/goto-checkout` (with the session alert of 000 s8 first when no cart came with
//! the request), `/checkout` (summary, email, shipping, place order), and the order
//! confirmed page. Every rule is the core's; these handlers parse and map.
//!
//! Decision: payment is not taken yet (no gateway is wired), so placing an order records it
//! and shows it confirmed. The order page is reached by the order's random 128-bit id.

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::header::{CACHE_CONTROL, LOCATION};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use vitrine_core::cart::ShoppingCart;
use vitrine_core::checkout::{IdempotencyKey, PlaceOrderError, enter_checkout};
use vitrine_core::money::{FormatOptions, Locale, Money, format};

use crate::AppState;
use crate::cart::{now, request_token};
use crate::cart_page::cart_html;
use crate::request_parts::escape_html as escape;

pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/commerce/goto-checkout", get(goto_checkout))
        .route("/checkout", get(show).post(place))
        .route("/commerce/orders/{id}", get(order_confirmed))
}

fn page(status: StatusCode, title: &str, body: &str) -> Response {
    let html = format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"robots\" content=\"noindex\"><title>{title}</title></head>\
         <body><main class=\"checkout\"><h1>{title}</h1>{body}</main></body></html>",
        title = escape(title)
    );
    (status, [(CACHE_CONTROL, "no-store")], Html(html)).into_response()
}

fn alert(text: &str) -> String {
    format!(
        "<p role=\"alert\">{}</p><p><a href=\"/cart\">Back to the cart</a></p>",
        escape(text)
    )
}

async fn priced_cart(state: &AppState, headers: &HeaderMap) -> Option<ShoppingCart> {
    let token = request_token(headers)?;
    state.carts.cart(&token, now()).await.ok().flatten()
}

async fn goto_checkout(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let cart = priced_cart(&state, &headers).await;
    match enter_checkout(cart.as_ref()) {
        Ok(()) => (StatusCode::SEE_OTHER, [(LOCATION, "/checkout")]).into_response(),
        Err(refusal) => page(StatusCode::OK, "Checkout", &alert(&refusal.message())),
    }
}

fn random_hex() -> String {
    let mut bytes = [0u8; 16];
    rand::fill(&mut bytes);
    hex::encode(bytes)
}

async fn show(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let Some(cart) = priced_cart(&state, &headers).await else {
        return page(
            StatusCode::OK,
            "Checkout",
            &alert(vitrine_core::checkout::SESSION_EXPIRED_ALERT),
        );
    };
    let mut body = cart_html(&cart);
    if cart.entries.is_empty() {
        return page(StatusCode::OK, "Checkout", &body);
    }
    // A fresh key per rendering of the form: submitting this form twice orders once.
    body.push_str(&format!(
        "<form class=\"checkout-form\" method=\"post\" action=\"/checkout\">\
         <input type=\"hidden\" name=\"idempotencyKey\" value=\"{}\">\
         <div class=\"field\"><label class=\"field__label\" for=\"checkout-email\">Email</label>\
         <input class=\"field__control\" id=\"checkout-email\" type=\"email\" name=\"email\" \
         autocomplete=\"email\" required></div>",
        random_hex()
    ));
    if cart.requires_shipping {
        body.push_str(
            "<div class=\"field\"><label class=\"field__label\" for=\"checkout-shipping\">Shipping</label>\
             <select class=\"field__control\" id=\"checkout-shipping\" name=\"shippingOption\" required>",
        );
        for option in &cart.shipping_options {
            body.push_str(&format!(
                "<option value=\"{}\">{}</option>",
                escape(&option.id),
                escape(&option.name)
            ));
        }
        body.push_str("</select></div>");
    }
    body.push_str(
        "<button class=\"button button--primary\" type=\"submit\">Place order</button></form>",
    );
    page(StatusCode::OK, "Checkout", &body)
}

async fn place(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    let pairs: Vec<(String, String)> = url::form_urlencoded::parse(&body).into_owned().collect();
    let field = |name: &str| {
        pairs
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.trim().to_owned())
            .unwrap_or_default()
    };
    let Some(token) = request_token(&headers) else {
        return page(
            StatusCode::BAD_REQUEST,
            "Checkout",
            &alert(vitrine_core::checkout::SESSION_EXPIRED_ALERT),
        );
    };
    let email = field("email");
    let key = IdempotencyKey::parse(field("idempotencyKey"));
    let (Ok(key), true) = (key, email.contains('@')) else {
        return page(
            StatusCode::BAD_REQUEST,
            "Checkout",
            &alert(vitrine_core::cart::texts::UPDATE_MISSING_INFORMATION),
        );
    };
    let now = now();
    let option = field("shippingOption");
    if !option.is_empty() {
        // A purchased cart refuses the change; placing the order below then answers with
        // the order this key placed, or says the cart was bought.
        let _ = state
            .carts
            .select_shipping_option(&token, &option, now)
            .await;
    }
    match state
        .carts
        .place_order(&token, key, format!("order-{}", random_hex()), &email, now)
        .await
    {
        Ok(order) => {
            let location = format!("/commerce/orders/{}", order.id);
            (StatusCode::SEE_OTHER, [(LOCATION, location)]).into_response()
        }
        Err(PlaceOrderError::OutOfStock(sku)) => page(
            StatusCode::CONFLICT,
            "Checkout",
            &alert(&format!("Sorry, {} is sold out.", sku.as_str())),
        ),
        Err(PlaceOrderError::NotReady(_)) => page(
            StatusCode::BAD_REQUEST,
            "Checkout",
            &alert(vitrine_core::cart::texts::UPDATE_MISSING_INFORMATION),
        ),
        Err(PlaceOrderError::UnknownCart | PlaceOrderError::AlreadyPurchased) => page(
            StatusCode::CONFLICT,
            "Checkout",
            &alert(vitrine_core::cart::texts::NOTHING_IN_CART),
        ),
        Err(PlaceOrderError::Repository(cause)) => {
            tracing::error!(error = %cause, "placing an order failed in the store");
            page(
                StatusCode::SERVICE_UNAVAILABLE,
                "Checkout",
                &alert(vitrine_core::cart::texts::PLEASE_TRY_AGAIN),
            )
        }
    }
}

async fn order_confirmed(State(state): State<AppState>, Path(id): Path<String>) -> Response {
    let order = match state.carts.store().order(&id).await {
        Ok(Some(order)) => order,
        Ok(None) => return page(StatusCode::NOT_FOUND, "Order not found", ""),
        Err(cause) => {
            tracing::error!(error = %cause, "reading an order failed");
            return page(
                StatusCode::SERVICE_UNAVAILABLE,
                "Order",
                &alert(vitrine_core::cart::texts::PLEASE_TRY_AGAIN),
            );
        }
    };
    let total = format(
        Money::new(order.grand_total_cents, order.currency),
        &Locale::default(),
        FormatOptions::default(),
    );
    let body = format!(
        "<p>Thank you. Your order <strong>{}</strong> is confirmed.</p>\
         <p class=\"order-total\">Total: {}</p><p><a href=\"/\">Continue shopping</a></p>",
        escape(&order.id),
        escape(&total)
    );
    page(StatusCode::OK, "Order confirmed", &body)
}
