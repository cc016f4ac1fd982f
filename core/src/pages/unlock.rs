//! Unlocking a password-protected collection (page type 103): the password form posts to
//! [`PAGE_PASSWORD_PATH`]; a right password gives the browser a cookie for that collection
//! alone, which lasts the browser session.
//!
//! The cookie's value is an HMAC-SHA256, made with the server's secret key, over the
//! collection's id and its stored password hash: without the key nobody can make one, a
//! cookie for one collection opens no other, and a new password (a new hash) shuts out every
//! browser that entered the old one. Servers that share a database share the key, so any of
//! them honours the cookie.

use std::collections::BTreeSet;

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use crate::checkout::OrderLinkKey;
use crate::site::{CollectionId, PagePassword};

/// Where the lock screen's password form posts.
pub const PAGE_PASSWORD_PATH: &str = "/page-password";
/// The unlock cookie of a collection is this prefix and the collection's id.
pub const UNLOCK_COOKIE_PREFIX: &str = "unlock-";

/// What the lock screen says when the password is not the collection's.
pub const WRONG_PAGE_PASSWORD: &str = "That password is not right. Please try again.";

/// The name of the cookie that opens `collection` (before any `__Host-` prefix the server
/// adds over TLS).
pub fn unlock_cookie_name(collection: &CollectionId) -> String {
    format!("{UNLOCK_COOKIE_PREFIX}{collection}")
}

/// The key unlock cookies are signed with.
#[derive(Clone)]
pub struct UnlockKey([u8; 32]);

impl std::fmt::Debug for UnlockKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("UnlockKey(..)")
    }
}

impl UnlockKey {
    /// The unlock key made from the server's secret key.
    pub fn derived_from(server_key: &OrderLinkKey) -> Self {
        Self(server_key.derived_key("page-unlock"))
    }

    fn mac(&self, password: &PagePassword) -> Hmac<Sha256> {
        let mut mac =
            Hmac::<Sha256>::new_from_slice(&self.0).expect("HMAC takes keys of any length");
        mac.update(password.collection.as_str().as_bytes());
        mac.update(b"\0");
        mac.update(password.hash.as_bytes());
        mac
    }

    /// The cookie value that opens the collection of `password`.
    pub fn token(&self, password: &PagePassword) -> String {
        hex::encode(self.mac(password).finalize().into_bytes())
    }

    /// Whether `token` is the one [`Self::token`] makes for `password`, compared in constant
    /// time.
    pub fn opens(&self, password: &PagePassword, token: &str) -> bool {
        let Ok(bytes) = hex::decode(token) else {
            return false;
        };
        self.mac(password).verify_slice(&bytes).is_ok()
    }

    /// The ids of the collections among `passwords` that the request's cookies open;
    /// `cookie` gives the value of the cookie with a name, if the request has one.
    pub fn unlocked<'a>(
        &self,
        passwords: &[PagePassword],
        cookie: impl Fn(&str) -> Option<&'a str>,
    ) -> BTreeSet<String> {
        passwords
            .iter()
            .filter(|password| {
                cookie(&unlock_cookie_name(&password.collection))
                    .is_some_and(|token| self.opens(password, token))
            })
            .map(|password| password.collection.as_str().to_owned())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn password(collection: &str, hash: &str) -> PagePassword {
        PagePassword {
            collection: CollectionId::parse(collection).unwrap(),
            hash: hash.to_owned(),
        }
    }

    fn key(byte: u8) -> UnlockKey {
        UnlockKey::derived_from(&OrderLinkKey::new([byte; 32]))
    }

    #[test]
    fn a_token_opens_its_collection_only_and_only_under_its_key_and_hash() {
        let journal = password("journal", "$argon2id$journal");
        let shop = password("shop", "$argon2id$shop");
        let token = key(1).token(&journal);
        assert!(key(1).opens(&journal, &token));
        assert!(!key(1).opens(&shop, &token), "another collection");
        assert!(!key(2).opens(&journal, &token), "another server key");
        let changed = password("journal", "$argon2id$new");
        assert!(!key(1).opens(&changed, &token), "a new password");
        assert!(!key(1).opens(&journal, "not hex"));
        assert!(!key(1).opens(&journal, ""));
    }

    #[test]
    fn the_cookies_of_a_request_unlock_the_collections_they_sign() {
        let passwords = [
            password("journal", "$argon2id$journal"),
            password("shop", "$argon2id$shop"),
        ];
        let journal_token = key(1).token(&passwords[0]);
        let cookies = [
            ("unlock-journal".to_owned(), journal_token.clone()),
            // A journal token under the shop's name opens nothing.
            ("unlock-shop".to_owned(), journal_token),
        ];
        let unlocked = key(1).unlocked(&passwords, |name| {
            cookies
                .iter()
                .find(|(cookie, _)| cookie == name)
                .map(|(_, value)| value.as_str())
        });
        assert_eq!(unlocked, BTreeSet::from(["journal".to_owned()]));
    }
}
