//! The part of the commerce store's conformance suite about failed payments: a pending
//! order whose payment fails gives back what placing it took (stock, cart, gift card
//! balance, coupon uses) once, however many reports of the failure arrive, and empties the
//! gift cards it issued. Run through [`crate::commerce_store_conformance!`].

use super::conformance::{
    NOW, card_for, cart_with, code, gift_card_cart, issue_card, key, order_for, paying_with,
    report, sku, token,
};
use super::order::{CouponLimit, Order, PlaceOrderError};
use super::payment_events::{PaymentOutcome, PaymentStatus, Reconciliation};
use super::store::CommerceStore;
use crate::cart::{CouponCode, Stock};

const EMAIL: &str = "buyer@example.com";

fn once() -> CouponCode {
    CouponCode::parse("ONCE").expect("a valid coupon code")
}

/// The coupon `ONCE`, usable by one order in all.
fn once_limit() -> [CouponLimit; 1] {
    [CouponLimit {
        code: once(),
        total: Some(1),
        per_customer: None,
    }]
}

/// Order `n` as payment pending under its first attempt's key.
fn pending(mut order: Order, n: usize) -> Order {
    order.payment_key = key(n).attempt(1).as_str().to_owned();
    order.payment_status = PaymentStatus::Pending;
    order
}

pub async fn a_failed_payment_gives_back_what_placing_took_once(store: &dyn CommerceStore) {
    store
        .set_stock(&sku("MUG"), Stock::Limited(5))
        .await
        .unwrap();
    let card = issue_card(store, 1, 5_000).await;
    // A paid order spends 2,000 first, so that a balance given back twice would show.
    let paid = paying_with(store, 2, &card.code, 2_000, 2_000).await;
    store.place_order(&paid, &[]).await.unwrap();
    // The pending order: 1,200 from the card, the rest by card, and the coupon's only use.
    let mut order = pending(paying_with(store, 3, &card.code, 3_000, 1_200).await, 3);
    order.coupon_codes = vec![once()];
    store.place_order(&order, &once_limit()).await.unwrap();
    let balance = || async {
        store
            .gift_card(&card.code)
            .await
            .unwrap()
            .unwrap()
            .remaining_cents
    };
    assert_eq!(balance().await, 1_800);
    assert_eq!(store.coupon_usage(&once(), EMAIL).await.unwrap().total, 1);
    assert_eq!(
        store.stock(&sku("MUG")).await.unwrap(),
        Some(Stock::Limited(3))
    );
    // Another order cannot use the coupon while the pending one holds its use.
    let mut second = order_for(&cart_with("MUG", 1), 4);
    second.coupon_codes = vec![once()];
    store
        .save_cart(&token(4), &cart_with("MUG", 1))
        .await
        .unwrap();
    let refused = store.place_order(&second, &once_limit()).await.unwrap_err();
    assert!(
        matches!(&refused, PlaceOrderError::CouponLimitReached(code) if code == &once()),
        "{refused:?}"
    );
    // The failure, reported twice under two ids (the server's answer and the webhook), and
    // once more under the first id: the order fails once.
    for id in ["checkout:failed", "evt_failed", "evt_failed"] {
        let failed = report(
            id,
            "pi_3",
            Some(order.payment_key.as_str()),
            PaymentOutcome::Failed,
        );
        let reconciled = store.reconcile_payment(&failed, NOW).await.unwrap();
        assert!(
            matches!(
                reconciled,
                Reconciliation::Applied {
                    status: PaymentStatus::Failed,
                    ..
                } | Reconciliation::Duplicate
            ),
            "{reconciled:?}"
        );
    }
    assert_eq!(balance().await, 3_000, "the card's 1,200 is back, once");
    assert_eq!(
        store.stock(&sku("MUG")).await.unwrap(),
        Some(Stock::Limited(4)),
        "the failed order's unit is back, once"
    );
    let usage = store.coupon_usage(&once(), EMAIL).await.unwrap();
    assert_eq!((usage.total, usage.by_customer), (0, 0));
    assert!(
        !store
            .load_cart(&token(3))
            .await
            .unwrap()
            .unwrap()
            .is_purchased
    );
    // The coupon's use is free again, and the paid order kept what it spent.
    store.place_order(&second, &once_limit()).await.unwrap();
    let stored = store.order(&order.id).await.unwrap().unwrap();
    assert_eq!(stored.payment_status, PaymentStatus::Failed);
    assert_eq!(
        stored.gift_card_payment, order.gift_card_payment,
        "the order still says what it had asked of the card"
    );
}

pub async fn a_failed_order_empties_the_gift_cards_it_issued(store: &dyn CommerceStore) {
    let cart = gift_card_cart("GIFT", 2_500, 1);
    store.save_cart(&token(1), &cart).await.unwrap();
    let mut order = pending(order_for(&cart, 1), 1);
    order.gift_cards = vec![card_for(&order, 1, 2_500, None)];
    store.place_order(&order, &[]).await.unwrap();
    let other = issue_card(store, 2, 1_000).await;
    let failed = report(
        "evt_failed",
        "pi_1",
        Some(order.payment_key.as_str()),
        PaymentOutcome::Failed,
    );
    store.reconcile_payment(&failed, NOW).await.unwrap();
    let unpaid = store.gift_card(&code(1)).await.unwrap().unwrap();
    assert_eq!(
        (unpaid.initial_cents, unpaid.remaining_cents),
        (2_500, 0),
        "a card never paid for buys nothing"
    );
    let kept = store.gift_card(&other.code).await.unwrap().unwrap();
    assert_eq!(kept.remaining_cents, 1_000, "another order's card is kept");
}
