//! The conformance suite of the delivery outbox and the newsletter subscriptions: the
//! in-memory store, SQLite and PostgreSQL run the same assertions through
//! [`delivery_store_conformance!`](crate::delivery_store_conformance).

use super::conformance::{NOW, key, submission};
use super::outbox::{
    DeliveryKind, DeliveryOutbox, FollowUp, NewsletterSubscriptions, SubscriptionTokens,
    TokenOutcome,
};
use super::ports::{SaveOutcome, SubmissionKeyStore, SubmissionStore};
use super::submission::{NewSubmission, fingerprint};

/// Generates one `#[tokio::test]` per check; `$make` builds a fresh, empty store.
#[macro_export]
macro_rules! delivery_store_conformance {
    ($make:expr) => {
        $crate::delivery_store_conformance!(@tests $make;
            a_stored_submission_enqueues_its_deliveries_once,
            a_claimed_delivery_waits_for_its_lease,
            retries_deliveries_and_give_ups_are_recorded,
            subscribers_confirm_and_unsubscribe_through_their_tokens,
            an_addresss_live_subscriptions_are_found_without_case,
            the_owners_subscriber_table_is_paged_and_searched,
            an_erased_address_has_no_subscriptions_left,
            a_composed_mail_is_delivered_whole,
            withdrawn_mails_are_never_sent,
        );
    };
    (@tests $make:expr; $($name:ident),* $(,)?) => {
        $(
            #[tokio::test]
            async fn $name() {
                let store = $make;
                $crate::forms::outbox_conformance::$name(&store).await;
            }
        )*
    };
}

const NOW_MS: i64 = NOW * 1000;

fn with_deliveries(message: &str) -> NewSubmission {
    NewSubmission {
        follow_up: FollowUp {
            deliveries: vec![DeliveryKind::OwnerEmail, DeliveryKind::Webhook],
            tokens: None,
        },
        ..submission(message)
    }
}

pub async fn store_one<S: SubmissionKeyStore + SubmissionStore>(
    store: &S,
    seed: u8,
    new: &NewSubmission,
) -> SaveOutcome {
    store.issue(&key(seed), NOW + 60).await.unwrap();
    let print = fingerprint(&new.form_id, &new.object_name, &new.values);
    store.save(&key(seed), &print, new, NOW).await.unwrap()
}

pub async fn a_stored_submission_enqueues_its_deliveries_once<
    S: SubmissionKeyStore + SubmissionStore + DeliveryOutbox,
>(
    store: &S,
) {
    let new = with_deliveries("hello");
    let SaveOutcome::Stored { id } = store_one(store, 1, &new).await else {
        panic!("stored")
    };
    let print = fingerprint(&new.form_id, &new.object_name, &new.values);
    let replay = store.save(&key(1), &print, &new, NOW).await.unwrap();
    assert_eq!(replay, SaveOutcome::Replayed { id });
    let records = store.deliveries().await.unwrap();
    let kinds: Vec<_> = records.iter().map(|r| (r.submission_id, r.kind)).collect();
    assert_eq!(
        kinds,
        [
            (Some(id), DeliveryKind::OwnerEmail),
            (Some(id), DeliveryKind::Webhook)
        ],
        "a replay enqueues nothing more"
    );
    assert!(
        records
            .iter()
            .all(|r| r.attempts == 0 && r.next_attempt_ms == NOW_MS && r.delivered_ms.is_none())
    );
}

pub async fn a_claimed_delivery_waits_for_its_lease<
    S: SubmissionKeyStore + SubmissionStore + DeliveryOutbox,
