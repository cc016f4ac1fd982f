//! The cart API, keyed by a cart token in a cookie (or the `X-Cart-Token` header for apps),
//! and the no-JavaScript path of the add-to-cart form. Handlers parse, call the core's
//! [`CartService`](vitrine_core::checkout::CartService) once, and map the result.
//!
//! Decision: the token cookie is `vitrine_cart`, HttpOnly, SameSite=Lax, kept 30 days. The
//! form posts to `/cart` outside `/api`, where no crumb can be repeated by a page that is
//! cached for every visitor; SameSite=Lax keeps a cross-site POST from reaching a shopper's
//! cart (it arrives without the cookie and can only fill a new, unused cart).

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::header::{LOCATION, SET_COOKIE};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use vitrine_core::cart::{CartToken, CouponCode, LineId, ShippingLocation, ShoppingCart};
use vitrine_core::catalog::Sku;
use vitrine_core::checkout::CartServiceError;
use vitrine_core::site::ItemId;

use crate::AppState;
use crate::commerce::cart_wire::{
    CartAnswer, CartCall, FieldError, answers_field, failure, object, quantity_field, string_field,
};
use crate::commerce::{cart_form_page, cart_forms, cart_page};
use crate::shared::clock::now;
use crate::shared::route_table::Routes;

use crate::shared::cookie_names::CART_COOKIE;
pub(crate) const CART_HEADER: &str = "x-cart-token";
pub(crate) const CART_PATH: &str = "/api/commerce/cart";
const COOKIE_MAX_AGE_SECONDS: u32 = 30 * 24 * 60 * 60;

pub(crate) fn routes() -> Routes {
    Routes::new()
        .route(CART_PATH, get(show))
        .route("/api/commerce/cart/items", post(add))
        .route(
            "/api/commerce/cart/items/{line}",
            put(change).delete(remove),
        )
        .route(
            "/api/commerce/cart/items/{line}/form",
            get(cart_forms::open).put(cart_forms::update),
        )
        .route("/api/commerce/cart/coupons", post(apply_coupon))
        .route(
            "/api/commerce/cart/coupons/{code}",
            axum::routing::delete(remove_coupon),
        )
        .route(
            "/api/commerce/cart/shipping-location",
            put(set_shipping_location),
        )
        .route(
            "/api/commerce/cart/shipping-option",
            put(select_shipping_option),
        )
        .route("/cart", get(cart_page::show).post(cart_page::add))
        .route("/commerce/show-cart", get(cart_page::show_cart))
        .route("/cart/quantity", post(cart_page::change_quantity))
        .route("/cart/remove", post(cart_page::remove))
        .route("/cart/coupon", post(cart_page::apply_coupon))
        .route("/cart/coupon/remove", post(cart_page::remove_coupon))
        .route("/cart/shipping-location", post(cart_page::set_location))
        .route("/cart/shipping-option", post(cart_page::select_option))
        .route(
            "/cart/form",
            get(cart_form_page::show).post(cart_form_page::save),
        )
}

/// The token the request carries: the app header first, then the cookie. A value of the
/// wrong shape counts as none.
pub(crate) fn request_token(headers: &HeaderMap) -> Option<CartToken> {
    let from_header = headers
        .get(CART_HEADER)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| CartToken::parse(value.trim()).ok());
    from_header.or_else(|| {
        crate::shared::request_parts::cookie(headers, CART_COOKIE)
            .and_then(|value| CartToken::parse(value).ok())
    })
}

/// A new random token: 128 bits as 32 hex digits.
pub(crate) fn new_token() -> CartToken {
    let mut bytes = [0u8; 16];
    rand::fill(&mut bytes);
    CartToken::parse(hex::encode(bytes)).expect("32 hex digits are a valid cart token")
}

/// The token new items go under, and whether it is new: the request's, unless its cart has
/// been bought (a bought cart never changes again, so the shopper's next purchase starts a
/// new cart), else a new one.
pub(crate) async fn token_or_new(state: &AppState, headers: &HeaderMap) -> (CartToken, bool) {
    if let Some(token) = request_token(headers) {
        let bought = matches!(
            state.carts.store().load_cart(&token).await,
            Ok(Some(cart)) if cart.is_purchased
        );
        if !bought {
            return (token, false);
        }
    }
    (new_token(), true)
}

