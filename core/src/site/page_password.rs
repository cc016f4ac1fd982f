//! Page passwords (001 s2, page type 103): the argon2id hash of the password that opens a
//! password-protected collection, its items and the media only they show. The bundle names
//! the password in plain text; the import keeps only this hash.

use serde::{Deserialize, Serialize};

use crate::site::CollectionId;

/// The password of one password-protected collection, as stored.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PagePassword {
    pub collection: CollectionId,
    /// The argon2id hash in PHC string form (`$argon2id$v=19$...`).
    pub hash: String,
}

impl std::fmt::Debug for PagePassword {
    // Even a hash stays out of logs and error reports.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PagePassword")
            .field("collection", &self.collection)
            .field("hash", &"..")
            .finish()
    }
}
