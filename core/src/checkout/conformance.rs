//! The conformance suite every [`CommerceStore`] must pass: the in-memory one, SQLite and
//! PostgreSQL run the same assertions through [`commerce_store_conformance!`].

pub use super::failed_order_conformance::{
    a_charge_refunded_before_it_paid_its_order_gives_back_what_placing_took,
    a_failed_order_empties_the_gift_cards_it_issued,
    a_failed_payment_gives_back_what_placing_took_once,
    a_success_after_the_failure_is_given_back_and_the_order_stays_failed,
};

use super::details::ShippingAddress;
use super::ledger::{FailedRefund, RefundClaim};
use super::order::{CouponLimit, IdempotencyKey, Order, PlaceOrderError};
use super::payment_events::{PaymentEvent, PaymentOutcome, PaymentStatus, Reconciliation};
use super::store::{CommerceStore, HoldStockError};
use crate::cart::{
    CartState, CartToken, CouponCode, HoldError, Purchasable, Stock, StoreRules, Timestamp,
};
use crate::catalog::{FormAnswer, FormAnswers, Sku};
use crate::enums::ProductType;
use crate::gift_cards::{GiftCard, GiftCardCode, GiftCardPayment, GiftCardRecipient};
use crate::money::Currency;
use crate::ports::RepositoryError;

/// Generates one `#[tokio::test]` per check; `$make` builds a fresh, empty store (it may
/// use `.await`, and may `return` to skip when its database is not configured).
#[macro_export]
macro_rules! commerce_store_conformance {
    ($make:expr) => {
        $crate::commerce_store_conformance!(@tests $make;
            a_saved_cart_reads_back_whole,
            an_order_decrements_stock_and_marks_the_cart_purchased,
            a_short_line_changes_nothing,
            the_same_idempotency_key_orders_once,
            orders_are_found_by_their_address_newest_first,
            the_owners_order_table_is_paged_searched_and_fulfilled,
            a_purchased_cart_cannot_be_bought_or_saved_again,
            coupon_usage_counts_orders,
            coupon_limits_are_counted_again_when_the_order_is_placed,
            an_order_keeps_its_address_and_payment,
            holds_keep_stock_from_other_carts_until_they_end,
            placing_an_order_ends_its_holds,
            a_lines_answers_are_kept_by_the_cart_and_the_order,
            lines_of_one_sku_take_its_stock_together,
            an_order_issues_its_gift_cards,
            gift_card_codes_are_revealed_once,
            the_same_idempotency_key_issues_gift_cards_once,
            a_gift_card_pays_while_it_holds_the_amount,
            a_refused_gift_card_changes_nothing,
            a_charge_claimed_for_a_refund_pays_for_no_order,
            an_ordered_charge_cannot_be_claimed_for_a_refund,
            failed_refunds_are_kept_for_the_owner,
            a_payment_report_moves_its_order_once,
            a_report_settles_a_pending_order_by_its_payment_key,
            a_report_of_an_unknown_charge_is_recorded_without_an_order,
            a_declined_card_leaves_a_browser_order_payable_until_its_intent_is_cancelled,
            browser_payments_wait_until_settled_and_are_listed_oldest_first,
            a_failed_payment_gives_back_what_placing_took_once,
            a_failed_order_empties_the_gift_cards_it_issued,
            a_success_after_the_failure_is_given_back_and_the_order_stays_failed,
            a_charge_refunded_before_it_paid_its_order_gives_back_what_placing_took,
        );

        #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
        async fn concurrent_orders_never_spend_more_than_a_gift_card_holds() {
            let store = ::std::sync::Arc::new($make);
            let orders = $crate::checkout::conformance::prepare_card_spenders(&*store).await;
            let outcomes = $crate::commerce_store_conformance!(@all_at_once store, orders);
            $crate::checkout::conformance::card_spent_at_most_once(&*store, outcomes).await;
        }

        #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
        async fn concurrent_buyers_of_the_last_item_sell_it_once() {
            let store = ::std::sync::Arc::new($make);
            let buyers = $crate::checkout::conformance::prepare_last_item(&*store).await;
            let outcomes = $crate::commerce_store_conformance!(@all_at_once store, buyers);
            $crate::checkout::conformance::exactly_one_winner(&*store, outcomes).await;
        }
    };
    // Places every order on its own task at once; the outcomes in the orders' order.
    (@all_at_once $store:ident, $orders:ident) => {{
        let mut tasks = Vec::new();
        for order in $orders {
            let store = $store.clone();
            tasks.push(tokio::spawn(async move {
                $crate::checkout::CommerceStore::place_order(&*store, &order, &[]).await
            }));
        }
        let mut outcomes = Vec::new();
        for task in tasks {
            outcomes.push(task.await.expect("an order's task panicked"));
        }
        outcomes
    }};
    (@tests $make:expr; $($name:ident),* $(,)?) => {
        $(
            #[tokio::test]
            async fn $name() {
                let store = $make;
                $crate::checkout::conformance::$name(&store).await;
            }
        )*
    };
}

pub(crate) fn sku(text: &str) -> Sku {
    Sku::parse(text).expect("fixture SKUs are valid")
}

pub(crate) fn token(n: usize) -> CartToken {
    CartToken::parse(format!("conformance-cart-{n:04}")).expect("fixture tokens are valid")
}

pub(crate) fn key(n: usize) -> IdempotencyKey {
    IdempotencyKey::parse(format!("conformance-key-{n:04}")).expect("fixture keys are valid")
}

pub(crate) const NOW: Timestamp = Timestamp(1_700_000_000_000);

/// A checkout form filled for a US address, the "standard" shipping option and the test
/// gateway's card that succeeds.
pub fn paid_checkout_form(email: &str) -> super::CheckoutForm {
    super::CheckoutForm {
        email: email.into(),
        name: "Ada Shopper".into(),
        address_line1: "1 Main St".into(),
        city: "Boston".into(),
        region: "MA".into(),
        postal_code: "02139".into(),
        country: "US".into(),
        shipping_option: "standard".into(),
        card_number: super::TEST_CARD_SUCCEEDS.into(),
        card_expiry: "12/40".into(),
        card_cvc: "123".into(),
        ..super::CheckoutForm::default()
    }
}

/// Store rules with one shipping option, "standard", at a flat 5.00, as the server's demo
/// store offers: enough for a physical product to check out in tests.
pub fn flat_rate_rules() -> StoreRules {
    StoreRules {
        shipping_options: vec![crate::cart::ShippingOption {
            id: "standard".into(),
            name: "Standard shipping".into(),
            rate: crate::cart::ShippingRate::FlatRate { cost_cents: 500 },
        }],
        ..StoreRules::default()
    }
}

