//! Who is asking: the signed-in site user of the session cookie, for the people calls and
//! for every path that shows content (pages, media), which hand the viewer to the gating
//! check. Below the capabilities, so pages and people both read it.

use std::time::{SystemTime, UNIX_EPOCH};

use axum::http::HeaderMap;
use vitrine_core::cart::Timestamp;
use vitrine_core::people::{Unavailable, Viewer};

use crate::AppState;

/// The session cookie's name over plain HTTP.
pub const SESSION_COOKIE: &str = "siteuser";
/// The session cookie's name over TLS.
pub const HOST_SESSION_COOKIE: &str = "__Host-siteuser";

/// The session cookie's name this server writes and reads.
pub(crate) fn cookie_name(state: &AppState) -> &'static str {
    if state.config.secure_cookies {
        HOST_SESSION_COOKIE
    } else {
        SESSION_COOKIE
    }
}

/// The session cookie's value, when the request has one.
pub(crate) fn session_cookie<'a>(state: &AppState, headers: &'a HeaderMap) -> Option<&'a str> {
    crate::shared::request_parts::cookie(headers, cookie_name(state))
}

/// The current time for sessions and tokens.
pub(crate) fn now() -> Timestamp {
    let millis = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_millis());
    Timestamp(i64::try_from(millis).unwrap_or(i64::MAX))
}

/// The signed-in viewer of a request, if any.
pub(crate) async fn viewer(
    state: &AppState,
    headers: &HeaderMap,
) -> Result<Option<Viewer>, Unavailable> {
    let Some(token) = session_cookie(state, headers) else {
        return Ok(None);
    };
    state.people.viewer(token, now()).await
}

/// The viewer of a page: the signed-in site user of the session cookie, else an anonymous
/// visitor. A store that cannot be read makes an anonymous visitor, so gated content stays
/// hidden (it fails closed).
pub(crate) async fn page_viewer(
    state: &AppState,
    headers: &HeaderMap,
) -> vitrine_core::pages::Viewer {
    match viewer(state, headers).await {
        Ok(Some(viewer)) => page_viewer_of(&viewer),
        Ok(None) => vitrine_core::pages::Viewer::default(),
        Err(error) => {
            tracing::warn!(%error, "reading a site-user session failed; serving as anonymous");
            vitrine_core::pages::Viewer::default()
        }
    }
}

/// What the page service needs to know of a signed-in site user: their account and the
/// member areas it belongs to.
pub(crate) fn page_viewer_of(viewer: &Viewer) -> vitrine_core::pages::Viewer {
    vitrine_core::pages::Viewer {
        account_id: Some(viewer.account.id.as_str().to_owned()),
        member_areas: viewer.account.member_areas.iter().cloned().collect(),
        ..vitrine_core::pages::Viewer::default()
    }
}
