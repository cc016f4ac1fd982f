//! The other origins a page's own blocks may load from once the visitor allows it: an embed
//! block's frame, the table-reservation widget's script and frame, the follow button's script
//! and frame. A page's
//! Content-Security-Policy names exactly these for that page, so a page without such blocks
//! keeps the strict default.

use std::collections::BTreeSet;

use vitrine_core::pages::PageView;
use vitrine_core::site::{BlockContent, FOLLOW_BUTTON_ORIGIN, RESERVATION_ORIGIN};

use super::{blocks, content_layout};

/// Origins (`https://host[:port]`) by what the page loads from them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ThirdPartySources {
    pub frames: BTreeSet<String>,
    pub scripts: BTreeSet<String>,
}

impl ThirdPartySources {
    /// What the blocks of `view` may load.
    pub fn of(view: &PageView) -> Self {
        let mut sources = Self::default();
        for block in content_layout(view)
            .into_iter()
            .flat_map(|layout| layout.blocks())
        {
            match &block.content {
                BlockContent::Embed(embed) => {
                    if let Some(origin) = blocks::frame_origin(embed) {
                        sources.frames.insert(origin.to_owned());
                    }
                }
                BlockContent::TableReservation(_) => {
                    sources.scripts.insert(RESERVATION_ORIGIN.to_owned());
                    sources.frames.insert(RESERVATION_ORIGIN.to_owned());
                }
                BlockContent::FollowButton(_) => {
                    sources.scripts.insert(FOLLOW_BUTTON_ORIGIN.to_owned());
                    sources.frames.insert(FOLLOW_BUTTON_ORIGIN.to_owned());
                }
                _ => {}
            }
        }
        sources
    }

    pub fn is_empty(&self) -> bool {
        self.frames.is_empty() && self.scripts.is_empty()
    }

    /// `policy` with these origins added to its `script-src` and its first `frame-src` (the
    /// one browsers obey), or a `frame-src` of its own when it has none.
    pub fn widen(&self, policy: &str) -> String {
        let mut policy = policy.to_owned();
        if !self.scripts.is_empty() {
            let scripts = joined(&self.scripts);
            policy = policy.replacen(
                "script-src 'self'",
                &format!("script-src 'self' {scripts}"),
                1,
            );
        }
        if !self.frames.is_empty() {
            let frames = joined(&self.frames);
            policy = if policy.contains("frame-src ") {
                policy.replacen("frame-src ", &format!("frame-src {frames} "), 1)
            } else {
                format!("{policy}; frame-src {frames}")
            };
        }
        policy
    }
}

fn joined(origins: &BTreeSet<String>) -> String {
    origins
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shared::security_headers::CONTENT_SECURITY_POLICY_VALUE;

    #[test]
    fn only_the_named_origins_are_added_to_the_strict_policy() {
        let sources = ThirdPartySources {
            frames: BTreeSet::from(["https://hours.example".to_owned()]),
            scripts: BTreeSet::from([RESERVATION_ORIGIN.to_owned()]),
        };
        let policy = sources.widen(CONTENT_SECURITY_POLICY_VALUE);
        assert!(
            policy.contains("script-src 'self' https://www.opentable.com;"),
            "{policy}"
        );
        assert!(
            policy.contains("frame-src https://hours.example https://www.youtube-nocookie.com https://player.vimeo.com;"),
            "{policy}"
        );
        assert_eq!(
            ThirdPartySources::default().widen(CONTENT_SECURITY_POLICY_VALUE),
            CONTENT_SECURITY_POLICY_VALUE
        );
        assert_eq!(
            sources.widen("default-src 'self'; script-src 'self'"),
            "default-src 'self'; script-src 'self' https://www.opentable.com; frame-src https://hours.example"
        );
    }
}
