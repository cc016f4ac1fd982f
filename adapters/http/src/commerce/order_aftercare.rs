//! The owner's calls on an order after checkout (`core/src/checkout/aftercare_service.rs`):
//! `GET /api/commerce/orders/{id}/aftercare` (totals, payment, refunds, fulfilment),
//! `POST .../refunds` (whole, an amount, or units back to stock), `POST .../fulfilment` (sent,
//! with a tracking link) and `POST .../cancellation`. For an owner credential holding the
//! commerce permission, like the failed-refunds call; without one, or on a server that wired
//! no aftercare service, every route answers 404, as if it did not exist. Each handler parses,
//! calls one service method and maps its answer: a refusal by the rules is 409 with the
//! reason, a refund the payment provider refused is 502 with its words.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};
use vitrine_core::catalog::Sku;
use vitrine_core::checkout::{
    AftercareError, ChangeOrderError, Fulfilment, OrderAftercareService, OrderRefund, OrderSummary,
    RefundError, RefundLine, RefundRequest, TrackingUrl,
};
use vitrine_core::enums::PermissionCode;

use crate::shared::owner_access::owner_permits;
use crate::shared::route_table::Routes;
use crate::{ApiError, AppState};

pub(crate) const AFTERCARE_PATH: &str = "/api/commerce/orders/{id}/aftercare";
pub(crate) const REFUNDS_PATH: &str = "/api/commerce/orders/{id}/refunds";
pub(crate) const FULFILMENT_PATH: &str = "/api/commerce/orders/{id}/fulfilment";
pub(crate) const CANCELLATION_PATH: &str = "/api/commerce/orders/{id}/cancellation";

pub(crate) fn routes() -> Routes {
    Routes::new()
        .route(AFTERCARE_PATH, get(show))
        .route(REFUNDS_PATH, post(refund))
        .route(FULFILMENT_PATH, post(fulfil))
        .route(CANCELLATION_PATH, post(cancel))
}

/// A refund as the owner asks for it: neither field refunds everything left.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RefundBody {
    /// Minor units of the order's currency.
    #[serde(default)]
    amount_cents: Option<i64>,
    #[serde(default)]
    lines: Vec<LineBody>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct LineBody {
    sku: String,
    quantity: u32,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct FulfilmentBody {
    tracking_url: String,
}

const REFUND_SHAPE: &str = "The body is {\"amountCents\": minor units (optional), \"lines\": [{\"sku\": text, \"quantity\": at least 1}] (optional)}.";
const FULFILMENT_SHAPE: &str = "The body is {\"trackingUrl\": an http:// or https:// address}.";

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RefundDto {
    id: String,
    amount_cents: i64,
    lines: Vec<LineBody>,
    /// `requested`, `refunded` or `failed`.
    state: &'static str,
    gateway_refund_id: String,
    reason: String,
    requested_at: i64,
}

impl From<&OrderRefund> for RefundDto {
    fn from(refund: &OrderRefund) -> Self {
        Self {
            id: refund.id.clone(),
            amount_cents: refund.amount_cents,
            lines: refund
                .lines
                .iter()
                .map(|line| LineBody {
                    sku: line.sku.as_str().to_owned(),
                    quantity: line.quantity,
                })
                .collect(),
            state: refund.state.as_str(),
            gateway_refund_id: refund.gateway_refund_id.clone(),
            reason: refund.reason.clone(),
            requested_at: refund.requested.millis(),
        }
    }
}

/// An order after checkout, for the owner's screens.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AftercareDto {
    order_id: String,
    email: String,
    currency: &'static str,
    grand_total_cents: i64,
    /// `paid`, `pending`, `failed`, `refunded` or `disputed`.
    payment_status: &'static str,
    /// `open`, `fulfilled` or `cancelled`.
    fulfilment: &'static str,
    tracking_url: Option<String>,
    refunds: Vec<RefundDto>,
    refundable_cents: i64,
}

impl From<&OrderSummary> for AftercareDto {
    fn from(summary: &OrderSummary) -> Self {
        let order = &summary.order;
        Self {
            order_id: order.id.clone(),
            email: order.email.clone(),
            currency: order.currency.code(),
            grand_total_cents: order.grand_total_cents,
            payment_status: order.payment_status.as_str(),
            fulfilment: summary.aftercare.fulfilment.word(),
            tracking_url: match &summary.aftercare.fulfilment {
                Fulfilment::Fulfilled { tracking_url, .. } => {
                    Some(tracking_url.as_str().to_owned())
                }
                _ => None,
            },
            refunds: summary
                .aftercare
                .refunds
                .iter()
                .map(RefundDto::from)
                .collect(),
            refundable_cents: summary.refundable_cents,
        }
    }
}

/// The service, for an owner allowed to see and change orders.
async fn permitted(
    state: &AppState,
    method: &Method,
    headers: &HeaderMap,
) -> Result<std::sync::Arc<OrderAftercareService>, ApiError> {
    let Some(service) = state.order_aftercare.clone() else {
        return Err(ApiError::NotFound);
    };
    if !owner_permits(state, method, headers, PermissionCode::Commerce).await {
        return Err(ApiError::NotFound);
    }
    Ok(service)
}

