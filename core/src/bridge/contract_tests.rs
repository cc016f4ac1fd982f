//! Replays the recorded envelopes (`mobile-shell/contract/envelopes.json`) that the web client's
//! Vitest tests, the shell's jest tests and the Playwright spec replay too, so the core's rules
//! and the TypeScript ones cannot drift: each request is read here as the app reads it, and the
//! reply the core builds must be the recorded one, byte for byte.

use serde::Deserialize;
use serde_json::{Value, json};

use super::*;

const FIXTURE: &str = include_str!("../../../mobile-shell/contract/envelopes.json");

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Fixture {
    origin: String,
    limits: Limits,
    exchanges: Vec<Exchange>,
    page_replies: Vec<PageReplies>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Limits {
    max_message_bytes: usize,
    max_id_chars: usize,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Exchange {
    case: String,
    from: Source,
    app_platform: String,
    request: String,
    reply: Option<String>,
    effect: Value,
    #[serde(default)]
    page: Option<PageOutcome>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Source {
    url: String,
    top_frame: bool,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
enum PageOutcome {
    Resolves(Value),
    Rejects(String),
    RefusedBeforeSending(String),
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PageReplies {
    case: String,
    pending: Pending,
    messages: Vec<String>,
    settled_by: usize,
}

#[derive(Deserialize)]
struct Pending {
    id: String,
    name: String,
}

fn fixture() -> Fixture {
    serde_json::from_str(FIXTURE).expect("the recorded envelopes are readable")
}

impl Source {
    /// The origin and frame checks are the shell's (`handler.ts`, `navigation.ts`): the core
    /// never sees where a message came from. An exchange whose `from` is a frame or another
    /// origin is about those checks, not the envelope rules.
    fn reaches_the_rules(&self, origin: &str) -> bool {
        let path = self.url.strip_prefix(origin);
        self.top_frame && path.is_some_and(|path| path.is_empty() || path.starts_with('/'))
    }
}

/// What the app does with one message, as the shell's handler does it: the envelope rules,
/// then the platform check, then the call. The reply is `None` when the message is dropped.
fn answer(message: &str, platform: &str) -> (Option<String>, Value, Result<Value, String>) {
    let request = match BridgeRequest::parse(message) {
        Ok(request) => request,
        Err(rejected) => {
            let reply = rejected.reply().map(|reply| reply.to_json());
            return (reply, json!({}), Err(rejected.error.to_string()));
        }
    };
    if let Err(error) = MobilePlatform::identify(platform) {
        let reply = BridgeReply::error(request.id, error.to_string());
        return (Some(reply.to_json()), json!({}), Err(error.to_string()));
    }
    let (reply, effect) = match request.call {
        BridgeCall::Info(info) => {
            let effect = json!({ "cartCount": info.cart_count });
            (BridgeReply::info(request.id, info), effect)
        }
        BridgeCall::Dismiss { .. } => (
            BridgeReply::dismissed(request.id),
            json!({ "closed": true }),
        ),
    };
    let json = reply.to_json();
    let result = serde_json::from_str::<Value>(&json).unwrap()["result"].clone();
    (Some(json), effect, Ok(result))
}

#[test]
fn the_limits_are_the_recorded_ones() {
    let limits = fixture().limits;
    assert_eq!(limits.max_message_bytes, MAX_MESSAGE_BYTES);
    assert_eq!(limits.max_id_chars, MAX_ID_CHARS);
}

#[test]
fn every_recorded_exchange_is_answered_as_recorded() {
    let fixture = fixture();
    let mut replayed = 0;
    for exchange in &fixture.exchanges {
        let case = &exchange.case;
        if !exchange.from.reaches_the_rules(&fixture.origin) {
            // The shell drops these before the rules run; its jest suite replays them.
            assert_eq!(
                exchange.reply, None,
                "{case}: a message outside is answered"
            );
            continue;
        }
        let (reply, effect, outcome) = answer(&exchange.request, &exchange.app_platform);
        assert_eq!(reply, exchange.reply, "{case}: the reply");
        assert_eq!(effect, exchange.effect, "{case}: what the app does");
        match &exchange.page {
            None => {}
            Some(PageOutcome::Resolves(result)) => {
                assert_eq!(
                    outcome.as_ref().ok(),
                    Some(result),
                    "{case}: the page's result"
                );
            }
            Some(PageOutcome::Rejects(text) | PageOutcome::RefusedBeforeSending(text)) => {
                assert_eq!(
                    outcome.as_ref().err(),
                    Some(text),
                    "{case}: the page's error"
                );
            }
        }
        if let Ok(request) = BridgeRequest::parse(&exchange.request) {
            let rewritten = request.to_json();
            assert_eq!(BridgeRequest::parse(&rewritten), Ok(request), "{case}");
        }
        replayed += 1;
    }
    // Every exchange but the four about origins and frames concerns the envelope rules.
    assert_eq!(replayed, fixture.exchanges.len() - 4);
}

/// The page settles a waiting call with the recorded message: the core builds that message,
/// byte for byte, for the same id and outcome.
#[test]
fn every_reply_that_settles_a_call_is_the_one_the_core_builds() {
    for replies in fixture().page_replies {
        let case = &replies.case;
        let settling: Value = serde_json::from_str(&replies.messages[replies.settled_by]).unwrap();
        let id = MessageId::parse(&replies.pending.id).unwrap();
        assert_eq!(replies.pending.name, BridgeName::Dismiss.wire(), "{case}");
        let built = match settling["error"].as_str() {
            Some(text) => BridgeReply::error(id, text),
            None => BridgeReply::dismissed(id),
        };
        assert_eq!(
            built.to_json(),
            replies.messages[replies.settled_by],
            "{case}"
        );
    }
}
