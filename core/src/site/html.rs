//! Owner-authored rich text, cleaned once so that it can be placed into a page unescaped.

use serde::{Deserialize, Serialize};

/// HTML that has passed the allow-list sanitiser: no scripts, no event-handler attributes,
/// no `javascript:` URLs, no inline styles (the pages' Content-Security-Policy forbids them).
///
/// Constructing one always sanitises, including when read back from storage, so HTML that
/// was written to a database by other means still cannot reach a page unsanitised.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
pub struct SafeHtml(String);

impl SafeHtml {
    pub fn sanitize(raw: &str) -> Self {
        let cleaned = ammonia::Builder::default()
            .add_generic_attributes(["id", "class"])
            .link_rel(Some("noopener noreferrer"))
            .clean(raw)
            .to_string();
        Self(cleaned)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The text without tags, for meta descriptions and excerpts.
    pub fn plain_text(&self) -> String {
        let stripped = ammonia::Builder::empty().clean(&self.0).to_string();
        let decoded = stripped
            .replace("&nbsp;", " ")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&amp;", "&");
        decoded.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    pub fn is_empty(&self) -> bool {
        self.0.trim().is_empty()
    }
}

impl From<String> for SafeHtml {
    fn from(raw: String) -> Self {
        Self::sanitize(&raw)
    }
}

impl From<SafeHtml> for String {
    fn from(html: SafeHtml) -> String {
        html.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_handlers_and_javascript_urls_are_removed() {
        let html = SafeHtml::sanitize(
            r#"<p onclick="steal()">Hi <a href="javascript:alert(1)">x</a><script>bad()</script><strong style="color:red">there</strong></p>"#,
        );
        assert_eq!(
            html.as_str(),
            "<p>Hi <a rel=\"noopener noreferrer\">x</a><strong>there</strong></p>"
        );
    }

    #[test]
    fn plain_text_collapses_whitespace_and_decodes_entities() {
        let html = SafeHtml::sanitize("<h2>Fish &amp; chips</h2>\n<p>  fresh   daily</p>");
        assert_eq!(html.plain_text(), "Fish & chips fresh daily");
    }
}