/// A cart holding `quantity` of a digital or service `sku` (so no shipping is needed).
pub(crate) fn cart_with(sku_text: &str, quantity: u32) -> CartState {
    let mut cart = CartState::new("cart", "site", NOW);
    let item = Purchasable::new(
        "product",
        "Poster",
        ProductType::Service,
        sku(sku_text),
        1_000,
        Stock::Unlimited,
    );
    cart.add_item(&item, quantity)
        .expect("fixture carts are valid");
    cart
}

/// Whether the cart of order `n` reads back purchased.
pub(crate) async fn is_purchased(store: &dyn CommerceStore, n: usize) -> bool {
    let cart = store.load_cart(&token(n)).await.unwrap();
    cart.expect("the cart is stored").is_purchased
}

pub(crate) fn order_for(cart: &CartState, n: usize) -> Order {
    let priced = cart.price(&StoreRules::default(), NOW);
    Order::from_cart(
        &priced,
        format!("order-{n}"),
        key(n),
        token(n),
        "buyer@example.com",
        NOW,
    )
    .expect("fixture carts can check out")
}

pub async fn a_saved_cart_reads_back_whole(store: &dyn CommerceStore) {
    assert_eq!(store.load_cart(&token(1)).await.unwrap(), None);
    let cart = cart_with("MUG", 2);
    store.save_cart(&token(1), &cart).await.unwrap();
    assert_eq!(
        store.load_cart(&token(1)).await.unwrap(),
        Some(cart.clone())
    );
    let bigger = cart_with("MUG", 3);
    store.save_cart(&token(1), &bigger).await.unwrap();
    assert_eq!(store.load_cart(&token(1)).await.unwrap(), Some(bigger));
}

pub async fn an_order_decrements_stock_and_marks_the_cart_purchased(store: &dyn CommerceStore) {
    store
        .set_stock(&sku("MUG"), Stock::Limited(5))
        .await
        .unwrap();
    store
        .set_stock(&sku("PDF"), Stock::Unlimited)
        .await
        .unwrap();
    let mut cart = cart_with("MUG", 2);
    cart.entries.extend(cart_with("PDF", 4).entries);
    store.save_cart(&token(1), &cart).await.unwrap();
    let order = order_for(&cart, 1);
    let placed = store.place_order(&order, &[]).await.unwrap();
    assert_eq!(placed, order);
    assert_eq!(
        store.stock(&sku("MUG")).await.unwrap(),
        Some(Stock::Limited(3))
    );
    assert_eq!(
        store.stock(&sku("PDF")).await.unwrap(),
        Some(Stock::Unlimited)
    );
    assert_eq!(store.stock(&sku("NONE")).await.unwrap(), None);
    store
        .seed_stock(&sku("MUG"), Stock::Limited(50))
        .await
        .unwrap();
    store
        .seed_stock(&sku("NEW"), Stock::Limited(7))
        .await
        .unwrap();
    assert_eq!(
        store.stock(&sku("MUG")).await.unwrap(),
        Some(Stock::Limited(3))
    );
    assert_eq!(
        store.stock(&sku("NEW")).await.unwrap(),
        Some(Stock::Limited(7))
    );
    let stored = store.load_cart(&token(1)).await.unwrap().unwrap();
    assert!(stored.is_purchased);
    assert_eq!(stored.order_id, "order-1");
    assert_eq!(store.order("order-1").await.unwrap(), Some(order.clone()));
    assert_eq!(store.order_by_key(&key(1)).await.unwrap(), Some(order));
}

pub async fn a_short_line_changes_nothing(store: &dyn CommerceStore) {
    store
        .set_stock(&sku("MUG"), Stock::Limited(5))
        .await
        .unwrap();
    store
        .set_stock(&sku("CAP"), Stock::Limited(1))
        .await
        .unwrap();
    let mut cart = cart_with("MUG", 2);
    cart.entries.extend(cart_with("CAP", 2).entries);
    store.save_cart(&token(1), &cart).await.unwrap();
    let error = store
        .place_order(&order_for(&cart, 1), &[])
        .await
        .unwrap_err();
    assert!(
        matches!(&error, PlaceOrderError::OutOfStock(short) if short.as_str() == "CAP"),
        "{error:?}"
    );
    assert_eq!(
        store.stock(&sku("MUG")).await.unwrap(),
        Some(Stock::Limited(5))
    );
    assert_eq!(
        store.stock(&sku("CAP")).await.unwrap(),
        Some(Stock::Limited(1))
    );
    assert!(!is_purchased(store, 1).await);
    assert_eq!(store.order("order-1").await.unwrap(), None);
}

pub async fn the_same_idempotency_key_orders_once(store: &dyn CommerceStore) {
    store
        .set_stock(&sku("MUG"), Stock::Limited(5))
        .await
        .unwrap();
    let cart = cart_with("MUG", 2);
    store.save_cart(&token(1), &cart).await.unwrap();
    let order = order_for(&cart, 1);
    let first = store.place_order(&order, &[]).await.unwrap();
    let mut again = order.clone();
    again.id = "order-retry".into();
    let second = store.place_order(&again, &[]).await.unwrap();
    assert_eq!(second, first);
    assert_eq!(
        store.stock(&sku("MUG")).await.unwrap(),
        Some(Stock::Limited(3))
    );
    assert_eq!(store.order("order-retry").await.unwrap(), None);
}

pub async fn orders_are_found_by_their_address_newest_first(store: &dyn CommerceStore) {
    let place = |n: usize, email: &'static str, created: i64| async move {
        let cart = cart_with("POSTER", 1);
        store.save_cart(&token(n), &cart).await.unwrap();
        let mut order = order_for(&cart, n);
        order.email = email.into();
        order.created = Timestamp(created);
        store.place_order(&order, &[]).await.unwrap()
    };
    let first = place(1, "Ada@Example.com", 1_000).await;
    place(2, "bo@example.com", 2_000).await;
    let third = place(3, "ada@example.com", 3_000).await;
    let fourth = place(4, "ADA@EXAMPLE.COM", 4_000).await;

    let found = store.orders_by_email("ada@example.COM", 10).await.unwrap();
    assert_eq!(found, vec![fourth.clone(), third.clone(), first]);
    assert_eq!(
        store.orders_by_email("ada@example.com", 2).await.unwrap(),
        vec![fourth, third]
    );
    assert!(
        store
            .orders_by_email("nobody@example.com", 10)
            .await
            .unwrap()
            .is_empty()
    );
    // A pattern is an address, not a wildcard.
    assert!(
        store
            .orders_by_email("%@example.com", 10)
            .await
            .unwrap()
            .is_empty()
    );
}

