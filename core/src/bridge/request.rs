//! A request from the page to the app, and how an incoming message becomes one.

use serde::Serialize;
use serde_json::{Map, Value};

use super::error::{BridgeError, RejectedMessage};
use super::{MAX_ID_CHARS, MAX_MESSAGE_BYTES, PROTOCOL_VERSION};

/// A request id: 1 to 64 characters of `A-Z a-z 0-9 _ -`. The page generates it and the app's
/// reply carries it back, which is how the page finds the promise to settle.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MessageId(String);

impl MessageId {
    pub fn parse(text: &str) -> Result<Self, BridgeError> {
        let allowed = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
        if (1..=MAX_ID_CHARS).contains(&text.len()) && text.chars().all(allowed) {
            Ok(Self(text.to_owned()))
        } else {
            Err(BridgeError::InvalidId)
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The message names the app answers (001 s7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BridgeName {
    Info,
    Dismiss,
}

impl BridgeName {
    pub const ALL: &'static [Self] = &[Self::Info, Self::Dismiss];

    /// The name as the envelope spells it.
    pub const fn wire(self) -> &'static str {
        match self {
            Self::Info => "info",
            Self::Dismiss => "dismiss",
        }
    }

    /// The name spelled exactly `text`; names are case-sensitive.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|name| name.wire() == text)
    }
}

/// What the page asks for, with its validated payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BridgeCall {
    /// What the app needs to know about the page: see [`super::InfoResult`].
    Info,
    /// The visitor is done: the app closes the web view. `back_url` is where the page would go
    /// on the mobile-app web platform, which has no app screen to return to.
    Dismiss { back_url: Option<String> },
}

impl BridgeCall {
    pub const fn name(&self) -> BridgeName {
        match self {
            Self::Info => BridgeName::Info,
            Self::Dismiss { .. } => BridgeName::Dismiss,
        }
    }

    fn from_payload(name: BridgeName, payload: &Map<String, Value>) -> Result<Self, String> {
        match name {
            BridgeName::Info => Ok(Self::Info),
            BridgeName::Dismiss => match payload.get("backUrl") {
                None | Some(Value::Null) => Ok(Self::Dismiss { back_url: None }),
                Some(Value::String(url)) => Ok(Self::Dismiss {
                    back_url: Some(url.clone()),
                }),
                Some(_) => Err("backUrl must be a string".to_owned()),
            },
        }
    }

    fn payload(&self) -> Value {
        let mut payload = Map::new();
        if let Self::Dismiss {
            back_url: Some(url),
        } = self
        {
            payload.insert("backUrl".to_owned(), Value::String(url.clone()));
        }
        Value::Object(payload)
    }
}

/// A valid request from the page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BridgeRequest {
    pub id: MessageId,
    pub call: BridgeCall,
}

#[derive(Serialize)]
struct RequestWire<'a> {
    v: u64,
    id: &'a str,
    name: &'static str,
    payload: Value,
}

impl BridgeRequest {
    /// Reads and validates a message from the page, checking in this order: the size, the JSON
    /// object, the id, the version, the name, then the payload. Once the id is known, a refusal
    /// carries it so the page's promise can be rejected rather than left to time out. Fields
    /// the envelope does not define are ignored.
    pub fn parse(message: &str) -> Result<Self, RejectedMessage> {
        if message.len() > MAX_MESSAGE_BYTES {
            return Err(RejectedMessage::unanswerable(BridgeError::TooLarge {
                bytes: message.len(),
            }));
        }
        let malformed =
            |reason: String| RejectedMessage::unanswerable(BridgeError::Malformed { reason });
        let envelope = match serde_json::from_str::<Value>(message) {
            Ok(Value::Object(envelope)) => envelope,
            Ok(_) => return Err(malformed("expected a JSON object".to_owned())),
            Err(error) => return Err(malformed(error.to_string())),
        };
        let id = match envelope.get("id") {
            Some(Value::String(id)) => MessageId::parse(id),
            _ => Err(BridgeError::InvalidId),
        }
        .map_err(RejectedMessage::unanswerable)?;
        let refuse = |error| RejectedMessage::answerable(&id, error);

        match envelope.get("v") {
            Some(v) if v.as_u64() == Some(PROTOCOL_VERSION) => {}
            found => {
                let found = found.map_or_else(|| "(missing)".to_owned(), Value::to_string);
                return Err(refuse(BridgeError::UnsupportedVersion { found }));
            }
        }
        let name = match envelope.get("name") {
            Some(Value::String(name)) => BridgeName::parse(name)
                .ok_or_else(|| refuse(BridgeError::UnknownName { name: name.clone() }))?,
            _ => {
                return Err(refuse(BridgeError::Malformed {
                    reason: "the name must be a string".to_owned(),
                }));
            }
        };
        let invalid_payload = |reason: String| {
            refuse(BridgeError::InvalidPayload {
                name: name.wire().to_owned(),
                reason,
            })
        };
        let Some(Value::Object(payload)) = envelope.get("payload") else {
            return Err(invalid_payload("the payload must be an object".to_owned()));
        };
        let call = BridgeCall::from_payload(name, payload).map_err(invalid_payload)?;
        Ok(Self { id, call })
    }

    /// The message the page sends for this request; [`BridgeRequest::parse`] reads it back.
    pub fn to_json(&self) -> String {
        let wire = RequestWire {
            v: PROTOCOL_VERSION,
            id: self.id.as_str(),
            name: self.call.name().wire(),
            payload: self.call.payload(),
        };
        serde_json::to_string(&wire).expect("a request envelope always serialises")
    }
}
