//! A request from the page to the app, and how an incoming message becomes one.

use serde::Serialize;
use serde_json::{Map, Number, Value};

use super::error::{BridgeError, RejectedMessage};
use super::reply::InfoResult;
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
    /// The page's report of itself, which the app keeps (e.g. for its cart badge) and answers
    /// with its copy of: only the report's five fields, whatever else the payload holds.
    Info(InfoResult),
    /// The visitor is done: the app closes the web view. `back_url` is where the page would go
    /// on the mobile-app web platform, which has no app screen to return to.
    Dismiss { back_url: Option<String> },
}

impl BridgeCall {
    pub const fn name(&self) -> BridgeName {
        match self {
            Self::Info(_) => BridgeName::Info,
            Self::Dismiss { .. } => BridgeName::Dismiss,
        }
    }

    fn from_payload(name: BridgeName, payload: &Map<String, Value>) -> Result<Self, String> {
        match name {
            BridgeName::Info => read_info(payload).map(Self::Info),
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
        match self {
            Self::Info(info) => {
                serde_json::to_value(info).expect("an info report always serialises")
            }
            Self::Dismiss {
                back_url: Some(url),
            } => serde_json::json!({ "backUrl": url }),
            Self::Dismiss { back_url: None } => Value::Object(Map::new()),
        }
    }
}

/// Reads the report of an `info` request, checking the fields in the order the TypeScript rules
/// (`mobile-shell/src/bridge/envelope.ts`) do, with the same texts; the recorded envelopes of
/// the contract hold both to it.
fn read_info(payload: &Map<String, Value>) -> Result<InfoResult, String> {
    let text = |field: &str| match payload.get(field) {
        Some(Value::String(text)) => Ok(text.clone()),
        _ => Err(format!("{field} must be a string")),
    };
    let page_type = text("pageType")?;
    let cart_count = match payload.get("cartCount") {
        Some(Value::Number(count)) => whole_u32(count),
        _ => None,
    }
    .ok_or_else(|| "cartCount must be a whole number from 0".to_owned())?;
    let Some(&Value::Bool(signed_in)) = payload.get("signedIn") else {
        return Err("signedIn must be true or false".to_owned());
    };
    let locale = text("locale")?;
    let experiments = match payload.get("experiments") {
        Some(Value::Object(experiments)) => experiments
            .iter()
            .map(|(name, variant)| Some((name.clone(), variant.as_str()?.to_owned())))
            .collect::<Option<_>>(),
        _ => None,
    }
    .ok_or_else(|| "experiments must map names to variant strings".to_owned())?;
    Ok(InfoResult {
        page_type,
        cart_count,
        signed_in,
        locale,
        experiments,
    })
}

/// A JSON number as the page's JavaScript reads it: `3`, `3.0` and `3e0` are all the whole
/// number 3, so each is accepted when it lies in `0..=u32::MAX`.
fn whole_u32(number: &Number) -> Option<u32> {
    if let Some(whole) = number.as_u64() {
        return u32::try_from(whole).ok();
    }
    let float = number.as_f64()?;
    let in_range = float.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&float);
    // Exact: the value is whole and within range, and `-0` reads as 0 as it does in JavaScript.
    in_range.then_some(float as u32)
}

/// A value as JavaScript's `JSON.stringify` writes it back, for the version refusal's text:
/// a whole number written with a fraction or exponent (`2.0`, `2e0`) reads as `2`.
fn as_javascript_writes(value: &Value) -> Value {
    match value {
        Value::Number(number) if number.is_f64() => {
            let float = number.as_f64().unwrap_or_default();
            let exact = float.fract() == 0.0 && float.abs() < 9_007_199_254_740_992.0;
            if exact {
                Value::from(float as i64)
            } else {
                value.clone()
            }
        }
        Value::Array(items) => Value::Array(items.iter().map(as_javascript_writes).collect()),
        Value::Object(fields) => Value::Object(
            fields
                .iter()
                .map(|(name, field)| (name.clone(), as_javascript_writes(field)))
                .collect(),
        ),
        other => other.clone(),
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

        // JavaScript reads `1.0` as the version 1, so the core does too.
        match envelope.get("v").map(as_javascript_writes) {
            Some(v) if v.as_u64() == Some(PROTOCOL_VERSION) => {}
            found => {
                let found = found.map_or_else(|| "(missing)".to_owned(), |v| v.to_string());
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
