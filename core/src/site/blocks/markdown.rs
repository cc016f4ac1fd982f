//! The markdown block (type 44): the owner's Markdown, kept as written and turned into
//! sanitised HTML on the server whenever a page is rendered.

use pulldown_cmark::{Options, Parser, html};
use serde::{Deserialize, Serialize};

use crate::site::SafeHtml;

/// Markdown as the owner wrote it; raw HTML inside it is allowed and sanitised like any owner
/// HTML, so what reaches a page is always [`SafeHtml`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MarkdownBlock {
    pub markdown: String,
}

impl MarkdownBlock {
    /// The block's HTML: CommonMark with tables, strikethrough and smart punctuation.
    pub fn html(&self) -> SafeHtml {
        markdown_html(&self.markdown)
    }
}

/// Renders Markdown (raw HTML allowed) and sanitises the result like any owner HTML.
pub fn markdown_html(source: &str) -> SafeHtml {
    let options =
        Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_SMART_PUNCTUATION;
    let mut rendered = String::with_capacity(source.len() * 3 / 2);
    html::push_html(&mut rendered, Parser::new_ext(source, options));
    SafeHtml::sanitize(&rendered)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_becomes_sanitised_html() {
        let block = MarkdownBlock {
            markdown: "# Glazes\n\n*Fired* at 1240 °C <script>alert(1)</script>\n\n| a | b |\n|---|---|\n| 1 | 2 |".into(),
        };
        let html = block.html();
        assert!(
            html.as_str()
                .starts_with("<h1>Glazes</h1>\n<p><em>Fired</em> at 1240 °C")
        );
        assert!(!html.as_str().contains("script"));
        assert!(html.as_str().contains("<table>"));
    }
}
