//! The follow button block: a first-party link to the account's page, styled as a button, which
//! works for everyone and contacts nobody until it is followed. The follow island loads the
//! platform's script in its place only after the visitor accepted cookies, and keeps the link
//! when that script fails or takes longer than 10 s (001 s7).

use askama::Template;
use serde::Serialize;
use vitrine_core::site::{
    FOLLOW_BUTTON_SCRIPT, FOLLOW_BUTTON_SCRIPT_TIMEOUT_MS, FollowButtonBlock,
};

#[derive(Debug, Template)]
#[template(path = "blocks/follow_button.html", whitespace = "minimize")]
pub(crate) struct FollowButtonView<'a> {
    pub(crate) username: &'a str,
    pub(crate) profile_url: String,
}

/// The follow island's props: the platform's script and how long it may take.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct FollowButtonProps {
    script: &'static str,
    timeout_ms: u32,
}

impl<'a> FollowButtonView<'a> {
    pub(crate) fn new(block: &'a FollowButtonBlock) -> Self {
        Self {
            username: &block.username,
            profile_url: block.profile_url(),
        }
    }

    pub(crate) fn props() -> FollowButtonProps {
        FollowButtonProps {
            script: FOLLOW_BUTTON_SCRIPT,
            timeout_ms: FOLLOW_BUTTON_SCRIPT_TIMEOUT_MS,
        }
    }
}