>(
    store: &S,
) {
    store_one(store, 2, &with_deliveries("lease")).await;
    let claimed = store.claim_due(NOW_MS, 1_000, 10).await.unwrap();
    assert_eq!(claimed.len(), 2);
    assert_eq!(
        claimed[0].submission().map(|s| s.values_json.as_str()),
        Some(r#"{"message":"lease"}"#)
    );
    assert!(
        store
            .claim_due(NOW_MS + 999, 1_000, 10)
            .await
            .unwrap()
            .is_empty(),
        "a claimed delivery is not handed out twice"
    );
    let again = store.claim_due(NOW_MS + 1_000, 1_000, 1).await.unwrap();
    assert_eq!(
        again.len(),
        1,
        "a lease that ran out (a worker that died) frees the delivery; the limit holds"
    );
}

pub async fn retries_deliveries_and_give_ups_are_recorded<
    S: SubmissionKeyStore + SubmissionStore + DeliveryOutbox,
>(
    store: &S,
) {
    store_one(store, 3, &with_deliveries("retry")).await;
    let claimed = store.claim_due(NOW_MS, 100, 10).await.unwrap();
    let (first, second) = (claimed[0].id, claimed[1].id);
    store
        .schedule_retry(first, 1, NOW_MS + 5_000, "connection refused")
        .await
        .unwrap();
    store.give_up(second, 1, "550 no such user").await.unwrap();
    assert!(
        store
            .claim_due(NOW_MS + 4_999, 100, 10)
            .await
            .unwrap()
            .is_empty()
    );
    let retried = store.claim_due(NOW_MS + 5_000, 100, 10).await.unwrap();
    assert_eq!(retried.len(), 1, "a given-up delivery is not tried again");
    assert_eq!((retried[0].id, retried[0].attempts), (first, 1));
    store.mark_delivered(first, NOW_MS + 5_001).await.unwrap();
    assert!(
        store
            .claim_due(i64::MAX / 2, 100, 10)
            .await
            .unwrap()
            .is_empty()
    );
    let records = store.deliveries().await.unwrap();
    assert_eq!(records[0].delivered_ms, Some(NOW_MS + 5_001));
    assert_eq!(records[0].attempts, 2);
    assert!(records[1].failed);
    assert_eq!(records[1].last_error.as_deref(), Some("550 no such user"));
}

pub async fn subscribers_confirm_and_unsubscribe_through_their_tokens<
    S: SubmissionKeyStore + SubmissionStore + DeliveryOutbox + NewsletterSubscriptions,
>(
    store: &S,
) {
    let (confirm, unsubscribe) = ("c".repeat(64), "u".repeat(64));
    let signup = |tokens: SubscriptionTokens| NewSubmission {
        form_id: "letter".into(),
        subscription: Some("ada@example.com".into()),
        follow_up: FollowUp {
            deliveries: vec![DeliveryKind::SubscriptionConfirmation],
            tokens: Some(tokens),
        },
        ..submission("ada@example.com")
    };
    let first = signup(SubscriptionTokens {
        unsubscribe: unsubscribe.clone(),
        confirm: Some(confirm.clone()),
    });
    let SaveOutcome::Stored { id } = store_one(store, 4, &first).await else {
        panic!("stored")
    };
    let subscriber = store.subscriber_by_token(&confirm).await.unwrap().unwrap();
    assert_eq!(
        (
            subscriber.submission_id,
            subscriber.list.as_str(),
            subscriber.email.as_str()
        ),
        (id, "letter", "ada@example.com")
    );
    assert!(!subscriber.confirmed && !subscriber.unsubscribed);
    let claimed = store.claim_due(NOW_MS, 100, 10).await.unwrap();
    assert_eq!(claimed.len(), 1);
    assert_eq!(claimed[0].subscriber(), Some(&subscriber));

    let owner = [DeliveryKind::Webhook];
    assert_eq!(
        store.confirm(&confirm, &owner, NOW).await.unwrap(),
        TokenOutcome::Done
    );
    assert_eq!(
        store.confirm(&confirm, &owner, NOW).await.unwrap(),
        TokenOutcome::AlreadyDone
    );
    assert_eq!(
        store.confirm(&"0".repeat(64), &owner, NOW).await.unwrap(),
        TokenOutcome::Unknown
    );
    let kinds: Vec<_> = store
        .deliveries()
        .await
        .unwrap()
        .iter()
        .map(|r| r.kind)
        .collect();
    assert_eq!(
        kinds,
        [
            DeliveryKind::SubscriptionConfirmation,
            DeliveryKind::Webhook
        ],
        "confirming enqueues the owner's deliveries once"
    );
    assert!(
        store
            .subscriber_by_token(&unsubscribe)
            .await
            .unwrap()
            .unwrap()
            .confirmed
    );

    assert_eq!(
        store.unsubscribe(&unsubscribe, NOW).await.unwrap(),
        TokenOutcome::Done
    );
    assert_eq!(
        store.unsubscribe(&unsubscribe, NOW).await.unwrap(),
        TokenOutcome::AlreadyDone
    );
    assert!(
        store
            .subscriber_by_token(&unsubscribe)
            .await
            .unwrap()
            .unwrap()
            .unsubscribed
    );
    let again = signup(SubscriptionTokens {
        unsubscribe: "v".repeat(64),
        confirm: Some("d".repeat(64)),
    });
    match store_one(store, 5, &again).await {
        SaveOutcome::Stored { id: new_id } => {
            assert_ne!(new_id, id, "an unsubscribed address signs up afresh")
        }
        outcome => panic!("stored, got {outcome:?}"),
    }
}

/// A single opt-in sign-up of `email` to `list`, whose unsubscribe token is `n` in hex,
/// repeated.
pub fn newsletter_signup(list: &str, email: &str, n: u8) -> NewSubmission {
    NewSubmission {
        form_id: list.into(),
        subscription: Some(email.into()),
        follow_up: FollowUp {
            deliveries: vec![],
            tokens: Some(SubscriptionTokens {
                unsubscribe: format!("{n:x}").repeat(64),
                confirm: None,
            }),
        },
        ..submission(email)
    }
}

pub async fn an_addresss_live_subscriptions_are_found_without_case<
    S: SubmissionKeyStore + SubmissionStore + DeliveryOutbox + NewsletterSubscriptions,
>(
    store: &S,
) {
    for (n, (list, email)) in [
        ("letter", "ada@example.com"),
        ("studio", "Ada@Example.com"),
        ("letter", "bo@example.com"),
        ("kiln", "ada@example.com"),
    ]
    .into_iter()
    .enumerate()
    {
        let n = u8::try_from(n).unwrap() + 1;
        let SaveOutcome::Stored { .. } =
            store_one(store, 10 + n, &newsletter_signup(list, email, n)).await
        else {
            panic!("stored")
        };
    }
    let lists = |found: Vec<super::outbox::Subscriber>| {
        found.into_iter().map(|s| s.list).collect::<Vec<_>>()
    };
    assert_eq!(
        lists(store.subscriptions_of("ADA@example.com").await.unwrap()),
        ["letter", "studio", "kiln"]
    );
    store.unsubscribe(&"2".repeat(64), NOW).await.unwrap();
    assert_eq!(
        lists(store.subscriptions_of("ada@example.com").await.unwrap()),
        ["letter", "kiln"],
        "an ended subscription is not listed"
    );
    assert!(
        store
            .subscriptions_of("%@example.com")
            .await
            .unwrap()
            .is_empty()
    );
}

pub async fn an_erased_address_has_no_subscriptions_left<
    S: SubmissionKeyStore + SubmissionStore + DeliveryOutbox + NewsletterSubscriptions,
>(
    store: &S,
) {
    let signups = [
        ("letter", "ada@example.com"),
        ("studio", "ada@example.com"),
        ("letter", "bo@example.com"),
    ];
    for (n, (list, email)) in signups.into_iter().enumerate() {
        let n = u8::try_from(n).unwrap() + 1;
        let SaveOutcome::Stored { .. } =
            store_one(store, 20 + n, &newsletter_signup(list, email, n)).await
        else {
            panic!("stored")
        };
    }
    // One of Ada's subscriptions has ended already; erasing takes the ended one too.
    store.unsubscribe(&"2".repeat(64), NOW).await.unwrap();

    assert_eq!(
        store.erase_subscriptions_of("%@example.com").await.unwrap(),
        0,
        "a pattern is an address, not a wildcard"
    );
    assert_eq!(
        store
            .erase_subscriptions_of("ADA@example.com")
            .await
            .unwrap(),
        2
    );
    assert!(
        store
            .subscriptions_of("ada@example.com")
            .await
            .unwrap()
            .is_empty()
    );
    for token in ["1", "2"] {
        assert_eq!(
            store.subscriber_by_token(&token.repeat(64)).await.unwrap(),
            None,
            "an erased subscriber's links open nothing"
        );
    }
    let others = store.subscriptions_of("bo@example.com").await.unwrap();
    assert_eq!(others.len(), 1, "another address keeps its subscription");
    let SaveOutcome::Stored { .. } = store_one(
        store,
        30,
        &newsletter_signup("letter", "ada@example.com", 4),
    )
    .await
    else {
        panic!("the erased address may sign up again")
    };
}

pub async fn a_composed_mail_is_delivered_whole<S: DeliveryOutbox>(store: &S) {
    let mail = super::channels::Mail {
        to: "ada@example.com".into(),
        subject: "Confirm your email".into(),
        text: "Follow this link: https://shop.example/account/confirm?token=abc".into(),
        html: None,
        list_unsubscribe: None,
    };
    store.enqueue_mail(&mail, NOW_MS).await.unwrap();
    let records = store.deliveries().await.unwrap();
    assert_eq!(records.len(), 1);
    let record = &records[0];
    assert_eq!(record.kind, DeliveryKind::SiteUserMail);
    assert_eq!(
        (record.submission_id, record.order_id.as_deref()),
        (None, None)
    );
    assert_eq!(store.mail_of(record.id).await.unwrap(), Some(mail.clone()));

    let due = store.claim_due(NOW_MS, 60_000, 10).await.unwrap();
    assert_eq!(due.len(), 1);
    assert_eq!(due[0].kind, DeliveryKind::SiteUserMail);
    assert_eq!(due[0].subject, super::outbox::DeliverySubject::Mail(mail));
    assert_eq!(store.mail_of(record.id + 100).await.unwrap(), None);
}

/// Erasing an address withdraws the composed mails to it that have not gone out; those
/// sent stay recorded, and other addresses' mails are untouched.
pub async fn withdrawn_mails_are_never_sent<S: DeliveryOutbox>(store: &S) {
    let mail = |to: &str| super::channels::Mail {
        to: to.into(),
        subject: "Reset your password".into(),
        text: "Follow this link.".into(),
        html: None,
        list_unsubscribe: None,
    };
    store
        .enqueue_mail(&mail("ada@example.com"), NOW_MS)
        .await
        .unwrap();
    let sent = store.claim_due(NOW_MS, 60_000, 10).await.unwrap();
    store.mark_delivered(sent[0].id, NOW_MS).await.unwrap();
    store
        .enqueue_mail(&mail("Ada@Example.com"), NOW_MS)
        .await
        .unwrap();
    store
        .enqueue_mail(&mail("bo@example.com"), NOW_MS)
        .await
        .unwrap();
    store
        .enqueue_mail(&mail("ada@example.com"), NOW_MS)
        .await
        .unwrap();

    assert_eq!(store.withdraw_mails_to("").await.unwrap(), 0);
    assert_eq!(store.withdraw_mails_to("ADA@example.com").await.unwrap(), 2);
    assert_eq!(store.withdraw_mails_to("ada@example.com").await.unwrap(), 0);

    let left = store.deliveries().await.unwrap();
    assert_eq!(left.len(), 2, "{left:?}");
    assert_eq!(left[0].id, sent[0].id, "the mail sent stays recorded");
    let due = store.claim_due(NOW_MS + 120_000, 60_000, 10).await.unwrap();
    assert_eq!(due.len(), 1);
    assert_eq!(
        due[0].subject,
        super::outbox::DeliverySubject::Mail(mail("bo@example.com"))
    );
    store
        .enqueue_mail(&mail("cy@example.com"), NOW_MS)
        .await
        .unwrap();
    let ids: Vec<i64> = store
        .deliveries()
        .await
        .unwrap()
        .iter()
        .map(|record| record.id)
        .collect();
    let mut unique = ids.clone();
    unique.dedup();
    assert_eq!(ids, unique, "a withdrawn mail's id is not given again");
}

/// The owner's table of subscribers: every subscriber, ended ones too, newest first, searched
/// in the address and the list.
pub async fn the_owners_subscriber_table_is_paged_and_searched<
    S: SubmissionKeyStore + SubmissionStore + DeliveryOutbox + NewsletterSubscriptions,
>(
    store: &S,
) {
    use crate::owners::tables::{TABLE_PAGE_SIZE, TableQuery};
    for n in 1..=27u8 {
        let email = if n == 4 {
            "Grace.Hopper@Example.com".to_owned()
        } else {
            format!("reader{n}@example.com")
        };
        let signup = NewSubmission {
            form_id: if n % 2 == 0 { "letter" } else { "studio" }.into(),
            subscription: Some(email.clone()),
            follow_up: FollowUp {
                deliveries: vec![],
                tokens: Some(SubscriptionTokens {
                    unsubscribe: format!("{n:02x}").repeat(32),
                    confirm: None,
                }),
            },
            ..submission(&email)
        };
        store_one(store, 100 + n, &signup).await;
    }
    store.unsubscribe(&"03".repeat(32), NOW).await.unwrap();
    let first = store
        .subscriber_page(&TableQuery::page(None, 1).unwrap())
        .await
        .unwrap();
    assert_eq!(first.total, 27);
    assert_eq!(first.rows.len(), TABLE_PAGE_SIZE as usize);
    assert_eq!(first.rows[0].email, "reader27@example.com");
    let second = store
        .subscriber_page(&TableQuery::page(None, 2).unwrap())
        .await
        .unwrap();
    assert_eq!(
        second
            .rows
            .iter()
            .map(|s| s.email.as_str())
            .collect::<Vec<_>>(),
        ["reader2@example.com", "reader1@example.com"]
    );
    let search = |text: &'static str| async move {
        store
            .subscriber_page(&TableQuery::page(Some(text), 1).unwrap())
            .await
            .unwrap()
    };
    assert_eq!(search("grace.hopper").await.rows[0].list, "letter");
    let ended = search("reader3@").await;
    assert_eq!(ended.total, 1);
    assert!(
        ended.rows[0].unsubscribed,
        "an ended subscription is listed as ended"
    );
    assert_eq!(search("STUDIO").await.total, 14);
    assert_eq!(search("_").await.total, 0);
}
