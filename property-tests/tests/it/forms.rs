//! Forms: value shapes survive the trip through their JSON, the email and zip rules agree with
//! regular expressions written from the specification's wording, the counter counts what a
//! browser counts, and a key is consumed exactly once whatever the order of saves.

use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::task::{Context, Poll, Waker};

use proptest::prelude::*;
use vitrine_core::forms::memory::MemoryFormStore;
use vitrine_core::forms::model::FieldKind;
use vitrine_core::forms::submission::{KEY_BYTES, fingerprint};
use vitrine_core::forms::validation::{counter_text, is_valid_email, is_valid_us_zip};
use vitrine_core::forms::{
    FieldValue, NewSubmission, SaveOutcome, SubmissionKey, SubmissionKeyStore, SubmissionStore,
    SubmittedValues,
};

/// The in-memory store never waits, so its futures finish on the first poll.
fn ready<F: Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    match future
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
    {
        Poll::Ready(output) => output,
        Poll::Pending => panic!("the in-memory store never waits"),
    }
}

fn part() -> impl Strategy<Value = String> {
    prop_oneof![Just(String::new()), "[A-Za-z0-9 ]{1,8}"]
}

/// A field type with a value of its shape.
fn kind_and_value() -> impl Strategy<Value = (FieldKind, FieldValue)> {
    let parts = |kind: FieldKind, count: usize| {
        prop::collection::vec(part(), count)
            .prop_map(move |parts| (kind.clone(), FieldValue::List(parts)))
    };
    prop_oneof![
        part().prop_map(|text| (FieldKind::Text, FieldValue::Single(text))),
        part().prop_map(|text| (FieldKind::Email, FieldValue::Single(text))),
        parts(FieldKind::Name, 2),
        parts(FieldKind::Date, 3),
        parts(FieldKind::Time, 4),
        parts(FieldKind::Address, 6),
        parts(
            FieldKind::Phone {
                show_country_code: true
            },
            4
        ),
        prop::collection::vec(part(), 0..4).prop_map(|checked| (
            FieldKind::Checkbox { options: vec![] },
            FieldValue::List(checked)
        )),
        prop::collection::btree_map(
            "[A-Za-z ]{1,6}",
            prop::sample::select(vec!["-2", "-1", "0", "1", "2"]),
            0..4
        )
        .prop_map(|answers| (
            FieldKind::Likert { statements: vec![] },
            FieldValue::Map(
                answers
                    .into_iter()
                    .map(|(k, v)| (k, v.to_owned()))
                    .collect::<BTreeMap<_, _>>()
            )
        )),
    ]
}

fn spec_email() -> regex::Regex {
    // Written from 000 s5: a local part, an at sign, a domain, a dot and a final part of 2 to
    // 4 alphanumerics; the length (3 to 256) is checked beside it.
    regex::Regex::new(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9.-]+\.[A-Za-z0-9]{2,4}$")
        .unwrap()
}

fn email_like() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z0-9.+_-]{0,6}@[a-z0-9.-]{0,6}\\.[a-z0-9]{0,5}",
        "[a-z@. ]{0,12}",
        ".{0,12}",
        "[a-z]{240,260}@b\\.co",
    ]
}

proptest! {
    #[test]
    fn value_shapes_round_trip_through_json((kind, value) in kind_and_value()) {
        let json = value.to_json();
        prop_assert_eq!(FieldValue::from_json("f", &kind, Some(&json)).unwrap(), value);
    }

    #[test]
    fn a_three_part_phone_reads_as_four(parts in prop::collection::vec(part(), 3)) {
        let kind = FieldKind::Phone { show_country_code: false };
        let json = serde_json::to_value(&parts).unwrap();
        let value = FieldValue::from_json("f", &kind, Some(&json)).unwrap();
        let mut expected = vec![String::new()];
        expected.extend(parts);
        prop_assert_eq!(value, FieldValue::List(expected));
    }

    #[test]
    fn the_email_rule_matches_the_spec_wording(email in email_like()) {
        let length = email.chars().count();
        let expected = (3..=256).contains(&length) && spec_email().is_match(&email);
        prop_assert_eq!(is_valid_email(&email), expected, "{}", email);
    }

    #[test]
    fn the_zip_rule_is_exactly_five_digits(zip in prop_oneof!["[0-9]{3,7}", ".{0,6}"]) {
        let expected = regex::Regex::new(r"^[0-9]{5}$").unwrap().is_match(&zip);
        prop_assert_eq!(is_valid_us_zip(&zip), expected);
    }

    #[test]
    fn the_counter_counts_what_a_browser_counts(text in ".{0,20}", max in 0u32..30) {
        let counter = counter_text(&text, &max.to_string());
        if max == 0 {
            prop_assert_eq!(counter, None);
        } else {
            let count = text.encode_utf16().count();
            prop_assert_eq!(counter, Some((format!("{count} / {max}"), count > max as usize)));
        }
    }

    /// Model: a key stores the first payload saved with it; the same payload again is a
    /// replay of that submission, another payload is refused, an unissued key is unknown.
    #[test]
    fn a_key_is_consumed_once_under_any_order_of_saves(
        issued in prop::collection::btree_set(0u8..4, 0..4),
        saves in prop::collection::vec((0u8..4, 0u8..3), 0..16),
    ) {
        let store = MemoryFormStore::new();
        for seed in &issued {
            ready(store.issue(&SubmissionKey::from_random([*seed; KEY_BYTES]), 100)).unwrap();
        }
        let mut consumed: HashMap<u8, (u8, i64)> = HashMap::new();
        let mut next_id = 1;
        for (seed, payload) in saves {
            let submission = NewSubmission {
                form_id: "f".into(),
                collection_id: None,
                object_name: String::new(),
                is_overlay_form: false,
                values: SubmittedValues(vec![("v".into(), FieldValue::Single(payload.to_string()))]),
                spam: false,
                subscription: None,
                created_at: 0,
                follow_up: Default::default(),
            };
            let print = fingerprint("f", "", &submission.values);
            let key = SubmissionKey::from_random([seed; KEY_BYTES]);
            let outcome = ready(store.save(&key, &print, &submission, 0)).unwrap();
            let expected = match consumed.get(&seed) {
                _ if !issued.contains(&seed) => SaveOutcome::KeyUnknown,
                None => {
                    consumed.insert(seed, (payload, next_id));
                    next_id += 1;
                    SaveOutcome::Stored { id: next_id - 1 }
                }
                Some((first, id)) if *first == payload => SaveOutcome::Replayed { id: *id },
                Some(_) => SaveOutcome::KeyReused,
            };
            prop_assert_eq!(outcome, expected);
        }
        prop_assert_eq!(ready(store.list()).unwrap().len(), consumed.len());
    }
}
