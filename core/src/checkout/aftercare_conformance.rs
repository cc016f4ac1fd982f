//! The conformance suite every [`OrderAftercareStore`] must pass: the in-memory one, SQLite
//! and PostgreSQL run the same assertions through [`order_aftercare_conformance!`]. The
//! store is handed in twice, as the commerce store that places the orders and holds the
//! stock, and as the aftercare store; both views share one database.

use super::aftercare::{
    ChangeOrderError, Fulfilment, OrderRefund, RefundError, RefundLine, RefundRequest, RefundState,
    TrackingUrl,
};
use super::aftercare_store::{
    ChangeOrderStoreError, OrderAftercareStore, RefundOutcome, RequestRefundError,
};
use super::order::{IdempotencyKey, Order};
use super::payment_events::{PaymentEvent, PaymentOutcome};
use super::store::CommerceStore;
use crate::cart::{CartState, CartToken, Purchasable, Stock, StoreRules, Timestamp};
use crate::catalog::Sku;
use crate::enums::ProductType;
use crate::forms::Mail;

/// Generates one `#[tokio::test]` per check; `$make` builds a fresh, empty store as a tuple
/// `(Arc<dyn CommerceStore>, Arc<dyn OrderAftercareStore>, guard)` over one database (it may
/// use `.await`, and may `return` to skip when its database is not configured).
#[macro_export]
macro_rules! order_aftercare_conformance {
    ($make:expr) => {
        $crate::order_aftercare_conformance!(@tests $make;
            a_partial_refund_by_units_restocks_them_once_settled,
            refunds_never_pass_what_was_charged,
            a_failed_refund_counts_for_nothing_and_restocks_nothing,
            a_refund_is_settled_once,
            a_cancelled_order_restocks_what_is_left_and_is_never_sent,
            a_sent_order_keeps_its_tracking_link_and_cannot_be_cancelled,
            an_unknown_order_is_refused,
            a_pending_payment_that_fails_puts_its_units_back,
        );
    };
    (@tests $make:expr; $($name:ident),* $(,)?) => {
        $(
            #[tokio::test]
            async fn $name() {
                let (commerce, aftercare, _guard) = $make;
                $crate::checkout::aftercare_conformance::$name(&*commerce, &*aftercare).await;
            }
        )*
    };
}

const NOW: Timestamp = Timestamp(1_700_000_000_000);

fn sku(text: &str) -> Sku {
    Sku::parse(text).expect("fixture SKUs are valid")
}

fn line(text: &str) -> RefundLine {
    RefundLine::parse(text).expect("fixture lines are valid")
}

fn mail(subject: &str) -> Mail {
    Mail {
        to: "buyer@example.com".into(),
        subject: subject.into(),
        text: "text".into(),
        html: Some("<p>html</p>".into()),
        list_unsubscribe: None,
    }
}

/// An order of 3 MUG at 10.00 charged as `pi_aftercare`, with 5 MUG in stock before it.
pub async fn place_paid_order(commerce: &dyn CommerceStore) -> Order {
    place_mugs(commerce, 1, 3, super::PaymentStatus::Paid).await
}

/// The `n`th order of `quantity` MUG at 10.00 with its payment `status` (a paid one charged
/// as `pi_aftercare`), with 5 MUG in stock before it.
async fn place_mugs(
    commerce: &dyn CommerceStore,
    n: usize,
    quantity: u32,
    status: super::PaymentStatus,
) -> Order {
    commerce
        .set_stock(&sku("MUG"), Stock::Limited(5))
        .await
        .unwrap();
    let token = CartToken::parse(format!("aftercare-cart-{n:04}")).unwrap();
    let mut cart = CartState::new("cart", "site", NOW);
    let mug = Purchasable::new(
        "product",
        "Mug",
        ProductType::Service,
        sku("MUG"),
        1_000,
        Stock::Limited(5),
    );
    cart.add_item(&mug, quantity).unwrap();
    commerce.save_cart(&token, &cart).await.unwrap();
    let priced = cart.price(&StoreRules::default(), NOW);
    let key = format!("aftercare-key-{n:04}");
    let mut order = Order::from_cart(
        &priced,
        format!("order-aftercare-{n}"),
        IdempotencyKey::parse(key.clone()).unwrap(),
        token,
        "buyer@example.com",
        NOW,
    )
    .unwrap();
    if status == super::PaymentStatus::Paid {
        order.payment_id = "pi_aftercare".into();
    }
    order.payment_key = key;
    order.payment_status = status;
    commerce.place_order(&order, &[]).await.unwrap()
}

async fn mugs(commerce: &dyn CommerceStore) -> Option<Stock> {
    commerce.stock(&sku("MUG")).await.unwrap()
}

fn refunded(id: &str) -> RefundOutcome {
    RefundOutcome::Refunded {
        gateway_refund_id: id.into(),
        mail: Some(mail("Your refund")),
    }
}

