//! Payments in the browser that fail, on both databases: two reports of one cancellation
//! arriving at the same moment (two servers cancelling an abandoned payment, or Stripe's
//! webhook beside the shopper's return address, each under its own report id) fail the order
//! once, so its stock and the gift card balance it spent come back once. On PostgreSQL the
//! order's row, locked by the first report, holds the second until the first commits; on
//! SQLite the write lock does.

use std::sync::Arc;

use tokio::sync::Barrier;
use vitrine_core::cart::{CouponCode, Stock, Timestamp};
use vitrine_core::catalog::Sku;
use vitrine_core::checkout::conformance::{issue_card, paying_with};
use vitrine_core::checkout::{
    CommerceStore, Order, OrderFollowUp, PaymentEvent, PaymentOutcome, PaymentStatus,
    Reconciliation,
};

const NOW: Timestamp = Timestamp(1_700_000_000_000);
/// How many orders fail, each under two reports at once: more than one, so that the two
/// reports overlap at least once even on a machine that runs them one after the other now
/// and then.
const ROUNDS: usize = 6;
const CARD_VALUE: i64 = 5_000;
/// What each failing order takes from the card.
const SPEND: i64 = 300;

fn mug() -> Sku {
    Sku::parse("MUG").unwrap()
}

fn once() -> CouponCode {
    CouponCode::parse("ONCE").unwrap()
}

/// Order `n`: one mug, `SPEND` of it from `card`, the rest paid by an intent `pi_n` the payer
/// confirms in the browser, placed as payment pending.
async fn waiting_in_browser(
    store: &dyn CommerceStore,
    n: usize,
    card: &vitrine_core::gift_cards::GiftCardCode,
) -> Order {
    let mut order = paying_with(store, n, card, 1_000, SPEND).await;
    order.payment_key = order.idempotency_key.attempt(0).as_str().to_owned();
    order.payment_status = PaymentStatus::Pending;
    order.coupon_codes = vec![once()];
    let follow_up = OrderFollowUp {
        browser_intent: Some(format!("pi_{n}")),
        ..OrderFollowUp::default()
    };
    store
        .place_order_with_follow_up(&order, &[], &follow_up)
        .await
        .unwrap()
}

/// The cancellation of `order`'s intent, as the report `id` tells it.
fn cancelled(order: &Order, n: usize, id: String) -> PaymentEvent {
    PaymentEvent {
        id,
        payment_id: format!("pi_{n}"),
        payment_key: Some(order.payment_key.clone()),
        outcome: PaymentOutcome::Failed,
    }
}

async fn two_cancellations_at_once_give_back_once(store: Arc<dyn CommerceStore>) {
    store.set_stock(&mug(), Stock::Limited(100)).await.unwrap();
    let card = issue_card(&*store, 1, CARD_VALUE).await.code;
    for round in 0..ROUNDS {
        let n = round + 2;
        let order = waiting_in_browser(&*store, n, &card).await;
        assert_eq!(store.stock(&mug()).await.unwrap(), Some(Stock::Limited(99)));
        let barrier = Arc::new(Barrier::new(2));
        let reports = ["evt_canceled", "checkout:canceled"].map(|kind| {
            let (store, barrier) = (store.clone(), barrier.clone());
            let report = cancelled(&order, n, format!("{kind}:{n}"));
            tokio::spawn(async move {
                barrier.wait().await;
                store.reconcile_payment(&report, NOW).await
            })
        });
        for report in reports {
            let reconciled = report.await.expect("a report's task panicked").unwrap();
            assert_eq!(
                reconciled,
                Reconciliation::Applied {
                    order_id: order.id.clone(),
                    status: PaymentStatus::Failed,
                }
            );
        }
        assert_eq!(
            store.stock(&mug()).await.unwrap(),
            Some(Stock::Limited(100)),
            "round {round}: the mug is back, once"
        );
        let card = store.gift_card(&card).await.unwrap().unwrap();
        assert_eq!(
            card.remaining_cents, CARD_VALUE,
            "round {round}: the card's part is back, once"
        );
        let uses = store.coupon_usage(&once(), "buyer@example.com").await;
        assert_eq!(
            uses.unwrap().total,
            0,
            "round {round}: the coupon's use is back"
        );
        let failed = store.order(&order.id).await.unwrap().unwrap();
        assert_eq!(failed.payment_status, PaymentStatus::Failed);
        assert!(
            !store
                .load_cart(&order.cart_token)
                .await
                .unwrap()
                .unwrap()
                .is_purchased
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_two_cancellations_of_one_order_at_once_give_its_stock_and_card_back_once() {
    let Some(store) = crate::postgres::fresh().await else {
        return;
    };
    two_cancellations_at_once_give_back_once(store.database.commerce_store()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_two_cancellations_of_one_order_at_once_give_its_stock_and_card_back_once() {
    let store = crate::sqlite::fresh().await;
    two_cancellations_at_once_give_back_once(store.database.commerce_store()).await;
}
