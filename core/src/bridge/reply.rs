//! A reply from the app to the page: the result of a request, or why it failed.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize, Serializer};
use serde_json::{Map, Value};

use super::PROTOCOL_VERSION;
use super::request::MessageId;

/// What `info` tells the app about the page (001 s7). Nothing secret belongs here: the page
/// that asked may be any page of the site.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InfoResult {
    /// The page's type, as the page context names it (`page`, `product`, `cart` ...).
    pub page_type: String,
    pub cart_count: u32,
    pub signed_in: bool,
    /// The page's BCP 47 locale, such as `en-US`.
    pub locale: String,
    /// Each running experiment's name and the variant this visitor sees.
    #[serde(serialize_with = "in_javascript_order")]
    pub experiments: BTreeMap<String, String>,
}

/// Writes the experiments in the order the TypeScript rules' object keeps them, so both sides
/// send the same bytes: JavaScript sorts the names by UTF-16 code units (a name beyond U+FFFF
/// sorts before U+E000..U+FFFF), and an object then lists the names that are array indices
/// (`9`, `10`) first, in numeric order.
fn in_javascript_order<S: Serializer>(
    experiments: &BTreeMap<String, String>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let mut sorted: Vec<_> = experiments.iter().collect();
    sorted.sort_by_cached_key(|(name, _)| {
        let index = array_index(name);
        (
            index.is_none(),
            index,
            name.encode_utf16().collect::<Vec<_>>(),
        )
    });
    serializer.collect_map(sorted)
}

/// The array index a property name is in JavaScript: `0` or a decimal without a leading zero,
/// below 2^32 - 1.
fn array_index(name: &str) -> Option<u32> {
    let canonical =
        name == "0" || (name.bytes().all(|b| b.is_ascii_digit()) && !name.starts_with('0'));
    name.parse::<u32>()
        .ok()
        .filter(|&index| canonical && index < u32::MAX)
}

/// How a request ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplyOutcome {
    Info(InfoResult),
    /// The app closed the web view; the result is an empty object.
    Dismissed,
    Error(String),
}

/// The app's answer to one request, sent back with the request's id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BridgeReply {
    pub id: MessageId,
    pub outcome: ReplyOutcome,
}

#[derive(Serialize)]
struct ReplyWire<'a> {
    v: u64,
    id: &'a str,
    ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<ResultWire<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
}

/// A result keeps its fields in the order the struct declares them.
#[derive(Serialize)]
#[serde(untagged)]
enum ResultWire<'a> {
    Info(&'a InfoResult),
    Empty(Map<String, Value>),
}

impl BridgeReply {
    pub fn info(id: MessageId, info: InfoResult) -> Self {
        Self {
            id,
            outcome: ReplyOutcome::Info(info),
        }
    }

    pub fn dismissed(id: MessageId) -> Self {
        Self {
            id,
            outcome: ReplyOutcome::Dismissed,
        }
    }

    pub fn error(id: MessageId, text: impl Into<String>) -> Self {
        Self {
            id,
            outcome: ReplyOutcome::Error(text.into()),
        }
    }

    /// The reply as the page reads it.
    pub fn to_json(&self) -> String {
        let (result, error) = match &self.outcome {
            ReplyOutcome::Info(info) => (Some(ResultWire::Info(info)), None),
            ReplyOutcome::Dismissed => (Some(ResultWire::Empty(Map::new())), None),
            ReplyOutcome::Error(text) => (None, Some(text.as_str())),
        };
        let wire = ReplyWire {
            v: PROTOCOL_VERSION,
            id: self.id.as_str(),
            ok: error.is_none(),
            result,
            error,
        };
        serde_json::to_string(&wire).expect("a reply envelope always serialises")
    }
}
