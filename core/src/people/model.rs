//! The people of a site as the core sees them: site-user accounts, their sessions, the
//! single-use tokens mailed to them, and the saved session data of 001 s3.

use std::fmt;

use sha2::{Digest, Sha256};

use crate::cart::Timestamp;
use crate::checkout::PlacedBetween;
use crate::forms::validation::is_valid_email;

/// How long a session lasts with rememberMe: 30 days.
pub const REMEMBER_ME_SECONDS: i64 = 30 * 24 * 60 * 60;
/// How long a browser-session sign-in is honoured on the server when the browser never closes:
/// one day, renewed by signing in again.
pub const BROWSER_SESSION_SECONDS: i64 = 24 * 60 * 60;
/// The longest an address may be: RFC 5321's path limit.
pub const MAX_EMAIL_LENGTH: usize = 254;

/// A site user's email address: trimmed, lowercased and checked, so one person has one
/// account whatever case they type.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EmailAddress(String);

/// Why a typed address was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Please enter a valid email")]
pub struct InvalidEmail;

impl EmailAddress {
    pub fn parse(text: &str) -> Result<Self, InvalidEmail> {
        let email = text.trim().to_lowercase();
        if email.len() > MAX_EMAIL_LENGTH || !is_valid_email(&email) {
            return Err(InvalidEmail);
        }
        Ok(Self(email))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for EmailAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// An account's identifier: 32 hex characters made from randomness the caller supplies.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AccountId(String);

impl AccountId {
    pub fn from_secret(secret: &Secret) -> Self {
        Self(hex::encode(&secret.0[..16]))
    }

    /// An identifier read back from a store or a cookie; `None` unless 32 hex characters.
    pub fn parse(text: &str) -> Option<Self> {
        (text.len() == 32 && text.bytes().all(|byte| byte.is_ascii_hexdigit()))
            .then(|| Self(text.to_ascii_lowercase()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for AccountId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// 32 random bytes from the caller (the operating system in production).
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(pub [u8; 32]);

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(..)")
    }
}

/// Where the people service gets its randomness: session tokens, XSRF tokens, salts, ids.
pub trait SecretSource: Send + Sync {
    fn secret(&self) -> Secret;
}

/// A bearer token a visitor holds (the session cookie, a mailed link): 64 hex characters.
/// Stores keep only its [`TokenDigest`], so a leaked database opens no session.
#[derive(Clone, PartialEq, Eq)]
pub struct BearerToken(String);

impl fmt::Debug for BearerToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("BearerToken(..)")
    }
}

impl BearerToken {
    pub fn from_secret(secret: &Secret) -> Self {
        Self(hex::encode(secret.0))
    }

    /// A token as a visitor sent it; `None` unless 64 hex characters, so garbage never
    /// reaches a store.
    pub fn parse(text: &str) -> Option<Self> {
        (text.len() == 64 && text.bytes().all(|byte| byte.is_ascii_hexdigit()))
            .then(|| Self(text.to_ascii_lowercase()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn digest(&self) -> TokenDigest {
        TokenDigest(hex::encode(Sha256::digest(self.0.as_bytes())))
    }
}

/// The SHA-256 of a [`BearerToken`], as stores keep it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TokenDigest(String);

impl TokenDigest {
    /// A digest read back from a store.
    pub fn from_stored(text: String) -> Self {
        Self(text)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A site-user account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    pub id: AccountId,
    pub email: EmailAddress,
    /// The argon2id hash in PHC string form.
    pub password_hash: String,
    /// Set when the owner of the address followed the confirmation link.
    pub confirmed_at: Option<Timestamp>,
    pub created: Timestamp,
    /// The member areas this account may enter (their ids in the site bundle).
    pub member_areas: Vec<String>,
}

impl Account {
    pub fn is_confirmed(&self) -> bool {
        self.confirmed_at.is_some()
    }
}

/// A span of time an account held a confirmed address: the orders placed with the address
/// within it (and the gift cards sent to it) are the account's to see, export and erase.
///
/// A hold starts where the one of the account that held the address before it ended (none
/// before it: since the beginning, so the orders a guest placed before signing up are the
/// account's), and ends when the account moves away (none while it still holds it). An
/// order placed after one account left and before the next confirmed the address is the
/// next account's: nobody else can prove it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AddressHold {
    pub email: EmailAddress,
    pub placed: PlacedBetween,
    /// Whether another account has confirmed the address since this hold ended (the account
    /// of a hold still running is never superseded). The records of an address kept without
    /// a time (its newsletter subscriptions, its donations, the mails waiting to go to it)
    /// belong to its last holder only.
    pub superseded: bool,
}

impl AddressHold {
    /// Whether the account still holds the address.
    pub fn is_current(&self) -> bool {
        self.placed.until.is_none()
    }
}

/// A signed-in browser.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    pub token: TokenDigest,
    pub account: AccountId,
    /// Sent back as `X-SiteUser-XSRF-Token` on every state-changing call.
    pub xsrf_token: String,
    pub created: Timestamp,
    pub expires_at: Timestamp,
    /// rememberMe: the cookie outlives the browser session.
    pub remember_me: bool,
}

impl Session {
    pub fn is_live(&self, now: Timestamp) -> bool {
        now < self.expires_at
    }
}

/// What a mailed link lets its holder do once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenPurpose {
    ConfirmEmail,
    ResetPassword,
    /// Move the account to this address.
    ChangeEmail(EmailAddress),
}

impl TokenPurpose {
    /// The name stored beside the token.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::ConfirmEmail => "confirm_email",
            Self::ResetPassword => "reset_password",
            Self::ChangeEmail(_) => "change_email",
        }
    }

    /// The purpose read back from its stored name and address.
    pub fn from_stored(kind: &str, new_email: Option<&str>) -> Option<Self> {
        match (kind, new_email) {
            ("confirm_email", _) => Some(Self::ConfirmEmail),
            ("reset_password", _) => Some(Self::ResetPassword),
            ("change_email", Some(email)) => EmailAddress::parse(email).ok().map(Self::ChangeEmail),
            _ => None,
        }
    }

    pub fn new_email(&self) -> Option<&EmailAddress> {
        match self {
            Self::ChangeEmail(email) => Some(email),
            _ => None,
        }
    }
}

/// A single-use token sent by mail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountToken {
    pub token: TokenDigest,
    pub account: AccountId,
    pub purpose: TokenPurpose,
    pub expires_at: Timestamp,
}

