//! The conformance suite every form store (key store plus submission store) must pass: the
//! in-memory one, SQLite and PostgreSQL run the same assertions through
//! [`form_store_conformance!`](crate::form_store_conformance).

use super::ports::{SaveOutcome, SubmissionKeyStore, SubmissionStore};
use super::submission::{KEY_BYTES, NewSubmission, SubmissionKey, SubmittedValues, fingerprint};
use super::values::FieldValue;

/// Generates one `#[tokio::test]` per check; `$make` builds a fresh, empty store.
#[macro_export]
macro_rules! form_store_conformance {
    ($make:expr) => {
        $crate::form_store_conformance!(@tests $make;
            a_key_stores_one_submission,
            a_retry_with_the_same_payload_is_replayed,
            a_key_reused_for_another_payload_is_refused,
            unknown_and_expired_keys_are_refused,
            a_newsletter_address_is_stored_once_per_list,
            racing_saves_consume_a_key_once,
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

pub async fn a_key_stores_one_submission<S: SubmissionKeyStore + SubmissionStore>(store: &S) {
    store.issue(&key(1), NOW + 60).await.unwrap();
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

pub async fn a_retry_with_the_same_payload_is_replayed<S: SubmissionKeyStore + SubmissionStore>(
    store: &S,
) {
    store.issue(&key(2), NOW + 60).await.unwrap();
    let new = submission("hello");
    let first = store.save(&key(2), &print(&new), &new, NOW).await.unwrap();
    // A retry after the key expired still gets the first answer: the submission was made.
    let again = store
        .save(&key(2), &print(&new), &new, NOW + 120)
        .await
        .unwrap();
    let (SaveOutcome::Stored { id }, SaveOutcome::Replayed { id: replayed }) = (first, again)
    else {
        panic!("expected stored then replayed, got {first:?} then {again:?}");
    };
    assert_eq!(id, replayed);
    assert_eq!(store.list().await.unwrap().len(), 1);
}

pub async fn a_key_reused_for_another_payload_is_refused<
    S: SubmissionKeyStore + SubmissionStore,
>(
    store: &S,
) {
    store.issue(&key(3), NOW + 60).await.unwrap();
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

pub async fn unknown_and_expired_keys_are_refused<S: SubmissionKeyStore + SubmissionStore>(
    store: &S,
) {
    let new = submission("hello");
    let unknown = store.save(&key(4), &print(&new), &new, NOW).await.unwrap();
    assert_eq!(unknown, SaveOutcome::KeyUnknown);
    store.issue(&key(5), NOW).await.unwrap();
    let expired = store.save(&key(5), &print(&new), &new, NOW).await.unwrap();
    assert_eq!(expired, SaveOutcome::KeyUnknown);
    assert!(store.list().await.unwrap().is_empty());
}

pub async fn a_newsletter_address_is_stored_once_per_list<
    S: SubmissionKeyStore + SubmissionStore,
>(
    store: &S,
) {
    let signup = |list: &str| NewSubmission {
        form_id: list.into(),
        subscription: Some("ada@example.com".into()),
        ..submission("ada@example.com")
    };
    let mut ids = Vec::new();
    for (seed, list) in [(6, "letter"), (7, "letter"), (8, "other-list")] {
        store.issue(&key(seed), NOW + 60).await.unwrap();
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

pub async fn racing_saves_consume_a_key_once<S: SubmissionKeyStore + SubmissionStore>(store: &S) {
    store.issue(&key(9), NOW + 60).await.unwrap();
    let one = submission("one");
    let two = submission("two");
    let (the_key, print_one, print_two) = (key(9), print(&one), print(&two));
    let (a, b) = (
        store.save(&the_key, &print_one, &one, NOW),
        store.save(&the_key, &print_two, &two, NOW),
    );
    let (a, b) = futures_join(a, b).await;
    let stored = [a.unwrap(), b.unwrap()]
        .iter()
        .filter(|outcome| matches!(outcome, SaveOutcome::Stored { .. }))
        .count();
    assert_eq!(stored, 1, "exactly one of two racing saves stores");
    assert_eq!(store.list().await.unwrap().len(), 1);
}

/// Polls two futures together, so their database work interleaves, without pulling a futures
/// crate into the core for one test.
async fn futures_join<A: std::future::Future, B: std::future::Future>(
    a: A,
    b: B,
) -> (A::Output, B::Output) {
    let mut a = std::pin::pin!(a);
    let mut b = std::pin::pin!(b);
    let mut a_out = None;
    let mut b_out = None;
    std::future::poll_fn(|cx| {
        if a_out.is_none()
            && let std::task::Poll::Ready(out) = a.as_mut().poll(cx)
        {
            a_out = Some(out);
        }
        if b_out.is_none()
            && let std::task::Poll::Ready(out) = b.as_mut().poll(cx)
        {
            b_out = Some(out);
        }
        if a_out.is_some() && b_out.is_some() {
            std::task::Poll::Ready(())
        } else {
            std::task::Poll::Pending
        }
    })
    .await;
    (a_out.unwrap(), b_out.unwrap())
}
