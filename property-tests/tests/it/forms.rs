//! Forms: value shapes survive the trip through their JSON, the email and zip rules agree with
//! regular expressions written from the specification's wording, the counter counts what a
//! browser counts, and a key is consumed exactly once whatever the order of saves.

use std::collections::BTreeMap;
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

    /// Model: whatever the interleaving of concurrent submissions' steps (the key store's
    /// liveness check, then the save or the recall, as `FormService::submit` takes them),
    /// each issued key stores exactly one submission; a later submission with the same
    /// payload is a replay of it, one with another payload is refused, and an unissued key is
    /// unknown.
    #[test]
    fn a_key_is_consumed_once_under_any_interleaving_of_saves(
        issued in prop::collection::btree_set(0u8..4, 0..4),
        submissions in prop::collection::vec((0u8..4, 0u8..3), 0..12),
        schedule in prop::collection::vec(0usize..12, 0..40),
    ) {
        let store = MemoryFormStore::new();
        for seed in &issued {
            ready(store.issue(&SubmissionKey::from_random([*seed; KEY_BYTES]), 100)).unwrap();
        }
        let mut runs: Vec<Submission> = submissions
            .iter()
            .map(|(seed, payload)| Submission::new(*seed, *payload))
            .collect();
        // Advance the submissions in the generated order, then finish the rest.
        let count = runs.len();
        let rest = (0..count).flat_map(|index| [index, index]);
        for index in schedule.into_iter().filter(|index| *index < count).chain(rest) {
            runs[index].step(&store);
        }
        let mut stored_keys = 0;
        for seed in 0u8..4 {
            let mine: Vec<&Submission> = runs.iter().filter(|run| run.seed == seed).collect();
            if mine.is_empty() {
                continue;
            }
            if !issued.contains(&seed) {
                for run in &mine {
                    prop_assert_eq!(run.outcome(), SaveOutcome::KeyUnknown);
                }
                continue;
            }
            stored_keys += 1;
            let winners: Vec<&&Submission> = mine
                .iter()
                .filter(|run| matches!(run.outcome(), SaveOutcome::Stored { .. }))
                .collect();
            prop_assert_eq!(winners.len(), 1, "exactly one submission stores under key {}", seed);
            let SaveOutcome::Stored { id } = winners[0].outcome() else { unreachable!() };
            for run in &mine {
                let expected = if std::ptr::eq(*run, *winners[0]) {
                    SaveOutcome::Stored { id }
                } else if run.payload == winners[0].payload {
                    SaveOutcome::Replayed { id }
                } else {
                    SaveOutcome::KeyReused
                };
                prop_assert_eq!(run.outcome(), expected);
            }
        }
        prop_assert_eq!(ready(store.list()).unwrap().len(), stored_keys);
    }
}

/// One submission's progress through the ports.
struct Submission {
    seed: u8,
    payload: u8,
    state: Step,
}

enum Step {
    Start,
    Checked { live: bool },
    Done(SaveOutcome),
}

impl Submission {
    fn new(seed: u8, payload: u8) -> Self {
        Self {
            seed,
            payload,
            state: Step::Start,
        }
    }

    fn values(&self) -> NewSubmission {
        NewSubmission {
            form_id: "f".into(),
            collection_id: None,
            object_name: String::new(),
            is_overlay_form: false,
            values: SubmittedValues(vec![(
                "v".into(),
                FieldValue::Single(self.payload.to_string()),
            )]),
            spam: false,
            subscription: None,
            created_at: 0,
            follow_up: Default::default(),
        }
    }

    fn step(&mut self, store: &MemoryFormStore) {
        let key = SubmissionKey::from_random([self.seed; KEY_BYTES]);
        let submission = self.values();
        let print = fingerprint("f", "", &submission.values);
        self.state = match self.state {
            Step::Start => Step::Checked {
                live: ready(store.is_live(&key, 0)).unwrap(),
            },
            Step::Checked { live: true } => {
                Step::Done(ready(store.save(&key, &print, &submission, 0)).unwrap())
            }
            Step::Checked { live: false } => Step::Done(ready(store.recall(&key, &print)).unwrap()),
            Step::Done(outcome) => Step::Done(outcome),
        };
    }

    fn outcome(&self) -> SaveOutcome {
        match self.state {
            Step::Done(outcome) => outcome,
            _ => panic!("every submission finishes"),
        }
    }
}
