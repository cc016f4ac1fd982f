//! Where a form sends the visitor after a successful submission (000 s4: "or redirects to the
//! success URL").
//!
//! Decision: a success URL is either a path on this site (`/thanks`, with its query and
//! fragment) or an absolute `http://` or `https://` URL (an owner may send visitors to a
//! booking page elsewhere). Anything else (`javascript:`, `data:`, protocol-relative `//host`,
//! backslashes that browsers read as slashes, spaces or control characters) is refused when a
//! bundle is imported and ignored if it reaches a page anyway. The URL is the owner's, never
//! the visitor's, so this is no open redirect.

/// The success URL to use, when `text` is an acceptable one.
pub fn success_url(text: &str) -> Option<&str> {
    let url = text.trim();
    if url.is_empty()
        || url
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || c == '\\')
    {
        return None;
    }
    if let Some(rest) = url.strip_prefix('/') {
        return (!rest.starts_with('/')).then_some(url);
    }
    let lower = url.to_ascii_lowercase();
    let rest = lower
        .strip_prefix("https://")
        .or_else(|| lower.strip_prefix("http://"))?;
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    (!host.is_empty() && !host.starts_with('@')).then_some(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn site_paths_and_web_urls_are_accepted() {
        for url in [
            "/thanks",
            "/thanks?from=contact#top",
            "/",
            "https://booking.example/ada",
            "HTTP://shop.example",
            "  /padded  ",
        ] {
            assert_eq!(success_url(url), Some(url.trim()), "{url}");
        }
    }

    #[test]
    fn scripts_other_schemes_and_lookalikes_are_refused() {
        for url in [
            "",
            "javascript:alert(1)",
            "JavaScript:alert(1)",
            "data:text/html,hi",
            "//evil.example",
            "/\\evil.example",
            "https:///path",
            "https://",
            "ftp://files.example",
            "thanks",
            "/th anks",
            "https://@evil.example",
            "mailto:owner@example.com",
        ] {
            assert_eq!(success_url(url), None, "{url}");
        }
    }
}
