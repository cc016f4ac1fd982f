//! The checks every [`RenewalStore`] must pass: due subscriptions found by their next step,
//! one claim per attempt (two runners at once, a lease that runs out), a settled attempt
//! never charged again, and changes applied only to the subscription the caller read. The
//! in-memory store, SQLite and PostgreSQL run them through [`renewal_store_conformance!`].

use std::sync::Arc;

use super::dunning::BillingEvent;
use super::renewal_store::{
    ClaimOutcome, RenewalClaim, RenewalOutcome, RenewalStore, SubscriptionChange,
};
use super::store::CommerceStore;
use super::subscription::{Subscription, SubscriptionStatus};
use super::subscription_conformance::{FEBRUARY_28, monthly_for, ordered};
use crate::cart::{Stock, Timestamp};
use crate::forms::Mail;
use crate::forms::conformance::join_all;

/// Generates one `#[tokio::test]` per check; `$make` builds `(commerce, renewals, guard)`
/// over one fresh, empty database (it may use `.await`, and may `return` to skip when its
/// database is not configured); `guard` is kept alive for the test.
#[macro_export]
macro_rules! renewal_store_conformance {
    ($make:expr) => {
        $crate::renewal_store_conformance!(@tests $make;
            due_subscriptions_are_found_by_their_next_step,
            an_attempt_is_claimed_once_until_its_lease_runs_out,
            two_runners_claiming_at_once_get_one_claim,
            a_settled_attempt_is_never_claimed_or_settled_again,
            a_change_applies_only_to_the_subscription_as_read,
            subscriptions_are_listed_newest_first_and_by_email,
        );
    };
    (@tests $make:expr; $($name:ident),* $(,)?) => {
        $(
            #[tokio::test]
            async fn $name() {
                let (commerce, renewals, _guard) = $make;
                $crate::checkout::renewal_conformance::$name(commerce, renewals).await;
            }
        )*
    };
}

const DAY_MS: i64 = 24 * 60 * 60 * 1000;
const LEASE_MS: i64 = 60_000;

/// A monthly subscription of order `n`, placed and read back.
async fn subscribed(
    commerce: &dyn CommerceStore,
    renewals: &dyn RenewalStore,
    n: usize,
) -> Subscription {
    let order = ordered(commerce, n, Some(monthly_for(0)), Stock::Unlimited, 1).await;
    commerce.place_order(&order, &[]).await.expect("placed");
    renewals
        .find_subscription(&format!("order-{n}-subscription"))
        .await
        .expect("readable")
        .expect("recorded with its order")
}

fn claim(subscription: &Subscription, attempt: u32) -> RenewalClaim {
    RenewalClaim {
        subscription_id: subscription.id.clone(),
        period: subscription.current_period(),
        attempt,
    }
}

fn mail(subject: &str) -> Mail {
    Mail {
        to: "clay@example.com".into(),
        subject: subject.into(),
        text: "text".into(),
        html: Some("<p>text</p>".into()),
        list_unsubscribe: None,
    }
}

fn at(days: i64) -> Timestamp {
    Timestamp(FEBRUARY_28.millis() + days * DAY_MS)
}

pub async fn due_subscriptions_are_found_by_their_next_step(
    commerce: Arc<dyn CommerceStore>,
    renewals: Arc<dyn RenewalStore>,
) {
    let first = subscribed(&*commerce, &*renewals, 1).await;
    assert_eq!(first.next_billing, Some(FEBRUARY_28));
    assert_eq!(first.payment_method, None);
    assert!(
        renewals
            .due_subscriptions(at(-1), 10)
            .await
            .unwrap()
            .is_empty()
    );
    let due = renewals.due_subscriptions(at(0), 10).await.unwrap();
    assert_eq!(due, vec![first.clone()]);
    // A paused subscription is never due; a declined one is due again at its retry.
    let paused = first.after(&BillingEvent::Pause).unwrap();
    let change = SubscriptionChange {
        before: &first,
        after: &paused,
        mails: &[],
    };
    assert!(renewals.change_subscription(change, at(0)).await.unwrap());
    assert!(
        renewals
            .due_subscriptions(at(90), 10)
            .await
            .unwrap()
            .is_empty()
    );
    let resumed = paused.after(&BillingEvent::Resume { at: at(0) }).unwrap();
    let declined = resumed
        .after(&BillingEvent::Declined { at: at(0) })
        .unwrap();
    let change = SubscriptionChange {
        before: &paused,
        after: &declined,
        mails: &[],
    };
    assert!(renewals.change_subscription(change, at(0)).await.unwrap());
    assert!(
        renewals
            .due_subscriptions(at(0), 10)
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        renewals.due_subscriptions(at(1), 10).await.unwrap(),
        vec![declined.clone()]
    );
    assert_eq!(
        renewals.find_subscription(&first.id).await.unwrap(),
        Some(declined)
    );
    let second = subscribed(&*commerce, &*renewals, 2).await;
    let both = renewals.due_subscriptions(at(1), 10).await.unwrap();
    assert_eq!(both.len(), 2, "{both:?}");
    // The longest due first: the second is due since 28 February, the first since 1 March.
    assert_eq!(both[0].id, second.id);
    assert_eq!(renewals.due_subscriptions(at(1), 1).await.unwrap().len(), 1);
}

