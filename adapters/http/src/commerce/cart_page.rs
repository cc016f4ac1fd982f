//! The cart page without JavaScript: `GET /cart` (page type 205, the cart app's root
//! `sqs-cart-root` in `sqs-cart-container`, 001 s2) and `GET /commerce/show-cart` (200) show
//! the cart inside the site's chrome; the forms on it post here and come back to the cart
//! with a 303, or show it again with the text of 000 s8 when the change was refused.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use vitrine_core::cart::{
    CartError, CartWarning, CouponCode, LineId, ShippingLocation, ShoppingCart,
};
use vitrine_core::catalog::Sku;
use vitrine_core::checkout::{CartServiceError, CartUpdate};
use vitrine_core::enums::PageType;
use vitrine_core::site::ItemId;

use crate::AppState;
use crate::commerce::cart::{give_token, request_token, see_other, token_or_new};
use crate::commerce::cart_wire::{
    NOTHING_IN_CART, UNABLE_TO_ADD, UNABLE_TO_REMOVE, UNABLE_TO_UPDATE, UNKNOWN_COUPON,
};
use crate::render::commerce_pages::{CartMain, CommerceMain};
use crate::shared::clock::now;
use crate::shared::visitor_page::respond;

/// The fields of a form-encoded body, trimmed.
pub(crate) struct FormFields(Vec<(String, String)>);

impl FormFields {
    pub(crate) fn parse(body: &[u8]) -> Self {
        Self(url::form_urlencoded::parse(body).into_owned().collect())
    }

    pub(crate) fn get(&self, name: &str) -> Option<String> {
        self.0
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.trim().to_owned())
    }

    pub(crate) fn text(&self, name: &str) -> String {
        self.get(name).unwrap_or_default()
    }

    /// The line a cart form names: `line`, or `sku` as forms rendered before lines had ids
    /// still send.
    fn line(&self) -> Option<LineId> {
        self.get("line")
            .or_else(|| self.get("sku"))
            .and_then(|value| LineId::parse(value).ok())
    }
}

/// The cart page for `cart`, with an alert and the operation's warnings when given.
pub(crate) async fn cart_page(
    state: &AppState,
    page_type: PageType,
    status: StatusCode,
    cart: &ShoppingCart,
    alert: Option<String>,
    warnings: &[CartWarning],
) -> Response {
    let mut main = CartMain::new(cart, alert);
    // The operation's own warnings (stock) come first, as in the API's answer.
    let mut messages: Vec<String> = warnings.iter().map(|w| w.message.clone()).collect();
    messages.append(&mut main.summary.warnings);
    main.summary.warnings = messages;
    let path = if page_type == PageType::ShowCart {
        "/commerce/show-cart"
    } else {
        "/cart"
    };
    respond(
        state,
        page_type,
        path,
        "Cart",
        status,
        &CommerceMain::Cart(Box::new(main)),
    )
    .await
}

pub(crate) async fn current_cart(state: &AppState, headers: &HeaderMap) -> ShoppingCart {
    let cart = match request_token(headers) {
        Some(token) => state.carts.cart(&token, now()).await.ok().flatten(),
        None => None,
    };
    cart.unwrap_or_else(|| ShoppingCart {
        subtotal_amount: vitrine_core::money::Money::zero(state.carts.rules().currency),
        ..ShoppingCart::default()
    })
}

pub(crate) async fn show(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let cart = current_cart(&state, &headers).await;
    cart_page(&state, PageType::CartV2, StatusCode::OK, &cart, None, &[]).await
}

/// `/commerce/show-cart`: the same cart under the "show cart" page type (200).
pub(crate) async fn show_cart(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let cart = current_cart(&state, &headers).await;
    cart_page(&state, PageType::ShowCart, StatusCode::OK, &cart, None, &[]).await
}

