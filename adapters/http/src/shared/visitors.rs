//! Who a visitor is to analytics and experiments: the visitor cookie's id when the site's
//! policy and the visitor's decision allow tracking cookies, otherwise the cookieless daily
//! hash of address, user agent and site (never stored raw, different every day).

use axum::http::HeaderMap;
use axum::http::header::USER_AGENT;
use vitrine_core::analytics::{VisitorCookie, VisitorKey, cookieless_visitor_hash};
use vitrine_core::consent::{CONSENT_COOKIE, Consent, effective_consent, tracking_cookies_allowed};
use vitrine_core::site::WebsiteSettings;

use crate::AppState;
use crate::render::banner_settings;
use crate::shared::client_address::ClientAddress;
use crate::shared::request_parts::{request_cookies, sends_gpc};

/// The visitor's decision as this request tells it: the consent cookie, or GPC.
pub(crate) fn request_consent(headers: &HeaderMap) -> Consent {
    let cookies = request_cookies(headers);
    let consent_cookie = cookies
        .iter()
        .find(|(name, _)| name == CONSENT_COOKIE)
        .map(|(_, value)| value.as_str());
    effective_consent(consent_cookie, sends_gpc(headers))
}

/// Whether the site's policy and this request's consent (cookie or GPC) allow tracking cookies.
pub(crate) fn tracking_allowed(settings: &WebsiteSettings, headers: &HeaderMap) -> bool {
    tracking_cookies_allowed(&banner_settings(settings), request_consent(headers))
}

/// The visitor cookie's id when the visitor allows tracking and the cookie is well-formed;
/// otherwise the cookieless hash of address, user agent and site.
pub(crate) async fn visitor_key(
    state: &AppState,
    headers: &HeaderMap,
    address: ClientAddress,
    visitor_cookie: Option<&str>,
    now: i64,
) -> Option<VisitorKey> {
    let profile = state.repository.profile().await.ok().flatten();
    let site = profile
        .as_ref()
        .map(|p| p.website.id.to_string())
        .unwrap_or_default();
    let allowed = profile
        .as_ref()
        .is_some_and(|p| tracking_allowed(&p.settings, headers));
    if allowed && let Some(cookie) = visitor_cookie.and_then(|c| c.parse::<VisitorCookie>().ok()) {
        return Some(VisitorKey::Cookie(cookie.id.as_str().to_owned()));
    }
    cookieless_key(state, headers, &address, &site, now)
}

/// The cookieless daily key of this request's visitor; none when census is switched off and
/// keeps no salt.
pub(crate) fn cookieless_key(
    state: &AppState,
    headers: &HeaderMap,
    address: &ClientAddress,
    site: &str,
    now: i64,
) -> Option<VisitorKey> {
    let salt = state.census.salt(now)?;
    let agent = headers
        .get(USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    Some(VisitorKey::Cookieless(cookieless_visitor_hash(
        &salt,
        &address.text(),
        agent,
        site,
    )))
}

/// Records a conversion (a form submission, an order) in the census with the visitor's key,
/// the visitor cookie's id as the request carries it or the daily key, so the experiments
/// report can tell which exposed visitors went on to convert.
pub(crate) async fn record_conversion(
    state: &AppState,
    headers: &HeaderMap,
    address: ClientAddress,
    kind: &'static str,
    data: serde_json::Value,
) {
    let now = crate::shared::clock::now_ms();
    let cookies = request_cookies(headers);
    let visitor_cookie = cookies
        .iter()
        .find(|(name, _)| name == vitrine_core::analytics::VISITOR_COOKIE)
        .map(|(_, value)| value.as_str());
    let visitor = visitor_key(state, headers, address, visitor_cookie, now).await;
    state.census.record(crate::shared::census_log::CensusRow {
        kind,
        visitor,
        page_path: None,
        data,
        recorded_at_ms: now,
    });
}
