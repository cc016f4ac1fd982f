//! `password = "..."` of a password-protected collection into its stored argon2id hash.
//!
//! Every password-protected collection must name a password (without one nobody could open
//! it), and no other collection may (a password there would suggest a lock that is not
//! there). The plain text never reaches the site model: only the hash is kept.
//!
//! Decision: the salt is derived from the bundle itself (an HMAC over the collection id, keyed
//! by the SHA-256 of every file of the bundle), so parsing stays free of I/O and the same
//! bundle always gives the same site. Salts still differ between collections and between any
//! two bundles, and computing one needs the whole bundle, which names the password anyway.

use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256};

use crate::bundle::error::At;
use crate::bundle::{BundleError, BundleFiles};
use crate::people::{MAX_PASSWORD_BYTES, PasswordCost, PasswordHasher};
use crate::site::{Collection, PagePassword, PermissionType};

/// A collection's password as the bundle names it, checked against its permission.
pub(crate) struct PlainPassword<'a> {
    collection: crate::site::CollectionId,
    password: String,
    at: At<'a>,
}

/// Checks the `password` field of `collection`'s file (at `at`).
pub(crate) fn check<'a>(
    at: At<'a>,
    collection: &Collection,
    password: Option<String>,
) -> Result<Option<PlainPassword<'a>>, BundleError> {
    let protected = collection.permission_type == PermissionType::PasswordProtected;
    match password {
        None if protected => Err(at.error(
            "missing; a collection with permission = \"password-protected\" needs the password that opens it",
        )),
        None => Ok(None),
        Some(_) if !protected => Err(at.error(
            "only a collection with permission = \"password-protected\" has a password; remove it or change the permission",
        )),
        Some(password) if password.trim().is_empty() => {
            Err(at.error("expected a password, found an empty text"))
        }
        Some(password) if password.len() > MAX_PASSWORD_BYTES => Err(at.error(format!(
            "expected at most {MAX_PASSWORD_BYTES} bytes, found {}",
            password.len()
        ))),
        Some(password) => Ok(Some(PlainPassword {
            collection: collection.id.clone(),
            password,
            at,
        })),
    }
}

/// Hashes each checked password with argon2id at OWASP's cost.
pub(crate) fn hash(
    files: &BundleFiles,
    passwords: Vec<PlainPassword<'_>>,
) -> Result<Vec<PagePassword>, BundleError> {
    if passwords.is_empty() {
        return Ok(Vec::new());
    }
    let hasher = PasswordHasher::new(PasswordCost::OWASP)
        .map_err(|error| BundleError::file("site.toml", error.to_string()))?;
    let bundle_digest = digest(files);
    passwords
        .into_iter()
        .map(|plain| {
            let salt = salt(&bundle_digest, plain.collection.as_str());
            let hash = hasher
                .hash(&plain.password, &salt)
                .map_err(|error| plain.at.error(error.to_string()))?;
            Ok(PagePassword {
                collection: plain.collection,
                hash,
            })
        })
        .collect()
}

/// The SHA-256 of every path and file of the bundle, in path order.
fn digest(files: &BundleFiles) -> [u8; 32] {
    let mut digest = Sha256::new();
    for (path, bytes) in files {
        digest.update((path.len() as u64).to_le_bytes());
        digest.update(path.as_bytes());
        digest.update((bytes.len() as u64).to_le_bytes());
        digest.update(bytes);
    }
    digest.finalize().into()
}

fn salt(bundle_digest: &[u8; 32], collection: &str) -> [u8; 16] {
    let mut mac =
        Hmac::<Sha256>::new_from_slice(bundle_digest).expect("HMAC takes keys of any length");
    mac.update(b"page-password-salt\0");
    mac.update(collection.as_bytes());
    let bytes = mac.finalize().into_bytes();
    let mut salt = [0; 16];
    salt.copy_from_slice(&bytes[..16]);
    salt
}
