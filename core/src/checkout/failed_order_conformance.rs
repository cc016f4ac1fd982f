//! The part of the commerce store's conformance suite about failed payments: a pending
//! order whose payment fails gives back what placing it took (stock, cart, gift card
//! balance, coupon uses) once, however many reports of the failure arrive, and empties the
//! gift cards it issued; so does one whose charge went back before it paid it. A success
//! reported after the failure leaves the order failed and claims the charge for one refund.
//! Run through [`crate::commerce_store_conformance!`].

use super::conformance::{
    NOW, card_for, cart_with, code, gift_card_cart, is_purchased, issue_card, key, order_for,
    paying_with, report, sku, token,
};
use super::ledger::RefundClaim;
use super::order::{CouponLimit, Order, PlaceOrderError};
use super::payment::Payment;
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
    assert!(!is_purchased(store, 3).await);
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

pub async fn a_success_after_the_failure_is_given_back_and_the_order_stays_failed(
    store: &dyn CommerceStore,
) {
    store
        .set_stock(&sku("MUG"), Stock::Limited(5))
        .await
        .unwrap();
    let card = issue_card(store, 1, 5_000).await;
    let order = pending(paying_with(store, 2, &card.code, 3_000, 1_000).await, 2);
    store.place_order(&order, &[]).await.unwrap();
    let key = order.payment_key.as_str();
    let failed = report("evt_cancelled", "pi_2", Some(key), PaymentOutcome::Failed);
    store.reconcile_payment(&failed, NOW).await.unwrap();
    assert_eq!(
        store.stock(&sku("MUG")).await.unwrap(),
        Some(Stock::Limited(5))
    );

    // The charge succeeds after all: it is claimed for a refund, once, and the order keeps
    // nothing it gave back.
    let late = report("evt_late", "pi_2", Some(key), PaymentOutcome::Succeeded);
    assert_eq!(
        store.reconcile_payment(&late, NOW).await.unwrap(),
        Reconciliation::Refunding {
            order_id: order.id.clone(),
            payment: Payment {
                id: "pi_2".into(),
                amount_minor: 2_000,
                currency: order.currency,
            },
        }
    );
    assert_eq!(
        store.reconcile_payment(&late, NOW).await.unwrap(),
        Reconciliation::Duplicate
    );
    for (id, outcome) in [
        // The same success as the server read it, under its own id: already claimed.
        ("checkout:late:succeeded", PaymentOutcome::Succeeded),
        // The provider's report of the refund the claim led to.
        ("evt_refunded", PaymentOutcome::Refunded),
    ] {
        assert_eq!(
            store
                .reconcile_payment(&report(id, "pi_2", Some(key), outcome), NOW)
                .await
                .unwrap(),
            Reconciliation::Applied {
                order_id: order.id.clone(),
                status: PaymentStatus::Failed,
            },
            "{id}"
        );
    }
    assert_eq!(
        store
            .refunded_attempts(&order.idempotency_key)
            .await
            .unwrap(),
        1,
        "the late charge is claimed for one refund, so the next attempt charges anew"
    );
    assert_eq!(
        store
            .claim_for_refund("pi_2", &order.idempotency_key, NOW)
            .await
            .unwrap(),
        RefundClaim::AlreadyClaimed
    );
    let stored = store.order(&order.id).await.unwrap().unwrap();
    assert_eq!(stored.payment_status, PaymentStatus::Failed);
    assert!(
        stored.payment_id.is_empty(),
        "the order never holds the charge"
    );
    assert_eq!(
        store.stock(&sku("MUG")).await.unwrap(),
        Some(Stock::Limited(5)),
        "its unit stays on sale"
    );
    let balance = store.gift_card(&card.code).await.unwrap().unwrap();
    assert_eq!(
        balance.remaining_cents, 5_000,
        "the card keeps its balance back"
    );
    assert!(
        !is_purchased(store, 2).await,
        "the cart stays the shopper's"
    );
}

pub async fn a_charge_refunded_before_it_paid_its_order_gives_back_what_placing_took(
    store: &dyn CommerceStore,
) {
    store
        .set_stock(&sku("GIFT"), Stock::Limited(3))
        .await
        .unwrap();
    let cart = gift_card_cart("GIFT", 2_500, 1);
    store.save_cart(&token(1), &cart).await.unwrap();
    let mut order = pending(order_for(&cart, 1), 1);
    order.gift_cards = vec![card_for(&order, 1, 2_500, None)];
    store.place_order(&order, &[]).await.unwrap();
    // A retry of the same form refunded the charge before its report reached the order.
    assert_eq!(
        store
            .claim_for_refund("pi_1", &order.idempotency_key, NOW)
            .await
            .unwrap(),
        RefundClaim::Claimed
    );
    let succeeded = report(
        "evt_succeeded",
        "pi_1",
        Some(order.payment_key.as_str()),
        PaymentOutcome::Succeeded,
    );
    assert_eq!(
        store.reconcile_payment(&succeeded, NOW).await.unwrap(),
        Reconciliation::Applied {
            order_id: order.id.clone(),
            status: PaymentStatus::Refunded,
        }
    );
    let issued = store.gift_card(&code(1)).await.unwrap().unwrap();
    assert_eq!(
        issued.remaining_cents, 0,
        "a card whose payment went back buys nothing"
    );
    assert_eq!(
        store.stock(&sku("GIFT")).await.unwrap(),
        Some(Stock::Limited(3)),
        "its unit is back"
    );
    assert!(!is_purchased(store, 1).await);
}