/// The owner's table of orders: newest first, searched in the id and the address (with `%`
/// and `_` as plain text), each with the fulfilment the owner recorded.
pub async fn the_owners_order_table_is_paged_searched_and_fulfilled(store: &dyn CommerceStore) {
    use crate::checkout::Fulfilment;
    use crate::owners::tables::{TABLE_PAGE_SIZE, TableQuery};
    for n in 1..=27usize {
        let cart = cart_with("POSTER", 1);
        store.save_cart(&token(n), &cart).await.unwrap();
        let mut order = order_for(&cart, n);
        order.email = if n == 9 {
            "Grace_Hopper@Example.com".into()
        } else {
            format!("buyer{n}@example.com")
        };
        order.created = Timestamp(1_000 * n as i64);
        store.place_order(&order, &[]).await.unwrap();
    }
    let first = store
        .order_page(&TableQuery::page(None, 1).unwrap())
        .await
        .unwrap();
    assert_eq!(first.total, 27);
    assert_eq!(first.rows.len(), TABLE_PAGE_SIZE as usize);
    assert_eq!(first.rows[0].order.id, "order-27");
    assert!(
        first
            .rows
            .iter()
            .all(|row| row.fulfilment == Fulfilment::Open)
    );
    let second = store
        .order_page(&TableQuery::page(None, 2).unwrap())
        .await
        .unwrap();
    assert_eq!(
        second
            .rows
            .iter()
            .map(|row| row.order.id.as_str())
            .collect::<Vec<_>>(),
        ["order-2", "order-1"]
    );
    let search = |text: &'static str| async move {
        store
            .order_page(&TableQuery::page(Some(text), 1).unwrap())
            .await
            .unwrap()
    };
    assert_eq!(
        search("grace_hopper@example").await.rows[0].order.id,
        "order-9"
    );
    assert_eq!(search("er_").await.total, 0, "_ is no wildcard");
    assert_eq!(
        search("ORDER-2").await.total,
        9,
        "order-2 and order-20 to order-27"
    );
}

pub async fn a_purchased_cart_cannot_be_bought_or_saved_again(store: &dyn CommerceStore) {
    let cart = cart_with("MUG", 1);
    store.save_cart(&token(1), &cart).await.unwrap();
    store.place_order(&order_for(&cart, 1), &[]).await.unwrap();
    let mut other_key = order_for(&cart, 1);
    other_key.idempotency_key = key(2);
    other_key.id = "order-2".into();
    let error = store.place_order(&other_key, &[]).await.unwrap_err();
    assert!(
        matches!(error, PlaceOrderError::AlreadyPurchased),
        "{error:?}"
    );
    let error = store.save_cart(&token(1), &cart).await.unwrap_err();
    assert!(matches!(error, RepositoryError::Rejected(_)), "{error:?}");
    let mut missing = order_for(&cart, 3);
    missing.cart_token = token(99);
    let error = store.place_order(&missing, &[]).await.unwrap_err();
    assert!(matches!(error, PlaceOrderError::UnknownCart), "{error:?}");
}

pub async fn coupon_usage_counts_orders(store: &dyn CommerceStore) {
    let code = CouponCode::parse("SAVE").unwrap();
    for (n, email) in [
        (1, "a@example.com"),
        (2, "b@example.com"),
        (3, "A@example.com"),
    ] {
        let cart = cart_with("MUG", 1);
        store.save_cart(&token(n), &cart).await.unwrap();
        let mut order = order_for(&cart, n);
        order.email = email.into();
        order.coupon_codes = vec![code.clone()];
        store.place_order(&order, &[]).await.unwrap();
    }
    let usage = store.coupon_usage(&code, "a@example.com").await.unwrap();
    assert_eq!((usage.total, usage.by_customer), (3, 2));
    let unused = store
        .coupon_usage(&CouponCode::parse("NOPE").unwrap(), "a@example.com")
        .await
        .unwrap();
    assert_eq!((unused.total, unused.by_customer), (0, 0));
}

pub async fn coupon_limits_are_counted_again_when_the_order_is_placed(store: &dyn CommerceStore) {
    let code = CouponCode::parse("ONCE").unwrap();
    let per_customer = [CouponLimit {
        code: code.clone(),
        total: Some(3),
        per_customer: Some(1),
    }];
    let place = |n: usize, email: &'static str| {
        let cart = cart_with("MUG", 1);
        let mut order = order_for(&cart, n);
        order.email = email.into();
        order.coupon_codes = vec![code.clone()];
        (cart, order)
    };
    let (cart, first) = place(1, "a@example.com");
    store.save_cart(&token(1), &cart).await.unwrap();
    store.place_order(&first, &per_customer).await.unwrap();
    // The same customer (email compared without case) may not use it again...
    let (cart, second) = place(2, "A@example.com");
    store.save_cart(&token(2), &cart).await.unwrap();
    let error = store.place_order(&second, &per_customer).await.unwrap_err();
    assert!(
        matches!(&error, PlaceOrderError::CouponLimitReached(refused) if refused == &code),
        "{error:?}"
    );
    // ...and the refusal changed nothing: the cart can still be bought without the coupon.
    assert!(!is_purchased(store, 2).await);
    let mut without = second.clone();
    without.coupon_codes.clear();
    store.place_order(&without, &[]).await.unwrap();
    // Another customer may, until the total limit is reached.
    let total_only = [CouponLimit {
        code: code.clone(),
        total: Some(2),
        per_customer: None,
    }];
    let (cart, third) = place(3, "b@example.com");
    store.save_cart(&token(3), &cart).await.unwrap();
    store.place_order(&third, &total_only).await.unwrap();
    let (cart, fourth) = place(4, "c@example.com");
    store.save_cart(&token(4), &cart).await.unwrap();
    let error = store.place_order(&fourth, &total_only).await.unwrap_err();
    assert!(
        matches!(error, PlaceOrderError::CouponLimitReached(_)),
        "{error:?}"
    );
}

pub async fn an_order_keeps_its_address_and_payment(store: &dyn CommerceStore) {
    let cart = cart_with("MUG", 1);
    store.save_cart(&token(1), &cart).await.unwrap();
    let mut order = order_for(&cart, 1);
    order.shipping_address = Some(ShippingAddress {
        name: "Ada".into(),
        line1: "1 Main St".into(),
        line2: String::new(),
        city: "Boston".into(),
        region: "MA".into(),
        postal_code: "02139".into(),
        country: "US".into(),
    });
    order.payment_id = "test_ch_1".into();
    store.place_order(&order, &[]).await.unwrap();
    assert_eq!(store.order(&order.id).await.unwrap(), Some(order.clone()));
    assert_eq!(
        store.order_by_key(&order.idempotency_key).await.unwrap(),
        Some(order)
    );
}

