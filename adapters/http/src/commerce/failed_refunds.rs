//! `GET /api/commerce/failed-refunds`: the refunds the payment provider did not make, for the
//! owner to settle by hand (the shopper was charged for an order or contribution that could
//! not be placed). Behind the owner token, like the other owner calls, until the owner area
//! shows them; without the token the route answers 404, as if it did not exist.

use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::routing::get;
use serde::Serialize;
use vitrine_core::checkout::FailedRefund;

use crate::shared::route_table::Routes;
use crate::{ApiError, AppState};

pub(crate) const FAILED_REFUNDS_PATH: &str = "/api/commerce/failed-refunds";

pub(crate) fn routes() -> Routes {
    Routes::new().route(FAILED_REFUNDS_PATH, get(failed_refunds))
}

/// The answer: every failed refund, oldest first.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct FailedRefundsDto {
    refunds: Vec<FailedRefundDto>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct FailedRefundDto {
    /// The payment provider's id of the charge to give back.
    payment_id: String,
    /// The checkout form's key the charge was made under (Stripe's idempotency key).
    idempotency_key: String,
    /// What the provider (or the network) said.
    reason: String,
    /// When the refund was asked for, in Unix milliseconds.
    claimed_at: i64,
}

impl FailedRefundsDto {
    fn new(refunds: &[FailedRefund]) -> Self {
        Self {
            refunds: refunds
                .iter()
                .map(|refund| FailedRefundDto {
                    payment_id: refund.payment_id.clone(),
                    idempotency_key: refund.idempotency_key.clone(),
                    reason: refund.reason.clone(),
                    claimed_at: refund.claimed.millis(),
                })
                .collect(),
        }
    }
}

async fn failed_refunds(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Json<FailedRefundsDto>, ApiError> {
    if !crate::shared::owner_throttle::is_owner(&state, &headers) {
        return Err(ApiError::NotFound);
    }
    // Orders and contributions share one ledger, so this lists the refunds of both.
    let refunds = state
        .carts
        .store()
        .failed_refunds()
        .await
        .map_err(|error| ApiError::Unavailable(Box::new(error)))?;
    Ok(Json(FailedRefundsDto::new(&refunds)))
}

#[cfg(test)]
mod tests {
    use vitrine_core::cart::Timestamp;

    use super::*;

    #[test]
    fn the_failed_refunds_dto_keeps_its_wire_shape() {
        let answer = FailedRefundsDto::new(&[FailedRefund {
            payment_id: "pi_123".into(),
            idempotency_key: "form-key-1-r1".into(),
            reason: "payment gateway unavailable: timed out".into(),
            claimed: Timestamp(1_795_269_600_000),
        }]);
        insta::assert_snapshot!(serde_json::to_string_pretty(&answer).unwrap());
    }
}
