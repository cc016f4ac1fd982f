//! The experiments on a page, decided for the visitor asking, before the page is looked up in
//! the cache or rendered: the variant goes into the HTML itself (no flicker), and the cache
//! keeps one copy per combination of variants.
//!
//! **Who the visitor is.** When the site's policy and the visitor's consent allow tracking
//! cookies, the bucket is made from the analytics visitor cookie `ss_cvr`; a consenting
//! visitor who has none yet gets it (with the visit cookie `ss_cvt`, as the page-view script
//! would write them) on this answer, so the first page and every later one are bucketed alike
//! instead of switching once the script has run. Without that consent no cookie is written and
//! the bucket comes from the cookieless daily key (address, user agent and site under a salt
//! that changes every day): stable through the day, new the next, and marked cookieless in
//! the exposure rows and the report. With census switched off there is no daily key: such a
//! visitor sees every experiment's first variant and is not counted.
//!
//! A page with experiments differs per visitor, so it goes out `private`: a shared cache in
//! front must not hand one visitor's variant to another.

use std::sync::Arc;

use axum::http::header::{ACCEPT_LANGUAGE, CACHE_CONTROL, SET_COOKIE, USER_AGENT};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::Response;
use serde_json::json;
use vitrine_core::analytics::{
    VISIT_COOKIE, VISIT_COOKIE_MAX_AGE_SECONDS, VISITOR_COOKIE, VISITOR_COOKIE_MAX_AGE_SECONDS,
    VisitorCookie, VisitorId, VisitorKey,
};
use vitrine_core::experiments::{
    Assignment, DeviceClass, Experiments, VisitorFacts, VisitorKind, assign_all, cache_key_suffix,
    control_all,
};
use vitrine_core::pages::Viewer;
use vitrine_core::site::SiteProfile;

use crate::AppState;
use crate::shared::census_log::CensusRow;
use crate::shared::client_address::ClientAddress;
use crate::shared::clock::now_ms;
use crate::shared::request_parts::request_cookies;
use crate::shared::visitors::{cookieless_key, tracking_allowed};

/// The census kind of an exposure: a visitor was shown a variant.
pub const EXPOSURE: &str = "experiment-exposure";

/// `Cache-Control` of a page whose content depends on the visitor's variants.
const PRIVATE: &str = "private, no-cache";

/// The decisions for one request of one page.
pub(crate) struct PageVariants {
    experiments: Experiments,
    pub(crate) assignments: Vec<Assignment>,
    key: Option<VisitorKey>,
    set_cookies: Vec<HeaderValue>,
}

impl PageVariants {
    /// What the page cache adds to the path: one copy per combination of variants.
    pub(crate) fn cache_key(&self, path: &str) -> String {
        format!("{path}{}", cache_key_suffix(&self.assignments))
    }

    /// Shows the chosen variants on the page and puts their contexts in its page context.
    pub(crate) fn apply(&self, view: &mut vitrine_core::pages::PageView) {
        vitrine_core::experiments::apply_variants(view, &self.experiments, &self.assignments);
    }

    /// Marks the answer private and gives a consenting visitor the cookies their bucket was
    /// made from.
    pub(crate) fn finish(&self, response: &mut Response) {
        let headers = response.headers_mut();
        let no_store = headers
            .get(CACHE_CONTROL)
            .and_then(|value| value.to_str().ok())
            .is_some_and(|value| value.contains("no-store"));
        if !no_store {
            headers.insert(CACHE_CONTROL, HeaderValue::from_static(PRIVATE));
        }
        for cookie in &self.set_cookies {
            headers.append(SET_COOKIE, cookie.clone());
        }
    }

    /// One exposure row per experiment the visitor takes part in.
    pub(crate) fn record_exposures(&self, state: &AppState, path: &str) {
        let now = now_ms();
        for assignment in self.assignments.iter().filter(|a| a.exposed) {
            let context = &assignment.context;
            state.census.record(CensusRow {
                kind: EXPOSURE,
                visitor: self.key.clone(),
                page_path: Some(path.to_owned()),
                data: json!({
                    "experiment": context.name,
                    "variant": context.variant,
                    "segmentName": context.segment_name,
                }),
                recorded_at_ms: now,
            });
        }
    }
}

