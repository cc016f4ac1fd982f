//! The crumb: a double-submit CSRF token. A visitor gets a random `crumb` cookie where it is
//! needed: from `GET /api/crumb`, which the web client calls before its first state-changing
//! call when it has no crumb, and with any crumb failure, so the client's single retry
//! succeeds. Pages never set it, so a shared cache may keep them. Every state-changing API call
//! must repeat the cookie's value in the `crumb` query parameter (what the web request layer
//! appends) or the `X-CSRF-Token` header. A cross-site page can make the browser send the
//! cookie but cannot read it, so it cannot repeat it.
//!
//! Served over TLS (the default) the cookie is `__Host-crumb`, `Secure`: browsers accept that
//! name only from this host over HTTPS, without a `Domain`, so a sibling subdomain or a
//! man-in-the-middle on plain HTTP cannot plant a crumb of their choosing. Plain-HTTP
//! development (`vitrine serve --plain-http`) uses `crumb`, since browsers refuse `__Host-`
//! cookies there.

use axum::extract::{Request, State};
use axum::http::header::{CACHE_CONTROL, SET_COOKIE};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

use axum::routing::get;

use crate::shared::route_table::Routes;
use crate::{ApiError, AppState};

/// The cookie's name over plain HTTP, shared with the web request layer.
pub const CRUMB_COOKIE: &str = "crumb";
/// The cookie's name over TLS, shared with the web request layer.
pub const HOST_CRUMB_COOKIE: &str = "__Host-crumb";
/// The query parameter the web request layer appends to every call.
pub const CRUMB_QUERY_PARAMETER: &str = "crumb";
/// The header other clients may use instead of the query parameter.
pub const CRUMB_HEADER: &str = "x-csrf-token";
/// Random bytes in a crumb: 256 bits, well above the 128 a guess would have to beat.
const CRUMB_BYTES: usize = 32;
/// Longer values are not crumbs this server issued; refusing them keeps comparisons cheap.
const MAX_CRUMB_LEN: usize = 128;

/// How crumb cookies are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CrumbConfig {
    /// Served over TLS: the cookie is `__Host-crumb` and `Secure`, so it only travels over
    /// HTTPS and only this host can set it.
    pub secure: bool,
}

/// Where a client without a crumb gets one.
pub const CRUMB_PATH: &str = "/api/crumb";

impl CrumbConfig {
    /// The name of the crumb cookie this server issues and reads.
    pub fn cookie_name(self) -> &'static str {
        if self.secure {
            HOST_CRUMB_COOKIE
        } else {
            CRUMB_COOKIE
        }
    }
}

/// Middleware: checks the crumb of state-changing `/api/` calls, answering a failure with a
/// fresh crumb cookie, for a router of its own. The site's router runs [`check`] among its
/// admission checks (`admission.rs`).
pub async fn guard(State(config): State<CrumbConfig>, request: Request, next: Next) -> Response {
    match check(config, &request) {
        Some(refusal) => refusal,
        None => next.run(request).await,
    }
}

/// Checks the crumb of state-changing `/api/` calls: the refusal to answer, with a fresh crumb
/// cookie, when it fails; `None` when the request may go on (any other request does).
pub(crate) fn check(config: CrumbConfig, request: &Request) -> Option<Response> {
    if is_protected(request.method(), request.uri().path()) {
        let cookie = crumb_cookie(request.headers(), config);
        let given = given_crumb(request);
        let valid = match (&cookie, &given) {
            (Some(cookie), Some(given)) => {
                crate::shared::request_parts::same_secret(cookie.as_bytes(), given.as_bytes())
            }
            _ => false,
        };
        if !valid {
            tracing::info!(
                has_cookie = cookie.is_some(),
                has_crumb = given.is_some(),
                "crumb check failed"
            );
            // A fresh crumb lets the request layer's single retry succeed.
            let mut response = ApiError::CrumbFail.into_response();
            set_crumb_cookie(response.headers_mut(), &new_crumb(), config);
            return Some(response);
        }
    }
    None
}

/// `GET /api/crumb`: 204 with a fresh crumb cookie for a client that has none, and nothing to
/// change for one that has. Never stored by any cache: a crumb is one visitor's.
pub async fn issue(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let config = CrumbConfig {
        secure: state.config.secure_cookies,
    };
    let mut response = (StatusCode::NO_CONTENT, [(CACHE_CONTROL, "no-store")]).into_response();
    if crumb_cookie(&headers, config).is_none() {
        set_crumb_cookie(response.headers_mut(), &new_crumb(), config);
    }
    response
}

/// The crumb endpoint's route.
pub(crate) fn routes() -> Routes {
    Routes::new().route(CRUMB_PATH, get(issue))
}

/// State-changing calls under `/api/` must carry the crumb; reads and pages need not.
fn is_protected(method: &Method, path: &str) -> bool {
    let changes_state = matches!(
        *method,
        Method::POST | Method::PUT | Method::PATCH | Method::DELETE
    );
    // The payment provider's webhook is signed with a shared secret instead: the provider
    // has no cookie to repeat.
    changes_state && (path == "/api" || path.starts_with("/api/")) && path != SIGNED_WEBHOOK_PATH
}

/// The payment provider's webhook (`commerce/stripe_webhook.rs`), which checks a signature
/// made with a shared secret instead of a crumb.
pub(crate) const SIGNED_WEBHOOK_PATH: &str = "/api/commerce/stripe/webhook";