pub async fn a_charge_claimed_for_a_refund_pays_for_no_order(store: &dyn CommerceStore) {
    let mug = sku("MUG");
    store.set_stock(&mug, Stock::Limited(3)).await.unwrap();
    let cart = cart_with("MUG", 1);
    store.save_cart(&token(1), &cart).await.unwrap();
    let mut order = order_for(&cart, 1);
    order.payment_id = "ch_refunded".into();
    assert_eq!(store.refunded_attempts(&key(1)).await.unwrap(), 0);
    assert_eq!(
        store
            .claim_for_refund("ch_refunded", &key(1), NOW)
            .await
            .unwrap(),
        RefundClaim::Claimed
    );
    assert_eq!(store.refunded_attempts(&key(1)).await.unwrap(), 1);
    assert_eq!(store.refunded_attempts(&key(2)).await.unwrap(), 0);
    let error = store.place_order(&order, &[]).await.unwrap_err();
    assert!(
        matches!(&error, PlaceOrderError::PaymentRefunded(id) if id == "ch_refunded"),
        "{error:?}"
    );
    assert_eq!(store.order_by_key(&key(1)).await.unwrap(), None);
    assert_eq!(store.stock(&mug).await.unwrap(), Some(Stock::Limited(3)));
    let cart = store.load_cart(&token(1)).await.unwrap().unwrap();
    assert!(!cart.is_purchased);
    order.payment_id = "ch_new_attempt".into();
    store.place_order(&order, &[]).await.unwrap();
    assert_eq!(store.stock(&mug).await.unwrap(), Some(Stock::Limited(2)));
}

pub async fn an_ordered_charge_cannot_be_claimed_for_a_refund(store: &dyn CommerceStore) {
    let cart = cart_with("MUG", 1);
    store.save_cart(&token(1), &cart).await.unwrap();
    let mut order = order_for(&cart, 1);
    order.payment_id = "ch_paid".into();
    store.place_order(&order, &[]).await.unwrap();
    assert_eq!(
        store
            .claim_for_refund("ch_paid", &key(1), NOW)
            .await
            .unwrap(),
        RefundClaim::AlreadyClaimed
    );
    assert_eq!(store.refunded_attempts(&key(1)).await.unwrap(), 0);
    assert!(store.failed_refunds().await.unwrap().is_empty());
}

pub async fn failed_refunds_are_kept_for_the_owner(store: &dyn CommerceStore) {
    for (n, payment_id) in [(1, "ch_a"), (2, "ch_b")] {
        store
            .claim_for_refund(payment_id, &key(n), Timestamp(NOW.millis() + n as i64))
            .await
            .unwrap();
    }
    store
        .record_refund_failure("ch_b", "the provider timed out")
        .await
        .unwrap();
    assert_eq!(
        store.failed_refunds().await.unwrap(),
        vec![FailedRefund {
            payment_id: "ch_b".into(),
            idempotency_key: key(2).as_str().to_owned(),
            reason: "the provider timed out".into(),
            claimed: Timestamp(NOW.millis() + 2),
        }]
    );
}

/// Places order `n` (a service at 10.00) paid with the charge `payment_id`, as a checkout
/// through a payment gateway does: for tests of what the provider reports later.
pub async fn place_order_paid_with(store: &dyn CommerceStore, n: usize, payment_id: &str) -> Order {
    let cart = cart_with("MUG", 1);
    store.save_cart(&token(n), &cart).await.unwrap();
    let mut order = order_for(&cart, n);
    order.payment_id = payment_id.into();
    order.payment_key = key(n).as_str().to_owned();
    store.place_order(&order, &[]).await.unwrap()
}

/// Order `n` of one mug placed as payment pending, asked for under its first attempt's key:
/// the order a payment provider's reports settle.
pub async fn place_pending_order(store: &dyn CommerceStore, n: usize) -> Order {
    let cart = cart_with("MUG", 1);
    store.save_cart(&token(n), &cart).await.unwrap();
    let mut order = order_for(&cart, n);
    order.payment_key = key(n).attempt(1).as_str().to_owned();
    order.payment_status = PaymentStatus::Pending;
    store.place_order(&order, &[]).await.unwrap()
}

pub(crate) fn report(
    id: &str,
    payment_id: &str,
    payment_key: Option<&str>,
    outcome: PaymentOutcome,
) -> PaymentEvent {
    PaymentEvent {
        id: id.into(),
        payment_id: payment_id.into(),
        payment_key: payment_key.map(str::to_owned),
        outcome,
    }
}

pub async fn a_payment_report_moves_its_order_once(store: &dyn CommerceStore) {
    let cart = cart_with("MUG", 1);
    store.save_cart(&token(1), &cart).await.unwrap();
    let mut order = order_for(&cart, 1);
    order.payment_id = "pi_paid".into();
    order.payment_key = key(1).as_str().to_owned();
    store.place_order(&order, &[]).await.unwrap();
    let refunded = report("evt_1", "pi_paid", None, PaymentOutcome::Refunded);
    assert_eq!(
        store.reconcile_payment(&refunded, NOW).await.unwrap(),
        Reconciliation::Applied {
            order_id: order.id.clone(),
            status: PaymentStatus::Refunded,
        }
    );
    assert_eq!(
        store.reconcile_payment(&refunded, NOW).await.unwrap(),
        Reconciliation::Duplicate
    );
    // A success delivered late does not undo the refund.
    let late = report("evt_0", "pi_paid", None, PaymentOutcome::Succeeded);
    store.reconcile_payment(&late, NOW).await.unwrap();
    let stored = store.order(&order.id).await.unwrap().unwrap();
    assert_eq!(stored.payment_status, PaymentStatus::Refunded);
    assert_eq!(stored.payment_id, "pi_paid");
    let disputed = report("evt_2", "pi_paid", None, PaymentOutcome::Disputed);
    store.reconcile_payment(&disputed, NOW).await.unwrap();
    assert_eq!(
        store
            .order_by_key(&key(1))
            .await
            .unwrap()
            .unwrap()
            .payment_status,
        PaymentStatus::Disputed
    );
}

