//! The conformance suite every [`ContributionStore`] must pass: the in-memory one, SQLite and
//! PostgreSQL run the same assertions through [`contribution_store_conformance!`].

use super::contribution::{Contribution, ContributionStore, RecordContributionError};
use super::contribution_payment::ContributionPayment;
use super::contribution_payment::ContributionSettlement;
use super::ledger::RefundClaim;
use super::order::IdempotencyKey;
use super::payment::Payment;
use super::placed_between::PlacedBetween;
use crate::cart::Timestamp;
use crate::money::Currency;

/// Generates one `#[tokio::test]` per check; `$make` builds a fresh, empty store (it may
/// use `.await`, and may `return` to skip when its database is not configured).
#[macro_export]
macro_rules! contribution_store_conformance {
    ($make:expr) => {
        $crate::contribution_store_conformance!(@tests $make;
            a_recorded_contribution_reads_back_whole,
            the_same_key_records_once_and_answers_the_first,
            a_charge_claimed_for_a_refund_records_no_contribution,
            an_erased_donor_leaves_the_amount_and_the_date,
            an_address_held_for_a_span_reads_and_erases_the_contributions_of_that_span_only,
            a_pending_contribution_is_settled_once,
            a_failed_contribution_keeps_why_and_is_never_paid,
            a_refunded_charge_leaves_the_contribution_pending,
            only_pending_contributions_opened_before_a_time_are_listed_oldest_first,
        );

        #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
        async fn concurrent_submits_of_one_key_record_one_contribution() {
            let store = ::std::sync::Arc::new($make);
            let mut tasks = Vec::new();
            for n in 0..8 {
                let store = store.clone();
                tasks.push(tokio::spawn(async move {
                    $crate::checkout::contribution_conformance::submit(&*store, n).await
                }));
            }
            let mut answers = Vec::new();
            for task in tasks {
                answers.push(task.await.expect("a submit task panicked"));
            }
            $crate::checkout::contribution_conformance::one_recorded(&*store, answers).await;
        }
    };
    (@tests $make:expr; $($name:ident),* $(,)?) => {
        $(
            #[tokio::test]
            async fn $name() {
                let store = $make;
                $crate::checkout::contribution_conformance::$name(&store).await;
            }
        )*
    };
}

/// Ada's contribution `id` of `amount_minor` euros cents to the community kiln, under the key
/// `contribution-{key}`, charged as `test_ch_{id}` on 2026-11-21 at 14:00 UTC.
pub fn contribution(id: &str, key: &str, amount_minor: i64) -> Contribution {
    Contribution {
        id: id.into(),
        idempotency_key: IdempotencyKey::parse(format!("contribution-{key}")).expect("valid key"),
        donate_page_id: "kiln-fund".into(),
        campaign_title: "Support the community kiln".into(),
        amount_minor,
        currency: Currency::Eur,
        name: "Ada Lovelace".into(),
        email: "ada@example.com".into(),
        created: Timestamp(1_795_269_600_000),
        payment: ContributionPayment::Paid {
            payment_id: format!("test_ch_{id}"),
        },
    }
}

pub async fn a_recorded_contribution_reads_back_whole(store: &dyn ContributionStore) {
    assert_eq!(store.contribution("gift-1").await.unwrap(), None);
    let given = contribution("gift-1", "k1", 2_500);
    assert_eq!(store.record(&given).await.unwrap(), given);
    assert_eq!(
        store.contribution("gift-1").await.unwrap(),
        Some(given.clone())
    );
    assert_eq!(
        store
            .contribution_by_key(&given.idempotency_key)
            .await
            .unwrap(),
        Some(given)
    );
}

pub async fn the_same_key_records_once_and_answers_the_first(store: &dyn ContributionStore) {
    let first = contribution("gift-1", "k1", 2_500);
    store.record(&first).await.unwrap();
    let replay = contribution("gift-2", "k1", 9_900);
    assert_eq!(store.record(&replay).await.unwrap(), first);
    assert_eq!(store.contribution("gift-2").await.unwrap(), None);
    let other = contribution("gift-3", "k2", 500);
    assert_eq!(store.record(&other).await.unwrap(), other);
}

