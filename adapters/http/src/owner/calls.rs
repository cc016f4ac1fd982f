//! The owner's calls from the live site (000 s2, s3, s6, s7): `GET /api/owner/context`, the
//! small per-account request a page makes after load when someone is signed in (so pages
//! stay cacheable and no signed-in HTML enters the shared cache), and
//! `POST /api/auth/Logout`.

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::header::{CACHE_CONTROL, HOST, SET_COOKIE, VARY};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};
use serde_json::json;
use vitrine_core::owners::{
    RESERVATION_PREVIEW_ALERT, RedirectFacts, config_url, is_localhost, redirects_to_config,
    role_permissions, shows_owner_extras,
};

use crate::shared::owner_access::{expired_session_cookies, owner_viewer, repeats_csrf};
use crate::shared::route_table::Routes;
use crate::{ApiError, AppState};

pub const CONTEXT_PATH: &str = "/api/owner/context";
pub const LOGOUT_PATH: &str = "/api/auth/Logout";

/// What a signed-in owner's call without the session's CSRF token answers.
pub const CSRF_REFUSED: &str =
    "Your session could not be verified. Please reload the page and try again.";

pub(crate) fn routes() -> Routes {
    Routes::new()
        .route(CONTEXT_PATH, get(context))
        .route(LOGOUT_PATH, post(logout))
}

/// Where a browser goes after logging out (000 s2): the preview frame's page, or the site
/// root, with `logout=true` added to its query.
pub(crate) fn after_logout(frame: &str) -> String {
    let (path, fragment) = frame
        .split_once('#')
        .map_or((frame, ""), |(path, fragment)| (path, fragment));
    let separator = if path.contains('?') { '&' } else { '?' };
    let fragment = if fragment.is_empty() {
        String::new()
    } else {
        format!("#{fragment}")
    };
    format!("{path}{separator}logout=true{fragment}")
}

