//! The renewal kill test: `vitrine billing run` as a real process against SQLite with many
//! subscriptions due, charging through the fake of Stripe's API slowed to 50 ms a call, is
//! killed with SIGKILL in the middle of its run; runs after it must leave every due period
//! charged exactly once: none lost, none twice (one succeeded PaymentIntent per subscription
//! and period at the provider, one paid claim per period in the database).

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use vitrine_core::cart::{CartState, CartToken, Purchasable, Stock, StoreRules, Timestamp};
use vitrine_core::catalog::{BillingPeriod, BillingUnit, Sku, SubscriptionPlan};
use vitrine_core::checkout::{
    CardDetails, IdempotencyKey, Order, OrderLinkKey, RenewalOutcome, RenewalService,
    SubscriptionLinks,
};
use vitrine_core::enums::ProductType;
use vitrine_services::stripe_fake::{FAKE_SECRET_KEY, FakeStripe, cards};
use vitrine_services::{StripeGateway, StripeSecretKey};

/// Subscriptions due when the run starts.
const SUBSCRIPTIONS: usize = 60;
/// The first run is killed once this many renewals were charged at the provider.
const KILL_AFTER: usize = 12;
const DAY_MS: i64 = 24 * 60 * 60 * 1000;

fn now() -> Timestamp {
    let millis = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis();
    Timestamp(i64::try_from(millis).unwrap())
}

/// `SUBSCRIPTIONS` weekly subscriptions started ten days ago (so one renewal each is due),
/// each with a card saved at the fake.
async fn seed(data_dir: &Path, fake: &FakeStripe) {
    let database = vitrine_sql::connect(&vitrine_sql::sqlite_url_for_data_dir(data_dir))
        .await
        .unwrap();
    database.migrate().await.unwrap();
    let commerce = database.commerce_store();
    let gateway = StripeGateway::new(
        fake.base().clone(),
        StripeSecretKey::parse(FAKE_SECRET_KEY).unwrap(),
    );
    let renewals = RenewalService::new(
        database.renewal_store(),
        Arc::new(gateway),
        SubscriptionLinks::new("http://127.0.0.1:9", &OrderLinkKey::new([5; 32])),
    );
    let started = Timestamp(now().millis() - 10 * DAY_MS);
    let item = Purchasable {
        subscription_plan: Some(SubscriptionPlan {
            num_billing_cycles: None,
            billing_period: BillingPeriod {
                value: 1,
                unit: BillingUnit::Week,
            },
        }),
        ..Purchasable::new(
            "club",
            "Clay Club",
            ProductType::Service,
            Sku::parse("CLUB").unwrap(),
            1_900,
            Stock::Unlimited,
        )
    };
    for n in 0..SUBSCRIPTIONS {
        let mut cart = CartState::new("cart", "site", started);
        cart.add_item(&item, 1).unwrap();
        let token = CartToken::parse(format!("kill-test-cart-{n:04}")).unwrap();
        commerce.save_cart(&token, &cart).await.unwrap();
        let priced = cart.price(&StoreRules::default(), started);
        let key = IdempotencyKey::parse(format!("kill-test-order-{n:04}")).unwrap();
        let mut order = Order::from_cart(
            &priced,
            format!("order-{n:04}"),
            key.clone(),
            token,
            &format!("member{n}@example.com"),
            started,
        )
        .unwrap();
        order.payment_id = format!("pi_first_{n}");
        commerce.place_order(&order, &[]).await.unwrap();
        let card = CardDetails {
            number: cards::SUCCEEDS.into(),
            expiry_month: 12,
            expiry_year: 2040,
            cvc: "123".into(),
        };
        renewals
            .save_checkout_card(&format!("order-{n:04}-subscription"), &key, card, started)
            .await
            .unwrap();
    }
    database.close().await;
}

fn billing_run(data_dir: &Path, fake: &FakeStripe) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_vitrine"));
    command
        .env("RUST_LOG", "warn")
        .env_remove("VITRINE_DATABASE_URL")
        .env_remove("VITRINE_TEST_PAYMENTS")
        .args(["billing", "run", "--data-dir"])
        .arg(data_dir)
        .args(["--stripe-secret-key", FAKE_SECRET_KEY, "--stripe-api-base"])
        .arg(fake.base().as_str())
        // A claim of the killed run may be taken over a second after it was made.
        .args(["--billing-lease-seconds", "1", "--billing-concurrency", "4"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

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
    seed(data_dir.path(), &fake).await;
    // Realistic provider latency, so that the kill lands while charges are in flight.
    fake.slow_down(Duration::from_millis(50));

    let mut first = billing_run(data_dir.path(), &fake).spawn().unwrap();
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
        let output = billing_run(data_dir.path(), &fake).output().unwrap();
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
