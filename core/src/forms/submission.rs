//! Submissions: the one-time key, the payload of spec 000 s7, the fingerprint that makes the
//! key an idempotency key, and the record that is stored.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::outbox::FollowUp;
use super::values::FieldValue;

/// Random bytes in a key: 256 bits, well above the 128 a guess would have to beat.
pub const KEY_BYTES: usize = 32;
/// How long an issued key may be used. Long enough to fill in a long form after fetching it,
/// short enough that a leaked key soon stops working.
pub const KEY_LIFETIME_SECONDS: i64 = 60 * 60;

/// A form submission key: 64 lowercase hex digits made from random bytes the caller supplies
/// (the core has no randomness of its own).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct SubmissionKey(String);

/// Text that cannot be a key this server issued.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a form submission key")]
pub struct InvalidKey;

impl SubmissionKey {
    pub fn from_random(bytes: [u8; KEY_BYTES]) -> Self {
        Self(hex::encode(bytes))
    }

    pub fn parse(text: &str) -> Result<Self, InvalidKey> {
        let valid = text.len() == KEY_BYTES * 2
            && text
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        if valid {
            Ok(Self(text.to_owned()))
        } else {
            Err(InvalidKey)
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for SubmissionKey {
    type Error = InvalidKey;
    fn try_from(text: String) -> Result<Self, Self::Error> {
        Self::parse(&text)
    }
}

impl From<SubmissionKey> for String {
    fn from(key: SubmissionKey) -> Self {
        key.0
    }
}

/// What was submitted, once read against the form's definition: field id to value, in the
/// form's field order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubmittedValues(pub Vec<(String, FieldValue)>);

impl SubmittedValues {
    /// The `form` JSON of the payload, keys sorted, as it is stored.
    pub fn to_json(&self) -> String {
        let map: BTreeMap<&str, &FieldValue> = self
            .0
            .iter()
            .map(|(id, value)| (id.as_str(), value))
            .collect();
        serde_json::to_string(&map).unwrap_or_else(|_| "{}".to_owned())
    }

    pub fn get(&self, id: &str) -> Option<&FieldValue> {
        self.0
            .iter()
            .find(|(field, _)| field == id)
            .map(|(_, value)| value)
    }
}

/// The fingerprint of a submission: a SHA-256 over the form id, the object name and the
/// values in canonical order. A retry with the same key must carry the same fingerprint.
///
/// Tracking fields and the button text are left out on purpose: they describe the page the
/// visitor saw, not what they submitted, and a retry after a reload may differ in them.
pub fn fingerprint(form_id: &str, object_name: &str, values: &SubmittedValues) -> String {
    let mut hasher = Sha256::new();
    for part in [form_id, object_name, &values.to_json()] {
        hasher.update((part.len() as u64).to_be_bytes());
        hasher.update(part.as_bytes());
    }
    hex::encode(hasher.finalize())
}

/// A submission ready to be stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewSubmission {
    pub form_id: String,
    pub collection_id: Option<String>,
    pub object_name: String,
    pub is_overlay_form: bool,
    pub values: SubmittedValues,
    /// A filled honeypot: stored for the owner to inspect, never delivered.
    pub spam: bool,
    /// For newsletters, the lowercased email: one subscription per email per list.
    pub subscription: Option<String>,
    pub created_at: i64,
    /// The deliveries and subscription tokens that go with it, written in the same
    /// transaction when the save stores a new row.
    pub follow_up: FollowUp,
}

/// A stored submission, as owners list and export it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredSubmission {
    pub id: i64,
    pub form_id: String,
    pub collection_id: Option<String>,
    pub object_name: String,
    pub is_overlay_form: bool,
    pub values_json: String,
    pub spam: bool,
    pub created_at: i64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_64_hex_digits() {
        let key = SubmissionKey::from_random([0xab; KEY_BYTES]);
        assert_eq!(key.as_str().len(), 64);
        assert_eq!(SubmissionKey::parse(key.as_str()), Ok(key));
        assert!(SubmissionKey::parse("abc").is_err());
        assert!(SubmissionKey::parse(&"G".repeat(64)).is_err());
    }

    #[test]
    fn the_fingerprint_changes_with_the_values() {
        let one = SubmittedValues(vec![("a".into(), FieldValue::Single("1".into()))]);
        let two = SubmittedValues(vec![("a".into(), FieldValue::Single("2".into()))]);
        assert_eq!(
            fingerprint("f", "", &one),
            fingerprint("f", "", &one.clone())
        );
        assert_ne!(fingerprint("f", "", &one), fingerprint("f", "", &two));
        assert_ne!(fingerprint("f", "", &one), fingerprint("g", "", &one));
    }
}
