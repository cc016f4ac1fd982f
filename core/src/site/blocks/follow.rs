//! The follow button block (001 s2, s3, s7): a button to follow the site's account on X. Until
//! the visitor accepts cookies, and whenever the platform's script fails, it is a first-party
//! link to the account's page; once cookies are accepted the platform's script (10 s time-out)
//! draws the platform's own button in its place.

use serde::{Deserialize, Serialize};

/// The platform's origin: its follow-button script and the frame that script draws come from
/// there, so a page with the block allows exactly this origin.
pub const FOLLOW_BUTTON_ORIGIN: &str = "https://platform.twitter.com";
/// The platform's script, which turns the block's link into its follow button.
pub const FOLLOW_BUTTON_SCRIPT: &str = "https://platform.twitter.com/widgets.js";
/// 001 s7: the follow button's script gives up after 10 s; the link then stays.
pub const FOLLOW_BUTTON_SCRIPT_TIMEOUT_MS: u32 = 10_000;
/// The platform's longest username.
const MAX_USERNAME_CHARS: usize = 15;

/// 001 s3: the follow button's username (its default, empty, is refused: a button must name
/// whom it follows).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FollowButtonBlock {
    pub username: String,
}

/// Why a follow button block was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FollowButtonError {
    #[error(
        "expected a username of 1 to 15 letters, digits or underscores (without the @), found '{0}'"
    )]
    Username(String),
}

impl FollowButtonBlock {
    pub fn check(&self) -> Result<(), FollowButtonError> {
        let name = &self.username;
        let valid = !name.is_empty()
            && name.chars().count() <= MAX_USERNAME_CHARS
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if valid {
            Ok(())
        } else {
            Err(FollowButtonError::Username(name.clone()))
        }
    }

    /// The account's page at the platform: the link everyone gets, and the address the
    /// platform's script reads the account from.
    pub fn profile_url(&self) -> String {
        format!("https://twitter.com/{}", self.username)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(username: &str) -> FollowButtonBlock {
        FollowButtonBlock {
            username: username.to_owned(),
        }
    }

    #[test]
    fn a_username_is_1_to_15_letters_digits_or_underscores() {
        for good in ["a", "clay_and_co", "Terraluz2026", "fifteen_chars_x"] {
            assert_eq!(named(good).check(), Ok(()), "{good}");
        }
        for bad in [
            "",
            "@clay",
            "clay and co",
            "sixteen_chars_xx",
            "argila-azul",
            "ção",
        ] {
            assert_eq!(
                named(bad).check(),
                Err(FollowButtonError::Username(bad.to_owned())),
                "{bad}"
            );
        }
    }

    #[test]
    fn the_link_is_the_account_page_the_script_reads() {
        assert_eq!(
            named("terraluz").profile_url(),
            "https://twitter.com/terraluz"
        );
        assert!(FOLLOW_BUTTON_SCRIPT.starts_with(FOLLOW_BUTTON_ORIGIN));
    }
}
