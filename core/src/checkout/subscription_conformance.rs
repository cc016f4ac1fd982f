//! The subscription checks every [`CommerceStore`] must pass besides its own suite: an order
//! of a subscription product records its subscription in the order's transaction, once. The
//! in-memory store, SQLite and PostgreSQL run them through [`subscription_conformance!`].

use super::order::{IdempotencyKey, Order, PlaceOrderError};
use super::store::CommerceStore;
use super::subscription::{Subscription, SubscriptionStatus};
use crate::cart::{CartState, CartToken, Purchasable, Stock, StoreRules, Timestamp};
use crate::catalog::{BillingPeriod, BillingUnit, Sku, SubscriptionPlan};
use crate::enums::ProductType;

/// Generates one `#[tokio::test]` per check; `$make` builds a fresh, empty store (it may
/// use `.await`, and may `return` to skip when its database is not configured).
#[macro_export]
macro_rules! subscription_conformance {
    ($make:expr) => {
        $crate::subscription_conformance!(@tests $make;
            an_order_of_a_subscription_records_it_with_the_order,
            a_replayed_subscription_order_records_one_subscription,
            a_subscription_order_that_fails_records_no_subscription,
            an_order_without_a_subscription_line_records_none,
            a_subscription_belongs_to_the_first_account_that_claims_it,
        );
    };
    (@tests $make:expr; $($name:ident),* $(,)?) => {
        $(
            #[tokio::test]
            async fn $name() {
                let store = $make;
                $crate::checkout::subscription_conformance::$name(&store).await;
            }
        )*
    };
}

// 2026-01-31T10:00:00Z: the next monthly payment is due on the last day of February.
pub(crate) const JANUARY_31: Timestamp = Timestamp(1_769_853_600_000);
pub(crate) const FEBRUARY_28: Timestamp = Timestamp(1_772_272_800_000);

/// A subscription of one box a month, until cancelled, bought with `email` to the variant
/// `sku` on January 31 and standing at `status`: for tests that need one without an order
/// (billing mails, paid memberships).
pub fn fixture_subscription(email: &str, sku: &Sku, status: SubscriptionStatus) -> Subscription {
    Subscription {
        id: format!("order-{}-subscription", sku.as_str()),
        order_id: format!("order-{}", sku.as_str()),
        email: email.to_owned(),
        account: None,
        sku: sku.clone(),
        product_name: "Clay Club".into(),
        quantity: 1,
        price_cents: 2500,
        currency: crate::money::Currency::Eur,
        plan: SubscriptionPlan {
            num_billing_cycles: None,
            ..monthly_for(0)
        },
        status,
        started: JANUARY_31,
        payments_made: 1,
        next_billing: Some(FEBRUARY_28),
        skipped_periods: 0,
        payment_method: None,
        failed_attempts: 0,
        retry_at: None,
    }
}

fn token(n: usize) -> CartToken {
    CartToken::parse(format!("subscription-cart-{n:04}")).expect("fixture tokens are valid")
}

pub fn monthly_for(cycles: u32) -> SubscriptionPlan {
    SubscriptionPlan {
        num_billing_cycles: Some(cycles),
        billing_period: BillingPeriod {
            value: 1,
            unit: BillingUnit::Month,
        },
    }
}

/// A cart of `quantity` boxes of a monthly subscription, or of a plain product without
/// `plan`, with `stock` of its SKU.
pub async fn ordered(
    store: &dyn CommerceStore,
    n: usize,
    plan: Option<SubscriptionPlan>,
    stock: Stock,
    quantity: u32,
) -> Order {
    let sku = Sku::parse("CLUB-BOX").expect("fixture SKUs are valid");
    store
        .set_stock(&sku, stock)
        .await
        .expect("stock can be set");
    let mut cart = CartState::new("cart", "site", JANUARY_31);
    let item = Purchasable {
        subscription_plan: plan,
        ..Purchasable::new(
            "clay-club",
            "Clay Club",
            ProductType::Service,
            sku,
            2_500,
            Stock::Unlimited,
        )
    };
    cart.add_item(&item, quantity)
        .expect("fixture carts are valid");
    store
        .save_cart(&token(n), &cart)
        .await
        .expect("carts can be saved");
    let priced = cart.price(&StoreRules::default(), JANUARY_31);
    let key = IdempotencyKey::parse(format!("subscription-key-{n:04}")).expect("valid key");
    let mut order = Order::from_cart(
        &priced,
        format!("order-{n}"),
        key,
        token(n),
        "clay@example.com",
        JANUARY_31,
    )
    .expect("fixture carts can check out");
    order.payment_id = format!("test_ch_{n}");
    order
}