/// Hands a new token to the browser (cookie) and to apps (header).
pub(crate) fn give_token(response: &mut Response, token: &CartToken, secure: bool) {
    let secure = if secure { "; Secure" } else { "" };
    let cookie = format!(
        "{CART_COOKIE}={token}; Path=/; Max-Age={COOKIE_MAX_AGE_SECONDS}; HttpOnly; SameSite=Lax{secure}"
    );
    if let Ok(value) = HeaderValue::from_str(&cookie) {
        response.headers_mut().append(SET_COOKIE, value);
    }
    if let Ok(value) = HeaderValue::from_str(token.as_str()) {
        response.headers_mut().insert(CART_HEADER, value);
    }
}

fn sku_from(text: &str) -> Result<Sku, FieldError> {
    Sku::parse(text).map_err(|_| FieldError {
        field: "sku",
        message: "sku is not a valid SKU.".into(),
    })
}

/// The line a path names: a line id from the cart, or the SKU of a variant's only line.
pub(crate) fn line_from(text: &str) -> Result<LineId, FieldError> {
    LineId::parse(text).map_err(|_| FieldError {
        field: "line",
        message: "The path does not name a cart line.".into(),
    })
}

async fn show(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let now = now();
    let cart = match request_token(&headers) {
        Some(token) => match state.carts.cart(&token, now).await {
            Ok(cart) => cart,
            Err(error) => return failure(CartCall::Update, &error),
        },
        None => None,
    };
    let cart = cart.unwrap_or_else(|| ShoppingCart {
        subtotal_amount: vitrine_core::money::Money::zero(state.carts.rules().currency),
        ..ShoppingCart::default()
    });
    Json(CartAnswer::new(&cart, &[], now)).into_response()
}

async fn add(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    let parsed = object(&body).and_then(|map| {
        let item = string_field(&map, "itemId")?;
        let item = ItemId::parse(item).map_err(|_| FieldError {
            field: "itemId",
            message: "itemId is not a valid item id.".into(),
        })?;
        let sku = sku_from(&string_field(&map, "sku")?)?;
        Ok((item, sku, quantity_field(&map)?, answers_field(&map)?))
    });
    let (item, sku, quantity, answers) = match parsed {
        Ok(parsed) => parsed,
        Err(error) => return error.into_response(),
    };
    // A product the gate keeps from this viewer (a members-only shop's, for a non-member)
    // answers as an unknown one: the call tells nothing of it.
    if !crate::shared::viewer::may_see_item(&state, &headers, &item).await {
        let unknown = CartServiceError::UnknownVariant {
            item: item.to_string(),
            sku: sku.as_str().to_owned(),
        };
        return failure(CartCall::Add, &unknown);
    }
    let (token, is_new) = token_or_new(&state, &headers).await;
    let now = now();
    match state
        .carts
        .add_item_with_answers(&token, &item, &sku, quantity, &answers, now)
        .await
    {
        Ok(update) => {
            if let Some(event) = crate::shared::conversion_events::added_to_cart(
                &state,
                &headers,
                &update.cart,
                &sku,
                quantity,
            ) {
                crate::shared::conversions::fire(&state, &headers, event).await;
            }
            let mut response =
                Json(CartAnswer::new(&update.cart, &update.warnings, now)).into_response();
            if is_new {
                give_token(&mut response, &token, state.config.secure_cookies);
            }
            response
        }
        Err(error) => failure(CartCall::Add, &error),
    }
}

async fn change(
    State(state): State<AppState>,
    Path(line): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let parsed = object(&body)
        .and_then(|map| quantity_field(&map))
        .and_then(|quantity| Ok((line_from(&line)?, quantity)));
    let (line, quantity) = match parsed {
        Ok(parsed) => parsed,
        Err(error) => return error.into_response(),
    };
    let Some(token) = request_token(&headers) else {
        return failure(CartCall::Update, &CartServiceError::NoCart);
    };
    let now = now();
    match state
        .carts
        .change_quantity(&token, line, quantity, now)
        .await
    {
        Ok(update) => Json(CartAnswer::new(&update.cart, &update.warnings, now)).into_response(),
        Err(error) => failure(CartCall::Update, &error),
    }
}

async fn remove(
    State(state): State<AppState>,
    Path(line): Path<String>,
    headers: HeaderMap,
) -> Response {
    let line = match line_from(&line) {
        Ok(line) => line,
        Err(error) => return error.into_response(),
    };
    let Some(token) = request_token(&headers) else {
        return failure(CartCall::Remove, &CartServiceError::NoCart);
    };
    let now = now();
    match state.carts.remove_item(&token, line, now).await {
        Ok(update) => Json(CartAnswer::new(&update.cart, &update.warnings, now)).into_response(),
        Err(error) => failure(CartCall::Remove, &error),
    }
}

