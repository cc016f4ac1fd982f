//! Tighter rate limits on the attempts a script repeats to deny stock or guess secrets:
//! entering checkout (which holds stock for ten minutes), applying a coupon or checking a gift
//! card's balance (which try a code) and giving a donation (which tries a card). They count per client address and per
//! visitor through the same rate limiter port as every state-changing request
//! (`request_limits.rs`), in buckets of their own, so a shopper's ordinary cart edits never
//! use them up, and answer the same 429 with `Retry-After`.

use axum::extract::Request;
use axum::http::Method;
use axum::response::Response;
use vitrine_core::forms::RateLimit;

use crate::AppState;
use crate::RequestLimits;
use crate::shared::request_limits::count;

/// The paths whose `POST` is an attempt: checkout entry, a coupon by the API and by the
/// cart page's form, a donation (by the form, or by the card-payment island, which also
/// tells of each declined card before the donor tries another), and a gift card balance
/// check (which tries a code).
const ATTEMPTS: [&str; 7] = [
    "/commerce/goto-checkout",
    "/api/commerce/cart/coupons",
    "/cart/coupon",
    "/checkout/donate",
    "/checkout/donate/card-payment",
    "/checkout/donate/card-payment/declined",
    vitrine_core::gift_cards::GIFT_CARD_BALANCE_PATH,
];

/// 20 attempts per visitor and 60 per address in ten minutes: a shopper enters checkout or
/// tries a coupon a few times in an evening, while a script holding stock on a loop, or
/// guessing codes, is stopped after a handful. The address limit is wider for the many
/// shoppers behind one office or carrier address.
pub fn default_attempt_limits() -> RequestLimits {
    let per_ten_minutes = |max| RateLimit {
        max,
        window_seconds: 600,
    };
    RequestLimits {
        per_address: per_ten_minutes(60),
        per_visitor: per_ten_minutes(20),
    }
}

/// Counts a checkout, coupon or donation attempt; 429 once its limit is spent. Any other
/// request goes on untouched.
pub(crate) async fn limit(state: &AppState, request: Request) -> Result<Request, Response> {
    if request.method() != Method::POST || !ATTEMPTS.contains(&request.uri().path()) {
        return Ok(request);
    }
    let (parts, body) = request.into_parts();
    if let Some(refusal) = count(state, &parts, "attempt", state.config.attempt_limits).await {
        return Err(refusal);
    }
    Ok(Request::from_parts(parts, body))
}
