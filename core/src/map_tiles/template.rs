//! The tile server an owner configures: an OpenStreetMap-style URL template such as
//! `https://tile.example.org/{z}/{x}/{y}.png` and the attribution its tiles must carry.

use sha2::{Digest, Sha256};
use thiserror::Error;

use super::TileCoordinate;

/// Why a tile server setting is refused. The texts name the setting, as a server's start
/// reports them.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TileServerError {
    #[error("the tile URL must start with http:// or https://, found {0:?}")]
    Scheme(String),
    #[error("the tile URL must name a host before its path, found {0:?}")]
    Host(String),
    #[error("the tile URL must contain each of {{z}}, {{x}} and {{y}} once, found {0:?}")]
    Placeholders(String),
    #[error(
        "the tile URL may contain only the placeholders {{z}}, {{x}} and {{y}}, found {found:?}"
    )]
    UnknownPlaceholder { found: String },
    #[error("the tile URL cannot contain spaces, quotes or control characters")]
    Character,
    #[error("the tile attribution is plain text of at most 200 characters on one line")]
    Attribution,
}

/// An OpenStreetMap-style tile URL template: http(s), a fixed host (so a page's
/// Content-Security-Policy can name it), and `{z}`, `{x}`, `{y}` once each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TileUrlTemplate(String);

impl TileUrlTemplate {
    pub fn parse(raw: &str) -> Result<Self, TileServerError> {
        let template = raw.trim();
        if template.chars().any(|c| {
            c.is_control() || c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '>' | '\\')
        }) {
            return Err(TileServerError::Character);
        }
        let lower = template.to_ascii_lowercase();
        let Some(rest) = lower
            .strip_prefix("https://")
            .or_else(|| lower.strip_prefix("http://"))
        else {
            return Err(TileServerError::Scheme(template.to_owned()));
        };
        let host = rest.split('/').next().unwrap_or("");
        if host.is_empty() || host.contains(['{', '}', '@', '?', '#']) || !rest.contains('/') {
            return Err(TileServerError::Host(template.to_owned()));
        }
        for placeholder in ["{z}", "{x}", "{y}"] {
            if template.matches(placeholder).count() != 1 {
                return Err(TileServerError::Placeholders(template.to_owned()));
            }
        }
        let leftover = template
            .replace("{z}", "")
            .replace("{x}", "")
            .replace("{y}", "");
        if let Some(start) = leftover.find('{') {
            let found = leftover[start..]
                .split_inclusive('}')
                .next()
                .unwrap_or("{")
                .to_owned();
            return Err(TileServerError::UnknownPlaceholder { found });
        }
        if leftover.contains('}') {
            return Err(TileServerError::UnknownPlaceholder {
                found: "}".to_owned(),
            });
        }
        Ok(Self(template.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The URL of one tile.
    pub fn url(&self, tile: TileCoordinate) -> String {
        self.0
            .replace("{z}", &tile.z.to_string())
            .replace("{x}", &tile.x.to_string())
            .replace("{y}", &tile.y.to_string())
    }

    /// `scheme://host[:port]`, what a Content-Security-Policy names to allow the tiles.
    pub fn origin(&self) -> &str {
        let after_scheme = self.0.find("://").map_or(0, |at| at + 3);
        let end = self.0[after_scheme..]
            .find('/')
            .map_or(self.0.len(), |at| after_scheme + at);
        &self.0[..end]
    }

    /// The host (with its port, if any), as a visitor is told where loading the map connects.
    pub fn host(&self) -> &str {
        let origin = self.origin();
        origin.find("://").map_or(origin, |at| &origin[at + 3..])
    }
}

/// The tile server of a site's maps: where tiles come from and the credit they must carry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TileServer {
    template: TileUrlTemplate,
    attribution: String,
}

impl TileServer {
    /// The longest attribution accepted, in characters.
    pub const MAX_ATTRIBUTION_CHARS: usize = 200;
    /// Bumped when the static map's drawing changes, so images drawn before are not reused.
    const DRAWING_VERSION: &'static str = "1";

