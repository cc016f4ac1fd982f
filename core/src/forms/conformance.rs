//! The conformance suites of the form ports. Every submission store (in memory, SQLite,
//! PostgreSQL) runs [`form_store_conformance!`](crate::form_store_conformance); every key store
//! (in memory, SQL, Redis) runs [`key_store_conformance!`](crate::key_store_conformance); every
//! rate limiter (in memory, Redis) runs
//! [`rate_limiter_conformance!`](crate::rate_limiter_conformance).

use std::future::Future;
use std::pin::Pin;

use super::ports::{RateLimit, RateLimiter, SaveOutcome, SubmissionKeyStore, SubmissionStore};
use super::submission::{KEY_BYTES, NewSubmission, SubmissionKey, SubmittedValues, fingerprint};
use super::values::FieldValue;
use crate::owners::tables::{TABLE_PAGE_SIZE, TableQuery};

/// Generates one `#[tokio::test]` per check; `$make` builds a fresh, empty submission store.
#[macro_export]
macro_rules! form_store_conformance {
    ($make:expr) => {
        $crate::form_store_conformance!(@tests $make;
            a_key_stores_one_submission,
            a_retry_with_the_same_payload_is_replayed,
            a_key_reused_for_another_payload_is_refused,
            a_consumed_key_is_recalled,
            a_newsletter_address_is_stored_once_per_list,
            racing_saves_consume_a_key_once,
            many_saves_at_once_are_each_answered,
            a_failing_save_does_not_fail_the_others,
            submissions_are_paged_newest_first_and_searched,
        );
    };
    (@tests $make:expr; $($name:ident),* $(,)?) => {
        $(
            #[tokio::test]
            async fn $name() {
                let store = $make;
                $crate::forms::conformance::$name(&store).await;
            }
        )*
    };
}

/// Generates one `#[tokio::test]` per check; `$make` builds a fresh, empty key store.
#[macro_export]
macro_rules! key_store_conformance {
    ($make:expr) => {
        $crate::form_store_conformance!(@tests $make;
            an_issued_key_is_live_until_it_expires,
            an_unknown_key_is_not_live,
        );
    };
}

/// Generates one `#[tokio::test]` per check; `$make` builds a fresh rate limiter.
#[macro_export]
macro_rules! rate_limiter_conformance {
    ($make:expr) => {
        $crate::form_store_conformance!(@tests $make;
            the_limiter_refuses_past_the_limit_until_the_window_resets,
            buckets_are_counted_apart,
            a_short_window_leaves_a_longer_windows_count_alone,
            racing_hits_never_pass_the_limit,
            a_peek_tells_the_next_hit_without_counting,
        );
    };
}

pub const NOW: i64 = 1_700_000_000;

pub fn key(seed: u8) -> SubmissionKey {
    SubmissionKey::from_random([seed; KEY_BYTES])
}

pub fn submission(message: &str) -> NewSubmission {
    NewSubmission {
        form_id: "contact".into(),
        collection_id: Some("contact".into()),
        object_name: String::new(),
        is_overlay_form: false,
        values: SubmittedValues(vec![("message".into(), FieldValue::Single(message.into()))]),
        spam: false,
        subscription: None,
        created_at: NOW,
        follow_up: Default::default(),
    }
}

fn print(submission: &NewSubmission) -> String {
    fingerprint(
        &submission.form_id,
        &submission.object_name,
        &submission.values,
    )
}

