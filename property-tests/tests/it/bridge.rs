//! The bridge envelope: every valid request survives a round trip, ids are accepted exactly
//! when a reference pattern accepts them, no input makes parsing panic, and every refusal that
//! knows its id answers it with the same id.

use proptest::prelude::*;
use regex::Regex;
use serde_json::Value;
use vitrine_core::bridge::{
    BridgeCall, BridgeError, BridgeReply, BridgeRequest, InfoResult, MAX_MESSAGE_BYTES, MessageId,
    name_not_found,
};

fn message_id() -> impl Strategy<Value = MessageId> {
    "[A-Za-z0-9_-]{1,64}".prop_map(|id| MessageId::parse(&id).unwrap())
}

fn info() -> impl Strategy<Value = InfoResult> {
    (
        any::<String>(),
        any::<u32>(),
        any::<bool>(),
        any::<String>(),
        proptest::collection::btree_map(any::<String>(), any::<String>(), 0..4),
    )
        .prop_map(
            |(page_type, cart_count, signed_in, locale, experiments)| InfoResult {
                page_type,
                cart_count,
                signed_in,
                locale,
                experiments,
            },
        )
}

fn call() -> impl Strategy<Value = BridgeCall> {
    prop_oneof![
        info().prop_map(BridgeCall::Info),
        proptest::option::of(any::<String>()).prop_map(|back_url| BridgeCall::Dismiss { back_url }),
    ]
}

fn request() -> impl Strategy<Value = BridgeRequest> {
    (message_id(), call()).prop_map(|(id, call)| BridgeRequest { id, call })
}

fn envelope(id: &str, name: &str) -> String {
    serde_json::json!({"v": 1, "id": id, "name": name, "payload": {}}).to_string()
}

proptest! {
    #[test]
    fn a_valid_request_round_trips(request in request()) {
        let json = request.to_json();
        prop_assume!(json.len() <= MAX_MESSAGE_BYTES);
        prop_assert_eq!(BridgeRequest::parse(&json), Ok(request));
    }

    #[test]
    fn ids_are_accepted_exactly_when_the_pattern_matches(text in "[A-Za-z0-9_\\-\\. \"é]{0,70}") {
        let pattern = Regex::new("^[A-Za-z0-9_-]{1,64}$").unwrap();
        prop_assert_eq!(MessageId::parse(&text).is_ok(), pattern.is_match(&text));
    }

    #[test]
    fn no_input_panics_and_what_passes_is_valid(message in any::<String>()) {
        if let Ok(request) = BridgeRequest::parse(&message) {
            prop_assert!(message.len() <= MAX_MESSAGE_BYTES);
            prop_assert_eq!(BridgeRequest::parse(&request.to_json()), Ok(request));
        }
    }

    #[test]
    fn an_unknown_name_is_answered_with_the_spec_text(id in message_id(), name in any::<String>()) {
        prop_assume!(name != "info" && name != "dismiss");
        let message = envelope(id.as_str(), &name);
        prop_assume!(message.len() <= MAX_MESSAGE_BYTES);
        let rejected = BridgeRequest::parse(&message).unwrap_err();
        prop_assert_eq!(&rejected.error, &BridgeError::UnknownName { name: name.clone() });
        let reply: Value = serde_json::from_str(&rejected.reply().unwrap().to_json()).unwrap();
        prop_assert_eq!(&reply["id"], id.as_str());
        prop_assert_eq!(&reply["ok"], false);
        let expected = name_not_found(&name);
        prop_assert_eq!(&reply["error"], expected.as_str());
    }

    #[test]
    fn anything_over_the_limit_is_dropped(id in message_id(), extra in 1usize..4_000) {
        let padding = "x".repeat(MAX_MESSAGE_BYTES + extra);
        let message = envelope(id.as_str(), &padding);
        let rejected = BridgeRequest::parse(&message).unwrap_err();
        prop_assert_eq!(rejected.id, None);
        prop_assert_eq!(rejected.error, BridgeError::TooLarge { bytes: message.len() });
    }

    #[test]
    fn an_info_reply_carries_every_field(id in message_id(), info in info()) {
        let reply: Value = serde_json::from_str(&BridgeReply::info(id.clone(), info.clone()).to_json()).unwrap();
        prop_assert_eq!(&reply["v"], 1);
        prop_assert_eq!(&reply["id"], id.as_str());
        prop_assert_eq!(&reply["ok"], true);
        let result: InfoResult = serde_json::from_value(reply["result"].clone()).unwrap();
        prop_assert_eq!(result, info);
    }
}
