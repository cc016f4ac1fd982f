//! Why a bridge message was refused, and whether the refusal can be answered.

use super::request::MessageId;
use super::{MAX_ID_CHARS, MAX_MESSAGE_BYTES, PROTOCOL_VERSION};

/// Why a bridge message was refused. The texts of 001 s8 are verbatim; the others are
/// Vitrine's own, since the specification names no texts for them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BridgeError {
    #[error("[JS -> Native Bridge] {name} not found")]
    UnknownName { name: String },
    #[error("mobile platform not correctly identified")]
    PlatformNotIdentified,
    #[error("the bridge message is {bytes} bytes, over the limit of {MAX_MESSAGE_BYTES}")]
    TooLarge { bytes: usize },
    #[error("the bridge message is not a JSON envelope: {reason}")]
    Malformed { reason: String },
    #[error(
        "the bridge message id must be 1 to {MAX_ID_CHARS} characters of A-Z, a-z, 0-9, _ or -"
    )]
    InvalidId,
    #[error("the bridge message version {found} is not supported (expected {PROTOCOL_VERSION})")]
    UnsupportedVersion { found: String },
    #[error("the {name} payload is invalid: {reason}")]
    InvalidPayload { name: String, reason: String },
}

/// A request the app refused. `id` is the request's id when it could be read, so the refusal
/// can be answered; a message without a readable id cannot be routed back to a waiting call and
/// is dropped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{error}")]
pub struct RejectedMessage {
    pub id: Option<MessageId>,
    pub error: BridgeError,
}

impl RejectedMessage {
    pub(super) fn unanswerable(error: BridgeError) -> Self {
        Self { id: None, error }
    }

    pub(super) fn answerable(id: &MessageId, error: BridgeError) -> Self {
        Self {
            id: Some(id.clone()),
            error,
        }
    }

    /// The error reply to send back, when the request's id is known.
    pub fn reply(&self) -> Option<super::BridgeReply> {
        self.id
            .clone()
            .map(|id| super::BridgeReply::error(id, self.error.to_string()))
    }
}
