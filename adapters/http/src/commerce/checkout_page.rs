//! Checkout entry and the checkout page, server-rendered inside the site's chrome so they
//! work without JavaScript: `POST /commerce/goto-checkout` (the session alert of 000 s8 first
//! when no cart came with the request; otherwise the cart's items are held and the shopper
//! goes on; a GET only leads back to the cart, since holding stock changes state and link
//! prefetchers, crawlers and cross-site pages must not do it), `/checkout` (page type 201: summary, contact email, shipping address, shipping option
//! and payment, with the hold's countdown); the order pages it leads to are `order_page.rs`.
//! Every rule is the core's; these handlers parse and map.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::routing::get;
use vitrine_core::cart::texts::{NOTHING_IN_CART, PLEASE_TRY_AGAIN, UPDATE_MISSING_INFORMATION};
use vitrine_core::cart::{CartError, CartToken, ShoppingCart};
use vitrine_core::checkout::{
    CARD_FIELDS_NEED_JAVASCRIPT, CheckoutEntryRefusal, CheckoutError, CheckoutFieldErrors,
    CheckoutForm, EnterCheckoutError, IdempotencyKey, Order, PaymentError, PlaceOrderError,
    SESSION_EXPIRED_ALERT, SHIPPING_OPTION_REQUIRED, ShippingAddress,
};
use vitrine_core::enums::PageType;
use vitrine_core::gift_cards::{GiftCardRefusal, gift_card_can_pay};

use crate::AppState;
use crate::commerce::cart::request_token;
use crate::commerce::cart_page::{FormFields, cart_page, current_cart};
use crate::commerce::subscribe_page::{holds_subscription, subscribe_path};
use crate::render::commerce_pages::{
    CardFieldsView, CartSummary, CheckoutMain, CommerceMain, FieldView, NoticeMain, countdown_text,
    hold_seconds_left, option_views,
};
use crate::shared::client_address::ClientAddress;
use crate::shared::clock::now;
use crate::shared::route_table::Routes;
use crate::shared::visitor_page::respond;

pub(crate) fn routes() -> Routes {
    Routes::new()
        .route(
            ENTRY_PATH,
            get(|| async { crate::commerce::cart::see_other("/cart") }).post(goto_checkout),
        )
        .route("/checkout", get(show).post(place))
}

/// What the checkout page says about the test gateway's cards.
pub(crate) const TEST_PAYMENT_NOTE: &str = "Test payments: pay with card 4242 4242 4242 4242, any future expiry date and any 3 digits. Card 4000 0000 0000 0002 is declined. No money is taken.";

pub(crate) async fn notice(state: &AppState, status: StatusCode, text: &str) -> Response {
    notice_headed(state, "Checkout", "/checkout", status, text).await
}

/// A notice of the checkout (page type 201) under `heading`, leading back to the cart.
pub(crate) async fn notice_headed(
    state: &AppState,
    heading: &'static str,
    path: &str,
    status: StatusCode,
    text: &str,
) -> Response {
    let main = CommerceMain::Notice(NoticeMain {
        heading,
        text: text.to_owned(),
        link_href: "/cart",
        link_text: "Back to the cart",
    });
    respond(state, PageType::Checkout, path, heading, status, &main).await
}

/// Where the cart's Checkout button posts.
pub(crate) const ENTRY_PATH: &str = "/commerce/goto-checkout";

async fn goto_checkout(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let token = request_token(&headers);
    enter_checkout(&state, &headers, token).await
}

/// Holds the items of the cart under `token` and leads to its checkout, or says why not.
pub(crate) async fn enter_checkout(
    state: &AppState,
    headers: &HeaderMap,
    token: Option<CartToken>,
) -> Response {
    match state.carts.enter_checkout(token.as_ref(), now()).await {
        Ok(cart) => match token.filter(|_| holds_subscription(&cart)) {
            Some(token) => crate::commerce::cart::see_other_to(&subscribe_path(&token)),
            None => crate::commerce::cart::see_other("/checkout"),
        },
        Err(EnterCheckoutError::Refused(CheckoutEntryRefusal::SessionExpired)) => {
            notice(state, StatusCode::OK, SESSION_EXPIRED_ALERT).await
        }
        Err(EnterCheckoutError::Refused(refusal)) => {
            let cart = current_cart(state, headers).await;
            cart_page(
                state,
                PageType::CartV2,
                StatusCode::CONFLICT,
                &cart,
                Some(refusal.message()),
                &[],
            )
            .await
        }
        Err(EnterCheckoutError::Repository(cause)) => {
            tracing::error!(error = %cause, "entering checkout failed in the store");
            notice(state, StatusCode::SERVICE_UNAVAILABLE, PLEASE_TRY_AGAIN).await
        }
    }
}

