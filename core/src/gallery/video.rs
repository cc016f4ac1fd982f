//! Video embeds (spec 001 s3 "Image and video elements", s4 "Video", s8): which provider's
//! player a video URL stands for, and the privacy-enhanced player address the page loads
//! only once the visitor presses play. A URL that is no embeddable video is an invalid embed.

use serde::Serialize;

/// The two providers whose players take play and pause by `postMessage`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum VideoProvider {
    YouTube,
    Vimeo,
}

/// How a shown video fits its frame (001 s4-s5): fit shows all of it, fill covers the frame,
/// none keeps the player's own size.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VideoMode {
    None,
    #[default]
    Fit,
    Fill,
}

impl VideoMode {
    pub fn name(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Fit => "fit",
            Self::Fill => "fill",
        }
    }
}

/// A video the page can embed: its provider and the provider's id for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VideoEmbed {
    pub provider: VideoProvider,
    pub id: String,
}

/// The spec's text for a custom thumbnail on a video that cannot be embedded (001 s8).
pub const CUSTOM_THUMBNAIL_NEEDS_EMBED: &str = "Custom featured images only available with embedded videos; go back into embed settings to turn off featured images.";
/// The spec's text for a Vimeo player that refuses to be controlled (001 s5).
pub const VIMEO_BASIC_UNSUPPORTED: &str = "Vimeo Basic accounts are unsupported.";

impl VideoEmbed {
    /// Reads a YouTube (`watch?v=`, `youtu.be/`, `embed/`, `shorts/`) or Vimeo (`vimeo.com/ID`,
    /// `player.vimeo.com/video/ID`) address over https. Anything else is not embeddable.
    pub fn from_url(url: &str) -> Option<Self> {
        let rest = url.trim().strip_prefix("https://")?;
        let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
        let host = host.trim_start_matches("www.").trim_start_matches("m.");
        let (path, query) = path.split_once('?').unwrap_or((path, ""));
        let path = path.split('#').next().unwrap_or_default();
        let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
        let (provider, id) = match (host, segments.as_slice()) {
            ("youtube.com" | "youtube-nocookie.com", ["watch"]) => (
                VideoProvider::YouTube,
                query
                    .split('&')
                    .find_map(|pair| pair.strip_prefix("v="))?
                    .to_owned(),
            ),
            ("youtube.com" | "youtube-nocookie.com", ["embed" | "shorts" | "live", id]) => {
                (VideoProvider::YouTube, (*id).to_owned())
            }
            ("youtu.be", [id]) => (VideoProvider::YouTube, (*id).to_owned()),
            ("vimeo.com", [id]) => (VideoProvider::Vimeo, (*id).to_owned()),
            ("player.vimeo.com", ["video", id]) => (VideoProvider::Vimeo, (*id).to_owned()),
            _ => return None,
        };
        let valid = match provider {
            VideoProvider::YouTube => {
                (6..=20).contains(&id.len())
                    && id
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            }
            VideoProvider::Vimeo => {
                (1..=12).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_digit())
            }
        };
        valid.then_some(Self { provider, id })
    }

    /// The player's address on the provider's privacy-enhanced host, set to start at once
    /// (the visitor has pressed play) and to take commands by `postMessage`.
    pub fn player_url(&self) -> String {
        match self.provider {
            VideoProvider::YouTube => format!(
                "https://www.youtube-nocookie.com/embed/{}?autoplay=1&enablejsapi=1&rel=0&playsinline=1",
                self.id
            ),
            VideoProvider::Vimeo => format!(
                "https://player.vimeo.com/video/{}?autoplay=1&dnt=1&api=1&playsinline=1",
                self.id
            ),
        }
    }

    pub fn provider_name(&self) -> &'static str {
        match self.provider {
            VideoProvider::YouTube => "YouTube",
            VideoProvider::Vimeo => "Vimeo",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn provider_addresses_become_privacy_enhanced_players() {
        let cases = [
            (
                "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=3",
                "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1&enablejsapi=1&rel=0&playsinline=1",
            ),
            (
                "https://youtu.be/dQw4w9WgXcQ",
                "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1&enablejsapi=1&rel=0&playsinline=1",
            ),
            (
                "https://vimeo.com/76979871",
                "https://player.vimeo.com/video/76979871?autoplay=1&dnt=1&api=1&playsinline=1",
            ),
            (
                "https://player.vimeo.com/video/76979871",
                "https://player.vimeo.com/video/76979871?autoplay=1&dnt=1&api=1&playsinline=1",
            ),
        ];
        for (url, player) in cases {
            assert_eq!(
                VideoEmbed::from_url(url).map(|e| e.player_url()).as_deref(),
                Some(player),
                "{url}"
            );
        }
    }

    #[test]
    fn other_addresses_are_invalid_embeds() {
        for url in [
            "http://youtu.be/dQw4w9WgXcQ",
            "https://example.com/video.mp4",
            "https://vimeo.com/channels/staffpicks",
            "https://www.youtube.com/watch?list=x",
            "https://youtu.be/<script>",
        ] {
            assert_eq!(VideoEmbed::from_url(url), None, "{url}");
        }
    }
}