pub async fn a_report_settles_a_pending_order_by_its_payment_key(store: &dyn CommerceStore) {
    for n in [1, 2] {
        let cart = cart_with("MUG", 1);
        store.save_cart(&token(n), &cart).await.unwrap();
        let mut order = order_for(&cart, n);
        order.payment_key = key(n).attempt(1).as_str().to_owned();
        order.payment_status = PaymentStatus::Pending;
        let placed = store.place_order(&order, &[]).await.unwrap();
        assert_eq!(placed.payment_status, PaymentStatus::Pending);
        assert_eq!(placed.payment_id, "");
    }
    // A report naming another attempt's key is not this order's charge.
    let other_attempt = report(
        "evt_a",
        "pi_x",
        Some(key(1).as_str()),
        PaymentOutcome::Succeeded,
    );
    assert_eq!(
        store.reconcile_payment(&other_attempt, NOW).await.unwrap(),
        Reconciliation::NoOrder
    );
    let paid_key = key(1).attempt(1);
    let paid = report(
        "evt_b",
        "pi_1",
        Some(paid_key.as_str()),
        PaymentOutcome::Succeeded,
    );
    assert_eq!(
        store.reconcile_payment(&paid, NOW).await.unwrap(),
        Reconciliation::Applied {
            order_id: "order-1".into(),
            status: PaymentStatus::Paid,
        }
    );
    let settled = store.order_by_key(&key(1)).await.unwrap().unwrap();
    assert_eq!(settled.payment_id, "pi_1");
    assert_eq!(settled.payment_status, PaymentStatus::Paid);
    assert_eq!(
        store.claim_for_refund("pi_1", &key(1), NOW).await.unwrap(),
        RefundClaim::AlreadyClaimed,
        "the settled order holds its charge"
    );
    let failed_key = key(2).attempt(1);
    let failed = report(
        "evt_c",
        "pi_2",
        Some(failed_key.as_str()),
        PaymentOutcome::Failed,
    );
    store.reconcile_payment(&failed, NOW).await.unwrap();
    let unpaid = store.order_by_key(&key(2)).await.unwrap().unwrap();
    assert_eq!(unpaid.payment_status, PaymentStatus::Failed);
    assert_eq!(
        unpaid.payment_id, "",
        "a failed charge is no order's payment"
    );
    // Regression: a failed payment took the shopper's cart with it. Nothing was bought, so
    // the cart is theirs again, while the paid order's cart stays bought.
    let given_back = store.load_cart(&token(2)).await.unwrap().unwrap();
    assert!(!given_back.is_purchased, "the failed order's cart is back");
    store.save_cart(&token(2), &given_back).await.unwrap();
    let bought = store.load_cart(&token(1)).await.unwrap().unwrap();
    assert!(bought.is_purchased, "the paid order's cart stays bought");
}

pub async fn a_report_of_an_unknown_charge_is_recorded_without_an_order(store: &dyn CommerceStore) {
    let stray = report("evt_9", "pi_elsewhere", None, PaymentOutcome::Succeeded);
    assert_eq!(
        store.reconcile_payment(&stray, NOW).await.unwrap(),
        Reconciliation::NoOrder
    );
    assert_eq!(
        store.reconcile_payment(&stray, NOW).await.unwrap(),
        Reconciliation::Duplicate
    );
}

/// Places order `n` (one MUG) as payment pending, waiting on `intent` in the browser when
/// one is given, placed at `created`.
async fn place_pending(
    store: &dyn CommerceStore,
    n: usize,
    intent: Option<&str>,
    created: Timestamp,
) -> Order {
    let cart = cart_with("MUG", 1);
    store.save_cart(&token(n), &cart).await.unwrap();
    let mut order = order_for(&cart, n);
    order.payment_key = key(n).attempt(1).as_str().to_owned();
    order.payment_status = PaymentStatus::Pending;
    order.created = created;
    let follow_up = super::OrderFollowUp {
        browser_intent: intent.map(str::to_owned),
        ..super::OrderFollowUp::default()
    };
    store
        .place_order_with_follow_up(&order, &[], &follow_up)
        .await
        .unwrap()
}

pub async fn a_declined_card_leaves_a_browser_order_payable_until_its_intent_is_cancelled(
    store: &dyn CommerceStore,
) {
    store
        .set_stock(&sku("MUG"), Stock::Limited(5))
        .await
        .unwrap();
    let in_browser = place_pending(store, 1, Some("pi_b1"), NOW).await;
    let by_server = place_pending(store, 2, None, NOW).await;
    assert_eq!(
        store.stock(&sku("MUG")).await.unwrap(),
        Some(Stock::Limited(3))
    );
    let key_of = |order: &Order| Some(order.payment_key.clone());
    let declined = |id: &str, order: &Order| PaymentEvent {
        id: id.into(),
        payment_id: "pi_b1".into(),
        payment_key: key_of(order),
        outcome: PaymentOutcome::Declined,
    };
    assert_eq!(
        store
            .reconcile_payment(&declined("evt_d1", &in_browser), NOW)
            .await
            .unwrap(),
        Reconciliation::Declined {
            order_id: in_browser.id.clone(),
            payment_id: "pi_b1".into(),
        },
        "the payer may try another card"
    );
    let waiting = store.order(&in_browser.id).await.unwrap().unwrap();
    assert_eq!(waiting.payment_status, PaymentStatus::Pending);
    assert!(is_purchased(store, 1).await);
    assert_eq!(
        store.stock(&sku("MUG")).await.unwrap(),
        Some(Stock::Limited(3))
    );
    // A charge the server asked for is not tried again: its decline fails it.
    assert_eq!(
        store
            .reconcile_payment(&declined("evt_d2", &by_server), NOW)
            .await
            .unwrap(),
        Reconciliation::Applied {
            order_id: by_server.id.clone(),
            status: PaymentStatus::Failed,
        }
    );
    // The intent cancelled, reported by two servers under two ids: the order fails once.
    for id in ["checkout:cancelled", "evt_cancelled"] {
        let cancelled = PaymentEvent {
            id: id.into(),
            payment_id: "pi_b1".into(),
            payment_key: key_of(&in_browser),
            outcome: PaymentOutcome::Failed,
        };
        assert_eq!(
            store.reconcile_payment(&cancelled, NOW).await.unwrap(),
            Reconciliation::Applied {
                order_id: in_browser.id.clone(),
                status: PaymentStatus::Failed,
            }
        );
    }
    assert_eq!(
        store.stock(&sku("MUG")).await.unwrap(),
        Some(Stock::Limited(5)),
        "each failed order's unit is back, once"
    );
    assert!(!is_purchased(store, 1).await);
    // A decline reported late changes a cancelled order no more.
    assert_eq!(
        store
            .reconcile_payment(&declined("evt_d3", &in_browser), NOW)
            .await
            .unwrap(),
        Reconciliation::Applied {
            order_id: in_browser.id.clone(),
            status: PaymentStatus::Failed,
        }
    );
}