pub(crate) fn random_hex() -> String {
    let mut bytes = [0u8; 16];
    rand::fill(&mut bytes);
    hex::encode(bytes)
}

/// Which checkout a form belongs to: the cart's, or a subscription's with its plan.
pub(crate) struct CheckoutRoute {
    /// Where the form posts.
    pub(crate) action: String,
    pub(crate) submit_label: &'static str,
    /// The subscription's plan as the shopper reads it ("Every month, until cancelled").
    pub(crate) plan: Option<String>,
    /// Whether the payment provider's own card fields may take the card (the cart's
    /// checkout); otherwise the form's card fields do.
    pub(crate) card_fields: bool,
}

impl CheckoutRoute {
    pub(crate) fn cart() -> Self {
        Self {
            action: "/checkout".to_owned(),
            submit_label: "Place order",
            plan: None,
            card_fields: true,
        }
    }
}

/// The checkout form for `cart`, filled with what the shopper typed (never the card) and
/// the errors of the last attempt.
fn checkout_main(
    state: &AppState,
    route: &CheckoutRoute,
    cart: &ShoppingCart,
    typed: &CheckoutForm,
    errors: &CheckoutFieldErrors,
    alert: Option<String>,
) -> CheckoutMain {
    let field = |view: FieldView, value: &str| FieldView {
        value: value.to_owned(),
        error: errors.get(view.name).cloned(),
        ..view
    };
    let location = cart.shipping_location.as_ref();
    let or_location = |typed: &str, from: fn(&vitrine_core::cart::ShippingLocation) -> &str| {
        if typed.is_empty() {
            location.map(from).unwrap_or_default().to_owned()
        } else {
            typed.to_owned()
        }
    };
    let address = vec![
        field(
            FieldView::text("name", "Full name", "shipping name"),
            &typed.name,
        ),
        field(
            FieldView::text("addressLine1", "Address", "shipping address-line1"),
            &typed.address_line1,
        ),
        field(
            FieldView::text(
                "addressLine2",
                "Apartment, suite, etc. (optional)",
                "shipping address-line2",
            )
            .optional(),
            &typed.address_line2,
        ),
        field(
            FieldView::text("city", "City", "shipping address-level2"),
            &typed.city,
        ),
        field(
            FieldView::text("region", "State or region", "shipping address-level1").optional(),
            &or_location(&typed.region, |l| l.region.as_str()),
        ),
        field(
            FieldView::text("postalCode", "Zip or postal code", "shipping postal-code"),
            &or_location(&typed.postal_code, |l| l.postal_code.as_str()),
        ),
        field(
            FieldView::text("country", "Country code", "shipping country"),
            &or_location(&typed.country, |l| l.country.as_str()),
        ),
    ];
    let needs_payment = cart.grand_total_cents > 0 || cart.requires_shipping;
    let card_fields = route
        .card_fields
        .then(|| card_fields_view(state, cart))
        .flatten()
        .filter(|_| needs_payment);
    let payment = if needs_payment && card_fields.is_none() {
        vec![
            field(
                FieldView::text("cardNumber", "Card number", "cc-number").inputmode("numeric"),
                "",
            ),
            field(
                FieldView::text("cardExpiry", "Expiry date (MM/YY)", "cc-exp").inputmode("numeric"),
                &typed.card_expiry,
            ),
            field(
                FieldView::text("cardCvc", "Security code", "cc-csc").inputmode("numeric"),
                "",
            ),
        ]
    } else {
        Vec::new()
    };
    let mut shipping_options = option_views(cart);
    if !typed.shipping_option.is_empty() {
        for option in &mut shipping_options {
            option.selected = option.id == typed.shipping_option;
        }
    }
    let seconds = hold_seconds_left(cart.reserved_until, now());
    CheckoutMain {
        action: route.action.clone(),
        submit_label: route.submit_label,
        plan: route.plan.clone(),
        reservation_seconds_left: seconds,
        countdown_text: countdown_text(seconds.unwrap_or(0)),
        countdown_props: serde_json::json!({ "seconds": seconds.unwrap_or(0) }).to_string(),
        summary: CartSummary::new(cart, false),
        // A fresh key per rendering of the form: submitting this form twice orders and pays
        // once, and a corrected form after a refusal is a new attempt.
        idempotency_key: random_hex(),
        email: field(
            FieldView::text("email", "Email", "email").kind("email"),
            &typed.email,
        ),
        requires_shipping: cart.requires_shipping,
        address,
        shipping_options,
        shipping_error: errors.get("shippingOption").cloned(),
        payment_note: (needs_payment && state.carts.payments().is_test())
            .then_some(TEST_PAYMENT_NOTE),
        payment,
        test_mode: state.carts.payments().is_test(),
        payments_off: needs_payment && !state.carts.payments().takes_payments(),
        gift_card: gift_card_can_pay(cart).then(|| {
            field(
                FieldView::text("giftCardCode", "Gift card code (optional)", "off").optional(),
                &typed.gift_card_code,
            )
        }),
        save_address: None,
        alert,
        card_fields,
    }
}