/// The decisions on the page at `path` for this request, when an experiment applies there;
/// `profile` is the site's, as the page cache keeps it per revision.
pub(crate) async fn page_variants(
    state: &AppState,
    profile: Option<Arc<SiteProfile>>,
    request: &HeaderMap,
    address: &ClientAddress,
    path: &str,
    viewer: &Viewer,
) -> Option<PageVariants> {
    let profile = profile?;
    let experiments = &profile.settings.experiments;
    if !experiments.any_applies_to(path) {
        return None;
    }
    let now = now_ms();
    let mut set_cookies = Vec::new();
    let (key, kind) = if tracking_allowed(&profile.settings, request) {
        let (cookie, minted) = visitor_cookie(request, now);
        if minted {
            set_cookies = tracking_cookies(&cookie, now, state.config.secure_cookies);
        }
        let kind = if cookie.count > 1 {
            VisitorKind::Returning
        } else {
            VisitorKind::New
        };
        (
            Some(VisitorKey::Cookie(cookie.id.as_str().to_owned())),
            kind,
        )
    } else {
        let site = profile.website.id.to_string();
        (
            cookieless_key(state, request, address, &site, now),
            VisitorKind::New,
        )
    };
    let assignments = match &key {
        Some(key) => {
            let facts = VisitorFacts {
                key: key.clone(),
                kind,
                member: viewer.account_id.is_some(),
                device: DeviceClass::from_user_agent(header(request, USER_AGENT)),
                locale: first_language(header(request, ACCEPT_LANGUAGE))
                    .unwrap_or(&profile.settings.locale)
                    .to_owned(),
            };
            assign_all(experiments, path, &facts)
        }
        None => control_all(experiments, path),
    };
    Some(PageVariants {
        experiments: experiments.clone(),
        assignments,
        key,
        set_cookies,
    })
}

fn header(request: &HeaderMap, name: axum::http::HeaderName) -> &str {
    request
        .get(name)
        .and_then(|value| value.to_str().ok())
        .unwrap_or("")
}

/// The first language a browser asks for (`pt-PT,pt;q=0.9` gives `pt-PT`).
fn first_language(accept_language: &str) -> Option<&str> {
    accept_language
        .split(',')
        .map(|part| part.split(';').next().unwrap_or("").trim())
        .find(|tag| !tag.is_empty() && *tag != "*")
}

/// The request's visitor cookie, or a first one made now (true when made).
fn visitor_cookie(request: &HeaderMap, now: i64) -> (VisitorCookie, bool) {
    let existing = request_cookies(request)
        .into_iter()
        .find(|(name, _)| name == VISITOR_COOKIE)
        .and_then(|(_, value)| value.parse::<VisitorCookie>().ok());
    if let Some(cookie) = existing {
        return (cookie, false);
    }
    let mut bytes = [0u8; 16];
    rand::fill(&mut bytes);
    let id = VisitorId::new(hex::encode(bytes)).expect("thirty-two hex digits are a valid id");
    (
        VisitorCookie::first(id, u64::try_from(now).unwrap_or(1)),
        true,
    )
}

/// `ss_cvr` and `ss_cvt` as the page-view script writes them: readable by the script, which
/// keeps them up to date, for the whole site.
fn tracking_cookies(cookie: &VisitorCookie, now: i64, secure: bool) -> Vec<HeaderValue> {
    let secure = if secure { "; Secure" } else { "" };
    [
        format!(
            "{VISITOR_COOKIE}={cookie}; Max-Age={VISITOR_COOKIE_MAX_AGE_SECONDS}; Path=/; SameSite=Lax{secure}"
        ),
        format!(
            "{VISIT_COOKIE}={now}; Max-Age={VISIT_COOKIE_MAX_AGE_SECONDS}; Path=/; SameSite=Lax{secure}"
        ),
    ]
    .into_iter()
    .filter_map(|cookie| HeaderValue::from_str(&cookie).ok())
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_language_asked_for_is_the_visitors_locale() {
        assert_eq!(first_language("pt-PT,pt;q=0.9,en;q=0.8"), Some("pt-PT"));
        assert_eq!(first_language(" *;q=0.5"), None);
        assert_eq!(first_language(""), None);
    }

    #[test]
    fn a_minted_visitor_cookie_is_a_first_visit_the_script_accepts() {
        let (cookie, minted) = visitor_cookie(&HeaderMap::new(), 1_700_000_000_000);
        assert!(minted);
        assert_eq!(cookie.count, 1);
        let written = tracking_cookies(&cookie, 1_700_000_000_000, true);
        let text = written[0].to_str().unwrap();
        assert!(text.starts_with("ss_cvr="), "{text}");
        assert!(text.ends_with("SameSite=Lax; Secure"), "{text}");
        assert!(
            !text.contains("HttpOnly"),
            "the page-view script keeps it up to date"
        );
        let value = text
            .trim_start_matches("ss_cvr=")
            .split(';')
            .next()
            .unwrap();
        assert_eq!(value.parse::<VisitorCookie>().unwrap(), cookie);
    }
}
