//! Small readings of a request and writings of a response that several handlers share: one
//! cookie parser (the `cookie` crate's), one comparison of secrets and one HTML text escape,
//! so their rules cannot drift apart.

use axum::http::HeaderMap;
use axum::http::header::COOKIE;

/// The value of the cookie `name`, trimmed, when the request carries it.
pub(crate) fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    cookie_pairs(headers)
        .find(|(found, _)| *found == name)
        .map(|(_, value)| value)
}

/// Every cookie of the request as trimmed name and value pairs, in the order sent; pairs the
/// parser refuses (no `=`, an empty name) are skipped.
pub(crate) fn cookie_pairs(headers: &HeaderMap) -> impl Iterator<Item = (&str, &str)> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(cookie::Cookie::split_parse)
        .filter_map(Result::ok)
        .filter_map(|cookie| Some((cookie.name_raw()?, cookie.value_raw()?)))
}

/// Whether a secret a caller gave equals the expected one, compared in constant time (the
/// `subtle` crate), so the time taken does not tell how much of a guess was right. The length
/// is not secret.
pub(crate) fn same_secret(given: &[u8], expected: &[u8]) -> bool {
    use subtle::ConstantTimeEq;
    given.ct_eq(expected).into()
}

/// Whether the request brings any of the tracking cookies (000 s9), which its answer may have to
/// expire.
pub(crate) fn carries_tracking_cookie(headers: &HeaderMap) -> bool {
    cookie_pairs(headers).any(|(name, _)| vitrine_core::consent::TRACKING_COOKIES.contains(&name))
}

/// The cookies of a request, as owned name and value pairs.
pub(crate) fn request_cookies(headers: &HeaderMap) -> Vec<(String, String)> {
    cookie_pairs(headers)
        .map(|(name, value)| (name.to_owned(), value.to_owned()))
        .collect()
}

/// True when the request carries `Sec-GPC: 1` (Global Privacy Control).
pub(crate) fn sends_gpc(headers: &HeaderMap) -> bool {
    headers
        .get("sec-gpc")
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.trim() == "1")
}

/// Text made safe to place in HTML content or a quoted attribute, for the few small pages
/// written without templates.
pub(crate) fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    #[test]
    fn cookies_are_found_across_headers_and_trimmed() {
        let mut headers = HeaderMap::new();
        headers.append(COOKIE, HeaderValue::from_static("a=1; crumb = xyz "));
        headers.append(COOKIE, HeaderValue::from_static("vitrine_cart=abc"));
        assert_eq!(cookie(&headers, "crumb"), Some("xyz"));
        assert_eq!(cookie(&headers, "vitrine_cart"), Some("abc"));
        assert_eq!(cookie(&headers, "missing"), None);
        assert_eq!(cookie_pairs(&headers).count(), 3);
    }

    #[test]
    fn malformed_pairs_are_skipped_and_the_rest_still_read() {
        let mut headers = HeaderMap::new();
        headers.append(
            COOKIE,
            HeaderValue::from_static("novalue; =anon; ; crumb=abc"),
        );
        assert_eq!(cookie(&headers, "crumb"), Some("abc"));
        assert_eq!(cookie(&headers, "novalue"), None);
        assert_eq!(cookie(&headers, ""), None);
    }

    #[test]
    fn secrets_match_only_byte_for_byte() {
        assert!(same_secret(b"abc", b"abc"));
        assert!(!same_secret(b"abc", b"abd"));
        assert!(!same_secret(b"abc", b"ab"));
        assert!(!same_secret(b"", b"a"));
    }

    #[test]
    fn markup_characters_are_escaped() {
        assert_eq!(
            escape_html(r#"<a href="x">Tom & 'Jerry'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;"
        );
    }
}
