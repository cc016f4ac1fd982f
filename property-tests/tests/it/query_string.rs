//! The query-string parser never panics and never exceeds its limits, whatever it is given.

use proptest::prelude::*;
use serde_json::Value;
use vitrine_core::query_string::{ARRAY_LIMIT, DEPTH, PARAMETER_LIMIT, parse};

/// A key piece: names, bracket groups (including indices around the array limit), stray
/// brackets and escapes.
fn key_part() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[a-c]{1,2}",
        3 => (0usize..30).prop_map(|i| format!("[{i}]")),
        3 => "[a-c]{1,2}".prop_map(|name| format!("[{name}]")),
        2 => Just("[]".to_owned()),
        1 => prop_oneof![Just("["), Just("]"), Just("%5B"), Just("%5D"), Just("%"), Just("+"), Just("=")]
            .prop_map(str::to_owned),
    ]
}

fn piece() -> impl Strategy<Value = String> {
    let key = prop::collection::vec(key_part(), 0..10).prop_map(|parts| parts.concat());
    let value = prop_oneof![Just(String::new()), "[a-z0-9%+]{0,6}"];
    prop_oneof![
        6 => (key, value).prop_map(|(k, v)| format!("{k}={v}")),
        1 => "[a-c\\[\\]]{0,5}",
    ]
}

/// Structured queries that exercise nesting and merging, or arbitrary text.
fn query() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::collection::vec(piece(), 0..30).prop_map(|pieces| pieces.join("&")),
        1 => ".{0,200}",
    ]
}

/// How many containers are nested along the deepest path (the root object counts as one).
fn depth(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
        Value::Object(entries) => 1 + entries.values().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

/// How many plain values (strings and merge flags) the tree holds.
fn leaves(value: &Value) -> usize {
    match value {
        Value::Array(items) => items.iter().map(leaves).sum(),
        Value::Object(entries) => entries.values().map(leaves).sum(),
        _ => 1,
    }
}

proptest! {
    #[test]
    fn never_panics_and_respects_limits(query in query()) {
        let parsed = parse(&query);
        prop_assert!(parsed.is_object());
        let pieces = query.strip_prefix('?').unwrap_or(&query).split('&').count().min(PARAMETER_LIMIT);
        prop_assert!(leaves(&parsed) <= pieces, "{} leaves from {} pieces", leaves(&parsed), pieces);
        // The root, the parent key, DEPTH groups and the literal rest make DEPTH + 2 levels of
        // keys; a repeated key's array and one merge of a value with an object add one each.
        prop_assert!(depth(&parsed) <= DEPTH + 4, "depth {} for {:?}", depth(&parsed), parsed);
    }

    #[test]
    fn indices_above_the_array_limit_are_object_keys(index in 0usize..200, value in "[a-z]{1,4}") {
        let parsed = parse(&format!("list[{index}]={value}"));
        if index <= ARRAY_LIMIT {
            prop_assert_eq!(&parsed["list"], &serde_json::json!([value]));
        } else {
            prop_assert_eq!(&parsed["list"][index.to_string()], &Value::String(value));
        }
    }

    #[test]
    fn keys_deeper_than_the_limit_keep_the_rest_literal(names in prop::collection::vec("[a-z]{1,3}", 1..12)) {
        let key: String = names.iter().map(|name| format!("[{name}]")).collect();
        let parsed = parse(&format!("root{key}=v"));
        let mut node = &parsed["root"];
        for name in names.iter().take(DEPTH) {
            node = &node[name.as_str()];
        }
        if names.len() > DEPTH {
            let rest: String = names[DEPTH..].iter().map(|name| format!("[{name}]")).collect();
            node = &node[rest.as_str()];
        }
        prop_assert_eq!(node, &Value::String("v".to_owned()));
    }

    #[test]
    fn parameters_beyond_the_limit_are_ignored(count in 990usize..1_100) {
        let query: Vec<String> = (0..count).map(|i| format!("p{i}=x")).collect();
        let parsed = parse(&query.join("&"));
        prop_assert_eq!(parsed.as_object().map(|o| o.len()), Some(count.min(PARAMETER_LIMIT)));
    }
}
