//! The order pages: `/commerce/orders/{id}/confirmed`, where checkout leads (202 order
//! confirmed, 207 order received), and `/commerce/orders/{id}` (211 order status), which the
//! order mail links to. An order page shows the shopper's email and the gift cards the order
//! bought, so it opens only for the browser holding the cart the order was bought with, or
//! through a signed link with an expiry (`?link=`, made with the server's order link key);
//! anything else answers as an order that does not exist. Gift card codes show in full on
//! the first confirmation view only, and by their last 4 afterwards.

use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::routing::get;
use vitrine_core::cart::texts::PLEASE_TRY_AGAIN;
use vitrine_core::checkout::{
    ORDER_LINK_PARAMETER, Order, OrderPageAccess, PaymentStatus, order_page_access,
};
use vitrine_core::enums::PageType;

use crate::AppState;
use crate::commerce::cart::request_token;
use crate::commerce::checkout_page::notice;
use crate::render::commerce_pages::{CommerceMain, NoticeMain, OrderMain};
use crate::shared::clock::now;
use crate::shared::route_table::Routes;
use crate::shared::visitor_page::respond;

pub(crate) fn routes() -> Routes {
    Routes::new()
        .route("/commerce/orders/{id}", get(order_status))
        .route("/commerce/orders/{id}/confirmed", get(order_confirmed))
}

/// What an order page without access says: the same whether the order exists or not.
const NOT_FOUND_TEXT: &str = "We couldn’t find this order. Check the link in your confirmation.";
/// What a signed link past its expiry says (only for a link this server made).
const EXPIRED_TEXT: &str =
    "This link to your order has expired. Contact the shop for your order’s details.";

async fn order_confirmed(
    State(state): State<AppState>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    order_page(&state, &headers, query.as_deref(), &id, true).await
}

async fn order_status(
    State(state): State<AppState>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    order_page(&state, &headers, query.as_deref(), &id, false).await
}

/// The link's signature from the query string, when it carries one.
pub(crate) fn link_signature(query: Option<&str>) -> Option<String> {
    url::form_urlencoded::parse(query?.as_bytes())
        .find(|(name, _)| name == ORDER_LINK_PARAMETER)
        .map(|(_, value)| value.into_owned())
}

async fn order_page(
    state: &AppState,
    headers: &HeaderMap,
    query: Option<&str>,
    id: &str,
    confirmation: bool,
) -> Response {
    let order = match readable_order(state, headers, query, id).await {
        Ok(order) => order,
        Err(answer) => return answer,
    };
    let store = state.carts.store();
    let show_codes = if confirmation && !order.gift_cards.is_empty() {
        match store.reveal_gift_card_codes(&order.id).await {
            Ok(first_view) => first_view,
            Err(cause) => {
                // Better masked than shown twice: the buyer still has the mail.
                tracing::error!(error = %cause, "marking gift card codes shown failed");
                false
            }
        }
    } else {
        false
    };
    let mails = state.carts.order_mails().confirmation;
    let (page_type, heading, lead) = order_texts(&order, confirmation, mails);
    let path = format!("/commerce/orders/{}", order.id);
    let main = CommerceMain::Order(Box::new(OrderMain::new(&order, heading, lead, show_codes)));
    respond(state, page_type, &path, heading, StatusCode::OK, &main).await
}

/// The order `id` when this request may see it (the buyer's cart, or a signed link in
/// `query`); otherwise the page to answer with instead.
pub(crate) async fn readable_order(
    state: &AppState,
    headers: &HeaderMap,
    query: Option<&str>,
    id: &str,
) -> Result<Order, Response> {
    let order = match state.carts.store().order(id).await {
        Ok(Some(order)) => order,
        Ok(None) => return Err(closed(state, id, StatusCode::NOT_FOUND).await),
        Err(cause) => {
            tracing::error!(error = %cause, "reading an order failed");
            return Err(notice(state, StatusCode::SERVICE_UNAVAILABLE, PLEASE_TRY_AGAIN).await);
        }
    };
    let signature = link_signature(query);
    match order_page_access(
        &order,
        request_token(headers).as_ref(),
        signature.as_deref(),
        &state.order_links,
        now(),
    ) {
        OrderPageAccess::Buyer | OrderPageAccess::Link => Ok(order),
        OrderPageAccess::Expired => Err(closed(state, id, StatusCode::FORBIDDEN).await),
        OrderPageAccess::Refused => Err(closed(state, id, StatusCode::NOT_FOUND).await),
    }
}