pub async fn an_attempt_is_claimed_once_until_its_lease_runs_out(
    commerce: Arc<dyn CommerceStore>,
    renewals: Arc<dyn RenewalStore>,
) {
    let subscription = subscribed(&*commerce, &*renewals, 1).await;
    let first = claim(&subscription, 0);
    assert_eq!(
        renewals
            .claim_renewal(&first, at(0), LEASE_MS)
            .await
            .unwrap(),
        ClaimOutcome::Claimed
    );
    let soon = Timestamp(at(0).millis() + LEASE_MS - 1);
    assert_eq!(
        renewals
            .claim_renewal(&first, soon, LEASE_MS)
            .await
            .unwrap(),
        ClaimOutcome::Busy
    );
    // Another attempt of the same period is a claim of its own.
    assert_eq!(
        renewals
            .claim_renewal(&claim(&subscription, 1), soon, LEASE_MS)
            .await
            .unwrap(),
        ClaimOutcome::Claimed
    );
    // Its holder died: once the lease ran out the attempt is claimed again.
    let later = Timestamp(at(0).millis() + LEASE_MS);
    assert_eq!(
        renewals
            .claim_renewal(&first, later, LEASE_MS)
            .await
            .unwrap(),
        ClaimOutcome::Claimed
    );
    let records = renewals.renewal_records(&subscription.id).await.unwrap();
    assert_eq!(records.len(), 2);
    assert_eq!((records[0].claim.attempt, records[1].claim.attempt), (0, 1));
    assert_eq!(records[0].claimed, at(0));
    assert!(records.iter().all(|record| record.outcome.is_none()));
}

pub async fn two_runners_claiming_at_once_get_one_claim(
    commerce: Arc<dyn CommerceStore>,
    renewals: Arc<dyn RenewalStore>,
) {
    let subscription = subscribed(&*commerce, &*renewals, 1).await;
    let claim = claim(&subscription, 0);
    let mut claimed = 0;
    let claims = (0..8).map(|_| {
        let renewals = renewals.clone();
        let claim = claim.clone();
        Box::pin(async move { renewals.claim_renewal(&claim, at(0), LEASE_MS).await })
    });
    for outcome in join_all(claims.collect()).await {
        match outcome.unwrap() {
            ClaimOutcome::Claimed => claimed += 1,
            ClaimOutcome::Busy => {}
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(claimed, 1);
}

pub async fn a_settled_attempt_is_never_claimed_or_settled_again(
    commerce: Arc<dyn CommerceStore>,
    renewals: Arc<dyn RenewalStore>,
) {
    let subscription = subscribed(&*commerce, &*renewals, 1).await;
    let first = claim(&subscription, 0);
    renewals
        .claim_renewal(&first, at(0), LEASE_MS)
        .await
        .unwrap();
    let paid = RenewalOutcome::Paid {
        payment_id: "test_ch_renewal".into(),
    };
    let after = subscription.after(&BillingEvent::Charged).unwrap();
    let mails = [mail("renewed")];
    let change = SubscriptionChange {
        before: &subscription,
        after: &after,
        mails: &mails,
    };
    assert!(
        renewals
            .settle_renewal(&first, &paid, change.clone(), at(0))
            .await
            .unwrap()
    );
    let stored = renewals.find_subscription(&subscription.id).await.unwrap();
    assert_eq!(stored.as_ref(), Some(&after));
    assert_eq!(after.payments_made, 2);
    // Long after any lease: settled is settled.
    assert_eq!(
        renewals
            .claim_renewal(&first, at(90), LEASE_MS)
            .await
            .unwrap(),
        ClaimOutcome::Settled(paid.clone())
    );
    assert!(
        !renewals
            .settle_renewal(&first, &paid, change, at(0))
            .await
            .unwrap()
    );
    assert_eq!(
        renewals.find_subscription(&subscription.id).await.unwrap(),
        stored
    );
    let records = renewals.renewal_records(&subscription.id).await.unwrap();
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].outcome, Some(paid));
    // The next period is another claim.
    assert_eq!(
        renewals
            .claim_renewal(&claim(&after, 0), at(30), LEASE_MS)
            .await
            .unwrap(),
        ClaimOutcome::Claimed
    );
}