pub async fn a_partial_refund_by_units_restocks_them_once_settled(
    commerce: &dyn CommerceStore,
    aftercare: &dyn OrderAftercareStore,
) {
    let order = place_paid_order(commerce).await;
    assert_eq!(order.grand_total_cents, 3_000);
    assert_eq!(mugs(commerce).await, Some(Stock::Limited(2)));
    let request = RefundRequest {
        amount_cents: None,
        lines: vec![line("MUG:2")],
    };
    let refund = aftercare
        .request_refund(&order.id, &request, NOW)
        .await
        .unwrap();
    assert_eq!(refund.id, OrderRefund::id_for(&order.id, 1));
    assert_eq!(
        (refund.amount_cents, refund.state),
        (2_000, RefundState::Requested)
    );
    assert_eq!(
        mugs(commerce).await,
        Some(Stock::Limited(2)),
        "not before the money is back"
    );
    aftercare
        .settle_refund(&refund.id, &refunded("re_1"), NOW)
        .await
        .unwrap();
    assert_eq!(mugs(commerce).await, Some(Stock::Limited(4)));
    let (read, care) = aftercare.order_aftercare(&order.id).await.unwrap().unwrap();
    assert_eq!(read.id, order.id);
    assert_eq!(care.fulfilment, Fulfilment::Open);
    assert_eq!(care.refunds.len(), 1);
    assert_eq!(care.refunds[0].state, RefundState::Refunded);
    assert_eq!(care.refunds[0].gateway_refund_id, "re_1");
    assert_eq!(care.refunds[0].lines, vec![line("MUG:2")]);
    assert_eq!(care.refundable_cents(&read), Ok(1_000));
}

pub async fn refunds_never_pass_what_was_charged(
    commerce: &dyn CommerceStore,
    aftercare: &dyn OrderAftercareStore,
) {
    let order = place_paid_order(commerce).await;
    let amount = |cents| RefundRequest {
        amount_cents: Some(cents),
        lines: vec![],
    };
    aftercare
        .request_refund(&order.id, &amount(2_500), NOW)
        .await
        .unwrap();
    // A requested refund counts at once: a second one asked meanwhile finds 5.00 left.
    match aftercare.request_refund(&order.id, &amount(501), NOW).await {
        Err(RequestRefundError::Refused(RefundError::AmountTooLarge { refundable })) => {
            assert_eq!(refundable, 500)
        }
        other => panic!("expected AmountTooLarge, got {other:?}"),
    }
    let last = aftercare
        .request_refund(&order.id, &amount(500), NOW)
        .await
        .unwrap();
    assert_eq!(last.sequence, 2);
    assert!(matches!(
        aftercare
            .request_refund(&order.id, &RefundRequest::everything(), NOW)
            .await,
        Err(RequestRefundError::Refused(RefundError::NothingToRefund))
    ));
}

pub async fn a_failed_refund_counts_for_nothing_and_restocks_nothing(
    commerce: &dyn CommerceStore,
    aftercare: &dyn OrderAftercareStore,
) {
    let order = place_paid_order(commerce).await;
    let refund = aftercare
        .request_refund(&order.id, &RefundRequest::everything(), NOW)
        .await
        .unwrap();
    assert_eq!(refund.lines, vec![line("MUG:3")]);
    let failed = RefundOutcome::Failed {
        reason: "card expired".into(),
    };
    aftercare
        .settle_refund(&refund.id, &failed, NOW)
        .await
        .unwrap();
    assert_eq!(mugs(commerce).await, Some(Stock::Limited(2)));
    let (read, care) = aftercare.order_aftercare(&order.id).await.unwrap().unwrap();
    assert_eq!(care.refunds[0].state, RefundState::Failed);
    assert_eq!(care.refunds[0].reason, "card expired");
    assert_eq!(care.refundable_cents(&read), Ok(3_000));
    let again = aftercare
        .request_refund(&order.id, &RefundRequest::everything(), NOW)
        .await
        .unwrap();
    assert_eq!((again.sequence, again.amount_cents), (2, 3_000));
}

pub async fn a_refund_is_settled_once(
    commerce: &dyn CommerceStore,
    aftercare: &dyn OrderAftercareStore,
) {
    let order = place_paid_order(commerce).await;
    let refund = aftercare
        .request_refund(&order.id, &RefundRequest::everything(), NOW)
        .await
        .unwrap();
    for _ in 0..2 {
        aftercare
            .settle_refund(&refund.id, &refunded("re_1"), NOW)
            .await
            .unwrap();
    }
    let failed_late = RefundOutcome::Failed {
        reason: "late".into(),
    };
    aftercare
        .settle_refund(&refund.id, &failed_late, NOW)
        .await
        .unwrap();
    assert_eq!(
        mugs(commerce).await,
        Some(Stock::Limited(5)),
        "restocked once"
    );
    let (_, care) = aftercare.order_aftercare(&order.id).await.unwrap().unwrap();
    assert_eq!(care.refunds[0].state, RefundState::Refunded);
}