    /// A tile server from its template and attribution; an empty attribution credits the
    /// tile host by name, since every public tile server asks to be credited.
    pub fn new(template: TileUrlTemplate, attribution: &str) -> Result<Self, TileServerError> {
        let attribution = attribution.trim();
        if attribution.chars().count() > Self::MAX_ATTRIBUTION_CHARS
            || attribution.chars().any(char::is_control)
        {
            return Err(TileServerError::Attribution);
        }
        let attribution = if attribution.is_empty() {
            format!("Map tiles from {}", template.host())
        } else {
            attribution.to_owned()
        };
        Ok(Self {
            template,
            attribution,
        })
    }

    pub fn template(&self) -> &TileUrlTemplate {
        &self.template
    }

    pub fn attribution(&self) -> &str {
        &self.attribution
    }

    /// A short hash of the template and the drawing: static map URLs carry it, so a change
    /// of tile server gives new URLs and browsers may keep an image for a year.
    pub fn fingerprint(&self) -> String {
        let digest = Sha256::new()
            .chain_update(self.template.as_str())
            .chain_update("\n")
            .chain_update(Self::DRAWING_VERSION)
            .finalize();
        hex::encode(&digest[..6])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_openstreetmap_template_fills_its_placeholders() {
        let template =
            TileUrlTemplate::parse(" https://tile.example.org/{z}/{x}/{y}.png ").unwrap();
        let tile = TileCoordinate::new(12, 1205, 1539).unwrap();
        assert_eq!(
            template.url(tile),
            "https://tile.example.org/12/1205/1539.png"
        );
        assert_eq!(template.origin(), "https://tile.example.org");
        assert_eq!(template.host(), "tile.example.org");
    }

    #[test]
    fn a_port_belongs_to_the_origin() {
        let template = TileUrlTemplate::parse("http://127.0.0.1:5105/tiles/{z}/{y}/{x}").unwrap();
        assert_eq!(template.origin(), "http://127.0.0.1:5105");
        assert_eq!(template.host(), "127.0.0.1:5105");
    }

    #[test]
    fn unusable_templates_are_refused_with_the_reason() {
        let cases = [
            (
                "ftp://tiles/{z}/{x}/{y}",
                "must start with http:// or https://",
            ),
            ("https:///{z}/{x}/{y}", "must name a host"),
            ("https://{s}.tile.example/{z}/{x}/{y}", "must name a host"),
            (
                "https://tile.example/{z}/{x}.png",
                "each of {z}, {x} and {y} once",
            ),
            (
                "https://tile.example/{z}/{x}/{y}/{y}",
                "each of {z}, {x} and {y} once",
            ),
            ("https://tile.example/{z}/{x}/{y}{r}.png", "found \"{r}\""),
            (
                "https://tile.example/{z}/{x}/{y}.png?a=\"b",
                "spaces, quotes",
            ),
        ];
        for (raw, expected) in cases {
            let error = TileUrlTemplate::parse(raw).unwrap_err().to_string();
            assert!(error.contains(expected), "{raw}: {error}");
        }
    }

    #[test]
    fn an_empty_attribution_credits_the_tile_host() {
        let template = TileUrlTemplate::parse("https://tile.example.org/{z}/{x}/{y}.png").unwrap();
        let server = TileServer::new(template.clone(), " ").unwrap();
        assert_eq!(server.attribution(), "Map tiles from tile.example.org");
        let credited = TileServer::new(template, "© OpenStreetMap contributors").unwrap();
        assert_eq!(credited.attribution(), "© OpenStreetMap contributors");
        assert_eq!(credited.fingerprint(), server.fingerprint());
        assert_eq!(server.fingerprint().len(), 12);
    }

    #[test]
    fn an_attribution_is_one_short_line() {
        let template = TileUrlTemplate::parse("https://tile.example.org/{z}/{x}/{y}.png").unwrap();
        assert_eq!(
            TileServer::new(template.clone(), "a\nb").unwrap_err(),
            TileServerError::Attribution
        );
        assert_eq!(
            TileServer::new(template, &"a".repeat(201)).unwrap_err(),
            TileServerError::Attribution
        );
    }
}