pub async fn browser_payments_wait_until_settled_and_are_listed_oldest_first(
    store: &dyn CommerceStore,
) {
    let later = Timestamp(NOW.millis() + 60_000);
    let newer = place_pending(store, 1, Some("pi_newer"), later).await;
    let older = place_pending(store, 2, Some("pi_older"), NOW).await;
    place_pending(store, 3, None, NOW).await;
    let listed = |before: Timestamp, limit: u32| async move {
        store
            .browser_payments_opened_before(before, limit)
            .await
            .unwrap()
            .into_iter()
            .map(|payment| (payment.order_id, payment.intent_id, payment.opened))
            .collect::<Vec<_>>()
    };
    assert_eq!(listed(NOW, 10).await, vec![], "none was opened before");
    let just_after = Timestamp(NOW.millis() + 1);
    assert_eq!(
        listed(just_after, 10).await,
        vec![(older.id.clone(), "pi_older".into(), NOW)]
    );
    let all = Timestamp(later.millis() + 1);
    assert_eq!(
        listed(all, 10).await,
        vec![
            (older.id.clone(), "pi_older".into(), NOW),
            (newer.id.clone(), "pi_newer".into(), later),
        ],
        "oldest first, and the server's pending charge waits on no intent"
    );
    assert_eq!(listed(all, 1).await.len(), 1);
    let paid = PaymentEvent {
        id: "evt_paid".into(),
        payment_id: "pi_older".into(),
        payment_key: Some(older.payment_key.clone()),
        outcome: PaymentOutcome::Succeeded,
    };
    store.reconcile_payment(&paid, NOW).await.unwrap();
    assert_eq!(
        listed(all, 10).await,
        vec![(newer.id.clone(), "pi_newer".into(), later)],
        "a settled order waits no more"
    );
}

pub async fn holds_keep_stock_from_other_carts_until_they_end(store: &dyn CommerceStore) {
    let held = sku("HELD");
    store.set_stock(&held, Stock::Limited(2)).await.unwrap();
    let (alice, bob) = (token(1), token(2));
    for (n, quantity) in [(1, 2), (2, 1)] {
        store
            .save_cart(&token(n), &cart_with("HELD", quantity))
            .await
            .unwrap();
    }
    let until = store
        .hold_stock(&alice, &[(held.clone(), 2), (sku("FREE"), 5)], NOW, 600)
        .await
        .unwrap();
    assert_eq!(until, NOW.plus_seconds(600));
    assert_eq!(store.held_by_others(&held, &bob, NOW).await.unwrap(), 2);
    assert_eq!(store.held_by_others(&held, &alice, NOW).await.unwrap(), 0);
    let refused = store
        .hold_stock(&bob, &[(held.clone(), 1)], NOW, 600)
        .await
        .unwrap_err();
    assert!(
        matches!(
            refused,
            HoldStockError::Short(HoldError::Insufficient { available: 0, .. })
        ),
        "{refused:?}"
    );
    // Bob cannot buy what Alice holds...
    let error = store
        .place_order(&order_for(&cart_with("HELD", 1), 2), &[])
        .await
        .unwrap_err();
    assert!(matches!(error, PlaceOrderError::OutOfStock(_)), "{error:?}");
    assert_eq!(store.stock(&held).await.unwrap(), Some(Stock::Limited(2)));
    // ...until her hold ends.
    let later = until.plus_seconds(1);
    assert_eq!(store.held_by_others(&held, &bob, until).await.unwrap(), 0);
    store
        .hold_stock(&bob, &[(held.clone(), 1)], later, 600)
        .await
        .unwrap();
    assert_eq!(store.held_by_others(&held, &alice, later).await.unwrap(), 1);
    store.release_holds(&bob).await.unwrap();
    assert_eq!(store.held_by_others(&held, &alice, later).await.unwrap(), 0);
}

pub async fn placing_an_order_ends_its_holds(store: &dyn CommerceStore) {
    let held = sku("HELD");
    store.set_stock(&held, Stock::Limited(3)).await.unwrap();
    let cart = cart_with("HELD", 2);
    store.save_cart(&token(1), &cart).await.unwrap();
    store
        .hold_stock(&token(1), &[(held.clone(), 2)], NOW, 600)
        .await
        .unwrap();
    // The holder buys what it holds.
    store.place_order(&order_for(&cart, 1), &[]).await.unwrap();
    assert_eq!(store.stock(&held).await.unwrap(), Some(Stock::Limited(1)));
    assert_eq!(
        store.held_by_others(&held, &token(2), NOW).await.unwrap(),
        0
    );
}

/// How many shoppers race for the last unit.
pub const BUYERS: usize = 12;

/// Stocks one unit of `LAST` and gives each of [`BUYERS`] shoppers a cart holding it.
pub async fn prepare_last_item(store: &dyn CommerceStore) -> Vec<Order> {
    store
        .set_stock(&sku("LAST"), Stock::Limited(1))
        .await
        .unwrap();
    let mut orders = Vec::new();
    for n in 0..BUYERS {
        let cart = cart_with("LAST", 1);
        store.save_cart(&token(n), &cart).await.unwrap();
        orders.push(order_for(&cart, n));
    }
    orders
}

/// Exactly one buyer got the item; every other one got the typed out-of-stock answer.
pub async fn exactly_one_winner(
    store: &dyn CommerceStore,
    outcomes: Vec<Result<Order, PlaceOrderError>>,
) {
    let winners = outcomes.iter().filter(|outcome| outcome.is_ok()).count();
    assert_eq!(winners, 1, "{outcomes:?}");
    for outcome in &outcomes {
        if let Err(error) = outcome {
            assert!(matches!(error, PlaceOrderError::OutOfStock(_)), "{error:?}");
        }
    }
    assert_eq!(
        store.stock(&sku("LAST")).await.unwrap(),
        Some(Stock::Limited(0))
    );
}

/// A cart of `MUG` on two lines, engraved "Ada" and "Bo".
fn engraved_mugs(ada: u32, bo: u32) -> CartState {
    let mut cart = CartState::new("cart", "site", NOW);
    let item = Purchasable::new(
        "mug",
        "Mug",
        ProductType::Service,
        sku("MUG"),
        1_000,
        Stock::Unlimited,
    );
    for (name, quantity) in [("Ada", ada), ("Bo", bo)] {
        let answers = FormAnswers::new(vec![FormAnswer {
            field_id: "engraving".into(),
            title: "Name to engrave".into(),
            value: name.into(),
        }]);
        cart.add_item_with_answers(&item, quantity, Some(answers))
            .expect("fixture carts are valid");
    }
    cart
}