fn no_store() -> [(axum::http::HeaderName, &'static str); 2] {
    [(CACHE_CONTROL, "no-store"), (VARY, "Cookie")]
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ContextQuery {
    /// The live page's path and query, for the address Escape and the redirect open.
    #[serde(default)]
    path: Option<String>,
    /// The page is inside a frame.
    #[serde(default)]
    in_frame: bool,
    /// The page was opened with `noredirect`, now or earlier in the browser session.
    #[serde(default)]
    noredirect: bool,
}

/// The signed-in account as the page context carries it (000 s3).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct OwnerContext {
    /// `{"id"}` of the signed-in account; `null` for a visitor.
    authenticated_account: Option<serde_json::Value>,
    /// The account's roles by name with their numeric codes (001 s3), e.g. `{"admin": 1}`.
    website_roles: serde_json::Map<String, serde_json::Value>,
    /// The permission codes the roles hold.
    permissions: Vec<u16>,
    /// Owners and editors see the announcement bar, the preview-only notice and the
    /// overlays manager; viewers are treated like visitors.
    show_announcement_bar: bool,
    owner_extras: bool,
    /// Repeated as `X-Owner-CSRF-Token` by the page's owner calls (logout).
    csrf_token: Option<String>,
    /// Where Escape goes: `/config/?frameUrl=...`.
    config_url: String,
    /// Set when the page must send its viewer to `/config/` now (000 s2).
    redirect_to: Option<String>,
    /// The table-reservation block's alert for a signed-in owner (000 s6).
    reservation_preview_alert: Option<&'static str>,
}

/// `GET /api/owner/context?path=&inFrame=&noredirect=`: the signed-in account's part of the
/// page context, never cached.
async fn context(
    State(state): State<AppState>,
    query: Result<Query<ContextQuery>, QueryRejection>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let Query(query) = query.map_err(|_| {
        ApiError::BadRequest("path is text; inFrame and noredirect are true or false".into())
    })?;
    let frame = super::config_page::frame_path(query.path.as_deref());
    let viewer = owner_viewer(&state, &headers)
        .await
        .map_err(|error| ApiError::Unavailable(Box::new(error)))?;
    let Some(viewer) = viewer else {
        return Ok((no_store(), Json(OwnerContext::visitor(&frame))).into_response());
    };
    let website = state
        .pages
        .profile()
        .await
        .map(|profile| profile.website)
        .ok();
    let role = viewer.owner.role;
    let host = headers
        .get(HOST)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default();
    let facts = RedirectFacts {
        role: Some(role),
        localhost: is_localhost(host),
        noredirect: query.noredirect,
        developer_mode: website.as_ref().is_some_and(|site| site.developer_mode),
        cloneable: website.as_ref().is_some_and(|site| site.cloneable),
        in_frame: query.in_frame,
    };
    let extras = shows_owner_extras(Some(role));
    let mut roles = serde_json::Map::new();
    roles.insert(role.spec_name().to_owned(), json!(role.code()));
    let context = OwnerContext {
        authenticated_account: Some(json!({ "id": viewer.owner.id.as_str() })),
        website_roles: roles,
        permissions: role_permissions(role)
            .iter()
            .map(|code| code.code())
            .collect(),
        show_announcement_bar: extras,
        owner_extras: extras,
        csrf_token: Some(viewer.session.csrf_token.clone()),
        config_url: config_url(&frame),
        redirect_to: redirects_to_config(facts).then(|| config_url(&frame)),
        reservation_preview_alert: extras.then_some(RESERVATION_PREVIEW_ALERT),
    };
    Ok((no_store(), Json(context)).into_response())
}

impl OwnerContext {
    fn visitor(frame: &str) -> Self {
        Self {
            authenticated_account: None,
            website_roles: serde_json::Map::new(),
            permissions: Vec::new(),
            show_announcement_bar: false,
            owner_extras: false,
            csrf_token: None,
            config_url: config_url(frame),
            redirect_to: None,
            reservation_preview_alert: None,
        }
    }
}

/// `POST /api/auth/Logout`: ends the signed-in owner's session (the call must repeat its
/// CSRF token) and clears its cookies; a no-op without one (000 s2). 204 either way; the
/// page then goes to the address of [`after_logout`].
async fn logout(State(state): State<AppState>, headers: HeaderMap) -> Result<Response, ApiError> {
    let viewer = owner_viewer(&state, &headers)
        .await
        .map_err(|error| ApiError::Unavailable(Box::new(error)))?;
    let Some(viewer) = viewer else {
        return Ok((StatusCode::NO_CONTENT, no_store()).into_response());
    };
    if !repeats_csrf(&viewer, &headers) {
        return Ok((
            StatusCode::FORBIDDEN,
            no_store(),
            Json(json!({ "error": CSRF_REFUSED })),
        )
            .into_response());
    }
    state
        .owners
        .end_session(&viewer.owner.id, &viewer.session.id)
        .await
        .map_err(|error| ApiError::Unavailable(Box::new(error)))?;
    let mut response = (StatusCode::NO_CONTENT, no_store()).into_response();
    for cookie in expired_session_cookies(&state) {
        if let Ok(value) = HeaderValue::from_str(&cookie) {
            response.headers_mut().append(SET_COOKIE, value);
        }
    }
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::{OwnerContext, after_logout};

    #[test]
    fn a_visitors_context_names_no_account_and_escape_still_knows_where_to_go() {
        insta::assert_json_snapshot!(OwnerContext::visitor("/shop?page=2"), @r#"
        {
          "authenticatedAccount": null,
          "websiteRoles": {},
          "permissions": [],
          "showAnnouncementBar": false,
          "ownerExtras": false,
          "csrfToken": null,
          "configUrl": "/config/?frameUrl=%2Fshop%3Fpage%3D2",
          "redirectTo": null,
          "reservationPreviewAlert": null
        }
        "#);
    }

    #[test]
    fn logout_returns_to_the_page_with_logout_true() {
        assert_eq!(after_logout("/"), "/?logout=true");
        assert_eq!(after_logout("/shop?page=2"), "/shop?page=2&logout=true");
        assert_eq!(after_logout("/about#team"), "/about?logout=true#team");
    }
}