/// One of several submits of the same donation form (same key, another contribution id).
pub async fn submit(
    store: &dyn ContributionStore,
    n: usize,
) -> Result<Contribution, RecordContributionError> {
    store
        .record(&contribution(&format!("gift-{n}"), "same", 1_000))
        .await
}

/// Every submit got the one contribution that was recorded.
pub async fn one_recorded(
    store: &dyn ContributionStore,
    answers: Vec<Result<Contribution, RecordContributionError>>,
) {
    let answers: Vec<Contribution> = answers
        .into_iter()
        .map(|answer| answer.expect("recorded"))
        .collect();
    let first = answers[0].clone();
    assert!(answers.iter().all(|answer| answer == &first), "{answers:?}");
    let stored = store
        .contribution(&first.id)
        .await
        .unwrap()
        .expect("the winner is stored");
    assert_eq!(stored, first);
}

pub async fn a_charge_claimed_for_a_refund_records_no_contribution(store: &dyn ContributionStore) {
    let given = contribution("gift-1", "k1", 2_500);
    let claim = store
        .claim_for_refund(given.payment_id(), &given.idempotency_key, given.created)
        .await
        .unwrap();
    assert_eq!(claim, RefundClaim::Claimed);
    let error = store.record(&given).await.unwrap_err();
    assert!(
        matches!(&error, RecordContributionError::PaymentRefunded(id) if id == given.payment_id()),
        "{error:?}"
    );
    assert_eq!(store.contribution("gift-1").await.unwrap(), None);
    assert_eq!(
        store
            .refunded_attempts(&given.idempotency_key)
            .await
            .unwrap(),
        1
    );
    let retried = Contribution {
        payment: ContributionPayment::Paid {
            payment_id: "test_ch_retried".into(),
        },
        ..given
    };
    assert_eq!(store.record(&retried).await.unwrap(), retried);
    assert_eq!(
        store
            .claim_for_refund("test_ch_retried", &retried.idempotency_key, retried.created)
            .await
            .unwrap(),
        RefundClaim::AlreadyClaimed
    );
}

/// Erasing a donor's address empties their name and address on each of their contributions
/// and keeps what the books need; other donors keep theirs.
pub async fn an_erased_donor_leaves_the_amount_and_the_date(store: &dyn ContributionStore) {
    let first = contribution("gift-1", "erase-1", 2_500);
    let second = Contribution {
        email: "ADA@example.com".into(),
        ..contribution("gift-2", "erase-2", 1_000)
    };
    let other = Contribution {
        name: "Bo".into(),
        email: "bo@example.com".into(),
        ..contribution("gift-3", "erase-3", 500)
    };
    for given in [&first, &second, &other] {
        store.record(given).await.expect("recorded");
    }
    assert_eq!(
        store
            .erase_contributions_of("ada@EXAMPLE.com", PlacedBetween::ALWAYS)
            .await
            .unwrap(),
        2
    );
    for given in [&first, &second] {
        let erased = store.contribution(&given.id).await.unwrap().expect("kept");
        assert_eq!(
            erased,
            Contribution {
                name: String::new(),
                email: String::new(),
                ..given.clone()
            },
            "the amount, date, campaign and payment stay"
        );
    }
    assert_eq!(
        store.contribution(&other.id).await.unwrap(),
        Some(other.clone())
    );
    assert_eq!(
        store
            .erase_contributions_of("ada@example.com", PlacedBetween::ALWAYS)
            .await
            .unwrap(),
        0
    );
    assert_eq!(
        store
            .erase_contributions_of("", PlacedBetween::ALWAYS)
            .await
            .unwrap(),
        0
    );
    assert_eq!(
        store
            .erase_contributions_of("%@example.com", PlacedBetween::ALWAYS)
            .await
            .unwrap(),
        0
    );
}

