//! Subscription checkout, server-rendered so it works without JavaScript:
//! `/checkout/subscribe?cartToken={cartToken}` shows the checkout form for a cart that holds a
//! subscription and places its order, which starts the subscription in the same
//! transaction; `/commerce/subscriptions/{id}/confirmed` is the subscription confirmed page
//! (206), which opens as its order's page does: for the browser holding the cart it was
//! bought with, or through a signed link to the order. An order for the plan of a paid member
//! area joins the area for the account of its address as the payment succeeds, and leads to
//! the membership-confirmed page (208) instead.
//!
//! The token in the address must be the visitor's own cart token (cookie, or the app's
//! header): the address alone buys nothing, so a shared or leaked link cannot check out
//! someone else's cart. Every rule is the core's; these handlers parse and map.

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::routing::get;
use vitrine_core::cart::texts::{NOTHING_IN_CART, PLEASE_TRY_AGAIN};
use vitrine_core::cart::{CartEntry, CartToken, ShoppingCart};
use vitrine_core::checkout::{
    CheckoutFieldErrors, OrderPageAccess, SESSION_EXPIRED_ALERT, Subscription, order_page_access,
};
use vitrine_core::enums::PageType;

use crate::AppState;
use crate::commerce::cart::request_token;
use crate::commerce::checkout_page::{
    CheckoutRoute, card_fields_need_javascript, check_out, checkout_page, notice, prefilled_form,
};
use crate::commerce::membership_page::membership_path;
use crate::render::commerce_pages::{CommerceMain, NoticeMain};
use crate::render::subscription_page::SubscriptionMain;
use crate::shared::clock::now;
use crate::shared::paid_membership::join_areas_of_order;
use crate::shared::route_table::Routes;
use crate::shared::visitor_page::respond;

pub(crate) fn routes() -> Routes {
    Routes::new()
        .route("/checkout/subscribe", get(show).post(place))
        .route("/commerce/subscriptions/{id}/confirmed", get(confirmed))
}

/// What a visitor reads when the address names a cart that is not theirs (our text). The
/// same text for a token that exists and one that does not, so it reveals nothing.
pub(crate) const NOT_YOUR_CART: &str =
    "This checkout link does not belong to your cart. Open your cart to check out.";

/// Whether the cart holds a subscription, which checks out through its own route.
pub(crate) fn holds_subscription(cart: &ShoppingCart) -> bool {
    cart.entries.iter().any(CartEntry::is_subscription)
}

/// `/checkout/subscribe?cartToken={token}`.
pub(crate) fn subscribe_path(token: &CartToken) -> String {
    let query: String = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("cartToken", token.as_str())
        .finish();
    format!("/checkout/subscribe?{query}")
}

/// The visitor's cart when the address names it; otherwise the answer to give instead.
async fn own_cart(
    state: &AppState,
    headers: &HeaderMap,
    query: Option<&str>,
) -> Result<(CartToken, ShoppingCart), Response> {
    let named = query
        .map(|query| url::form_urlencoded::parse(query.as_bytes()))
        .and_then(|mut pairs| pairs.find(|(key, _)| key == "cartToken"))
        .and_then(|(_, value)| CartToken::parse(value.into_owned()).ok());
    let Some(named) = named else {
        return Err(notice(state, StatusCode::BAD_REQUEST, NOT_YOUR_CART).await);
    };
    let Some(own) = request_token(headers) else {
        return Err(notice(state, StatusCode::OK, SESSION_EXPIRED_ALERT).await);
    };
    if own != named {
        return Err(notice(state, StatusCode::FORBIDDEN, NOT_YOUR_CART).await);
    }
    let cart = match state.carts.cart(&own, now()).await {
        Ok(Some(cart)) => cart,
        Ok(None) => return Err(notice(state, StatusCode::OK, SESSION_EXPIRED_ALERT).await),
        Err(cause) => {
            tracing::error!(error = %cause, "reading a cart for subscription checkout failed");
            return Err(notice(state, StatusCode::SERVICE_UNAVAILABLE, PLEASE_TRY_AGAIN).await);
        }
    };
    Ok((own, cart))
}

/// A cart without a subscription has nothing that repeats: its own checkout is the place
/// for it.
fn to_cart_checkout() -> Response {
    crate::commerce::cart::see_other("/checkout")
}

/// The subscription checkout form, posting back to the same address, with the plan shown.
fn route(token: &CartToken, cart: &ShoppingCart) -> CheckoutRoute {
    CheckoutRoute {
        action: subscribe_path(token),
        submit_label: "Subscribe",
        plan: cart
            .entries
            .iter()
            .find_map(|entry| entry.subscription_plan)
            .map(|plan| plan.describe()),
        // The provider's fields keep the card for renewals (the intent is opened to save it).
        card_fields: true,
    }
}

async fn show(State(state): State<AppState>, headers: HeaderMap, query: RawQuery) -> Response {
    let (token, cart) = match own_cart(&state, &headers, query.0.as_deref()).await {
        Ok(found) => found,
        Err(answer) => return answer,
    };
    if cart.entries.is_empty() || cart.is_purchased {
        return notice(&state, StatusCode::OK, NOTHING_IN_CART).await;
    }
    if !holds_subscription(&cart) {
        return to_cart_checkout();
    }
    let (typed, save_address) = prefilled_form(&state, &headers).await;
    checkout_page(
        &state,
        &route(&token, &cart),
        StatusCode::OK,
        &cart,
        &typed,
        save_address,
        &CheckoutFieldErrors::new(),
        None,
    )
    .await
}