pub async fn a_cancelled_order_restocks_what_is_left_and_is_never_sent(
    commerce: &dyn CommerceStore,
    aftercare: &dyn OrderAftercareStore,
) {
    let order = place_paid_order(commerce).await;
    let one = RefundRequest {
        amount_cents: None,
        lines: vec![line("MUG:1")],
    };
    let refund = aftercare
        .request_refund(&order.id, &one, NOW)
        .await
        .unwrap();
    aftercare
        .settle_refund(&refund.id, &refunded("re_1"), NOW)
        .await
        .unwrap();
    assert_eq!(mugs(commerce).await, Some(Stock::Limited(3)));
    aftercare
        .cancel_order(&order.id, NOW, &mail("Your order was cancelled"))
        .await
        .unwrap();
    assert_eq!(mugs(commerce).await, Some(Stock::Limited(5)));
    let (_, care) = aftercare.order_aftercare(&order.id).await.unwrap().unwrap();
    assert_eq!(care.fulfilment, Fulfilment::Cancelled { at: NOW });
    let tracking = TrackingUrl::parse("https://track.example/1").unwrap();
    assert!(matches!(
        aftercare
            .fulfil_order(&order.id, &tracking, NOW, &mail("Shipped"))
            .await,
        Err(ChangeOrderStoreError::Refused(ChangeOrderError::Cancelled))
    ));
    assert!(matches!(
        aftercare.cancel_order(&order.id, NOW, &mail("again")).await,
        Err(ChangeOrderStoreError::Refused(ChangeOrderError::Cancelled))
    ));
    assert_eq!(
        mugs(commerce).await,
        Some(Stock::Limited(5)),
        "restocked once"
    );
}

pub async fn a_sent_order_keeps_its_tracking_link_and_cannot_be_cancelled(
    commerce: &dyn CommerceStore,
    aftercare: &dyn OrderAftercareStore,
) {
    let order = place_paid_order(commerce).await;
    let tracking = TrackingUrl::parse("https://track.example/parcel?id=7&x=1").unwrap();
    aftercare
        .fulfil_order(&order.id, &tracking, NOW, &mail("Shipped"))
        .await
        .unwrap();
    let (_, care) = aftercare.order_aftercare(&order.id).await.unwrap().unwrap();
    let sent = Fulfilment::Fulfilled {
        tracking_url: tracking.clone(),
        at: NOW,
    };
    assert_eq!(care.fulfilment, sent);
    // The owner's table reads the same record.
    let table = commerce
        .order_page(&crate::owners::tables::TableQuery::page(Some(&order.id), 1).unwrap())
        .await
        .unwrap();
    assert_eq!(table.rows[0].fulfilment, sent);
    assert!(matches!(
        aftercare.cancel_order(&order.id, NOW, &mail("no")).await,
        Err(ChangeOrderStoreError::Refused(
            ChangeOrderError::AlreadyFulfilled
        ))
    ));
    assert!(matches!(
        aftercare
            .fulfil_order(&order.id, &tracking, NOW, &mail("no"))
            .await,
        Err(ChangeOrderStoreError::Refused(
            ChangeOrderError::AlreadyFulfilled
        ))
    ));
    // A sent order may still be refunded (a return).
    aftercare
        .request_refund(&order.id, &RefundRequest::everything(), NOW)
        .await
        .unwrap();
}

pub async fn an_unknown_order_is_refused(
    _commerce: &dyn CommerceStore,
    aftercare: &dyn OrderAftercareStore,
) {
    assert_eq!(aftercare.order_aftercare("nope").await.unwrap(), None);
    assert!(matches!(
        aftercare
            .request_refund("nope", &RefundRequest::everything(), NOW)
            .await,
        Err(RequestRefundError::Refused(RefundError::UnknownOrder(_)))
    ));
    assert!(matches!(
        aftercare.cancel_order("nope", NOW, &mail("no")).await,
        Err(ChangeOrderStoreError::Refused(
            ChangeOrderError::UnknownOrder(_)
        ))
    ));
}

pub async fn a_pending_payment_that_fails_puts_its_units_back(
    commerce: &dyn CommerceStore,
    aftercare: &dyn OrderAftercareStore,
) {
    let order = place_mugs(commerce, 2, 2, super::PaymentStatus::Pending).await;
    assert_eq!(mugs(commerce).await, Some(Stock::Limited(3)));
    let failed = PaymentEvent {
        id: "evt_failed".into(),
        payment_id: "pi_never".into(),
        payment_key: Some("aftercare-key-0002".into()),
        outcome: PaymentOutcome::Failed,
    };
    commerce.reconcile_payment(&failed, NOW).await.unwrap();
    assert_eq!(mugs(commerce).await, Some(Stock::Limited(5)));
    // Delivered again, it changes nothing; and cancelling the failed order puts back nothing.
    commerce.reconcile_payment(&failed, NOW).await.unwrap();
    aftercare
        .cancel_order(&order.id, NOW, &mail("Your order was cancelled"))
        .await
        .unwrap();
    assert_eq!(mugs(commerce).await, Some(Stock::Limited(5)));
}
