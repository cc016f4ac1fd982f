//! The native bridge's envelope (001 s7, s8): reading a message from the page and building the
//! reply the app sends back with the same id.

use std::collections::HashMap;

use vitrine_core::bridge::{self, BridgeCall, BridgeReply, MessageId, RejectedMessage};

use crate::mirror::mirror_enum;

mirror_enum! {
    /// The messages the app answers.
    BridgeName => bridge::BridgeName { Info, Dismiss }
}
mirror_enum! {
    MobilePlatform => bridge::MobilePlatform { Android, Ios }
}

/// A valid request from the page.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct BridgeRequest {
    /// The request's id; the reply must carry it back.
    pub id: String,
    pub name: BridgeName,
    /// `info` only: the page's report of itself, validated and cut to its five fields, for
    /// the app to keep (its cart badge, the signed-in state) and answer with.
    pub info: Option<InfoResult>,
    /// `dismiss` only: where the page would go without an app screen to return to.
    pub back_url: Option<String>,
}

/// What `info` answers: the page's type, the cart count, whether a site user is signed in, the
/// page's locale and each experiment's variant for this visitor.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct InfoResult {
    pub page_type: String,
    pub cart_count: u32,
    pub signed_in: bool,
    pub locale: String,
    pub experiments: HashMap<String, String>,
}

/// The envelope's limits, for the app to check before handing a message over.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct BridgeLimits {
    pub protocol_version: u32,
    pub max_message_bytes: u32,
    pub max_id_chars: u32,
}

/// Why a message was refused. `error_text` is what the page's promise is rejected with (the
/// spec's text where it has one); `reply` is the error reply to send back, present only when
/// the message's id could be read. Without it there is no waiting call to answer and the
/// message is dropped.
#[derive(Debug, thiserror::Error, uniffi::Error)]
pub enum BridgeMessageError {
    #[error("{error_text}")]
    UnknownName {
        error_text: String,
        reply: Option<String>,
    },
    #[error("{error_text}")]
    PlatformNotIdentified {
        error_text: String,
        reply: Option<String>,
    },
    #[error("{error_text}")]
    TooLarge {
        error_text: String,
        reply: Option<String>,
    },
    #[error("{error_text}")]
    Malformed {
        error_text: String,
        reply: Option<String>,
    },
    #[error("{error_text}")]
    InvalidId {
        error_text: String,
        reply: Option<String>,
    },
    #[error("{error_text}")]
    UnsupportedVersion {
        error_text: String,
        reply: Option<String>,
    },
    #[error("{error_text}")]
    InvalidPayload {
        error_text: String,
        reply: Option<String>,
    },
}

/// The one place the core's bridge errors become the exported ones.
impl From<RejectedMessage> for BridgeMessageError {
    fn from(rejected: RejectedMessage) -> Self {
        use bridge::BridgeError as Core;
        let error_text = rejected.error.to_string();
        let reply = rejected.reply().map(|reply| reply.to_json());
        match rejected.error {
            Core::UnknownName { .. } => Self::UnknownName { error_text, reply },
            Core::PlatformNotIdentified => Self::PlatformNotIdentified { error_text, reply },
            Core::TooLarge { .. } => Self::TooLarge { error_text, reply },
            Core::Malformed { .. } => Self::Malformed { error_text, reply },
            Core::InvalidId => Self::InvalidId { error_text, reply },
            Core::UnsupportedVersion { .. } => Self::UnsupportedVersion { error_text, reply },
            Core::InvalidPayload { .. } => Self::InvalidPayload { error_text, reply },
        }
    }
}

impl From<bridge::BridgeError> for BridgeMessageError {
    fn from(error: bridge::BridgeError) -> Self {
        RejectedMessage { id: None, error }.into()
    }
}

impl From<bridge::BridgeRequest> for BridgeRequest {
    fn from(request: bridge::BridgeRequest) -> Self {
        let name = request.call.name().into();
        let (info, back_url) = match request.call {
            BridgeCall::Info(info) => (Some(info.into()), None),
            BridgeCall::Dismiss { back_url } => (None, back_url),
        };
        Self {
            id: request.id.as_str().to_owned(),
            name,
            info,
            back_url,
        }
    }
}

impl From<bridge::InfoResult> for InfoResult {
    fn from(info: bridge::InfoResult) -> Self {
        Self {
            page_type: info.page_type,
            cart_count: info.cart_count,
            signed_in: info.signed_in,
            locale: info.locale,
            experiments: info.experiments.into_iter().collect(),
        }
    }
}

impl From<InfoResult> for bridge::InfoResult {
    fn from(info: InfoResult) -> Self {
        Self {
            page_type: info.page_type,
            cart_count: info.cart_count,
            signed_in: info.signed_in,
            locale: info.locale,
            experiments: info.experiments.into_iter().collect(),
        }
    }
}

/// Reads and validates a message from the page: its size, JSON shape, id, version, name and
/// payload, in that order.
#[uniffi::export]
pub fn parse_bridge_request(message: String) -> Result<BridgeRequest, BridgeMessageError> {
    Ok(bridge::BridgeRequest::parse(&message)?.into())
}

/// The reply to an `info` request.
#[uniffi::export]
pub fn build_info_reply(id: String, info: InfoResult) -> Result<String, BridgeMessageError> {
    Ok(BridgeReply::info(MessageId::parse(&id)?, info.into()).to_json())
}

/// The reply to a `dismiss` request, sent once the web view is closing.
#[uniffi::export]
pub fn build_dismiss_reply(id: String) -> Result<String, BridgeMessageError> {
    Ok(BridgeReply::dismissed(MessageId::parse(&id)?).to_json())
}

/// A reply that rejects the page's call with `error_text`.
#[uniffi::export]
pub fn build_error_reply(id: String, error_text: String) -> Result<String, BridgeMessageError> {
    Ok(BridgeReply::error(MessageId::parse(&id)?, error_text).to_json())
}

/// Reads the platform name the app's runtime reports (`android`, `ios`); any other is refused
/// with 'mobile platform not correctly identified'.
#[uniffi::export]
pub fn identify_mobile_platform(os: String) -> Result<MobilePlatform, BridgeMessageError> {
    Ok(bridge::MobilePlatform::identify(&os)?.into())
}

#[uniffi::export]
pub fn bridge_limits() -> BridgeLimits {
    let as_u32 = |value: usize| u32::try_from(value).expect("the limits are small");
    BridgeLimits {
        protocol_version: u32::try_from(bridge::PROTOCOL_VERSION).expect("the version is small"),
        max_message_bytes: as_u32(bridge::MAX_MESSAGE_BYTES),
        max_id_chars: as_u32(bridge::MAX_ID_CHARS),
    }
}