pub async fn a_key_stores_one_submission<S: SubmissionStore>(store: &S) {
    let new = submission("hello");
    let outcome = store.save(&key(1), &print(&new), &new, NOW).await.unwrap();
    let SaveOutcome::Stored { id } = outcome else {
        panic!("expected a stored submission, got {outcome:?}");
    };
    let stored = store.list().await.unwrap();
    assert_eq!(stored.len(), 1);
    assert_eq!(stored[0].id, id);
    assert_eq!(stored[0].form_id, "contact");
    assert_eq!(stored[0].values_json, r#"{"message":"hello"}"#);
    assert_eq!(stored[0].created_at, NOW);
    assert!(!stored[0].spam);
}

/// The owner's table of submissions: pages of the newest first, counted in all, and a search
/// in the values, the form id and the form's name that takes `%` and `_` as plain text.
pub async fn submissions_are_paged_newest_first_and_searched<S: SubmissionStore>(store: &S) {
    for seed in 1..=30u8 {
        let message = match seed {
            7 => "Ask about 50% OFF".to_owned(),
            12 => "Order for ADA Lovelace".to_owned(),
            _ => format!("message {seed}"),
        };
        let mut new = submission(&message);
        new.created_at = NOW + i64::from(seed);
        if seed == 20 {
            new.object_name = "Catering request".into();
        }
        store
            .save(&key(100 + seed), &print(&new), &new, NOW)
            .await
            .unwrap();
    }
    let first = store
        .page(&TableQuery::page(None, 1).unwrap())
        .await
        .unwrap();
    assert_eq!(first.total, 30);
    assert_eq!(first.rows.len(), TABLE_PAGE_SIZE as usize);
    assert_eq!(first.rows[0].values_json, r#"{"message":"message 30"}"#);
    let second = store
        .page(&TableQuery::page(None, 2).unwrap())
        .await
        .unwrap();
    assert_eq!(second.total, 30);
    assert_eq!(second.rows.len(), 5);
    assert_eq!(second.rows[4].values_json, r#"{"message":"message 1"}"#);
    let beyond = store
        .page(&TableQuery::page(None, 3).unwrap())
        .await
        .unwrap();
    assert!(beyond.rows.is_empty());

    let found = |text: &'static str| async move {
        let page = store
            .page(&TableQuery::page(Some(text), 1).unwrap())
            .await
            .unwrap();
        (
            page.total,
            page.rows
                .iter()
                .map(|row| row.values_json.clone())
                .collect::<Vec<_>>(),
        )
    };
    assert_eq!(
        found("ada lovelace").await,
        (
            1,
            vec![r#"{"message":"Order for ADA Lovelace"}"#.to_owned()]
        )
    );
    assert_eq!(found("50%").await.0, 1);
    assert_eq!(found("50_").await.0, 0, "_ is no wildcard");
    assert_eq!(found("catering").await.0, 1, "the form's name is searched");
    assert_eq!(found("CONTACT").await.0, 30, "the form id is searched");
    assert_eq!(found("message 3").await.0, 2, "message 3 and message 30");
    assert_eq!(found("nobody").await, (0, vec![]));

    let export = store
        .page(&TableQuery::export(Some("age 1")).unwrap())
        .await
        .unwrap();
    assert_eq!(export.total, 10, "message 1, 10, 11 and 13 to 19");
    assert_eq!(export.rows.len(), 10);
}

pub async fn a_retry_with_the_same_payload_is_replayed<S: SubmissionStore>(store: &S) {
    let new = submission("hello");
    let first = store.save(&key(2), &print(&new), &new, NOW).await.unwrap();
    let again = store
        .save(&key(2), &print(&new), &new, NOW + 1)
        .await
        .unwrap();
    let (SaveOutcome::Stored { id }, SaveOutcome::Replayed { id: replayed }) = (first, again)
    else {
        panic!("expected stored then replayed, got {first:?} then {again:?}");
    };
    assert_eq!(id, replayed);
    assert_eq!(store.list().await.unwrap().len(), 1);
}

pub async fn a_key_reused_for_another_payload_is_refused<S: SubmissionStore>(store: &S) {
    let first = submission("hello");
    store
        .save(&key(3), &print(&first), &first, NOW)
        .await
        .unwrap();
    let other = submission("something else");
    let outcome = store
        .save(&key(3), &print(&other), &other, NOW)
        .await
        .unwrap();
    assert_eq!(outcome, SaveOutcome::KeyReused);
    assert_eq!(store.list().await.unwrap().len(), 1);
}

pub async fn a_consumed_key_is_recalled<S: SubmissionStore>(store: &S) {
    let new = submission("hello");
    let before = store.recall(&key(4), &print(&new)).await.unwrap();
    assert_eq!(before, SaveOutcome::KeyUnknown);
    let SaveOutcome::Stored { id } = store.save(&key(4), &print(&new), &new, NOW).await.unwrap()
    else {
        panic!("a fresh key stores");
    };
    let same = store.recall(&key(4), &print(&new)).await.unwrap();
    assert_eq!(same, SaveOutcome::Replayed { id });
    let other = store.recall(&key(4), "another fingerprint").await.unwrap();
    assert_eq!(other, SaveOutcome::KeyReused);
    assert_eq!(store.list().await.unwrap().len(), 1);
}

pub async fn a_newsletter_address_is_stored_once_per_list<S: SubmissionStore>(store: &S) {
    let signup = |list: &str| NewSubmission {
        form_id: list.into(),
        subscription: Some("ada@example.com".into()),
        ..submission("ada@example.com")
    };
    let mut ids = Vec::new();
    for (seed, list) in [(6, "letter"), (7, "letter"), (8, "other-list")] {
        let new = signup(list);
        match store
            .save(&key(seed), &print(&new), &new, NOW)
            .await
            .unwrap()
        {
            SaveOutcome::Stored { id } => ids.push(id),
            outcome => panic!("a signup is always answered as stored, got {outcome:?}"),
        }
    }
    assert_eq!(
        ids[0], ids[1],
        "the second signup gets the first subscription"
    );
    assert_ne!(ids[0], ids[2], "another list is another subscription");
    assert_eq!(store.list().await.unwrap().len(), 2);
}

pub async fn racing_saves_consume_a_key_once<S: SubmissionStore>(store: &S) {
    let payloads: Vec<NewSubmission> = (0..8).map(|n| submission(&format!("try {n}"))).collect();
    let prints: Vec<String> = payloads.iter().map(print).collect();
    let the_key = key(9);
    let outcomes = join_all(
        payloads
            .iter()
            .zip(&prints)
            .map(|(new, print)| store.save(&the_key, print, new, NOW))
            .collect(),
    )
    .await;
    let outcomes: Vec<SaveOutcome> = outcomes.into_iter().map(Result::unwrap).collect();
    let stored = outcomes
        .iter()
        .filter(|outcome| matches!(outcome, SaveOutcome::Stored { .. }))
        .count();
    assert_eq!(
        stored, 1,
        "exactly one of the racing saves stores: {outcomes:?}"
    );
    assert!(
        outcomes
            .iter()
            .all(|outcome| matches!(outcome, SaveOutcome::Stored { .. } | SaveOutcome::KeyReused)),
        "the others find the key used by another payload: {outcomes:?}"
    );
    assert_eq!(store.list().await.unwrap().len(), 1);
}

/// Many submissions arriving together (as a group-committing store gathers them into one
/// transaction) are each stored once, under their own id, and each answered.
pub async fn many_saves_at_once_are_each_answered<S: SubmissionStore>(store: &S) {
    let payloads: Vec<NewSubmission> = (0..40).map(|n| submission(&format!("n{n}"))).collect();
    let prints: Vec<String> = payloads.iter().map(print).collect();
    let keys: Vec<SubmissionKey> = (0..40).map(|n| key(100 + n)).collect();
    let outcomes = join_all(
        (0..40)
            .map(|n| store.save(&keys[n], &prints[n], &payloads[n], NOW))
            .collect(),
    )
    .await;
    let mut ids: Vec<i64> = outcomes
        .into_iter()
        .map(|outcome| match outcome.unwrap() {
            SaveOutcome::Stored { id } => id,
            other => panic!("a fresh key stores, got {other:?}"),
        })
        .collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 40, "each submission has its own id");
    let stored = store.list().await.unwrap();
    assert_eq!(stored.len(), 40);
    for n in 0..40 {
        let json = format!(r#"{{"message":"n{n}"}}"#);
        assert_eq!(
            stored.iter().filter(|row| row.values_json == json).count(),
            1,
            "submission n{n} is stored exactly once"
        );
    }
}

/// One submission the database refuses (PostgreSQL stores no NUL character in text) does
/// not take down the submissions saved together with it.
pub async fn a_failing_save_does_not_fail_the_others<S: SubmissionStore>(store: &S) {
    let mut payloads: Vec<NewSubmission> = (0..12).map(|n| submission(&format!("g{n}"))).collect();
    payloads[5].object_name = "bad\0name".into();
    let prints: Vec<String> = payloads.iter().map(print).collect();
    let keys: Vec<SubmissionKey> = (0..12).map(|n| key(200 + n)).collect();
    let outcomes = join_all(
        (0..12)
            .map(|n| store.save(&keys[n], &prints[n], &payloads[n], NOW))
            .collect(),
    )
    .await;
    for (n, outcome) in outcomes.iter().enumerate() {
        if n != 5 {
            assert!(
                matches!(outcome, Ok(SaveOutcome::Stored { .. })),
                "good submission {n} is stored whatever happens to the bad one: {outcome:?}"
            );
        }
    }
    let stored = store.list().await.unwrap();
    let expected = if outcomes[5].is_ok() { 12 } else { 11 };
    assert_eq!(stored.len(), expected);
}

pub async fn an_issued_key_is_live_until_it_expires<S: SubmissionKeyStore>(store: &S) {
    store.issue(&key(1), NOW + 60).await.unwrap();
    assert!(store.is_live(&key(1), NOW).await.unwrap());
    assert!(store.is_live(&key(1), NOW + 59).await.unwrap());
    assert!(!store.is_live(&key(1), NOW + 60).await.unwrap());
    assert!(!store.is_live(&key(2), NOW).await.unwrap());
}

pub async fn an_unknown_key_is_not_live<S: SubmissionKeyStore>(store: &S) {
    assert!(!store.is_live(&key(3), NOW).await.unwrap());
    store.issue(&key(4), NOW).await.unwrap();
    assert!(
        !store.is_live(&key(4), NOW).await.unwrap(),
        "a key expiring now is no longer live"
    );
}

const TWO_A_MINUTE: RateLimit = RateLimit {
    max: 2,
    window_seconds: 60,
};

pub async fn the_limiter_refuses_past_the_limit_until_the_window_resets<L: RateLimiter>(
    limiter: &L,
) {
    // NOW is 20 seconds into a minute.
    let start = NOW - NOW.rem_euclid(60);
    let first = limiter.hit("v", TWO_A_MINUTE, start + 1).await.unwrap();
    assert_eq!((first.allowed, first.limit, first.remaining), (true, 2, 1));
    let second = limiter.hit("v", TWO_A_MINUTE, start + 10).await.unwrap();
    assert_eq!((second.allowed, second.remaining), (true, 0));
    let third = limiter.hit("v", TWO_A_MINUTE, start + 50).await.unwrap();
    assert!(!third.allowed);
    assert_eq!((third.remaining, third.reset_after), (0, 10));
    let next_window = limiter.hit("v", TWO_A_MINUTE, start + 60).await.unwrap();
    assert!(next_window.allowed, "a new window starts a new count");
    assert_eq!(next_window.reset_after, 60);
}

pub async fn a_peek_tells_the_next_hit_without_counting<L: RateLimiter>(limiter: &L) {
    let start = NOW - NOW.rem_euclid(60);
    for _ in 0..5 {
        let fresh = limiter.peek("p", TWO_A_MINUTE, start + 1).await.unwrap();
        assert_eq!(
            (fresh.allowed, fresh.remaining),
            (true, 2),
            "a peek counts nothing"
        );
    }
    limiter.hit("p", TWO_A_MINUTE, start + 2).await.unwrap();
    let once = limiter.peek("p", TWO_A_MINUTE, start + 3).await.unwrap();
    assert_eq!((once.allowed, once.remaining), (true, 1));
    limiter.hit("p", TWO_A_MINUTE, start + 4).await.unwrap();
    let spent = limiter.peek("p", TWO_A_MINUTE, start + 50).await.unwrap();
    assert_eq!(
        (spent.allowed, spent.remaining, spent.reset_after),
        (false, 0, 10)
    );
    assert!(
        limiter
            .peek("other", TWO_A_MINUTE, start + 50)
            .await
            .unwrap()
            .allowed,
        "another bucket is counted apart"
    );
    let next_window = limiter.peek("p", TWO_A_MINUTE, start + 60).await.unwrap();
    assert!(next_window.allowed, "a new window starts a new count");
}

pub async fn buckets_are_counted_apart<L: RateLimiter>(limiter: &L) {
    for _ in 0..2 {
        assert!(limiter.hit("a", TWO_A_MINUTE, NOW).await.unwrap().allowed);
    }
    assert!(!limiter.hit("a", TWO_A_MINUTE, NOW).await.unwrap().allowed);
    assert!(limiter.hit("b", TWO_A_MINUTE, NOW).await.unwrap().allowed);
}

/// Buckets of ten minutes (checkout attempts) share a limiter with buckets of one minute
/// (every request); a hit on a one-minute bucket must not forget a ten-minute count.
pub async fn a_short_window_leaves_a_longer_windows_count_alone<L: RateLimiter>(limiter: &L) {
    let two_in_ten_minutes = RateLimit {
        max: 2,
        window_seconds: 600,
    };
    let start = NOW - NOW.rem_euclid(600);
    for _ in 0..2 {
        let hit = limiter.hit("long", two_in_ten_minutes, start + 1).await;
        assert!(hit.unwrap().allowed);
    }
    // Two minutes on, a one-minute bucket is hit; the ten-minute one is still spent.
    assert!(
        limiter
            .hit("short", TWO_A_MINUTE, start + 121)
            .await
            .unwrap()
            .allowed
    );
    let third = limiter
        .hit("long", two_in_ten_minutes, start + 122)
        .await
        .unwrap();
    assert!(!third.allowed, "the ten-minute count was kept");
    assert_eq!(third.reset_after, 600 - 122);
}

pub async fn racing_hits_never_pass_the_limit<L: RateLimiter>(limiter: &L) {
    let ten = RateLimit {
        max: 10,
        window_seconds: 60,
    };
    let decisions = join_all((0..25).map(|_| limiter.hit("race", ten, NOW)).collect()).await;
    let allowed = decisions
        .into_iter()
        .filter(|decision| decision.as_ref().unwrap().allowed)
        .count();
    assert_eq!(allowed, 10);
}

/// Polls futures together, so their store work interleaves as two servers' would, without
/// pulling a futures crate into the core for tests (the core has no runtime to spawn them on).
pub async fn join_all<F: Future + Unpin>(mut futures: Vec<F>) -> Vec<F::Output> {
    let mut outputs: Vec<Option<F::Output>> = futures.iter().map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut pending = false;
        for (future, output) in futures.iter_mut().zip(outputs.iter_mut()) {
            if output.is_none() {
                match Pin::new(&mut *future).poll(cx) {
                    std::task::Poll::Ready(out) => *output = Some(out),
                    std::task::Poll::Pending => pending = true,
                }
            }
        }
        if pending {
            std::task::Poll::Pending
        } else {
            std::task::Poll::Ready(())
        }
    })
    .await;
    outputs.into_iter().map(Option::unwrap).collect()
}