pub async fn a_lines_answers_are_kept_by_the_cart_and_the_order(store: &dyn CommerceStore) {
    let cart = engraved_mugs(1, 2);
    store.save_cart(&token(1), &cart).await.unwrap();
    let stored = store.load_cart(&token(1)).await.unwrap().unwrap();
    assert_eq!(stored, cart);
    assert_eq!(
        stored.entries[1]
            .answers
            .as_ref()
            .unwrap()
            .value("engraving"),
        "Bo"
    );
    let order = order_for(&cart, 1);
    store.place_order(&order, &[]).await.unwrap();
    let placed = store.order(&order.id).await.unwrap().unwrap();
    assert_eq!(placed, order);
    assert_eq!(placed.lines[0].answers.value("engraving"), "Ada");
}

pub async fn lines_of_one_sku_take_its_stock_together(store: &dyn CommerceStore) {
    store
        .set_stock(&sku("MUG"), Stock::Limited(3))
        .await
        .unwrap();
    let cart = engraved_mugs(2, 2);
    store.save_cart(&token(1), &cart).await.unwrap();
    let error = store
        .place_order(&order_for(&cart, 1), &[])
        .await
        .unwrap_err();
    assert!(
        matches!(&error, PlaceOrderError::OutOfStock(short) if short.as_str() == "MUG"),
        "two lines of 2 are 4 of a stock of 3: {error:?}"
    );
    assert_eq!(
        store.stock(&sku("MUG")).await.unwrap(),
        Some(Stock::Limited(3))
    );
    let cart = engraved_mugs(2, 1);
    store.save_cart(&token(2), &cart).await.unwrap();
    store.place_order(&order_for(&cart, 2), &[]).await.unwrap();
    assert_eq!(
        store.stock(&sku("MUG")).await.unwrap(),
        Some(Stock::Limited(0))
    );
}

/// A cart holding `quantity` gift cards worth `price` each.
pub(crate) fn gift_card_cart(sku_text: &str, price: i64, quantity: u32) -> CartState {
    let mut cart = CartState::new("cart", "site", NOW);
    let item = Purchasable::new(
        "gift-card",
        "Gift card",
        ProductType::GiftCard,
        sku(sku_text),
        price,
        Stock::Unlimited,
    );
    cart.add_item(&item, quantity)
        .expect("fixture carts are valid");
    cart
}

pub(crate) fn code(n: u8) -> GiftCardCode {
    GiftCardCode::from_random([n; 10])
}

/// The card the `n`th unit of `order`'s gift card line issues, with code `code(n)`.
pub(crate) fn card_for(
    order: &Order,
    n: u8,
    value: i64,
    recipient: Option<GiftCardRecipient>,
) -> GiftCard {
    GiftCard {
        code: code(n),
        initial_cents: value,
        remaining_cents: value,
        currency: order.currency,
        order_id: order.id.clone(),
        sku: order.lines[0].sku.clone(),
        recipient,
        created: NOW,
    }
}

/// Places order `n` for a gift card worth `value`, issuing it with code `code(n)`.
pub async fn issue_card(store: &dyn CommerceStore, n: usize, value: i64) -> GiftCard {
    let cart = gift_card_cart("GIFT", value, 1);
    store.save_cart(&token(n), &cart).await.unwrap();
    let mut order = order_for(&cart, n);
    let card = card_for(&order, u8::try_from(n).unwrap(), value, None);
    order.gift_cards = vec![card.clone()];
    store.place_order(&order, &[]).await.unwrap();
    card
}

/// Order `n` of one service worth `total`, paying `paid` of it with the card `code`.
pub async fn paying_with(
    store: &dyn CommerceStore,
    n: usize,
    card: &GiftCardCode,
    total: i64,
    paid: i64,
) -> Order {
    let mut cart = cart_with("MUG", 1);
    cart.entries[0].unit_price_cents = total;
    store.save_cart(&token(n), &cart).await.unwrap();
    let mut order = order_for(&cart, n);
    order.gift_card_payment = Some(GiftCardPayment {
        code: card.clone(),
        amount_cents: paid,
    });
    order
}

pub async fn an_order_issues_its_gift_cards(store: &dyn CommerceStore) {
    let cart = gift_card_cart("GIFT-25", 2_500, 2);
    store.save_cart(&token(1), &cart).await.unwrap();
    let mut order = order_for(&cart, 1);
    let recipient = GiftCardRecipient {
        name: "Zoë".into(),
        email: "zoe@example.com".into(),
        message: "Joyeux anniversaire ! 🎂\nLove, Ada".into(),
    };
    order.gift_cards = vec![
        card_for(&order, 1, 2_500, Some(recipient)),
        card_for(&order, 2, 2_500, None),
    ];
    let placed = store.place_order(&order, &[]).await.unwrap();
    assert_eq!(placed, order);
    assert_eq!(store.order(&order.id).await.unwrap(), Some(order.clone()));
    assert_eq!(
        store.order_gift_cards(&order.id).await.unwrap(),
        order.gift_cards
    );
    assert_eq!(
        store.gift_card(&code(2)).await.unwrap().as_ref(),
        Some(&order.gift_cards[1])
    );
    assert_eq!(store.gift_card(&code(3)).await.unwrap(), None);
    assert!(
        store
            .order_gift_cards("order-404")
            .await
            .unwrap()
            .is_empty()
    );
}

pub async fn gift_card_codes_are_revealed_once(store: &dyn CommerceStore) {
    assert!(
        !store.reveal_gift_card_codes("order-404").await.unwrap(),
        "no order, nothing to reveal"
    );
    let cart = gift_card_cart("GIFT-25", 2_500, 1);
    store.save_cart(&token(1), &cart).await.unwrap();
    let mut order = order_for(&cart, 1);
    order.gift_cards = vec![card_for(&order, 1, 2_500, None)];
    store.place_order(&order, &[]).await.unwrap();
    assert!(store.reveal_gift_card_codes(&order.id).await.unwrap());
    assert!(!store.reveal_gift_card_codes(&order.id).await.unwrap());
    assert!(!store.reveal_gift_card_codes(&order.id).await.unwrap());
}

pub async fn the_same_idempotency_key_issues_gift_cards_once(store: &dyn CommerceStore) {
    let cart = gift_card_cart("GIFT-25", 2_500, 1);
    store.save_cart(&token(1), &cart).await.unwrap();
    let mut order = order_for(&cart, 1);
    order.gift_cards = vec![card_for(&order, 1, 2_500, None)];
    store.place_order(&order, &[]).await.unwrap();
    // A replay carries fresh codes (the service draws them before placing); none is issued.
    let mut again = order.clone();
    again.gift_cards = vec![card_for(&order, 9, 2_500, None)];
    let replayed = store.place_order(&again, &[]).await.unwrap();
    assert_eq!(replayed.gift_cards, order.gift_cards);
    assert_eq!(store.gift_card(&code(9)).await.unwrap(), None);
    assert_eq!(store.order_gift_cards(&order.id).await.unwrap().len(), 1);
}