fn code_from(text: &str) -> Result<CouponCode, FieldError> {
    CouponCode::parse(text).map_err(|_| FieldError {
        field: "code",
        message: "code is not a valid coupon code.".into(),
    })
}

async fn apply_coupon(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    let code = match object(&body).and_then(|map| code_from(&string_field(&map, "code")?)) {
        Ok(code) => code,
        Err(error) => return error.into_response(),
    };
    let Some(token) = request_token(&headers) else {
        return failure(CartCall::Coupon, &CartServiceError::NoCart);
    };
    let now = now();
    // The shopper's email is not known before checkout, so only the total limit can bite
    // here; the per-customer limit is counted again when the order is placed.
    match state.carts.apply_coupon(&token, &code, "", now).await {
        Ok(update) => Json(CartAnswer::new(&update.cart, &update.warnings, now)).into_response(),
        Err(error) => failure(CartCall::Coupon, &error),
    }
}

async fn remove_coupon(
    State(state): State<AppState>,
    Path(code): Path<String>,
    headers: HeaderMap,
) -> Response {
    let code = match code_from(&code) {
        Ok(code) => code,
        Err(error) => return error.into_response(),
    };
    let Some(token) = request_token(&headers) else {
        return failure(CartCall::Coupon, &CartServiceError::NoCart);
    };
    let now = now();
    match state.carts.remove_coupon(&token, &code, now).await {
        Ok(update) => Json(CartAnswer::new(&update.cart, &update.warnings, now)).into_response(),
        Err(error) => failure(CartCall::Coupon, &error),
    }
}

/// `PUT /api/commerce/cart/shipping-location {country, region, postalCode}`: where the cart
/// ships, which decides its tax.
async fn set_shipping_location(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let parsed = object(&body).and_then(|map| {
        let country = string_field(&map, "country")?;
        let optional = |field: &'static str| match map.get(field) {
            None | Some(serde_json::Value::Null) => Ok(String::new()),
            Some(serde_json::Value::String(text)) => Ok(text.clone()),
            Some(_) => Err(FieldError {
                field,
                message: format!("{field} must be a string."),
            }),
        };
        let country = country.trim();
        if country.len() != 2 || !country.chars().all(|c| c.is_ascii_alphabetic()) {
            return Err(FieldError {
                field: "country",
                message: "country must be a two-letter country code.".into(),
            });
        }
        Ok(ShippingLocation::new(
            country,
            &optional("region")?,
            &optional("postalCode")?,
        ))
    });
    let location = match parsed {
        Ok(location) => location,
        Err(error) => return error.into_response(),
    };
    let Some(token) = request_token(&headers) else {
        return failure(CartCall::Shipping, &CartServiceError::NoCart);
    };
    let now = now();
    match state
        .carts
        .set_shipping_location(&token, location, now)
        .await
    {
        Ok(update) => Json(CartAnswer::new(&update.cart, &update.warnings, now)).into_response(),
        Err(error) => failure(CartCall::Shipping, &error),
    }
}

/// `PUT /api/commerce/cart/shipping-option {id}`: the shipping option chosen.
async fn select_shipping_option(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let id = match object(&body).and_then(|map| string_field(&map, "id")) {
        Ok(id) => id,
        Err(error) => return error.into_response(),
    };
    let Some(token) = request_token(&headers) else {
        return failure(CartCall::Shipping, &CartServiceError::NoCart);
    };
    let now = now();
    match state.carts.select_shipping_option(&token, &id, now).await {
        Ok(update) => Json(CartAnswer::new(&update.cart, &update.warnings, now)).into_response(),
        Err(error) => failure(CartCall::Shipping, &error),
    }
}

/// A redirect that turns the form's POST into a GET of the cart page.
pub(crate) fn see_other(location: &'static str) -> Response {
    (StatusCode::SEE_OTHER, [(LOCATION, location)]).into_response()
}

/// [`see_other`] to a path made at run time.
pub(crate) fn see_other_to(location: &str) -> Response {
    match HeaderValue::from_str(location) {
        Ok(value) => (StatusCode::SEE_OTHER, [(LOCATION, value)]).into_response(),
        Err(_) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    }
}
