//! Who may make an owner call, for every capability's owner-only routes: a script's
//! `Authorization: Bearer` with an API key (`vk_...`) or the server's `VITRINE_OWNER_TOKEN`
//! (an admin key kept for the scripts written before accounts existed), or a signed-in
//! owner's session cookie. A session's state-changing call must also repeat the session's
//! CSRF token in `X-Owner-CSRF-Token` (on top of the crumb every `/api` call carries), so a
//! page elsewhere cannot act with the owner's cookie. Each call names the permission code
//! (001 s3) it needs.
//!
//! The session cookie is `owner` (`__Host-owner` over TLS): `HttpOnly`, `SameSite=Strict`,
//! `Path=/`. Beside it, `vitrine-owner=1` is readable by the page's script only so that the
//! live site asks for the owner's extras when someone is signed in, and not for every visitor.

use axum::http::{HeaderMap, Method};
use vitrine_core::cart::Timestamp;
use vitrine_core::enums::PermissionCode;
use vitrine_core::owners::{OwnerAccess, OwnerViewer};
use vitrine_core::people::Unavailable;

use crate::AppState;
use crate::shared::owner_throttle::bearer;
use crate::shared::request_parts::same_secret;

/// The session cookie's name over plain HTTP.
pub const OWNER_COOKIE: &str = "owner";
/// The session cookie's name over TLS.
pub const HOST_OWNER_COOKIE: &str = "__Host-owner";
/// The readable cookie that tells the page's script someone is signed in.
pub const OWNER_HINT_COOKIE: &str = "vitrine-owner";
/// The header that repeats the session's CSRF token.
pub const OWNER_CSRF_HEADER: &str = "x-owner-csrf-token";

/// The session cookie's name this server writes and reads.
pub(crate) fn owner_cookie_name(state: &AppState) -> &'static str {
    if state.config.secure_cookies {
        HOST_OWNER_COOKIE
    } else {
        OWNER_COOKIE
    }
}

/// The `Set-Cookie` values that start an owner session lasting `max_age` seconds.
pub(crate) fn session_cookies(state: &AppState, token: &str, max_age: i64) -> [String; 2] {
    let secure = if state.config.secure_cookies {
        "; Secure"
    } else {
        ""
    };
    [
        format!(
            "{}={token}; Path=/; HttpOnly; SameSite=Strict; Max-Age={max_age}{secure}",
            owner_cookie_name(state)
        ),
        format!("{OWNER_HINT_COOKIE}=1; Path=/; SameSite=Strict; Max-Age={max_age}{secure}"),
    ]
}

/// The `Set-Cookie` values that end the session in the browser.
pub(crate) fn expired_session_cookies(state: &AppState) -> [String; 2] {
    session_cookies(state, "", 0)
}

/// The current time for sessions.
pub(crate) fn now() -> Timestamp {
    crate::shared::viewer::now()
}

/// The signed-in owner of the session cookie, if any.
pub(crate) async fn owner_viewer(
    state: &AppState,
    headers: &HeaderMap,
) -> Result<Option<OwnerViewer>, Unavailable> {
    let Some(token) = crate::shared::request_parts::cookie(headers, owner_cookie_name(state))
    else {
        return Ok(None);
    };
    state.owners.viewer(token, now()).await
}

/// Whether the request repeats the session's CSRF token.
pub(crate) fn repeats_csrf(viewer: &OwnerViewer, headers: &HeaderMap) -> bool {
    let given = headers
        .get(OWNER_CSRF_HEADER)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default();
    same_secret(given.as_bytes(), viewer.session.csrf_token.as_bytes())
}

/// What the request may do as an owner: by its bearer key or token when it sends one (a
/// wrong one is no access at all, never a fall-back to the cookie), else by its session,
/// whose state-changing calls must repeat the CSRF token.
pub(crate) async fn owner_access(
    state: &AppState,
    method: &Method,
    headers: &HeaderMap,
) -> Result<Option<OwnerAccess>, Unavailable> {
    if let Some(given) = bearer(headers) {
        if let Some(expected) = state.consent.owner_token.as_deref()
            && same_secret(given.as_bytes(), expected.as_bytes())
        {
            return Ok(Some(OwnerAccess::EnvironmentToken));
        }
        return state.owners.key_access(given).await;
    }
    let Some(viewer) = owner_viewer(state, headers).await? else {
        return Ok(None);
    };
    let reads = matches!(*method, Method::GET | Method::HEAD);
    if !reads && !repeats_csrf(&viewer, headers) {
        return Ok(None);
    }
    Ok(Some(OwnerAccess::Session(viewer.owner.role)))
}

/// Whether the request may make an owner call needing `permission`. A store that cannot be
/// read refuses (it fails closed) and is logged.
pub(crate) async fn owner_permits(
    state: &AppState,
    method: &Method,
    headers: &HeaderMap,
    permission: PermissionCode,
) -> bool {
    match owner_access(state, method, headers).await {
        Ok(access) => access.is_some_and(|access| access.permits(permission)),
        Err(error) => {
            tracing::warn!(%error, "reading owner access failed; refusing the owner call");
            false
        }
    }
}
