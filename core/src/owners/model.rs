//! The owner area's records: owner and contributor accounts with their role, the one-time
//! setup links that set a password, signed-in owner sessions and the API keys scripts use.
//! Identifiers, tokens, addresses and hashes are the site users' types (`people/`), so both
//! kinds of account are made and checked the same way.

use crate::cart::Timestamp;
use crate::enums::{ContributorRole, PermissionCode};
use crate::people::{AccountId, EmailAddress, TokenDigest};

/// How long an owner session lasts: a working day. Signing in again starts a new one.
pub const OWNER_SESSION_SECONDS: i64 = 12 * 60 * 60;
/// How long a setup link printed by the command line works.
pub const SETUP_LINK_SECONDS: i64 = 24 * 60 * 60;
/// The prefix of an API key, so a leaked one is recognisable in logs and by secret scanners.
pub const API_KEY_PREFIX: &str = "vk_";
/// The longest name an API key may have.
pub const MAX_API_KEY_NAME: usize = 80;

/// An owner or contributor of the site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Owner {
    pub id: AccountId,
    pub email: EmailAddress,
    pub role: ContributorRole,
    /// The argon2id hash in PHC string form; `None` until the setup link was followed.
    pub password_hash: Option<String>,
    /// The second factor, when the owner turned it on.
    pub totp: Option<TotpSecret>,
    /// The last 30-second step whose code was accepted, so a code works once.
    pub totp_last_step: Option<i64>,
    /// A second factor being enrolled from the owner area: made by the server and shown
    /// once as a QR code and as text, it becomes `totp` only after a correct code from it.
    pub totp_pending: Option<TotpSecret>,
    pub created: Timestamp,
}

/// A TOTP shared secret: 20 bytes (RFC 4226's recommended length), kept as hex.
#[derive(Clone, PartialEq, Eq)]
pub struct TotpSecret(pub(crate) [u8; 20]);

impl std::fmt::Debug for TotpSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TotpSecret(..)")
    }
}

impl TotpSecret {
    /// A secret read back from a store; `None` unless 40 hex characters.
    pub fn from_stored(text: &str) -> Option<Self> {
        let bytes = hex::decode(text).ok()?;
        Some(Self(bytes.try_into().ok()?))
    }

    pub fn to_stored(&self) -> String {
        hex::encode(self.0)
    }
}

/// A one-time link that sets an owner's password (after `owner add` or `owner reset`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupToken {
    pub token: TokenDigest,
    pub account: AccountId,
    pub expires_at: Timestamp,
}

/// A signed-in owner's browser.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnerSession {
    /// The public id that lists and revokes it; the token itself is never shown again.
    pub id: String,
    pub token: TokenDigest,
    pub account: AccountId,
    /// Repeated on every state-changing owner call (the session's CSRF token).
    pub csrf_token: String,
    pub created: Timestamp,
    pub expires_at: Timestamp,
    /// The browser, as its `User-Agent` said at sign-in, so the owner can tell sessions apart.
    pub user_agent: String,
}

impl OwnerSession {
    pub fn is_live(&self, now: Timestamp) -> bool {
        now < self.expires_at
    }
}

/// A key a script sends as `Authorization: Bearer vk_...`, limited to its scopes and to
/// what its owner's role allows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiKey {
    pub id: String,
    pub token: TokenDigest,
    pub account: AccountId,
    pub name: String,
    pub scopes: Vec<PermissionCode>,
    pub created: Timestamp,
}

impl TotpSecret {
    /// A new secret from 32 random bytes the caller supplies (the first 20 are used).
    pub fn from_secret(secret: &crate::people::Secret) -> Self {
        let mut bytes = [0; 20];
        bytes.copy_from_slice(&secret.0[..20]);
        Self(bytes)
    }

    fn totp(&self) -> totp_rs::Totp {
        // SHA-1, six digits, 30-second steps: what every authenticator app reads (RFC 6238),
        // one step of skew either side for a clock a little off.
        totp_rs::Builder::new()
            .with_secret(self.0)
            .with_skew(1)
            .build_noncompliant()
    }

    /// The secret as the base32 text an authenticator app accepts typed in.
    pub fn base32(&self) -> String {
        totp_rs::Secret::from(self.0).to_base32()
    }

    /// The `otpauth://` address an authenticator app reads (as a QR code or pasted).
    pub fn otpauth_uri(&self, issuer: &str, account: &EmailAddress) -> String {
        use percent_encoding::{NON_ALPHANUMERIC, utf8_percent_encode};
        let issuer = utf8_percent_encode(issuer, NON_ALPHANUMERIC).to_string();
        let account = utf8_percent_encode(account.as_str(), NON_ALPHANUMERIC);
        format!(
            "otpauth://totp/{issuer}:{account}?secret={}&issuer={issuer}&algorithm=SHA1&digits=6&period=30",
            self.base32()
        )
    }

    /// The 30-second step whose code `code` is at `unix_seconds` (or one step either side),
    /// `None` when it is no such code.
    pub fn matching_step(&self, code: &str, unix_seconds: i64) -> Option<i64> {
        let time = u64::try_from(unix_seconds).ok()?;
        let code: String = code.chars().filter(|c| !c.is_whitespace()).collect();
        self.totp()
            .check(&code, time)
            .and_then(|step| i64::try_from(step).ok())
    }

    /// The code at `unix_seconds`, for tests and the command line's check.
    pub fn code_at(&self, unix_seconds: i64) -> String {
        self.totp()
            .generate(u64::try_from(unix_seconds).unwrap_or_default())
            .to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_matches_its_step_and_its_neighbours_only() {
        let secret = TotpSecret(*b"12345678901234567890");
        // RFC 6238's SHA-1 vector at 59 s: 94287082 in eight digits, 287082 in six.
        assert_eq!(secret.code_at(59), "287082");
        assert_eq!(secret.matching_step("287082", 59), Some(1));
        assert_eq!(secret.matching_step("287 082", 89), Some(1));
        assert_eq!(secret.matching_step("287082", 150), None);
        assert_eq!(secret.matching_step("not a code", 59), None);
        assert_eq!(TotpSecret::from_stored(&secret.to_stored()), Some(secret));
    }
}