/// An address that changed hands: Ada gave with it before she moved away (at `left`), Bo
/// after he confirmed it. Each hold's span reads and erases its own donations only.
pub async fn an_address_held_for_a_span_reads_and_erases_the_contributions_of_that_span_only(
    store: &dyn ContributionStore,
) {
    let at = |minutes: i64| Timestamp(1_795_269_600_000 + minutes * 60_000);
    let given = |id: &str, name: &str, minutes: i64| Contribution {
        name: name.into(),
        created: at(minutes),
        ..contribution(id, id, 1_000)
    };
    let adas_first = given("span-1", "Ada", 0);
    let adas_last = given("span-2", "Ada", 10);
    let bos = given("span-3", "Bo", 11);
    let other = Contribution {
        email: "cy@example.com".into(),
        ..given("span-4", "Cy", 5)
    };
    for contribution in [&adas_first, &adas_last, &bos, &other] {
        store.record(contribution).await.expect("recorded");
    }
    let adas_span = PlacedBetween {
        after: None,
        until: Some(at(10)),
    };
    let bos_span = PlacedBetween {
        after: Some(at(10)),
        until: None,
    };
    let ids = |found: Vec<Contribution>| -> Vec<String> {
        found.into_iter().map(|given| given.id).collect()
    };
    let made = |span: PlacedBetween, limit: u32| async move {
        store
            .contributions_made_between("ADA@example.com", span, limit)
            .await
            .unwrap()
    };
    assert_eq!(
        ids(made(adas_span, 10).await),
        ["span-2", "span-1"],
        "newest first, the end of the span included"
    );
    assert_eq!(ids(made(adas_span, 1).await), ["span-2"]);
    assert_eq!(ids(made(bos_span, 10).await), ["span-3"]);
    assert_eq!(
        ids(made(PlacedBetween::ALWAYS, 10).await),
        ["span-3", "span-2", "span-1"]
    );
    assert_eq!(
        store
            .contributions_made_between("%@example.com", PlacedBetween::ALWAYS, 10)
            .await
            .unwrap(),
        []
    );

    assert_eq!(
        store
            .erase_contributions_of("ada@example.com", adas_span)
            .await
            .unwrap(),
        2
    );
    for erased in [&adas_first, &adas_last] {
        let kept = store.contribution(&erased.id).await.unwrap().unwrap();
        assert_eq!((kept.name.as_str(), kept.email.as_str()), ("", ""));
        assert_eq!(kept.amount_minor, erased.amount_minor);
    }
    for untouched in [&bos, &other] {
        assert_eq!(
            store.contribution(&untouched.id).await.unwrap().as_ref(),
            Some(untouched),
            "another span or another address keeps its donor"
        );
    }
    assert_eq!(
        ids(made(PlacedBetween::ALWAYS, 10).await),
        ["span-3"],
        "an erased donation is nobody's"
    );
}

/// Ada's contribution `id`, kept pending on the provider's intent `pi_{id}`.
pub fn pending(id: &str, key: &str) -> Contribution {
    Contribution {
        payment: ContributionPayment::Pending {
            intent_id: format!("pi_{id}"),
        },
        ..contribution(id, key, 2_500)
    }
}

fn paid_by(payment_id: &str) -> ContributionSettlement {
    ContributionSettlement::Paid(Payment {
        id: payment_id.into(),
        amount_minor: 2_500,
        currency: Currency::Eur,
    })
}

fn declined() -> ContributionSettlement {
    ContributionSettlement::Failed {
        message: "Your card was declined.".into(),
    }
}