pub async fn a_change_applies_only_to_the_subscription_as_read(
    commerce: Arc<dyn CommerceStore>,
    renewals: Arc<dyn RenewalStore>,
) {
    let subscription = subscribed(&*commerce, &*renewals, 1).await;
    let first = claim(&subscription, 0);
    renewals
        .claim_renewal(&first, at(0), LEASE_MS)
        .await
        .unwrap();
    // The shopper cancels while the renewal is being charged.
    let cancelled = subscription.after(&BillingEvent::Cancel).unwrap();
    let change = SubscriptionChange {
        before: &subscription,
        after: &cancelled,
        mails: &[],
    };
    assert!(
        renewals
            .change_subscription(change.clone(), at(0))
            .await
            .unwrap()
    );
    assert!(!renewals.change_subscription(change, at(0)).await.unwrap());
    let declined = RenewalOutcome::Declined {
        reason: "Your card was declined.".into(),
    };
    let stale = subscription
        .after(&BillingEvent::Declined { at: at(0) })
        .unwrap();
    let change = SubscriptionChange {
        before: &subscription,
        after: &stale,
        mails: &[],
    };
    // The outcome is recorded; the subscription stays cancelled.
    assert!(
        !renewals
            .settle_renewal(&first, &declined, change, at(0))
            .await
            .unwrap()
    );
    let stored = renewals
        .find_subscription(&subscription.id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.status, SubscriptionStatus::Cancelled);
    assert_eq!(
        renewals
            .claim_renewal(&first, at(1), LEASE_MS)
            .await
            .unwrap(),
        ClaimOutcome::Settled(declined)
    );
    assert!(
        renewals
            .due_subscriptions(at(90), 10)
            .await
            .unwrap()
            .is_empty()
    );
    let card = stored
        .after(&BillingEvent::CardUpdated {
            at: at(1),
            payment_method: "pm_new".into(),
        })
        .map(|_| ());
    assert!(card.is_err(), "a cancelled subscription takes no card");
}

pub async fn subscriptions_are_listed_newest_first_and_by_email(
    commerce: Arc<dyn CommerceStore>,
    renewals: Arc<dyn RenewalStore>,
) {
    let first = subscribed(&*commerce, &*renewals, 1).await;
    let second = subscribed(&*commerce, &*renewals, 2).await;
    let listed = renewals.list_subscriptions(10).await.unwrap();
    let ids: Vec<&str> = listed.iter().map(|s| s.id.as_str()).collect();
    // Both started at the same instant: the id breaks the tie, the larger first.
    assert_eq!(ids, vec![second.id.as_str(), first.id.as_str()]);
    assert_eq!(renewals.list_subscriptions(1).await.unwrap().len(), 1);
    assert_eq!(
        renewals
            .subscriptions_by_email("CLAY@example.com")
            .await
            .unwrap()
            .len(),
        2
    );
    assert!(
        renewals
            .subscriptions_by_email("someone@example.com")
            .await
            .unwrap()
            .is_empty()
    );
    // The commerce store reads the same subscriptions as they stand now, a cancellation
    // included: paid member areas follow what it reads.
    let cancelled = second.after(&BillingEvent::Cancel).unwrap();
    let change = SubscriptionChange {
        before: &second,
        after: &cancelled,
        mails: &[],
    };
    assert!(renewals.change_subscription(change, at(0)).await.unwrap());
    let read = commerce
        .subscriptions_by_email("clay@EXAMPLE.com")
        .await
        .unwrap();
    assert_eq!(
        read,
        renewals
            .subscriptions_by_email("CLAY@example.com")
            .await
            .unwrap()
    );
    assert_eq!(read, vec![cancelled, first.clone()]);
    assert!(
        commerce
            .subscriptions_by_email("someone@example.com")
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        renewals
            .find_subscription("order-9-subscription")
            .await
            .unwrap(),
        None
    );
}