async fn place(
    State(state): State<AppState>,
    address: crate::shared::client_address::ClientAddress,
    headers: HeaderMap,
    query: RawQuery,
    body: Bytes,
) -> Response {
    let (token, cart) = match own_cart(&state, &headers, query.0.as_deref()).await {
        Ok(found) => found,
        Err(answer) => return answer,
    };
    // A purchased cart goes on to checkout all the same: a second submit of the form gets
    // the first one's order (and subscription), and any other the cart's refusal.
    if !cart.is_purchased && !holds_subscription(&cart) {
        return to_cart_checkout();
    }
    let route = route(&token, &cart);
    if state.carts.payments().browser_card_fields().is_some() {
        return card_fields_need_javascript(&state, &headers, &body, &route).await;
    }
    match check_out(&state, &headers, address, &token, &body, &route).await {
        Ok(order) => {
            crate::commerce::cart::see_other_to(&confirmed_path(&state, &headers, &order).await)
        }
        Err(refusal) => refusal,
    }
}

/// Where the shopper goes once subscription order `order` is paid: the membership-confirmed
/// page when it bought a member area (joined now), else the subscription's page. When the
/// cart changed in another tab between the check and the order, the order stands and its own
/// page says what was bought. `headers` are the buyer's own request's (the checkout form, or
/// the return from the bank), whose signed-in account the subscription is recorded with.
pub(crate) async fn confirmed_path(
    state: &AppState,
    headers: &HeaderMap,
    order: &vitrine_core::checkout::Order,
) -> String {
    match Subscription::start(order) {
        Some(_) if buys_membership(state, headers, order).await => membership_path(&order.id),
        Some(subscription) => format!("/commerce/subscriptions/{}/confirmed", subscription.id),
        None => format!("/commerce/orders/{}/confirmed", order.id),
    }
}

/// Records the subscription with the site user who bought it signed in (or else the
/// confirmed account of the order's address) and joins the member areas the order bought for
/// that account, as the payment succeeded; whether it bought any, so the buyer is led to the
/// membership-confirmed page. A store that fails here fails the join only: the page it leads
/// to tries again, for the account of the address.
async fn buys_membership(
    state: &AppState,
    headers: &HeaderMap,
    order: &vitrine_core::checkout::Order,
) -> bool {
    let buyer = match crate::shared::viewer::viewer(state, headers).await {
        Ok(viewer) => viewer.map(|viewer| viewer.account.id),
        Err(error) => {
            tracing::warn!(%error, order = order.id, "reading the buyer's session failed");
            None
        }
    };
    match join_areas_of_order(state, order, buyer.as_ref()).await {
        Ok(paid) => !paid.is_none(),
        Err(error) => {
            tracing::error!(%error, order = order.id, "joining the member areas of an order failed");
            true
        }
    }
}

/// Whether the request may see the page of `subscription`: as its order's page opens, for
/// the browser holding the cart it was bought with or through a signed link to that order.
async fn may_see(
    state: &AppState,
    subscription: &Subscription,
    headers: &HeaderMap,
    query: Option<&str>,
) -> Result<OrderPageAccess, vitrine_core::ports::RepositoryError> {
    let Some(order) = state.carts.store().order(&subscription.order_id).await? else {
        return Ok(OrderPageAccess::Refused);
    };
    let signature = crate::commerce::order_page::link_signature(query);
    Ok(order_page_access(
        &order,
        request_token(headers).as_ref(),
        signature.as_deref(),
        &state.order_links,
        now(),
    ))
}

async fn confirmed(
    State(state): State<AppState>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    let path = format!("/commerce/subscriptions/{id}/confirmed");
    let found = match state.carts.store().subscription(&id).await {
        Ok(Some(subscription)) => {
            match may_see(&state, &subscription, &headers, query.as_deref()).await {
                Ok(access) if access.opens() => Ok(Some(subscription)),
                Ok(OrderPageAccess::Expired) => Err(StatusCode::FORBIDDEN),
                // The same answer as for a subscription that does not exist.
                Ok(_) => Ok(None),
                Err(cause) => {
                    tracing::error!(error = %cause, "reading a subscription's order failed");
                    return notice(&state, StatusCode::SERVICE_UNAVAILABLE, PLEASE_TRY_AGAIN).await;
                }
            }
        }
        other => other.map_err(|cause| {
            tracing::error!(error = %cause, "reading a subscription failed");
            StatusCode::SERVICE_UNAVAILABLE
        }),
    };
    let (status, heading, main) = match found {
        Ok(Some(subscription)) => (
            StatusCode::OK,
            "Subscription confirmed",
            CommerceMain::Subscription(Box::new(SubscriptionMain::new(&subscription))),
        ),
        Ok(None) => (
            StatusCode::NOT_FOUND,
            "Subscription not found",
            CommerceMain::Notice(NoticeMain {
                heading: "Subscription not found",
                text: "We couldn’t find this subscription. Check the link in your confirmation."
                    .to_owned(),
                link_href: "/",
                link_text: "Go to the home page",
            }),
        ),
        Err(StatusCode::FORBIDDEN) => (
            StatusCode::FORBIDDEN,
            "Link expired",
            CommerceMain::Notice(NoticeMain {
                heading: "Link expired",
                text: "This link to your order has expired. Contact the shop for your order’s details."
                    .to_owned(),
                link_href: "/",
                link_text: "Go to the home page",
            }),
        ),
        Err(_) => {
            return notice(&state, StatusCode::SERVICE_UNAVAILABLE, PLEASE_TRY_AGAIN).await;
        }
    };
    respond(
        &state,
        PageType::SubscriptionConfirmed,
        &path,
        heading,
        status,
        &main,
    )
    .await
}