/// The answer to a form: back to the cart (303, so a reload does not post again), or the
/// cart with the operation's warnings when there are some, or with the refusal's text.
pub(crate) async fn after(
    state: &AppState,
    headers: &HeaderMap,
    outcome: Result<CartUpdate, CartServiceError>,
    refusal_text: &str,
) -> Response {
    match outcome {
        Ok(update) if update.warnings.is_empty() => see_other("/cart"),
        Ok(update) => {
            cart_page(
                state,
                PageType::CartV2,
                StatusCode::OK,
                &update.cart,
                None,
                &update.warnings,
            )
            .await
        }
        Err(error) => {
            if let CartServiceError::Repository(cause) = &error {
                tracing::error!(error = %cause, "a cart form failed in the store");
            }
            let text = match &error {
                CartServiceError::NoCart => NOTHING_IN_CART.to_owned(),
                CartServiceError::UnknownCoupon(_) => UNKNOWN_COUPON.to_owned(),
                CartServiceError::Cart(CartError::CouponNotApplicable { reason, .. }) => {
                    reason.message().to_owned()
                }
                CartServiceError::Cart(CartError::CouponAlreadyApplied(_)) => {
                    "This coupon is already applied.".to_owned()
                }
                CartServiceError::Cart(CartError::SubscriptionNotAlone) => {
                    vitrine_core::cart::SUBSCRIPTION_ALONE.to_owned()
                }
                _ => refusal_text.to_owned(),
            };
            let status = match &error {
                CartServiceError::Repository(_) => StatusCode::SERVICE_UNAVAILABLE,
                CartServiceError::NoCart => StatusCode::BAD_REQUEST,
                _ => StatusCode::CONFLICT,
            };
            let cart = current_cart(state, headers).await;
            cart_page(state, PageType::CartV2, status, &cart, Some(text), &[]).await
        }
    }
}

/// The add-to-cart form of product pages and blocks.
pub(crate) async fn add(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let form = FormFields::parse(&body);
    let item = form
        .get("itemId")
        .and_then(|value| ItemId::parse(value).ok());
    let sku = form.get("sku").and_then(|value| Sku::parse(value).ok());
    let quantity = form
        .get("quantity")
        .and_then(|value| value.parse::<u32>().ok());
    let (Some(item), Some(sku), Some(quantity)) = (item, sku, quantity) else {
        let cart = current_cart(&state, &headers).await;
        return cart_page(
            &state,
            PageType::CartV2,
            StatusCode::BAD_REQUEST,
            &cart,
            Some(UNABLE_TO_ADD.to_owned()),
            &[],
        )
        .await;
    };
    let (token, is_new) = token_or_new(&state, &headers).await;
    let answers = crate::render::product_form::submitted_answers(&body);
    // A product the gate keeps from this viewer answers as an unknown one.
    let outcome = if crate::shared::viewer::may_see_item(&state, &headers, &item).await {
        state
            .carts
            .add_item_with_answers(&token, &item, &sku, quantity, &answers, now())
            .await
    } else {
        Err(CartServiceError::UnknownVariant {
            item: item.to_string(),
            sku: sku.as_str().to_owned(),
        })
    };
    if let Err(CartServiceError::InvalidAnswers(invalid)) = &outcome
        && let Some(form) = &invalid.form
    {
        let adding = crate::commerce::cart_form_page::Adding {
            item: &item,
            sku: &sku,
            quantity,
        };
        return crate::commerce::cart_form_page::refused_add(
            &state, adding, form, &answers, invalid,
        )
        .await;
    }
    if let Ok(update) = &outcome
        && let Some(event) = crate::shared::conversion_events::added_to_cart(
            &state,
            &headers,
            &update.cart,
            &sku,
            quantity,
        )
    {
        crate::shared::conversions::fire(&state, &headers, event).await;
    }
    // A new cart is stored once the add succeeds, with or without a stock warning: its
    // cookie goes with either answer, the redirect or the cart page showing the warning.
    let stored = outcome.is_ok();
    let mut response = after(&state, &headers, outcome, UNABLE_TO_ADD).await;
    if is_new && stored {
        give_token(&mut response, &token, state.config.secure_cookies);
    }
    response
}