/// The checkout page of `cart` with what was typed. `save_address` offers a signed-in
/// shopper the box that saves the shipping address (ticked or not); none offers nothing.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn checkout_page(
    state: &AppState,
    route: &CheckoutRoute,
    status: StatusCode,
    cart: &ShoppingCart,
    typed: &CheckoutForm,
    save_address: Option<bool>,
    errors: &CheckoutFieldErrors,
    alert: Option<String>,
) -> Response {
    let mut main = checkout_main(state, route, cart, typed, errors, alert);
    main.save_address = save_address;
    let with_card_fields = main.card_fields.is_some();
    let mut response = respond(
        state,
        PageType::Checkout,
        "/checkout",
        "Checkout",
        status,
        &CommerceMain::Checkout(Box::new(main)),
    )
    .await;
    if with_card_fields && let Some(fields) = state.carts.payments().browser_card_fields() {
        crate::commerce::card_payment::allow_card_fields(&mut response, &fields);
    }
    response
}

async fn show(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let Some(token) = request_token(&headers) else {
        return notice(&state, StatusCode::OK, SESSION_EXPIRED_ALERT).await;
    };
    let cart = match state.carts.cart(&token, now()).await {
        Ok(Some(cart)) => cart,
        Ok(None) => return notice(&state, StatusCode::OK, SESSION_EXPIRED_ALERT).await,
        Err(cause) => {
            tracing::error!(error = %cause, "reading a cart for checkout failed");
            return notice(&state, StatusCode::SERVICE_UNAVAILABLE, PLEASE_TRY_AGAIN).await;
        }
    };
    if cart.entries.is_empty() || cart.is_purchased {
        return notice(&state, StatusCode::OK, NOTHING_IN_CART).await;
    }
    if holds_subscription(&cart) {
        return crate::commerce::cart::see_other_to(&subscribe_path(&token));
    }
    let (typed, save_address) = prefilled_form(&state, &headers).await;
    checkout_page(
        &state,
        &CheckoutRoute::cart(),
        StatusCode::OK,
        &cart,
        &typed,
        save_address,
        &CheckoutFieldErrors::new(),
        None,
    )
    .await
}

/// A new checkout form: the signed-in site user's address is the contact email, so what they
/// buy (a member area's plan among it) belongs to their account, and the shipping address
/// they saved fills the address fields. With it, whether to offer the box that saves the
/// address: to a signed-in user only, ticked when they saved one before.
pub(crate) async fn prefilled_form(
    state: &AppState,
    headers: &HeaderMap,
) -> (CheckoutForm, Option<bool>) {
    let viewer = match crate::shared::viewer::viewer(state, headers).await {
        Ok(viewer) => viewer,
        Err(error) => {
            tracing::warn!(%error, "reading a site-user session for checkout failed");
            None
        }
    };
    let Some(viewer) = viewer else {
        return (CheckoutForm::default(), None);
    };
    let saved = match state.people.saved_address(&viewer.account.id).await {
        Ok(saved) => saved,
        Err(error) => {
            tracing::warn!(%error, "reading a saved address for checkout failed");
            None
        }
    };
    let form = CheckoutForm {
        email: viewer.account.email.as_str().to_owned(),
        ..CheckoutForm::default()
    };
    match saved {
        Some(address) => (with_address(form, address), Some(true)),
        None => (form, Some(false)),
    }
}