fn error_answer(status: StatusCode, message: String) -> Response {
    (status, Json(serde_json::json!({ "error": message }))).into_response()
}

/// The answer to a call the service refused.
fn refused(error: AftercareError) -> Response {
    match error {
        AftercareError::Refund(RefundError::UnknownOrder(_))
        | AftercareError::Change(ChangeOrderError::UnknownOrder(_)) => {
            ApiError::NotFound.into_response()
        }
        AftercareError::Refund(refusal) => error_answer(StatusCode::CONFLICT, refusal.to_string()),
        AftercareError::Change(refusal) => error_answer(StatusCode::CONFLICT, refusal.to_string()),
        AftercareError::Gateway(cause) => {
            tracing::warn!(%cause, "the payment provider did not refund");
            error_answer(
                StatusCode::BAD_GATEWAY,
                format!("The payment provider did not refund: {cause}"),
            )
        }
        AftercareError::Repository(cause) => ApiError::Unavailable(Box::new(cause)).into_response(),
    }
}

async fn show(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let service = permitted(&state, &Method::GET, &headers).await?;
    Ok(match service.summary(&id).await {
        Ok(summary) => Json(AftercareDto::from(&summary)).into_response(),
        Err(error) => refused(error),
    })
}

async fn refund(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let service = permitted(&state, &Method::POST, &headers).await?;
    let body: RefundBody = if body.is_empty() {
        RefundBody::default()
    } else {
        serde_json::from_slice(&body).map_err(|_| ApiError::BadRequest(REFUND_SHAPE.into()))?
    };
    let lines = body
        .lines
        .iter()
        .map(|line| {
            let sku = Sku::parse(&line.sku).map_err(|error| error.to_string())?;
            (line.quantity > 0)
                .then_some(RefundLine {
                    sku,
                    quantity: line.quantity,
                })
                .ok_or_else(|| "a line's quantity is at least 1".to_owned())
        })
        .collect::<Result<Vec<_>, String>>()
        .map_err(ApiError::BadRequest)?;
    let request = RefundRequest {
        amount_cents: body.amount_cents,
        lines,
    };
    let now = vitrine_core::cart::Timestamp(crate::shared::clock::now_ms());
    Ok(match service.refund(&id, &request, now).await {
        Ok(refund) => (StatusCode::CREATED, Json(RefundDto::from(&refund))).into_response(),
        Err(error) => refused(error),
    })
}

async fn fulfil(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let service = permitted(&state, &Method::POST, &headers).await?;
    let body: FulfilmentBody =
        serde_json::from_slice(&body).map_err(|_| ApiError::BadRequest(FULFILMENT_SHAPE.into()))?;
    let tracking = TrackingUrl::parse(&body.tracking_url)
        .map_err(|error| ApiError::BadRequest(error.to_string()))?;
    let now = vitrine_core::cart::Timestamp(crate::shared::clock::now_ms());
    Ok(match service.fulfil(&id, &tracking, now).await {
        Ok(()) => StatusCode::NO_CONTENT.into_response(),
        Err(error) => refused(error),
    })
}

async fn cancel(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let service = permitted(&state, &Method::POST, &headers).await?;
    let now = vitrine_core::cart::Timestamp(crate::shared::clock::now_ms());
    Ok(match service.cancel(&id, now).await {
        Ok(refunded) => Json(serde_json::json!({ "refundedCents": refunded })).into_response(),
        Err(error) => refused(error),
    })
}

#[cfg(test)]
mod tests {
    use vitrine_core::cart::Timestamp;
    use vitrine_core::checkout::{Aftercare, RefundState};
    use vitrine_core::reviews::conformance::fixture_order;

    use super::*;

    #[test]
    fn the_aftercare_dto_keeps_its_wire_shape() {
        let order = vitrine_core::checkout::Order {
            payment_id: "pi_1".into(),
            ..fixture_order("order-1")
        };
        let summary = OrderSummary {
            aftercare: Aftercare {
                fulfilment: Fulfilment::Fulfilled {
                    tracking_url: TrackingUrl::parse("https://track.example/1").unwrap(),
                    at: Timestamp(2),
                },
                refunds: vec![OrderRefund {
                    id: "order-1-refund-1".into(),
                    order_id: "order-1".into(),
                    sequence: 1,
                    amount_cents: 1_000,
                    lines: vec![RefundLine::parse("MUG-1:1").unwrap()],
                    state: RefundState::Refunded,
                    gateway_refund_id: "re_1".into(),
                    reason: String::new(),
                    requested: Timestamp(1_795_269_600_000),
                }],
            },
            refundable_cents: 2_000,
            order,
        };
        insta::assert_snapshot!(
            serde_json::to_string_pretty(&AftercareDto::from(&summary)).unwrap()
        );
    }
}