/// The page of an order this request may not see: 404 "Order not found", or 403 when it
/// carries a link this server made whose time has passed.
async fn closed(state: &AppState, id: &str, status: StatusCode) -> Response {
    let (heading, text) = if status == StatusCode::FORBIDDEN {
        ("Link expired", EXPIRED_TEXT)
    } else {
        ("Order not found", NOT_FOUND_TEXT)
    };
    let main = CommerceMain::Notice(NoticeMain {
        heading,
        text: text.to_owned(),
        link_href: "/",
        link_text: "Go to the home page",
    });
    let path = format!("/commerce/orders/{id}");
    respond(state, PageType::OrderStatus, &path, heading, status, &main).await
}

/// What the pages of an order whose payment is pending say (our texts; the specification
/// shows none): the shopper must not pay again, and learns the outcome here.
pub(crate) const PAYMENT_PENDING_TEXT: &str = "Thank you. We have received your order. Your payment is pending: the payment provider has not confirmed it yet. Please do not pay again; this page shows the outcome as soon as it arrives.";
const PAYMENT_FAILED_TEXT: &str = "The payment for this order did not go through, so nothing was charged and the order will not be sent.";
const REFUNDED_TEXT: &str = "This order was refunded.";
const DISPUTED_TEXT: &str =
    "The payment for this order is disputed with the card's bank. The shop will be in touch.";

/// Which order page: confirmed (202) when a payment was taken (by card or gift card),
/// received (207) when nothing was charged or the payment is still pending, status (211)
/// when the shopper comes back to it later. The confirmation mail is promised only when the
/// server sends it (`mails`).
fn order_texts(order: &Order, confirmation: bool, mails: bool) -> (PageType, &'static str, String) {
    // An order whose buyer deleted their account has no address left to name.
    let mail = if mails && !order.email.is_empty() {
        format!(" A confirmation goes to {}.", order.email)
    } else {
        String::new()
    };
    let paid = !order.payment_id.is_empty() || order.gift_card_payment.is_some();
    let status_page = |text: &str| (PageType::OrderStatus, "Order status", text.to_owned());
    match (confirmation, order.payment_status) {
        (true, PaymentStatus::Pending) => (
            PageType::OrderReceived,
            "Order received",
            format!("{PAYMENT_PENDING_TEXT}{mail}"),
        ),
        (_, PaymentStatus::Failed) => (
            PageType::OrderStatus,
            "Payment failed",
            PAYMENT_FAILED_TEXT.to_owned(),
        ),
        (true, _) if paid => (
            PageType::OrderConfirmed,
            "Order confirmed",
            format!("Thank you. Your payment was received and your order is confirmed.{mail}"),
        ),
        (true, _) => (
            PageType::OrderReceived,
            "Order received",
            format!("Thank you. We have received your order; there was nothing to pay.{mail}"),
        ),
        (false, PaymentStatus::Pending) => status_page(PAYMENT_PENDING_TEXT),
        (false, PaymentStatus::Refunded) => status_page(REFUNDED_TEXT),
        (false, PaymentStatus::Disputed) => status_page(DISPUTED_TEXT),
        (false, PaymentStatus::Paid) => status_page("This order is placed and being prepared."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_signature_is_read_from_the_query_string() {
        assert_eq!(
            link_signature(Some("link=12.ab&x=1")).as_deref(),
            Some("12.ab")
        );
        assert_eq!(link_signature(Some("x=1")), None);
        assert_eq!(link_signature(None), None);
    }
}