/// A line's quantity form; 0 removes the line.
pub(crate) async fn change_quantity(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let form = FormFields::parse(&body);
    let quantity = form
        .get("quantity")
        .and_then(|value| value.parse::<u32>().ok());
    let outcome = match (request_token(&headers), form.line(), quantity) {
        (None, ..) => Err(CartServiceError::NoCart),
        (Some(token), Some(line), Some(quantity)) => {
            state
                .carts
                .change_quantity(&token, line, quantity, now())
                .await
        }
        _ => Err(CartServiceError::Cart(CartError::ZeroQuantity)),
    };
    after(&state, &headers, outcome, UNABLE_TO_UPDATE).await
}

/// A line's remove button.
pub(crate) async fn remove(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let form = FormFields::parse(&body);
    let outcome = match (request_token(&headers), form.line()) {
        (None, _) => Err(CartServiceError::NoCart),
        (Some(token), Some(line)) => state.carts.remove_item(&token, line, now()).await,
        (Some(_), None) => Err(CartServiceError::Cart(CartError::ZeroQuantity)),
    };
    after(&state, &headers, outcome, UNABLE_TO_REMOVE).await
}

fn coupon_code(body: &[u8]) -> Result<CouponCode, CartServiceError> {
    FormFields::parse(body)
        .get("code")
        .and_then(|value| CouponCode::parse(value).ok())
        .ok_or_else(|| CartServiceError::UnknownCoupon(String::new()))
}

/// The coupon form. The shopper's email is not known before checkout, so only the total
/// usage limit is checked here; the per-customer one is counted when the order is placed.
pub(crate) async fn apply_coupon(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let outcome = match (request_token(&headers), coupon_code(&body)) {
        (None, _) => Err(CartServiceError::NoCart),
        (Some(_), Err(error)) => Err(error),
        (Some(token), Ok(code)) => state.carts.apply_coupon(&token, &code, "", now()).await,
    };
    after(
        &state,
        &headers,
        outcome,
        vitrine_core::cart::texts::PLEASE_TRY_AGAIN,
    )
    .await
}

/// A coupon's remove button.
pub(crate) async fn remove_coupon(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let outcome = match (request_token(&headers), coupon_code(&body)) {
        (None, _) => Err(CartServiceError::NoCart),
        (Some(_), Err(error)) => Err(error),
        (Some(token), Ok(code)) => state.carts.remove_coupon(&token, &code, now()).await,
    };
    after(
        &state,
        &headers,
        outcome,
        vitrine_core::cart::texts::PLEASE_TRY_AGAIN,
    )
    .await
}

/// The shipping location form; tax follows the location.
pub(crate) async fn set_location(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let form = FormFields::parse(&body);
    let location = ShippingLocation::new(
        &form.text("country"),
        &form.text("region"),
        &form.text("postalCode"),
    );
    let outcome = match request_token(&headers) {
        None => Err(CartServiceError::NoCart),
        Some(token) => {
            state
                .carts
                .set_shipping_location(&token, location, now())
                .await
        }
    };
    after(
        &state,
        &headers,
        outcome,
        vitrine_core::cart::texts::UPDATE_MISSING_INFORMATION,
    )
    .await
}

/// The shipping option form.
pub(crate) async fn select_option(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let option = FormFields::parse(&body).text("shippingOption");
    let outcome = match request_token(&headers) {
        None => Err(CartServiceError::NoCart),
        Some(token) => {
            state
                .carts
                .select_shipping_option(&token, &option, now())
                .await
        }
    };
    after(
        &state,
        &headers,
        outcome,
        vitrine_core::cart::texts::UPDATE_MISSING_INFORMATION,
    )
    .await
}
