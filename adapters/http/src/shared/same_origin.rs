//! The origin check of state-changing requests outside `/api`: the no-JavaScript forms of the
//! cart, checkout, donation, gift card, review and newsletter pages, and `/form-submission`.
//! A browser without JavaScript cannot repeat the crumb, so these routes refuse a request
//! unless the browser says it comes from a page of this site (`Sec-Fetch-Site: same-origin`,
//! or else an `Origin` matching `Host`). Every current browser sends one of them with a POST.
//! `/api` calls carry the crumb instead (`crumb.rs`).
//!
//! Decision: the newsletter's one-click unsubscribe (RFC 8058) is the one exception. Mail
//! providers send that POST from their own servers, with neither header, so a request to the
//! unsubscribe path that carries neither passes (the token in the link is the proof, as for
//! the confirmation page's button); a browser's cross-site POST to it still names its origin
//! and is refused.

use axum::extract::Request;
use axum::http::header::{CACHE_CONTROL, HOST, ORIGIN};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use vitrine_core::forms::channels::UNSUBSCRIBE_PATH;
use vitrine_core::forms::messages;

use crate::shared::request_parts::escape_html as escape;

/// The header a browser sets on every request to say where it was made.
const SEC_FETCH_SITE: &str = "sec-fetch-site";

/// The 403 to answer a cross-site state-changing request outside `/api`; `None` when the
/// request may go on.
pub(crate) fn check(request: &Request) -> Option<Response> {
    if needs_check(request.method(), request.uri().path())
        && !is_same_origin(request.headers())
        && !is_one_click_unsubscribe(request.uri().path(), request.headers())
    {
        tracing::info!(
            path = request.uri().path(),
            "refused a cross-site state-changing request"
        );
        return Some(refused());
    }
    None
}

/// Methods that change state, on paths the crumb does not cover.
fn needs_check(method: &Method, path: &str) -> bool {
    let changes_state = !matches!(
        *method,
        Method::GET | Method::HEAD | Method::OPTIONS | Method::TRACE
    );
    changes_state && !(path == "/api" || path.starts_with("/api/"))
}

/// Whether the request comes from a page of this site, by the browser's own word.
pub(crate) fn is_same_origin(headers: &HeaderMap) -> bool {
    if let Some(site) = header_text(headers, SEC_FETCH_SITE) {
        return site == "same-origin";
    }
    match (header_text(headers, HOST), header_text(headers, ORIGIN)) {
        (Some(host), Some(origin)) => url::Url::parse(origin).is_ok_and(|origin| {
            let authority = match origin.port() {
                Some(port) => format!("{}:{port}", origin.host_str().unwrap_or_default()),
                None => origin.host_str().unwrap_or_default().to_owned(),
            };
            authority.eq_ignore_ascii_case(host)
        }),
        _ => false,
    }
}

/// A mail provider's RFC 8058 one-click unsubscribe: a POST to the unsubscribe path from
/// outside any browser, so with neither `Sec-Fetch-Site` nor `Origin`.
fn is_one_click_unsubscribe(path: &str, headers: &HeaderMap) -> bool {
    path == UNSUBSCRIBE_PATH
        && !headers.contains_key(SEC_FETCH_SITE)
        && !headers.contains_key(ORIGIN)
}

fn header_text(headers: &HeaderMap, name: impl axum::http::header::AsHeaderName) -> Option<&str> {
    headers.get(name).and_then(|value| value.to_str().ok())
}

/// The refusal: a small page with the forms' message, since most of these routes answer a
/// browser's form post.
fn refused() -> Response {
    let html = format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"robots\" content=\"noindex\"><title>Form not sent</title></head>\
         <body><main class=\"form-result\"><h1>Form not sent</h1><p>{message}</p>\
         <p><a href=\"/\">Go to the home page</a></p></main></body></html>",
        message = escape(messages::UNAUTHORIZED),
    );
    (
        StatusCode::FORBIDDEN,
        [(CACHE_CONTROL, "no-store")],
        Html(html),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for (name, value) in pairs {
            headers.insert(*name, HeaderValue::from_static(value));
        }
        headers
    }

    #[test]
    fn only_state_changing_requests_outside_the_api_are_checked() {
        assert!(needs_check(&Method::POST, "/cart"));
        assert!(needs_check(&Method::POST, "/commerce/goto-checkout"));
        assert!(needs_check(&Method::DELETE, "/apiary"));
        assert!(!needs_check(&Method::GET, "/cart"));
        assert!(!needs_check(&Method::HEAD, "/checkout"));
        assert!(!needs_check(&Method::POST, "/api/commerce/cart/items"));
        assert!(!needs_check(&Method::POST, "/api"));
    }

    #[test]
    fn the_browser_says_where_a_request_comes_from() {
        assert!(is_same_origin(&headers(&[(
            "sec-fetch-site",
            "same-origin"
        )])));
        assert!(!is_same_origin(&headers(&[(
            "sec-fetch-site",
            "same-site"
        )])));
        assert!(!is_same_origin(&headers(&[(
            "sec-fetch-site",
            "cross-site"
        )])));
        assert!(!is_same_origin(&headers(&[("sec-fetch-site", "none")])));
        // Sec-Fetch-Site wins over a matching Origin.
        assert!(!is_same_origin(&headers(&[
            ("sec-fetch-site", "cross-site"),
            ("host", "shop.example"),
            ("origin", "https://shop.example"),
        ])));
        assert!(is_same_origin(&headers(&[
            ("host", "shop.example:8080"),
            ("origin", "http://shop.example:8080"),
        ])));
        assert!(!is_same_origin(&headers(&[
            ("host", "shop.example"),
            ("origin", "https://evil.example"),
        ])));
        assert!(!is_same_origin(&headers(&[("host", "shop.example")])));
    }

    #[test]
    fn only_a_headerless_post_to_the_unsubscribe_path_is_one_click() {
        assert!(is_one_click_unsubscribe(
            UNSUBSCRIBE_PATH,
            &HeaderMap::new()
        ));
        assert!(!is_one_click_unsubscribe("/cart", &HeaderMap::new()));
        assert!(!is_one_click_unsubscribe(
            UNSUBSCRIBE_PATH,
            &headers(&[("origin", "https://evil.example")])
        ));
        assert!(!is_one_click_unsubscribe(
            UNSUBSCRIBE_PATH,
            &headers(&[("sec-fetch-site", "cross-site")])
        ));
    }
}
