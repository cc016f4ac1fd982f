//! Who pays, as the card-testing defence counts them (`core/src/checkout/card_testing.rs`):
//! the visitor's crumb, the cart and the client address of a checkout or donation request;
//! and the refusal recorded for the owner's report.

use axum::http::HeaderMap;
use vitrine_core::analytics::kinds::PAYMENT_REFUSED;
use vitrine_core::cart::CartToken;
use vitrine_core::checkout::{Payer, PaymentAttemptRefused};

use crate::AppState;
use crate::shared::census_log::CensusRow;
use crate::shared::client_address::ClientAddress;

/// The payer of a request paying for `cart` (none for a donation).
pub(crate) fn payer(
    headers: &HeaderMap,
    address: ClientAddress,
    cart: Option<&CartToken>,
) -> Payer {
    Payer {
        visitor: crate::shared::crumb::visitor_crumb(headers).map(str::to_owned),
        cart: cart.map(|token| token.as_str().to_owned()),
        address: address.bucket(),
    }
}

/// Logs a refused attempt and counts it in the owner's report, by what had failed too often.
/// The row carries no visitor and no page, so it is kept even when census counting is off:
/// it tracks no one, and the owner needs to see an attack on the shop.
pub(crate) fn record_refusal(state: &AppState, refused: &PaymentAttemptRefused) {
    tracing::warn!(
        by = refused.part.as_str(),
        "a payment attempt was refused: too many failed payments (card testing?)"
    );
    state.census.push(CensusRow {
        kind: PAYMENT_REFUSED,
        visitor: None,
        page_path: None,
        data: serde_json::json!({ "by": refused.part.as_str() }),
        recorded_at_ms: crate::shared::clock::now_ms(),
    });
}