/// Saved session data (001 s3): a value plus an optional expiry time. Past its expiry it is
/// removed and treated as absent (001 s8).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedSessionData {
    pub value: String,
    pub expires_at: Option<Timestamp>,
}

impl SavedSessionData {
    pub fn is_live(&self, now: Timestamp) -> bool {
        self.expires_at.is_none_or(|expiry| now < expiry)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_compared_without_case_or_surrounding_space() {
        assert_eq!(
            EmailAddress::parse("  Ada@Example.COM ").unwrap().as_str(),
            "ada@example.com"
        );
        assert_eq!(EmailAddress::parse("not an address"), Err(InvalidEmail));
        assert_eq!(
            EmailAddress::parse(&format!("{}@example.com", "a".repeat(250))),
            Err(InvalidEmail)
        );
    }

    #[test]
    fn tokens_from_visitors_must_have_the_issued_shape() {
        let token = BearerToken::from_secret(&Secret([7; 32]));
        assert_eq!(BearerToken::parse(token.as_str()), Some(token.clone()));
        assert_eq!(BearerToken::parse("short"), None);
        assert_eq!(BearerToken::parse(&"z".repeat(64)), None);
        assert_ne!(token.digest().as_str(), token.as_str());
    }

    #[test]
    fn saved_data_without_expiry_lives_on_and_with_one_ends_at_it() {
        let forever = SavedSessionData {
            value: "a".into(),
            expires_at: None,
        };
        assert!(forever.is_live(Timestamp(i64::MAX)));
        let until = SavedSessionData {
            value: "a".into(),
            expires_at: Some(Timestamp(10)),
        };
        assert!(until.is_live(Timestamp(9)));
        assert!(!until.is_live(Timestamp(10)));
    }
}