pub async fn a_gift_card_pays_while_it_holds_the_amount(store: &dyn CommerceStore) {
    let card = issue_card(store, 1, 5_000).await;
    let first = paying_with(store, 2, &card.code, 3_000, 3_000).await;
    let placed = store.place_order(&first, &[]).await.unwrap();
    assert_eq!(placed.rest_due_cents(), 0);
    assert_eq!(store.order(&first.id).await.unwrap(), Some(first.clone()));
    let left = store.gift_card(&card.code).await.unwrap().unwrap();
    assert_eq!((left.initial_cents, left.remaining_cents), (5_000, 2_000));
    // The issuing order reads its card with the balance as it is now.
    let issuing = store.order(&card.order_id).await.unwrap().unwrap();
    assert_eq!(issuing.gift_cards[0].remaining_cents, 2_000);
    // The last 2,000 pay part of a larger order; the card is then empty, never below zero.
    let second = paying_with(store, 3, &card.code, 4_500, 2_000).await;
    let placed = store.place_order(&second, &[]).await.unwrap();
    assert_eq!(placed.rest_due_cents(), 2_500);
    let empty = store.gift_card(&card.code).await.unwrap().unwrap();
    assert_eq!(empty.remaining_cents, 0);
}

pub async fn a_refused_gift_card_changes_nothing(store: &dyn CommerceStore) {
    store
        .set_stock(&sku("MUG"), Stock::Limited(5))
        .await
        .unwrap();
    let card = issue_card(store, 1, 1_000).await;
    let refused = |error: PlaceOrderError| {
        assert!(
            matches!(&error, PlaceOrderError::GiftCardBalanceChanged(refused) if refused == &card.code),
            "{error:?}"
        );
    };
    // More than the card holds...
    let too_much = paying_with(store, 2, &card.code, 3_000, 1_001).await;
    refused(store.place_order(&too_much, &[]).await.unwrap_err());
    // ...a card in another currency than the order's...
    let mut other_currency = paying_with(store, 3, &card.code, 3_000, 500).await;
    other_currency.currency = if card.currency == Currency::Eur {
        Currency::Gbp
    } else {
        Currency::Eur
    };
    refused(store.place_order(&other_currency, &[]).await.unwrap_err());
    // ...or a code no card has: no order, no stock taken, the cart still open.
    let unknown = paying_with(store, 4, &code(77), 3_000, 500).await;
    let error = store.place_order(&unknown, &[]).await.unwrap_err();
    assert!(
        matches!(&error, PlaceOrderError::GiftCardBalanceChanged(c) if c == &code(77)),
        "{error:?}"
    );
    for n in 2..=4 {
        assert_eq!(store.order(&format!("order-{n}")).await.unwrap(), None);
        assert!(
            !store
                .load_cart(&token(n))
                .await
                .unwrap()
                .unwrap()
                .is_purchased
        );
    }
    assert_eq!(
        store.stock(&sku("MUG")).await.unwrap(),
        Some(Stock::Limited(5))
    );
    assert_eq!(
        store
            .gift_card(&card.code)
            .await
            .unwrap()
            .unwrap()
            .remaining_cents,
        1_000
    );
}

/// How many orders race to spend one card, and what each wants of it.
pub const SPENDERS: usize = 12;
const CARD_VALUE: i64 = 5_000;
const SPEND: i64 = 1_500;

/// Issues a card worth [`CARD_VALUE`] and prepares [`SPENDERS`] orders each paying
/// [`SPEND`] with it: only three fit.
pub async fn prepare_card_spenders(store: &dyn CommerceStore) -> Vec<Order> {
    let card = issue_card(store, 100, CARD_VALUE).await;
    let mut orders = Vec::new();
    for n in 0..SPENDERS {
        orders.push(paying_with(store, n, &card.code, SPEND, SPEND).await);
    }
    orders
}

/// The card paid exactly as many orders as its balance covers; every other order got the
/// typed refusal, and what the orders took plus what is left is what the card held.
pub async fn card_spent_at_most_once(
    store: &dyn CommerceStore,
    outcomes: Vec<Result<Order, PlaceOrderError>>,
) {
    let paid: i64 = outcomes
        .iter()
        .filter_map(|outcome| outcome.as_ref().ok())
        .filter_map(|order| order.gift_card_payment.as_ref())
        .map(|payment| payment.amount_cents)
        .sum();
    let winners = outcomes.iter().filter(|outcome| outcome.is_ok()).count();
    let fits = usize::try_from(CARD_VALUE / SPEND).unwrap();
    assert_eq!(winners, fits, "{outcomes:?}");
    for outcome in &outcomes {
        if let Err(error) = outcome {
            assert!(
                matches!(error, PlaceOrderError::GiftCardBalanceChanged(_)),
                "{error:?}"
            );
        }
    }
    let card = store.gift_card(&code(100)).await.unwrap().unwrap();
    assert_eq!(paid + card.remaining_cents, CARD_VALUE);
    assert_eq!(card.remaining_cents, CARD_VALUE - SPEND * 3);
}

/// A published gift card product for the fixture site (item `gift`, sold in 25.00 and
/// 50.00), to add to `fixture_site`'s items.
pub fn fixture_gift_card() -> crate::site::Item {
    use crate::catalog::{OptionValue, Product, Variant};
    use crate::enums::{ItemStatus, ItemType};
    let variant = |code: &str, price: i64, label: &str| Variant {
        sku: sku(code),
        price,
        sale_price: 0,
        on_sale: false,
        qty_in_stock: 0,
        unlimited: true,
        option_values: vec![OptionValue {
            name: "Amount".into(),
            value: label.into(),
        }],
    };
    let site = crate::ports::conformance::fixture_site("Shop");
    let tote = site
        .items
        .iter()
        .find(|item| item.id.as_str() == "tote")
        .expect("the fixture site sells a tote");
    crate::site::Item {
        id: crate::site::ItemId::parse("gift").expect("a valid id"),
        slug: crate::site::Slug::parse("gift").expect("a valid slug"),
        title: "Gift card".into(),
        record_type: ItemType::StoreItem,
        status: ItemStatus::Published,
        product: Some(
            Product::new(
                ProductType::GiftCard,
                vec![
                    variant("GIFT-25", 2_500, "$25"),
                    variant("GIFT-50", 5_000, "$50"),
                ],
            )
            .expect("a valid product"),
        ),
        ..tote.clone()
    }
}
