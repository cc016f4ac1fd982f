//! Descriptions of the owner's calls on an order after checkout: its state, refunds,
//! fulfilment and cancellation (`commerce/order_aftercare.rs`).

#![allow(dead_code)]

use serde::Deserialize;
use utoipa::ToSchema;

use super::schemas::ErrorAnswer;

/// Units of a SKU refunded (and put back in stock).
#[derive(ToSchema, Deserialize)]
pub struct RefundLineBody {
    pub sku: String,
    /// At least 1.
    pub quantity: u32,
}

/// What to refund: an amount, units, both, or (neither) everything left.
#[derive(ToSchema, Deserialize)]
#[schema(rename_all = "camelCase")]
pub struct RefundBody {
    /// Minor units of the order's currency; default: the units' price, or everything left.
    pub amount_cents: Option<i64>,
    pub lines: Option<Vec<RefundLineBody>>,
}

/// One refund of an order.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct RefundEntry {
    /// Also the payment provider's idempotency key.
    pub id: String,
    pub amount_cents: i64,
    pub lines: Vec<RefundLineBody>,
    /// `requested` (asked, its answer not recorded yet), `refunded` or `failed`.
    pub state: String,
    pub gateway_refund_id: String,
    /// Why the provider refused, for a failed one.
    pub reason: String,
    /// Unix milliseconds.
    pub requested_at: i64,
}

/// An order after checkout.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct OrderAftercare {
    pub order_id: String,
    pub email: String,
    /// ISO 4217.
    pub currency: String,
    pub grand_total_cents: i64,
    /// `paid`, `pending`, `failed`, `refunded` or `disputed`.
    pub payment_status: String,
    /// `open`, `fulfilled` or `cancelled`.
    pub fulfilment: String,
    pub tracking_url: Option<String>,
    pub refunds: Vec<RefundEntry>,
    /// What the payment provider charged and was not refunded yet, in minor units.
    pub refundable_cents: i64,
}

#[derive(ToSchema, Deserialize)]
#[schema(rename_all = "camelCase")]
pub struct FulfilmentBody {
    /// The carrier's tracking page: an http:// or https:// address.
    pub tracking_url: String,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct Cancelled {
    /// What the cancellation refunded, in minor units.
    pub refunded_cents: i64,
}

/// The order with its payment, refunds and fulfilment, and what is left to refund.
#[utoipa::path(
    get,
    path = "/api/commerce/orders/{id}/aftercare",
    tag = "commerce",
    security(("ownerToken" = [])),
    params(("id" = String, Path, description = "The order's id")),
    responses(
        (status = 200, description = "The order after checkout", body = OrderAftercare),
        (status = 404, description = "No such order, or the request carries no owner credential holding the commerce permission", body = ErrorAnswer),
    ),
)]
fn order_aftercare() {}

/// Refunds the order through the payment provider; refunded units go back to stock and the
/// shopper is mailed.
#[utoipa::path(
    post,
    path = "/api/commerce/orders/{id}/refunds",
    tag = "commerce",
    security(("ownerToken" = [])),
    params(("id" = String, Path, description = "The order's id")),
    request_body(content = RefundBody, content_type = "application/json"),
    responses(
        (status = 201, description = "The refund, made", body = RefundEntry),
        (status = 400, description = "The body is not a refund", body = ErrorAnswer),
        (status = 404, description = "No such order, or no owner credential", body = ErrorAnswer),
        (status = 409, description = "The rules refuse it: more than is left, unknown SKU, more units than bought, nothing paid, payment pending", body = ErrorAnswer),
        (status = 502, description = "The payment provider did not refund; a refusal is recorded as a failed refund", body = ErrorAnswer),
    ),
)]
fn refund_order() {}

/// Marks the order sent and mails the shopper the tracking link.
#[utoipa::path(
    post,
    path = "/api/commerce/orders/{id}/fulfilment",
    tag = "commerce",
    security(("ownerToken" = [])),
    params(("id" = String, Path, description = "The order's id")),
    request_body(content = FulfilmentBody, content_type = "application/json"),
    responses(
        (status = 204, description = "Marked sent; the mail is in the outbox"),
        (status = 400, description = "Not a tracking link", body = ErrorAnswer),
        (status = 404, description = "No such order, or no owner credential", body = ErrorAnswer),
        (status = 409, description = "Sent already, cancelled, or not paid", body = ErrorAnswer),
    ),
)]
fn fulfil_order() {}

/// Cancels an order not yet sent: what is left of its payment is refunded, its units go
/// back to stock, and the shopper is mailed.
#[utoipa::path(
    post,
    path = "/api/commerce/orders/{id}/cancellation",
    tag = "commerce",
    security(("ownerToken" = [])),
    params(("id" = String, Path, description = "The order's id")),
    responses(
        (status = 200, description = "Cancelled", body = Cancelled),
        (status = 404, description = "No such order, or no owner credential", body = ErrorAnswer),
        (status = 409, description = "Sent already, cancelled already, or its payment is pending", body = ErrorAnswer),
        (status = 502, description = "The payment provider did not refund; the order stays open", body = ErrorAnswer),
    ),
)]
fn cancel_order() {}
