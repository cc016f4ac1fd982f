//! The plural rule of 001 s5 over generated messages: a message parses for a locale exactly
//! when each of its plural keys is one of the locale's CLDR categories or an explicit `=N`, the
//! refusal names a key the locale lacks, and an accepted message formats every count with the
//! `=N` branch when there is one. The reference model is a small table of categories for a few
//! locales, read off CLDR, standing apart from the ICU4X data the core uses.

use std::collections::BTreeSet;

use proptest::prelude::*;
use vitrine_core::languages::{LanguageTag, Message, MessageError, MessageValue};

/// CLDR's cardinal plural categories of a few locales with different rules.
const MODEL: &[(&str, &[&str])] = &[
    ("en-US", &["one", "other"]),
    ("fr-FR", &["one", "many", "other"]),
    ("pl", &["one", "few", "many", "other"]),
    ("ru", &["one", "few", "many", "other"]),
    ("ar", &["zero", "one", "two", "few", "many", "other"]),
    ("ja", &["other"]),
];

const CATEGORIES: &[&str] = &["zero", "one", "two", "few", "many"];

/// A plural message's keys: some categories, some `=N`, and always `other`.
fn keys() -> impl Strategy<Value = Vec<String>> {
    (
        proptest::sample::subsequence(CATEGORIES, 0..=CATEGORIES.len()),
        proptest::collection::btree_set(0u8..20, 0..4),
    )
        .prop_map(|(categories, explicit)| {
            let mut keys: Vec<String> = categories.iter().map(|key| (*key).to_owned()).collect();
            keys.extend(explicit.iter().map(|n| format!("={n}")));
            keys.push("other".to_owned());
            keys
        })
}

fn message(keys: &[String], nested: bool) -> String {
    let branches: String = keys
        .iter()
        .map(|key| format!(" {key} {{{key}:#}}"))
        .collect();
    let plural = format!("{{n, plural,{branches}}}");
    if nested {
        format!("{{kind, select, a {{A {plural}}} other {{{plural}}}}}")
    } else {
        format!("Cart: {plural}")
    }
}

proptest! {
    #[test]
    fn plural_keys_are_the_locales_or_explicit(
        (locale, categories) in proptest::sample::select(MODEL),
        keys in keys(),
        nested in any::<bool>(),
    ) {
        let tag = LanguageTag::parse(locale).unwrap();
        let text = message(&keys, nested);
        let allowed: BTreeSet<&str> = categories.iter().copied().collect();
        let foreign: Vec<&String> = keys
            .iter()
            .filter(|key| !key.starts_with('=') && !allowed.contains(key.as_str()))
            .collect();
        match Message::parse("cart.itemCount", &text, &tag) {
            Ok(parsed) => {
                prop_assert!(foreign.is_empty(), "{text} passed for {locale}");
                for n in 0..20i64 {
                    let shown = parsed.format(&tag, &[("n", MessageValue::Number(n)), ("kind", MessageValue::Text("b"))]);
                    let exact = format!("={n}:");
                    if keys.contains(&format!("={n}")) {
                        prop_assert!(shown.contains(&exact), "{shown} for {n}");
                    } else {
                        prop_assert!(!shown.contains('='), "{shown} for {n}");
                    }
                    prop_assert!(shown.ends_with(&n.to_string()), "{shown} for {n}");
                }
            }
            Err(MessageError::InvalidPluralKey { selector, locale: named, .. }) => {
                prop_assert!(foreign.contains(&&selector), "{selector} refused in {text}");
                prop_assert_eq!(named, tag.to_string());
            }
            Err(other) => prop_assert!(false, "{text}: {other}"),
        }
    }
}