/// `form` with its shipping fields filled from `address`.
fn with_address(form: CheckoutForm, address: ShippingAddress) -> CheckoutForm {
    CheckoutForm {
        name: address.name,
        address_line1: address.line1,
        address_line2: address.line2,
        city: address.city,
        region: address.region,
        postal_code: address.postal_code,
        country: address.country,
        ..form
    }
}

/// The posted field of the box that saves the address.
const SAVE_ADDRESS_FIELD: &str = "saveAddress";

/// After an order is placed: a signed-in shopper who ticked the box has the order's shipping
/// address saved for next time. The order stands whatever happens here, so a failure is
/// logged, not shown.
pub(crate) async fn save_address_if_asked(
    state: &AppState,
    headers: &HeaderMap,
    body: &[u8],
    order: &Order,
) {
    if FormFields::parse(body).text(SAVE_ADDRESS_FIELD) != "on" {
        return;
    }
    let Some(address) = &order.shipping_address else {
        return;
    };
    let Ok(Some(viewer)) = crate::shared::viewer::viewer(state, headers).await else {
        return;
    };
    if let Err(error) = state.people.save_address(&viewer.account.id, address).await {
        tracing::warn!(%error, "saving a shopper's address failed");
    }
}

/// The box that saves the address on a refused form shown again: offered to a signed-in
/// shopper, ticked as they left it.
async fn save_address_as_posted(
    state: &AppState,
    headers: &HeaderMap,
    body: &[u8],
) -> Option<bool> {
    match crate::shared::viewer::viewer(state, headers).await {
        Ok(Some(_)) => Some(FormFields::parse(body).text(SAVE_ADDRESS_FIELD) == "on"),
        _ => None,
    }
}

pub(crate) fn typed_form(body: &[u8]) -> CheckoutForm {
    let form = FormFields::parse(body);
    CheckoutForm {
        email: form.text("email"),
        name: form.text("name"),
        address_line1: form.text("addressLine1"),
        address_line2: form.text("addressLine2"),
        city: form.text("city"),
        region: form.text("region"),
        postal_code: form.text("postalCode"),
        country: form.text("country"),
        shipping_option: form.text("shippingOption"),
        card_number: form.text("cardNumber"),
        card_expiry: form.text("cardExpiry"),
        card_cvc: form.text("cardCvc"),
        gift_card_code: form.text("giftCardCode"),
    }
}

async fn place(
    State(state): State<AppState>,
    address: ClientAddress,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let Some(token) = request_token(&headers) else {
        return notice(&state, StatusCode::BAD_REQUEST, SESSION_EXPIRED_ALERT).await;
    };
    let route = CheckoutRoute::cart();
    if state.carts.payments().browser_card_fields().is_some() {
        return card_fields_need_javascript(&state, &headers, &body, &route).await;
    }
    match check_out(&state, &headers, address, &token, &body, &route).await {
        // A subscription that reached this form (its cart changed in another tab after the
        // page was shown) leads where the subscription checkout leads, joining what it bought.
        Ok(order) => crate::commerce::cart::see_other_to(
            &crate::commerce::subscribe_page::confirmed_path(&state, &headers, &order).await,
        ),
        Err(refusal) => refusal,
    }
}

/// The answer to a checkout form posted without JavaScript while the card is typed into the
/// provider's fields: such a form carries no card, so nothing is placed and the cart stays
/// as it is; the form comes back with what was typed and the reason.
pub(crate) async fn card_fields_need_javascript(
    state: &AppState,
    headers: &HeaderMap,
    body: &[u8],
    route: &CheckoutRoute,
) -> Response {
    let cart = current_cart(state, headers).await;
    let save_address = save_address_as_posted(state, headers, body).await;
    checkout_page(
        state,
        route,
        StatusCode::BAD_REQUEST,
        &cart,
        &typed_form(body),
        save_address,
        &CheckoutFieldErrors::new(),
        Some(CARD_FIELDS_NEED_JAVASCRIPT.to_owned()),
    )
    .await
}

