//! Failed owner-token and API-key attempts, throttled per client address: after 10 wrong
//! bearer secrets (neither `VITRINE_OWNER_TOKEN` nor a live API key) from one
//! address within 10 minutes, every request from it carrying a token answers 429 for the next
//! 10 minutes, whatever the token, so guessing cannot go on at the speed of the network. The
//! lock-out runs a whole window from the refused guess rather than to the end of the counting
//! window, which may be seconds away.
//! Failures are counted through the rate limiter port (shared in Redis by several servers);
//! the lock-out itself is remembered by each server, so it holds before any comparison. What
//! a right secret may do is `owner_access.rs`'s to say.

use std::collections::HashMap;
use std::sync::Mutex;

use axum::extract::Request;
use axum::http::HeaderMap;
use axum::http::header::AUTHORIZATION;
use axum::response::Response;
use vitrine_core::forms::{RateDecision, RateLimit};

use crate::AppState;
use crate::shared::client_address::ClientAddress;
use crate::shared::request_parts::same_secret;

/// Wrong owner tokens an address may send per window.
const FAILURES: RateLimit = RateLimit {
    max: 10,
    window_seconds: 600,
};

/// Addresses locked out, with the second their lock-out ends.
#[derive(Debug, Default)]
pub(crate) struct OwnerLockouts(Mutex<HashMap<String, i64>>);

impl OwnerLockouts {
    fn until(&self, address: &str, now: i64) -> Option<i64> {
        let mut locked = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        locked.retain(|_, until| *until > now);
        locked.get(address).copied()
    }

    fn lock_out(&self, address: String, until: i64) {
        let mut locked = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        locked.insert(address, until);
    }
}

/// The token of `Authorization: Bearer <token>`, when the request carries one.
pub(crate) fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "))
}

/// Whether `given` is the environment's owner token or a live API key. A key store that
/// cannot be read counts as a match, so an outage never locks owners out.
async fn is_known_secret(state: &AppState, given: &str) -> bool {
    if let Some(expected) = state.consent.owner_token.as_deref()
        && same_secret(given.as_bytes(), expected.as_bytes())
    {
        return true;
    }
    match state.owners.key_access(given).await {
        Ok(access) => access.is_some(),
        Err(error) => {
            tracing::warn!(%error, "the API key store is unavailable");
            true
        }
    }
}

/// Answers 429 to a locked-out address that sends a token, and counts a wrong one; a request
/// without a token goes on untouched.
pub(crate) async fn throttle(state: &AppState, request: Request) -> Result<Request, Response> {
    let Some(given) = bearer(request.headers()).map(str::to_owned) else {
        return Ok(request);
    };
    let (parts, body) = request.into_parts();
    let address = ClientAddress::of(&parts, state.config.trusted_proxies)
        .bucket()
        .unwrap_or_else(|| "unknown".to_owned());
    let now = crate::shared::clock::now_secs();
    if let Some(until) = state.owner_lockouts.until(&address, now) {
        return Err(locked_out(parts.uri.path(), until - now));
    }
    if !is_known_secret(state, &given).await {
        let bucket = format!("owner-failure:{address}");
        match state.request_limiter.hit(&bucket, FAILURES, now).await {
            Ok(decision) if !decision.allowed => {
                tracing::warn!(address, "owner token guessed wrong too often; locked out");
                let lock_out = FAILURES.window_seconds;
                state.owner_lockouts.lock_out(address, now + lock_out);
                return Err(locked_out(parts.uri.path(), lock_out));
            }
            Ok(_) => {}
            Err(error) => tracing::warn!(%error, "the owner-token throttle is unavailable"),
        }
    }
    Ok(Request::from_parts(parts, body))
}

fn locked_out(path: &str, seconds_left: i64) -> Response {
    crate::shared::request_limits::too_many(
        path,
        &RateDecision {
            allowed: false,
            limit: FAILURES.max,
            remaining: 0,
            reset_after: seconds_left,
        },
    )
}
