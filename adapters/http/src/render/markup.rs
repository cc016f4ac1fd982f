//! Text that templates place into a page without escaping, and the only ways to make it.
//!
//! Everything a template prints is HTML-escaped unless its type says it is already markup.
//! [`Markup`] is that type, and it can only be built from HTML the core has sanitised
//! ([`Markup::sanitized`]) or from JSON made safe for a `<script>` element
//! ([`Markup::script_json`]). A review of what reaches a page unescaped is a review of this file.

use std::fmt;

use serde::Serialize;
use vitrine_core::site::SafeHtml;

/// Markup that is safe to place into a page as it is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Markup(String);

impl Markup {
    /// Owner-authored rich text, which the core's [`SafeHtml`] has already cleaned.
    pub(crate) fn sanitized(html: &SafeHtml) -> Self {
        Self(html.as_str().to_owned())
    }

    /// `value` as JSON for a `<script type="application/json">` element. `<`, `>` and `&` are
    /// written as `\u003c`, `\u003e` and `\u0026`, so no text in the data can close the script
    /// element or open a comment; the line separators U+2028 and U+2029 are escaped too, so the
    /// text stays valid if a script ever embeds it in code.
    pub(crate) fn script_json(value: &impl Serialize) -> Result<Self, serde_json::Error> {
        let json = serde_json::to_string(value)?;
        let mut escaped = String::with_capacity(json.len());
        for c in json.chars() {
            match c {
                '<' => escaped.push_str("\\u003c"),
                '>' => escaped.push_str("\\u003e"),
                '&' => escaped.push_str("\\u0026"),
                '\u{2028}' => escaped.push_str("\\u2028"),
                '\u{2029}' => escaped.push_str("\\u2029"),
                other => escaped.push(other),
            }
        }
        Ok(Self(escaped))
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.trim().is_empty()
    }
}

impl fmt::Display for Markup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl askama::filters::HtmlSafe for Markup {}

/// Marks types whose `Display` is an askama template of this module (so already escaped) as
/// safe to nest in another template without escaping it a second time.
macro_rules! nested_templates {
    ($($name:ident),* $(,)?) => {
        $(impl askama::filters::HtmlSafe for $name<'_> {})*
    };
}
pub(crate) use nested_templates;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_json_cannot_close_the_script_element() {
        let markup = Markup::script_json(&serde_json::json!({
            "title": "</script><script>alert(1)</script> & <!--",
            "line": "a\u{2028}b",
        }))
        .unwrap();
        let text = markup.to_string();
        assert!(
            !text.contains('<') && !text.contains('>') && !text.contains('&'),
            "{text}"
        );
        assert_eq!(
            text,
            r#"{"line":"a\u2028b","title":"\u003c/script\u003e\u003cscript\u003ealert(1)\u003c/script\u003e \u0026 \u003c!--"}"#
        );
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back["title"], "</script><script>alert(1)</script> & <!--");
    }

    #[test]
    fn sanitized_html_is_the_cores_clean_text() {
        let html = SafeHtml::sanitize("<p>Hi<script>x()</script></p>");
        assert_eq!(Markup::sanitized(&html).to_string(), "<p>Hi</p>");
    }
}
