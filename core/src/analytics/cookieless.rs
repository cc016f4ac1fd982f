//! Counting without cookies: a daily-rotating salted hash of address, user agent and site. The
//! raw values are never stored, and because the salt changes every day the same visitor gets a
//! different hash tomorrow, so nobody is followed across days. The salt comes from the caller
//! (a port in the server), so the core stays free of randomness and clocks.

use sha2::{Digest, Sha256};

/// A secret salt for one day. Callers make a fresh random one per day and forget old ones.
#[derive(Clone, PartialEq, Eq)]
pub struct DailySalt {
    pub day: i64,
    pub secret: [u8; 32],
}

impl std::fmt::Debug for DailySalt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The secret is left out so it cannot end up in a log.
        f.debug_struct("DailySalt")
            .field("day", &self.day)
            .finish_non_exhaustive()
    }
}

/// The day number (days since the Unix epoch, UTC) of a time in milliseconds.
pub fn day_number(now_ms: i64) -> i64 {
    now_ms.div_euclid(24 * 60 * 60 * 1000)
}

/// The cookieless visitor key: 32 hex characters of SHA-256 over the salt, the day and the
/// three inputs, each length-prefixed so no two different inputs can collide by shifting
/// characters between fields.
pub fn cookieless_visitor_hash(
    salt: &DailySalt,
    address: &str,
    user_agent: &str,
    site: &str,
) -> String {
    let mut hasher = Sha256::new();
    hasher.update(salt.secret);
    hasher.update(salt.day.to_be_bytes());
    for field in [address, user_agent, site] {
        hasher.update((field.len() as u64).to_be_bytes());
        hasher.update(field.as_bytes());
    }
    let digest = hasher.finalize();
    digest[..16].iter().map(|b| format!("{b:02x}")).collect()
}

/// Whom a counted row or an experiment's bucket belongs to: the visitor cookie's id (the
/// visitor allowed tracking), or the cookieless daily key, an estimate that cannot follow
/// anyone across days (so a bucket made from it lasts one day).
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(tag = "kind", content = "key", rename_all = "kebab-case")]
pub enum VisitorKey {
    Cookie(String),
    Cookieless(String),
}

impl VisitorKey {
    /// The id that is counted and hashed.
    pub fn id(&self) -> &str {
        match self {
            Self::Cookie(id) | Self::Cookieless(id) => id,
        }
    }

    pub fn is_cookieless(&self) -> bool {
        matches!(self, Self::Cookieless(_))
    }
}