/// Checks out the cart under `token` with the posted form; a refusal is the page to answer
/// with: the form of `route` again with its messages, or a notice.
pub(crate) async fn check_out(
    state: &AppState,
    headers: &HeaderMap,
    address: ClientAddress,
    token: &CartToken,
    body: &[u8],
    route: &CheckoutRoute,
) -> Result<Order, Response> {
    let typed = typed_form(body);
    let Ok(key) = IdempotencyKey::parse(FormFields::parse(body).text("idempotencyKey")) else {
        return Err(notice(state, StatusCode::BAD_REQUEST, PLEASE_TRY_AGAIN).await);
    };
    let order_id = format!("order-{}", random_hex());
    let payer = crate::commerce::payer::payer(headers, address, Some(token));
    let error = match state
        .carts
        .checkout_as(&payer, token, key, order_id.clone(), &typed, now())
        .await
    {
        Ok(order) => {
            // A replayed submit answers the first order, whose id is not this request's.
            if order.id == order_id {
                save_address_if_asked(state, headers, body, &order).await;
                record_purchase(state, headers, address, &order).await;
            }
            return Ok(order);
        }
        Err(error) => error,
    };
    let (status, alert, errors) = match explain(state, headers, error).await {
        Ok(explained) => explained,
        Err(notice) => return Err(notice),
    };
    let cart = current_cart(state, headers).await;
    let save_address = save_address_as_posted(state, headers, body).await;
    Err(checkout_page(
        state,
        route,
        status,
        &cart,
        &typed,
        save_address,
        &errors,
        Some(alert),
    )
    .await)
}

/// The purchase event and the experiments' conversion of an order just placed and paid.
pub(crate) async fn record_purchase(
    state: &AppState,
    headers: &HeaderMap,
    address: ClientAddress,
    order: &Order,
) {
    let event = crate::shared::conversion_events::purchased(state, order);
    crate::shared::conversions::fire(state, headers, event).await;
    // An order is an experiments' conversion too, and its total is the dashboard's revenue.
    crate::shared::visitors::record_conversion(
        state,
        headers,
        address,
        vitrine_core::analytics::kinds::ORDER,
        serde_json::json!({
            "orderId": order.id,
            "totalCents": order.grand_total_cents,
        }),
    )
    .await;
    record_order_items(state, order);
}