/// The first answer settles it (the return address); the second (the webhook) changes
/// nothing and says so, and a replayed attempt answers the pending contribution.
pub async fn a_pending_contribution_is_settled_once(store: &dyn ContributionStore) {
    let given = pending("gift-1", "p1");
    assert_eq!(store.open_pending(&given).await.unwrap(), given);
    assert_eq!(
        store.open_pending(&pending("gift-2", "p1")).await.unwrap(),
        given
    );
    assert_eq!(store.contribution("gift-2").await.unwrap(), None);
    assert_eq!(
        store
            .settle("gift-9", &paid_by("ch_9"), None, given.created)
            .await
            .unwrap(),
        None
    );
    let unchanged = store
        .settle(
            "gift-1",
            &ContributionSettlement::Unchanged,
            None,
            given.created,
        )
        .await
        .unwrap();
    assert_eq!(unchanged, Some((given.clone(), false)));
    let paid = Contribution {
        payment: ContributionPayment::Paid {
            payment_id: "ch_1".into(),
        },
        ..given.clone()
    };
    let settled = store
        .settle("gift-1", &paid_by("ch_1"), None, given.created)
        .await
        .unwrap();
    assert_eq!(settled, Some((paid.clone(), true)));
    let again = store
        .settle("gift-1", &paid_by("ch_1"), None, given.created)
        .await
        .unwrap();
    assert_eq!(again, Some((paid.clone(), false)));
    assert_eq!(
        store
            .settle("gift-1", &declined(), None, given.created)
            .await
            .unwrap(),
        Some((paid.clone(), false))
    );
    assert_eq!(store.contribution("gift-1").await.unwrap(), Some(paid));
    assert_eq!(
        store
            .claim_for_refund("ch_1", &given.idempotency_key, given.created)
            .await
            .unwrap(),
        RefundClaim::AlreadyClaimed,
        "the charge is the contribution's"
    );
}

pub async fn a_failed_contribution_keeps_why_and_is_never_paid(store: &dyn ContributionStore) {
    let given = pending("gift-1", "p1");
    store.open_pending(&given).await.unwrap();
    let failed = Contribution {
        payment: ContributionPayment::Failed {
            message: "Your card was declined.".into(),
        },
        ..given.clone()
    };
    let settled = store
        .settle("gift-1", &declined(), None, given.created)
        .await
        .unwrap();
    assert_eq!(settled, Some((failed.clone(), true)));
    let late = store
        .settle("gift-1", &paid_by("ch_1"), None, given.created)
        .await
        .unwrap();
    assert_eq!(late, Some((failed.clone(), false)));
    assert_eq!(store.contribution("gift-1").await.unwrap(), Some(failed));
}

pub async fn a_refunded_charge_leaves_the_contribution_pending(store: &dyn ContributionStore) {
    let given = pending("gift-1", "p1");
    store.open_pending(&given).await.unwrap();
    store
        .claim_for_refund("ch_1", &given.idempotency_key, given.created)
        .await
        .unwrap();
    let error = store
        .settle("gift-1", &paid_by("ch_1"), None, given.created)
        .await
        .unwrap_err();
    assert!(
        matches!(&error, RecordContributionError::PaymentRefunded(id) if id == "ch_1"),
        "{error:?}"
    );
    assert_eq!(store.contribution("gift-1").await.unwrap(), Some(given));
}

/// The clean-up of abandoned donations finds the pending ones opened before the window,
/// oldest first and at most as many as asked; paid, failed and recent ones are not its.
pub async fn only_pending_contributions_opened_before_a_time_are_listed_oldest_first(
    store: &dyn ContributionStore,
) {
    let at = |contribution: Contribution, minutes: i64| Contribution {
        created: Timestamp(contribution.created.millis() + minutes * 60_000),
        ..contribution
    };
    let first = at(pending("gift-1", "p1"), 0);
    let second = at(pending("gift-2", "p2"), 5);
    let recent = at(pending("gift-3", "p3"), 40);
    let paid = at(contribution("gift-4", "p4", 2_500), -10);
    let failed = at(pending("gift-5", "p5"), -20);
    // Opened in another order than their times.
    for given in [&recent, &second, &failed, &first] {
        store.open_pending(given).await.unwrap();
    }
    store.record(&paid).await.unwrap();
    store
        .settle("gift-5", &declined(), None, failed.created)
        .await
        .unwrap();
    let before = Timestamp(first.created.millis() + 30 * 60_000);
    let listed = store
        .pending_contributions_opened_before(before, 10)
        .await
        .unwrap();
    assert_eq!(listed, vec![first.clone(), second]);
    assert_eq!(
        store
            .pending_contributions_opened_before(before, 1)
            .await
            .unwrap(),
        vec![first.clone()]
    );
    assert_eq!(
        store
            .pending_contributions_opened_before(first.created, 10)
            .await
            .unwrap(),
        Vec::<Contribution>::new(),
        "opened at the time itself is not before it"
    );
}
