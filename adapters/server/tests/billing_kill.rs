//! The renewal kill test: `vitrine billing run` as a real process against SQLite with many
//! subscriptions due, charging through the fake of Stripe's API slowed to 50 ms a call, is
//! killed with SIGKILL in the middle of its run; runs after it must leave every due period
//! charged exactly once: none lost, none twice (one succeeded PaymentIntent per subscription
//! and period at the provider, one paid claim per period in the database).

#[path = "billing/seed.rs"]
mod seed;

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use vitrine_core::checkout::RenewalOutcome;
use vitrine_services::stripe_fake::FakeStripe;

use seed::{billing_run, now, seed};

/// Subscriptions due when the run starts.
const SUBSCRIPTIONS: usize = 60;
/// The first run is killed once this many renewals were charged at the provider.
const KILL_AFTER: usize = 12;

fn succeeded(fake: &FakeStripe) -> usize {
    fake.payment_intents()
        .iter()
        .filter(|intent| intent.status == "succeeded")
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_renewal_run_killed_mid_way_loses_no_charge_and_makes_none_twice() {
    let fake = FakeStripe::start().await;
    let data_dir = tempfile::tempdir().unwrap();
    seed(data_dir.path(), &fake, SUBSCRIPTIONS).await;
    // Realistic provider latency, so that the kill lands while charges are in flight.
    fake.slow_down(Duration::from_millis(50));

    let mut first = billing_run(data_dir.path(), &fake, 4).spawn().unwrap();
    let started = Instant::now();
    while succeeded(&fake) < KILL_AFTER && started.elapsed() < Duration::from_secs(60) {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    // `Child::kill` is SIGKILL on Unix: no shutdown code runs.
    first.kill().unwrap();
    let killed = first.wait_with_output().unwrap();
    let charged_before = succeeded(&fake);
    assert!(
        (KILL_AFTER..SUBSCRIPTIONS).contains(&charged_before),
        "the kill landed mid-run: {charged_before} charged; {}",
        String::from_utf8_lossy(&killed.stderr)
    );

    // The killed run's leases run out after a second; runs after that finish the work.
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    for _ in 0..3 {
        let output = billing_run(data_dir.path(), &fake, 4).output().unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        tokio::time::sleep(Duration::from_millis(1_100)).await;
    }

    // At the provider: one succeeded intent per subscription and period, no other.
    let mut per_key: BTreeMap<String, usize> = BTreeMap::new();
    for intent in fake.payment_intents() {
        assert_eq!(intent.status, "succeeded", "{intent:?}");
        let key = intent
            .metadata
            .get("vitrine_renewal_key")
            .cloned()
            .expect("a renewal's key");
        *per_key.entry(key).or_default() += 1;
    }
    assert_eq!(per_key.len(), SUBSCRIPTIONS, "{per_key:?}");
    assert!(per_key.values().all(|&count| count == 1), "{per_key:?}");
    for n in 0..SUBSCRIPTIONS {
        assert!(per_key.contains_key(&format!("renewal-order-{n:04}-subscription-p1")));
    }

    // In the database: every subscription moved on by exactly one paid period.
    let database = vitrine_sql::connect(&vitrine_sql::sqlite_url_for_data_dir(data_dir.path()))
        .await
        .unwrap();
    let renewals = database.renewal_store();
    for n in 0..SUBSCRIPTIONS {
        let id = format!("order-{n:04}-subscription");
        let subscription = renewals.find_subscription(&id).await.unwrap().unwrap();
        assert_eq!(subscription.payments_made, 2, "{subscription:?}");
        let records = renewals.renewal_records(&id).await.unwrap();
        assert_eq!(records.len(), 1, "{records:?}");
        assert!(
            matches!(&records[0].outcome, Some(RenewalOutcome::Paid { payment_id }) if payment_id.starts_with("pi_")),
            "{records:?}"
        );
    }
    assert!(
        renewals
            .due_subscriptions(now(), 100)
            .await
            .unwrap()
            .is_empty()
    );
    database.close().await;
}