/// Why a checkout placed no order, as the shopper reads it: the status, the alert and the
/// messages per field; or the notice page to answer instead when nothing is left to check
/// out.
pub(crate) async fn explain(
    state: &AppState,
    headers: &HeaderMap,
    error: CheckoutError,
) -> Result<(StatusCode, String, CheckoutFieldErrors), Response> {
    let mut errors = CheckoutFieldErrors::new();
    let (status, alert) = match error {
        CheckoutError::Invalid(fields) => {
            errors = fields;
            (
                StatusCode::BAD_REQUEST,
                UPDATE_MISSING_INFORMATION.to_owned(),
            )
        }
        CheckoutError::Cart(CartError::UnknownShippingOption(_)) => {
            errors.insert("shippingOption", SHIPPING_OPTION_REQUIRED.to_owned());
            (
                StatusCode::BAD_REQUEST,
                UPDATE_MISSING_INFORMATION.to_owned(),
            )
        }
        CheckoutError::Payment(PaymentError::Declined { message }) => {
            (StatusCode::PAYMENT_REQUIRED, message)
        }
        CheckoutError::Payment(
            PaymentError::Unavailable(cause) | PaymentError::OutcomeUnknown(cause),
        ) => {
            tracing::error!(error = %cause, "the payment gateway failed");
            (StatusCode::SERVICE_UNAVAILABLE, PLEASE_TRY_AGAIN.to_owned())
        }
        CheckoutError::Payment(PaymentError::NotConfigured) => {
            tracing::warn!(
                "an order was refused: this shop takes no payments (no Stripe key, no --test-payments)"
            );
            (
                StatusCode::SERVICE_UNAVAILABLE,
                vitrine_core::checkout::CANNOT_TAKE_PAYMENTS.to_owned(),
            )
        }
        CheckoutError::Order(PlaceOrderError::OutOfStock(sku)) => {
            let cart = current_cart(state, headers).await;
            let name = cart
                .entries
                .iter()
                .find(|entry| entry.sku == sku)
                .map_or_else(
                    || sku.as_str().to_owned(),
                    |entry| entry.product_name.clone(),
                );
            (StatusCode::CONFLICT, format!("Sorry, {name} is sold out."))
        }
        CheckoutError::Order(PlaceOrderError::GiftCardBalanceChanged(_)) => {
            errors.insert("giftCardCode", GiftCardRefusal::BalanceChanged.message());
            (StatusCode::CONFLICT, UPDATE_MISSING_INFORMATION.to_owned())
        }
        CheckoutError::Order(PlaceOrderError::PaymentRefunded(payment)) => {
            tracing::warn!(payment_id = payment, "an order lost its charge to a refund");
            (
                StatusCode::CONFLICT,
                vitrine_core::checkout::PAYMENT_REFUNDED_MESSAGE.to_owned(),
            )
        }
        CheckoutError::Order(PlaceOrderError::CouponLimitReached(code)) => (
            StatusCode::CONFLICT,
            format!(
                "Coupon {}: {}",
                code.as_str(),
                vitrine_core::cart::InvalidCouponReason::UsageLimitReached.message()
            ),
        ),
        CheckoutError::Order(PlaceOrderError::TooManyUnits(refusal)) => {
            (StatusCode::BAD_REQUEST, refusal.message())
        }
        CheckoutError::Order(PlaceOrderError::NotReady(_)) | CheckoutError::Cart(_) => (
            StatusCode::BAD_REQUEST,
            UPDATE_MISSING_INFORMATION.to_owned(),
        ),
        CheckoutError::Order(PlaceOrderError::UnknownCart | PlaceOrderError::AlreadyPurchased) => {
            return Err(notice(state, StatusCode::CONFLICT, NOTHING_IN_CART).await);
        }
        CheckoutError::TooManyFailedPayments(refused) => {
            crate::commerce::payer::record_refusal(state, &refused);
            (
                StatusCode::TOO_MANY_REQUESTS,
                vitrine_core::checkout::TOO_MANY_FAILED_PAYMENTS.to_owned(),
            )
        }
        CheckoutError::Order(PlaceOrderError::Repository(cause)) => {
            tracing::error!(error = %cause, "placing an order failed in the store");
            (StatusCode::SERVICE_UNAVAILABLE, PLEASE_TRY_AGAIN.to_owned())
        }
    };
    Ok((status, alert, errors))
}

/// The provider's card fields for `cart`'s checkout, when the gateway has them.
fn card_fields_view(state: &AppState, cart: &ShoppingCart) -> Option<CardFieldsView> {
    let fields = state.carts.payments().browser_card_fields()?;
    Some(CardFieldsView {
        props: serde_json::json!({
            "publishableKey": fields.publishable_key,
            "amountMinor": cart.grand_total_cents,
            "currency": cart.subtotal_amount.currency.code().to_ascii_lowercase(),
            "intentPath": crate::commerce::card_payment::CARD_PAYMENT_PATH,
            "declinedPath": crate::commerce::card_payment::DECLINED_PATH,
            // A subscription's card is kept for its renewals, as its intent is opened to do.
            "saveForRenewals": crate::commerce::subscribe_page::holds_subscription(cart),
        })
        .to_string(),
        script_url: fields.script_url,
        unavailable_text: CARD_FIELDS_NEED_JAVASCRIPT,
    })
}

/// One census row per product of a placed order, for the dashboard's top products: a product
/// on two lines (two variants, say) counts once for the order. The rows carry no visitor and
/// no page, so they are kept whatever census counting says: they are the shop's sales, which
/// the order tables hold anyway, and track no one.
fn record_order_items(state: &AppState, order: &vitrine_core::checkout::Order) {
    let mut products: Vec<&str> = order
        .lines
        .iter()
        .map(|line| line.product_name.as_str())
        .collect();
    products.sort_unstable();
    products.dedup();
    let now = crate::shared::clock::now_ms();
    for product in products {
        state.census.push(crate::shared::census_log::CensusRow {
            kind: vitrine_core::analytics::kinds::ORDER_ITEM,
            visitor: None,
            page_path: None,
            data: serde_json::json!({ "orderId": order.id, "product": product }),
            recorded_at_ms: now,
        });
    }
}
