//! Subscriptions due for a renewal run, seeded straight into a SQLite data directory, and the
//! `vitrine billing run` command over them: shared by the kill test and the renewal benchmark.

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;

use vitrine_core::cart::{CartState, CartToken, Purchasable, Stock, StoreRules, Timestamp};
use vitrine_core::catalog::{BillingPeriod, BillingUnit, Sku, SubscriptionPlan};
use vitrine_core::checkout::{
    CardDetails, CommerceStore, IdempotencyKey, Order, OrderLinkKey, RenewalService,
    SubscriptionLinks,
};
use vitrine_core::enums::ProductType;
use vitrine_services::stripe_fake::{FAKE_SECRET_KEY, FakeStripe, cards};
use vitrine_services::{StripeGateway, StripeSecretKey};

const DAY_MS: i64 = 24 * 60 * 60 * 1000;

pub fn now() -> Timestamp {
    let millis = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis();
    Timestamp(i64::try_from(millis).unwrap())
}

/// `count` weekly subscriptions started ten days ago (so one renewal each is due), each with
/// a card saved at the fake.
pub async fn seed(data_dir: &Path, fake: &FakeStripe, count: usize) {
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
    for n in 0..count {
        let key = place_paid_order(&*commerce, &item, n, started, format!("pi_first_{n}")).await;
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

/// Order `order-{n:04}` for one `item`, placed at `placed` from a cart of its own and paid by
/// the PaymentIntent `payment_id`; its idempotency key (a subscription's card is saved under
/// it).
pub async fn place_paid_order(
    commerce: &dyn CommerceStore,
    item: &Purchasable,
    n: usize,
    placed: Timestamp,
    payment_id: String,
) -> IdempotencyKey {
    let mut cart = CartState::new("cart", "site", placed);
    cart.add_item(item, 1).unwrap();
    let token = CartToken::parse(format!("seeded-cart-{n:04}")).unwrap();
    commerce.save_cart(&token, &cart).await.unwrap();
    let priced = cart.price(&StoreRules::default(), placed);
    let key = IdempotencyKey::parse(format!("seeded-order-{n:04}")).unwrap();
    let mut order = Order::from_cart(
        &priced,
        format!("order-{n:04}"),
        key.clone(),
        token,
        format!("member{n}@example.com"),
        placed,
    )
    .unwrap();
    order.payment_id = payment_id;
    commerce.place_order(&order, &[]).await.unwrap();
    key
}

/// `vitrine billing run` over `data_dir`, charging through `fake`, `concurrency` at once.
pub fn billing_run(data_dir: &Path, fake: &FakeStripe, concurrency: u32) -> Command {
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
        .args(["--billing-lease-seconds", "1", "--billing-concurrency"])
        .arg(concurrency.to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}
