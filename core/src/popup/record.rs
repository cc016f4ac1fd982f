//! The popup's storage record (001 s3): key `squarespace-popup-overlay` holding `date-closed`,
//! `version` and `submitted`. The browser keeps it in local storage, or in a cookie of the same
//! name when storage is unavailable.

use serde::{Deserialize, Serialize};

/// The local-storage key (and fallback cookie name) of the record.
pub const POPUP_RECORD_KEY: &str = "squarespace-popup-overlay";

/// What the browser remembers about the popup. `date_closed` is milliseconds since the Unix
/// epoch, absent until the visitor first closes the popup.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct PopupRecord {
    #[serde(
        rename = "date-closed",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub date_closed: Option<i64>,
    #[serde(default)]
    pub version: u32,
    #[serde(default)]
    pub submitted: bool,
}

impl PopupRecord {
    /// Reads a stored record; an unreadable one counts as no record, so a corrupted value
    /// shows the popup rather than hiding it forever.
    pub fn parse(stored: &str) -> Option<Self> {
        serde_json::from_str(stored).ok()
    }

    /// The stored form of the record.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The record after the visitor closed the popup of `version` at `now_ms`.
    pub fn closed(self, version: u32, now_ms: i64) -> Self {
        Self {
            date_closed: Some(now_ms),
            version,
            submitted: self.submitted && self.version == version,
        }
    }

    /// The record after the visitor submitted the popup's form of `version` at `now_ms`.
    pub fn submitted(version: u32, now_ms: i64) -> Self {
        Self {
            date_closed: Some(now_ms),
            version,
            submitted: true,
        }
    }
}