/// A fresh random crumb, base64url without padding.
pub fn new_crumb() -> String {
    let mut bytes = [0u8; CRUMB_BYTES];
    rand::fill(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

fn set_crumb_cookie(headers: &mut HeaderMap, crumb: &str, config: CrumbConfig) {
    // Not HttpOnly: the web request layer reads the cookie to repeat it. `Path=/` and no
    // `Domain`, as the `__Host-` prefix requires.
    let cookie = cookie::Cookie::build((config.cookie_name(), crumb))
        .path("/")
        .same_site(cookie::SameSite::Lax)
        .secure(config.secure)
        .build();
    match HeaderValue::from_str(&cookie.to_string()) {
        Ok(value) => {
            headers.append(SET_COOKIE, value);
        }
        Err(error) => tracing::error!(%error, "a crumb cookie was not a valid header value"),
    }
}

/// The crumb cookie of the request, when it holds something this server could have issued.
/// Over TLS only `__Host-crumb` counts: a plain `crumb` may have been planted by a sibling
/// subdomain.
fn crumb_cookie(headers: &HeaderMap, config: CrumbConfig) -> Option<String> {
    crate::shared::request_parts::cookie(headers, config.cookie_name())
        .map(|value| value.trim_matches('"').to_owned())
        .filter(|value| looks_like_crumb(value))
}

/// The visitor's crumb under either name, to tell visitors apart for rate limits (where a
/// planted value buys nothing); `None` without one.
pub(crate) fn visitor_crumb(headers: &HeaderMap) -> Option<&str> {
    crate::shared::request_parts::cookie(headers, HOST_CRUMB_COOKIE)
        .or_else(|| crate::shared::request_parts::cookie(headers, CRUMB_COOKIE))
        .filter(|value| !value.is_empty())
        .map(|value| value.get(..MAX_CRUMB_LEN).unwrap_or(value))
}

/// The crumb the caller repeated: the query parameter first, then the header.
fn given_crumb(request: &Request) -> Option<String> {
    let from_query = request.uri().query().and_then(|query| {
        url::form_urlencoded::parse(query.as_bytes())
            .find(|(name, _)| name == CRUMB_QUERY_PARAMETER)
            .map(|(_, value)| value.into_owned())
    });
    from_query
        .or_else(|| {
            request
                .headers()
                .get(CRUMB_HEADER)
                .and_then(|value| value.to_str().ok())
                .map(|value| value.trim().to_owned())
        })
        .filter(|value| looks_like_crumb(value))
}

fn looks_like_crumb(value: &str) -> bool {
    !value.is_empty()
        && value.len() <= MAX_CRUMB_LEN
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

#[cfg(test)]
mod tests {
    use axum::http::header::COOKIE;

    use super::*;

    #[test]
    fn crumbs_are_random_base64url_of_256_bits() {
        let first = new_crumb();
        assert_eq!(first.len(), 43);
        assert!(looks_like_crumb(&first));
        assert_ne!(first, new_crumb());
    }

    #[test]
    fn only_state_changing_api_calls_are_protected() {
        assert!(is_protected(&Method::POST, "/api/census/RecordHit"));
        assert!(is_protected(
            &Method::DELETE,
            "/api/site-users/account/session"
        ));
        assert!(is_protected(&Method::PATCH, "/api"));
        assert!(!is_protected(&Method::GET, "/api/track/Track"));
        assert!(!is_protected(&Method::POST, "/apiary"));
        assert!(!is_protected(&Method::POST, "/journal"));
    }

    #[test]
    fn the_crumb_cookie_is_found_among_others() {
        let mut headers = HeaderMap::new();
        headers.append(COOKIE, HeaderValue::from_static("ss_cvr=abc; crumb=AbC-_9"));
        let plain = CrumbConfig { secure: false };
        assert_eq!(crumb_cookie(&headers, plain).as_deref(), Some("AbC-_9"));
        let mut odd = HeaderMap::new();
        odd.append(COOKIE, HeaderValue::from_static("crumb=has space; other=1"));
        assert_eq!(crumb_cookie(&odd, plain), None);
        assert_eq!(crumb_cookie(&HeaderMap::new(), plain), None);
    }

    #[test]
    fn over_tls_only_the_host_prefixed_cookie_is_a_crumb() {
        let tls = CrumbConfig { secure: true };
        let mut planted = HeaderMap::new();
        planted.append(COOKIE, HeaderValue::from_static("crumb=planted"));
        assert_eq!(crumb_cookie(&planted, tls), None);
        let mut issued = HeaderMap::new();
        issued.append(
            COOKIE,
            HeaderValue::from_static("crumb=planted; __Host-crumb=mine"),
        );
        assert_eq!(crumb_cookie(&issued, tls).as_deref(), Some("mine"));
        assert_eq!(visitor_crumb(&issued), Some("mine"));
        assert_eq!(visitor_crumb(&planted), Some("planted"));
    }

    #[test]
    fn the_cookie_is_host_prefixed_and_secure_over_tls_and_plain_otherwise() {
        let mut headers = HeaderMap::new();
        set_crumb_cookie(&mut headers, "abc", CrumbConfig { secure: true });
        set_crumb_cookie(&mut headers, "def", CrumbConfig { secure: false });
        let written: Vec<&str> = headers
            .get_all(SET_COOKIE)
            .iter()
            .map(|value| value.to_str().unwrap())
            .collect();
        assert_eq!(
            written,
            [
                "__Host-crumb=abc; SameSite=Lax; Secure; Path=/",
                "crumb=def; SameSite=Lax; Path=/"
            ]
        );
    }
}
