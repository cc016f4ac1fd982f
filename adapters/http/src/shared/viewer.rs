//! Who is asking: the signed-in site user of the session cookie, for the people calls and
//! for every path that shows content (pages, media), which hand the viewer to the gating
//! check. Below the capabilities, so pages and people both read it.

use std::collections::BTreeSet;
use std::time::{SystemTime, UNIX_EPOCH};

use axum::http::HeaderMap;
use vitrine_core::cart::Timestamp;
use vitrine_core::pages::unlock::UnlockKey;
use vitrine_core::people::{Unavailable, Viewer};
use vitrine_core::site::CollectionId;

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
/// visitor, with the password-protected collections this browser's unlock cookies open. A
/// store that cannot be read makes an anonymous visitor, so gated content stays hidden (it
/// fails closed).
pub(crate) async fn page_viewer(
    state: &AppState,
    headers: &HeaderMap,
) -> vitrine_core::pages::Viewer {
    let mut page_viewer = match viewer(state, headers).await {
        Ok(Some(viewer)) => page_viewer_of(state, &viewer).await,
        Ok(None) => vitrine_core::pages::Viewer::default(),
        Err(error) => {
            tracing::warn!(%error, "reading a site-user session failed; serving as anonymous");
            vitrine_core::pages::Viewer::default()
        }
    };
    page_viewer.unlocked = unlocked(state, headers).await;
    page_viewer
}

/// The unlock cookie's name for `collection` this server writes and reads.
pub(crate) fn unlock_cookie_name(state: &AppState, collection: &CollectionId) -> String {
    let name = vitrine_core::pages::unlock::unlock_cookie_name(collection);
    if state.config.secure_cookies {
        format!("__Host-{name}")
    } else {
        name
    }
}

/// The collections the request's unlock cookies open. The site's passwords are read only
/// when the request carries an unlock cookie, so other visitors cost no read.
async fn unlocked(state: &AppState, headers: &HeaderMap) -> BTreeSet<String> {
    if !carries_unlock_cookie(headers) {
        return BTreeSet::new();
    }
    let passwords = match state.pages.profile().await {
        Ok(profile) => profile.settings.page_passwords,
        Err(error) => {
            tracing::warn!(%error, "reading the site's page passwords failed; nothing unlocked");
            return BTreeSet::new();
        }
    };
    let prefixed = state.config.secure_cookies;
    UnlockKey::derived_from(&state.order_links).unlocked(&passwords, |name| {
        if prefixed {
            crate::shared::request_parts::cookie(headers, &format!("__Host-{name}"))
        } else {
            crate::shared::request_parts::cookie(headers, name)
        }
    })
}

/// Whether the request brings an unlock cookie of a password-protected collection.
pub(crate) fn carries_unlock_cookie(headers: &HeaderMap) -> bool {
    crate::shared::request_parts::cookie_pairs(headers).any(|(name, _)| {
        name.trim_start_matches("__Host-")
            .starts_with(vitrine_core::pages::unlock::UNLOCK_COOKIE_PREFIX)
    })
}

/// What the page service needs to know of a signed-in site user: their account and the
/// member areas it may enter now (a paid one only while its subscription lasts).
pub(crate) async fn page_viewer_of(
    state: &AppState,
    viewer: &Viewer,
) -> vitrine_core::pages::Viewer {
    vitrine_core::pages::Viewer {
        account_id: Some(viewer.account.id.as_str().to_owned()),
        member_areas: crate::shared::paid_membership::open_member_areas(state, &viewer.account)
            .await,
        ..vitrine_core::pages::Viewer::default()
    }
}

/// Whether the viewer of the request may see the item with `id`. When the site cannot be
/// read this says yes: the call that follows reads the same store and answers its own
/// "unavailable" (503), rather than a misleading "unknown item", and shows nothing either way.
pub(crate) async fn may_see_item(
    state: &AppState,
    headers: &HeaderMap,
    id: &vitrine_core::site::ItemId,
) -> bool {
    let viewer = page_viewer(state, headers).await;
    match state.pages.may_see_item_id(id, &viewer).await {
        Ok(allowed) => allowed,
        Err(error) => {
            tracing::warn!(%error, "checking an item's gate failed; the call reports the outage");
            true
        }
    }
}