pub async fn an_order_of_a_subscription_records_it_with_the_order(store: &dyn CommerceStore) {
    let order = ordered(store, 1, Some(monthly_for(6)), Stock::Unlimited, 2).await;
    store.place_order(&order, &[]).await.unwrap();
    let id = "order-1-subscription";
    let stored = store.subscription(id).await.unwrap().expect("recorded");
    assert_eq!(Some(stored.clone()), Subscription::start(&order));
    assert_eq!(stored.order_id, "order-1");
    assert_eq!(stored.email, "clay@example.com");
    assert_eq!(stored.status, SubscriptionStatus::Active);
    assert_eq!(stored.started, JANUARY_31);
    assert_eq!(stored.next_billing, Some(FEBRUARY_28));
    assert_eq!(stored.payments_made, 1);
    assert_eq!(stored.payments_left(), Some(5));
    assert_eq!((stored.quantity, stored.price_cents), (2, 5_000));
    assert_eq!(
        store.subscription("order-2-subscription").await.unwrap(),
        None
    );
}

/// The account a subscription belongs to is recorded once: a later claim (another signed-in
/// buyer, or another account of the address) finds it held, and erasing the address it was
/// bought with leaves it with its account.
pub async fn a_subscription_belongs_to_the_first_account_that_claims_it(store: &dyn CommerceStore) {
    let order = ordered(store, 1, Some(monthly_for(0)), Stock::Unlimited, 1).await;
    store.place_order(&order, &[]).await.unwrap();
    let later = ordered(store, 2, Some(monthly_for(0)), Stock::Unlimited, 1).await;
    store.place_order(&later, &[]).await.unwrap();
    let id = "order-1-subscription";
    assert!(
        store
            .subscriptions_of_account("ada")
            .await
            .unwrap()
            .is_empty()
    );

    assert_eq!(
        store
            .claim_subscription(id, "ada")
            .await
            .unwrap()
            .as_deref(),
        Some("ada")
    );
    assert_eq!(
        store.claim_subscription(id, "bo").await.unwrap().as_deref(),
        Some("ada"),
        "the first claim stands"
    );
    assert_eq!(
        store
            .claim_subscription("order-9-subscription", "ada")
            .await
            .unwrap(),
        None
    );
    store
        .claim_subscription("order-2-subscription", "ada")
        .await
        .unwrap();

    let stored = store.subscription(id).await.unwrap().expect("recorded");
    assert_eq!(stored.account.as_deref(), Some("ada"));
    let ids = |subscriptions: Vec<Subscription>| -> Vec<String> {
        subscriptions.into_iter().map(|s| s.id).collect()
    };
    assert_eq!(
        ids(store.subscriptions_of_account("ada").await.unwrap()),
        ["order-2-subscription", "order-1-subscription"],
        "newest first"
    );
    assert!(
        store
            .subscriptions_of_account("bo")
            .await
            .unwrap()
            .is_empty()
    );

    store
        .erase_orders_of("clay@example.com", super::PlacedBetween::ALWAYS)
        .await
        .unwrap();
    let erased = store.subscription(id).await.unwrap().expect("kept");
    assert_eq!(
        (erased.email.as_str(), erased.account.as_deref()),
        ("", Some("ada"))
    );
    assert_eq!(
        store.subscriptions_of_account("ada").await.unwrap().len(),
        2
    );
}

pub async fn a_replayed_subscription_order_records_one_subscription(store: &dyn CommerceStore) {
    let order = ordered(store, 1, Some(monthly_for(0)), Stock::Unlimited, 1).await;
    store.place_order(&order, &[]).await.unwrap();
    let replay = store.place_order(&order, &[]).await.unwrap();
    assert_eq!(replay, order);
    let stored = store
        .subscription("order-1-subscription")
        .await
        .unwrap()
        .expect("recorded");
    assert_eq!(stored.payments_left(), None);
    assert_eq!(stored.next_billing, Some(FEBRUARY_28));
}

pub async fn a_subscription_order_that_fails_records_no_subscription(store: &dyn CommerceStore) {
    let order = ordered(store, 1, Some(monthly_for(0)), Stock::Limited(1), 2).await;
    let error = store.place_order(&order, &[]).await.unwrap_err();
    assert!(matches!(error, PlaceOrderError::OutOfStock(_)), "{error:?}");
    assert_eq!(
        store.subscription("order-1-subscription").await.unwrap(),
        None
    );
    assert_eq!(store.order("order-1").await.unwrap(), None);
}

pub async fn an_order_without_a_subscription_line_records_none(store: &dyn CommerceStore) {
    let order = ordered(store, 1, None, Stock::Unlimited, 1).await;
    store.place_order(&order, &[]).await.unwrap();
    assert_eq!(
        store.subscription("order-1-subscription").await.unwrap(),
        None
    );
}
