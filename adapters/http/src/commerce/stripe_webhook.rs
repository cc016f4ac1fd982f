//! `POST /api/commerce/stripe/webhook`: where Stripe reports what became of a charge
//! (succeeded, declined, cancelled, refunded, disputed). A declined attempt at an intent
//! confirmed in the browser leaves its order payable and counts against the order's cart. No crumb: Stripe's signature over the body, with
//! the endpoint's signing secret, is the check. Each event is recorded once and moves the
//! payment status of the order it concerns (a paid plan of a member area joins it for the
//! subscription's account then, as the buyer may never come back to the return address), or
//! settles the contribution given in the donor's browser whose intent it reports on (once,
//! whether the return address came first or not); events of other kinds are acknowledged and
//! ignored, so Stripe does not send them again. Without a signing secret configured the route
//! answers 404, as if it did not exist.
//!
//! Stripe reads only the status: 2xx takes the event, anything else is sent again later
//! (for up to three days), which is what a refused signature (400) and a database that is
//! away (503) want.

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::routing::post;
use serde::Serialize;
use vitrine_core::checkout::{
    PaymentReportInbox, PaymentStatus, ReceiveReportError, Received, Reconciliation,
};

use crate::shared::route_table::Routes;
use crate::{ApiError, AppState};

pub(crate) const STRIPE_WEBHOOK_PATH: &str = crate::shared::crumb::SIGNED_WEBHOOK_PATH;

/// The header Stripe signs its events in.
const SIGNATURE_HEADER: &str = "stripe-signature";

/// What the refused sender reads (our text).
const REFUSED_MESSAGE: &str = "The event's signature could not be verified.";

pub(crate) fn routes() -> Routes {
    Routes::new().route(STRIPE_WEBHOOK_PATH, post(receive))
}

/// The answer to an event that was taken.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct EventReceivedDto {
    received: bool,
    /// `recorded` (it moved an order, or named none of this shop's), `duplicate` (taken
    /// before) or `ignored` (a kind the shop does not act on).
    outcome: &'static str,
}

impl EventReceivedDto {
    fn new(received: &Received) -> Self {
        let outcome = match received {
            Received::Reconciled(Reconciliation::Duplicate) => "duplicate",
            Received::Reconciled(_) => "recorded",
            Received::Contribution(settled) if settled.settled_now => "recorded",
            Received::Contribution(_) => "duplicate",
            Received::Ignored { .. } => "ignored",
        };
        Self {
            received: true,
            outcome,
        }
    }
}

async fn receive(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<EventReceivedDto>, ApiError> {
    let Some(reports) = &state.payment_reports else {
        return Err(ApiError::NotFound);
    };
    let inbox = PaymentReportInbox::new(
        reports.clone(),
        state.carts.store().clone(),
        state.carts.payments().clone(),
    )
    .with_contributions(state.donations.clone());
    let signature = headers
        .get(SIGNATURE_HEADER)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default();
    match inbox
        .receive(signature, &body, crate::shared::clock::now())
        .await
    {
        Ok(received) => {
            if let Received::Reconciled(Reconciliation::Applied { order_id, status }) = &received
                && *status == PaymentStatus::Paid
            {
                if let Err(error) = state
                    .carts
                    .keep_card_of_paid_order(order_id, crate::shared::clock::now())
                    .await
                {
                    // The payment stands; the subscription's first renewal asks for a card.
                    tracing::warn!(%error, order = order_id, "a paid subscription's card could not be recorded");
                }
                // The buyer may never come back to the return address, which joins too.
                crate::shared::paid_membership::join_areas_of_paid_order(&state, order_id).await;
            }
            if let Received::Reconciled(Reconciliation::Declined {
                order_id,
                payment_id,
            }) = &received
                && let Err(error) = state
                    .carts
                    .count_declined_attempt(order_id, payment_id, crate::shared::clock::now())
                    .await
            {
                // The decline is recorded; only its count against the cart is lost.
                tracing::warn!(%error, order = order_id, "a declined attempt could not be counted");
            }
            Ok(Json(EventReceivedDto::new(&received)))
        }
        Err(ReceiveReportError::Refused(refusal)) => {
            tracing::warn!(%refusal, "refused a Stripe webhook");
            Err(ApiError::BadRequest(REFUSED_MESSAGE.to_owned()))
        }
        Err(ReceiveReportError::Repository(error)) => Err(ApiError::Unavailable(Box::new(error))),
        Err(ReceiveReportError::Provider(error)) => Err(ApiError::Unavailable(Box::new(error))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_event_received_dto_keeps_its_wire_shape() {
        let answer = EventReceivedDto::new(&Received::Reconciled(Reconciliation::NoOrder));
        insta::assert_snapshot!(serde_json::to_string_pretty(&answer).unwrap());
    }
}
