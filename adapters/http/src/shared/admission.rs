//! The checks a request passes before its route, in this order: the owner-token throttle, the
//! attempt limits, the rate limits, the crumb and the origin check. Each is a plain function
//! that lets the request on or answers for it, and the router's one middleware runs them all
//! (`router.rs`), so a request pays one layer for all five; a read without a bearer token
//! (every page view) meets none of them and goes straight on.

use axum::extract::Request;
use axum::response::Response;

use crate::AppState;
use crate::shared::crumb::{self, CrumbConfig};
use crate::shared::{attempt_limits, owner_throttle, request_limits, same_origin};

/// The request, once every check lets it on; else the first refusal, to answer instead.
pub(crate) async fn admitted(state: &AppState, request: Request) -> Result<Request, Response> {
    let request = owner_throttle::throttle(state, request).await?;
    let request = attempt_limits::limit(state, request).await?;
    let request = request_limits::limit(state, request).await?;
    let crumbs = CrumbConfig {
        secure: state.config.secure_cookies,
    };
    if let Some(refusal) = crumb::check(crumbs, &request) {
        return Err(refusal);
    }
    if let Some(refusal) = same_origin::check(&request) {
        return Err(refusal);
    }
    Ok(request)
}
