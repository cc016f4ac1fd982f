//! The site's header and footer as the owner sets them (001 s3 "Header and footer", 001 s7
//! `GET`/`PUT /api/site-header-footer`): owner HTML shown at the top and bottom of every page,
//! cleaned by the allow-list sanitiser and bounded in size, with the port that keeps it.
//!
//! Until the owner sets them, the header is empty and the footer is the site's footer text
//! from its settings, so a site imported from a bundle looks as it always did.

#[cfg(any(test, feature = "test-support"))]
pub mod conformance;
mod memory;

pub use memory::MemoryHeaderFooterStore;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use crate::ports::RepositoryError;
use crate::site::SafeHtml;

/// The most bytes the owner's HTML of the header, or of the footer, may have before it is
/// cleaned: far above a menu bar and a few paragraphs, far below what would slow every page.
pub const MAX_HEADER_FOOTER_BYTES: usize = 16 * 1024;

/// Which of the two a problem is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeaderFooterPart {
    Header,
    Footer,
}

impl HeaderFooterPart {
    pub const fn name(self) -> &'static str {
        match self {
            Self::Header => "header",
            Self::Footer => "footer",
        }
    }
}

/// Why owner HTML cannot become the site's header and footer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HeaderFooterError {
    #[error("The {} is {size} bytes; it may have at most {MAX_HEADER_FOOTER_BYTES} bytes.", part.name())]
    TooLarge { part: HeaderFooterPart, size: usize },
}

/// The header and footer every page shows, both cleaned owner HTML.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct HeaderFooter {
    pub header: SafeHtml,
    pub footer: SafeHtml,
}

impl HeaderFooter {
    /// The owner's `header` and `footer` HTML, refused when either is too large, then cleaned:
    /// scripts, event handlers, styles and `javascript:` links are removed, as in rich text.
    pub fn new(header: &str, footer: &str) -> Result<Self, HeaderFooterError> {
        for (part, html) in [
            (HeaderFooterPart::Header, header),
            (HeaderFooterPart::Footer, footer),
        ] {
            if html.len() > MAX_HEADER_FOOTER_BYTES {
                return Err(HeaderFooterError::TooLarge {
                    part,
                    size: html.len(),
                });
            }
        }
        Ok(Self {
            header: SafeHtml::sanitize(header),
            footer: SafeHtml::sanitize(footer),
        })
    }

    /// What a site shows before its owner sets a header and footer: no header content, and
    /// the footer text of its settings (`footer_text`) as a paragraph.
    pub fn from_footer_text(text: &str) -> Self {
        let text = text.trim();
        let footer = if text.is_empty() {
            SafeHtml::default()
        } else {
            SafeHtml::sanitize(&format!("<p>{}</p>", ammonia::clean_text(text)))
        };
        Self {
            header: SafeHtml::default(),
            footer,
        }
    }
}

/// Where the owner's header and footer are kept. They outlive site imports: a new bundle
/// replaces content, not the owner's chrome.
#[async_trait]
pub trait HeaderFooterStore: Send + Sync {
    /// The header and footer the owner set last; `None` before the first time.
    async fn header_footer(&self) -> Result<Option<HeaderFooter>, RepositoryError>;

    /// Replaces them. A store shared by several servers also moves the site revision on, so
    /// every server's page cache renders again.
    async fn replace_header_footer(&self, value: &HeaderFooter) -> Result<(), RepositoryError>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owner_html_is_cleaned() {
        let chosen = HeaderFooter::new(
            r#"<p onclick="x()">Free shipping<script>bad()</script></p>"#,
            r#"<a href="javascript:alert(1)">Contact</a>"#,
        )
        .unwrap();
        assert_eq!(chosen.header.as_str(), "<p>Free shipping</p>");
        assert_eq!(
            chosen.footer.as_str(),
            "<a rel=\"noopener noreferrer\">Contact</a>"
        );
    }

    #[test]
    fn html_above_the_limit_is_refused_with_its_size() {
        let long = "a".repeat(MAX_HEADER_FOOTER_BYTES + 1);
        let error = HeaderFooter::new("", &long).unwrap_err();
        assert_eq!(
            error.to_string(),
            "The footer is 16385 bytes; it may have at most 16384 bytes."
        );
        assert!(HeaderFooter::new(&long[1..], "").is_ok());
    }

    #[test]
    fn the_default_footer_is_the_settings_text_escaped() {
        let default = HeaderFooter::from_footer_text(" Fish & <chips> ");
        assert!(default.header.is_empty());
        assert!(HeaderFooter::from_footer_text("  ").footer.is_empty());
        assert_eq!(default.footer.as_str(), "<p>Fish &amp; &lt;chips&gt;</p>");
    }
}
