//! The embed block (type 22): another page shown in a sandboxed frame. A page of this site is
//! framed at once; a third party's page only after the visitor asks for it (click to load),
//! and a non-essential one only once the visitor has accepted cookies, since loading it lets
//! the third party see the visit.

use serde::{Deserialize, Serialize};

/// The lowest and highest frame height in CSS pixels.
pub const EMBED_HEIGHTS: std::ops::RangeInclusive<u16> = 150..=1200;
/// The frame height when the bundle sets none.
pub const DEFAULT_EMBED_HEIGHT: u16 = 400;

/// An embed block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EmbedBlock {
    /// An `https://` URL, or a path of this site starting with `/`.
    pub url: String,
    /// The frame's accessible name, also shown on the click-to-load placeholder.
    pub title: String,
    /// The frame's height in CSS pixels, one of [`EMBED_HEIGHTS`].
    pub height: u16,
    /// The owner's word that the embedded service is needed for the site to work (a booking
    /// form, say), so it does not wait for cookie consent; it still waits for a click.
    pub essential: bool,
}

/// Where an embed's page comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EmbedSource<'a> {
    /// A path of this site.
    FirstParty,
    /// Another origin, `https://host[:port]`, as a Content-Security-Policy names it.
    ThirdParty { origin: &'a str, host: &'a str },
}

/// Why an embed block was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EmbedBlockError {
    #[error("expected an https:// URL or a site path starting with '/', found '{0}'")]
    Url(String),
    #[error("expected a height from 150 to 1200 pixels, found {0}")]
    Height(u16),
    #[error("the frame needs a title that says what it shows")]
    MissingTitle,
}

impl EmbedBlock {
    pub fn check(&self) -> Result<(), EmbedBlockError> {
        if self.title.trim().is_empty() {
            return Err(EmbedBlockError::MissingTitle);
        }
        if !EMBED_HEIGHTS.contains(&self.height) {
            return Err(EmbedBlockError::Height(self.height));
        }
        self.source().map(|_| ())
    }

    /// Where the framed page comes from; an URL that is neither a site path nor a plain
    /// `https://` address is an error.
    pub fn source(&self) -> Result<EmbedSource<'_>, EmbedBlockError> {
        let url = self.url.as_str();
        let refuse = || EmbedBlockError::Url(url.to_owned());
        if url
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '"' | '<' | '>' | '\\'))
        {
            return Err(refuse());
        }
        if url.starts_with('/') {
            // `//host` is another origin written without its scheme.
            return if url.starts_with("//") {
                Err(refuse())
            } else {
                Ok(EmbedSource::FirstParty)
            };
        }
        let rest = url.strip_prefix("https://").ok_or_else(refuse)?;
        let authority_len = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let authority = &rest[..authority_len];
        let host = authority
            .split_once(':')
            .map_or(authority, |(host, _)| host);
        let valid_host = !host.is_empty()
            && !authority.contains('@')
            && host
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-'));
        if !valid_host {
            return Err(refuse());
        }
        let origin = &url[..("https://".len() + authority_len)];
        Ok(EmbedSource::ThirdParty { origin, host })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn embed(url: &str) -> EmbedBlock {
        EmbedBlock {
            url: url.to_owned(),
            title: "Opening hours".to_owned(),
            height: DEFAULT_EMBED_HEIGHT,
            essential: false,
        }
    }

    #[test]
    fn site_paths_are_first_party_and_https_urls_name_their_origin() {
        assert_eq!(
            embed("/opening-hours").source(),
            Ok(EmbedSource::FirstParty)
        );
        assert_eq!(
            embed("https://calendar.example:8443/embed?week=1").source(),
            Ok(EmbedSource::ThirdParty {
                origin: "https://calendar.example:8443",
                host: "calendar.example"
            })
        );
    }

    #[test]
    fn other_schemes_and_tricky_addresses_are_refused() {
        for url in [
            "http://calendar.example/",
            "javascript:alert(1)",
            "//calendar.example/",
            "https://user@calendar.example/",
            "https:///path",
            "https://calendar.example/a b",
            "https://calendar.example/\"onload=",
        ] {
            assert_eq!(
                embed(url).check(),
                Err(EmbedBlockError::Url(url.to_owned())),
                "{url}"
            );
        }
    }

    #[test]
    fn a_frame_needs_a_title_and_a_sensible_height() {
        let mut block = embed("/opening-hours");
        block.height = 100;
        assert_eq!(
            block.check().unwrap_err().to_string(),
            "expected a height from 150 to 1200 pixels, found 100"
        );
        block.height = 400;
        block.title = " ".to_owned();
        assert_eq!(block.check(), Err(EmbedBlockError::MissingTitle));
    }
}
