//! Unlock cookies of password-protected pages: over generated server keys, collections,
//! password hashes and cookie jars, a collection is unlocked exactly when the jar holds, under
//! that collection's cookie name, the token the server's key makes for that collection and its
//! current hash. Tokens made for another collection, another hash or under another key, and
//! any other text, open nothing.

use std::collections::BTreeSet;

use proptest::prelude::*;
use vitrine_core::checkout::OrderLinkKey;
use vitrine_core::pages::unlock::{UnlockKey, unlock_cookie_name};
use vitrine_core::site::{CollectionId, PagePassword};

const COLLECTIONS: [&str; 3] = ["journal", "kiln-log", "shop"];

/// What a cookie of the jar holds.
#[derive(Debug, Clone)]
enum Token {
    /// The token for this collection (index), its hash (index) and this key (byte).
    Made {
        collection: usize,
        hash: usize,
        key: u8,
    },
    Text(String),
}

fn token() -> impl Strategy<Value = Token> {
    prop_oneof![
        3 => (0..COLLECTIONS.len(), 0..2usize, 0..2u8)
            .prop_map(|(collection, hash, key)| Token::Made { collection, hash, key }),
        1 => "[0-9a-f]{0,70}".prop_map(Token::Text),
    ]
}

fn password(collection: usize, hash: usize) -> PagePassword {
    PagePassword {
        collection: CollectionId::parse(COLLECTIONS[collection]).unwrap(),
        hash: format!("$argon2id$v=19$m=8,t=1,p=1$hash{hash}"),
    }
}

fn key(byte: u8) -> UnlockKey {
    UnlockKey::derived_from(&OrderLinkKey::new([byte; 32]))
}

proptest! {
    #[test]
    fn a_collection_opens_only_with_its_own_token_under_the_servers_key(
        jar in proptest::collection::vec((0..COLLECTIONS.len(), token()), 0..6),
        current_hashes in proptest::collection::vec(0..2usize, COLLECTIONS.len()),
        server in 0..2u8,
    ) {
        let passwords: Vec<PagePassword> = current_hashes
            .iter()
            .enumerate()
            .map(|(collection, hash)| password(collection, *hash))
            .collect();
        let cookies: Vec<(String, String)> = jar
            .iter()
            .map(|(named, token)| {
                let value = match token {
                    Token::Made { collection, hash, key: byte } => {
                        key(*byte).token(&password(*collection, *hash))
                    }
                    Token::Text(text) => text.clone(),
                };
                (unlock_cookie_name(&passwords[*named].collection), value)
            })
            .collect();
        // The model: the first cookie of a name counts, as the request parser reads it.
        let mut expected = BTreeSet::new();
        for (index, collection) in COLLECTIONS.iter().enumerate() {
            let first = jar.iter().find(|(named, _)| *named == index);
            let opens = match first {
                Some((_, Token::Made { collection: made, hash, key: byte })) => {
                    *made == index && *hash == current_hashes[index] && *byte == server
                }
                // A random text is the right token only by a 2^-256 chance.
                Some((_, Token::Text(_))) | None => false,
            };
            if opens {
                expected.insert((*collection).to_owned());
            }
        }
        let unlocked = key(server).unlocked(&passwords, |name| {
            cookies
                .iter()
                .find(|(cookie, _)| cookie == name)
                .map(|(_, value)| value.as_str())
        });
        prop_assert_eq!(unlocked, expected);
    }
}
