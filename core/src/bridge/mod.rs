//! The native-app bridge's envelope (001 s7, s8): the page sends `info` and `dismiss` to the app
//! as versioned JSON envelopes keyed by a generated id, and the app answers each with a reply of
//! the same id. These are the rules both sides share: the limits, the parsing and validation of
//! a request, the building of a reply, and the spec's error texts.
//!
//! A request: `{"v":1,"id":"<id>","name":"info"|"dismiss","payload":{...}}`.
//! A reply: `{"v":1,"id":"<id>","ok":true,"result":{...}}` or
//! `{"v":1,"id":"<id>","ok":false,"error":"<text>"}`.

mod error;
mod platform;
mod reply;
mod request;

pub use error::{BridgeError, RejectedMessage};
pub use platform::MobilePlatform;
pub use reply::{BridgeReply, InfoResult, ReplyOutcome};
pub use request::{BridgeCall, BridgeName, BridgeRequest, MessageId};

/// The envelope version both sides speak.
pub const PROTOCOL_VERSION: u64 = 1;
/// The largest message, in bytes of UTF-8, the app reads: an `info` or `dismiss` request is a
/// few hundred bytes, so anything near this limit is not one.
pub const MAX_MESSAGE_BYTES: usize = 16_384;
/// The longest request id.
pub const MAX_ID_CHARS: usize = 64;
/// The error text when the bridge cannot tell which mobile platform it runs on (001 s8).
pub const PLATFORM_NOT_IDENTIFIED: &str = "mobile platform not correctly identified";

/// The error text for a message name the app does not handle (001 s8):
/// `[JS -> Native Bridge] {name} not found`.
pub fn name_not_found(name: &str) -> String {
    format!("[JS -> Native Bridge] {name} not found")
}

#[cfg(test)]
mod contract_tests;
#[cfg(test)]
mod tests;
