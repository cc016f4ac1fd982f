//! The shopper's mails about an order on both databases: written with the order in its
//! transaction (the review request too), due when the follow-up says, claimed by the delivery
//! worker with the order they are about, and never written twice or for a refused order. The
//! gift card mails an order holds for its payment run the core's conformance checks, seen
//! through the delivery outbox.

use vitrine_core::cart::Timestamp;
use vitrine_core::cart::{CartState, CartToken, Purchasable, ShoppingCart, Stock, StoreRules};
use vitrine_core::catalog::Sku;
use vitrine_core::checkout::{
    IdempotencyKey, Order, OrderFollowUp, OrderMails, PaymentEvent, PaymentOutcome, PaymentStatus,
    PlaceOrderError,
};
use vitrine_core::enums::ProductType;
use vitrine_core::forms::{DeliveryKind, DeliverySubject};
use vitrine_sql::Database;

const NOW: Timestamp = Timestamp(1_795_269_600_000);
const WEEK_SECONDS: i64 = 7 * 24 * 60 * 60;
const LEASE_MS: i64 = 1_000;

fn cart_of(sku: &str, quantity: u32) -> CartState {
    let mut cart = CartState::new("cart", "site", NOW);
    let item = Purchasable::new(
        "poster",
        "Poster",
        ProductType::Digital,
        Sku::parse(sku).unwrap(),
        1_500,
        Stock::Unlimited,
    );
    cart.add_item(&item, quantity).unwrap();
    cart
}

fn order_for(cart: &CartState, n: u32) -> (Order, ShoppingCart) {
    let priced = cart.price(&StoreRules::default(), NOW);
    let order = Order::from_cart(
        &priced,
        format!("order-{n}"),
        IdempotencyKey::parse(format!("order-mails-key-{n}")).unwrap(),
        CartToken::parse(format!("order-mails-cart-{n}")).unwrap(),
        "ada@example.com",
        NOW,
    )
    .unwrap();
    (order, priced)
}

const MAILS: OrderMails = OrderMails {
    confirmation: true,
    review_request_delay_seconds: Some(WEEK_SECONDS),
};

async fn an_order_enqueues_its_mails_once_with_its_review_request(database: &Database) {
    let store = database.commerce_store();
    let outbox = database.delivery_outbox();
    let cart = cart_of("POSTER-1", 2);
    let (order, priced) = order_for(&cart, 1);
    store.save_cart(&order.cart_token, &cart).await.unwrap();
    let follow_up = OrderFollowUp::new(&order, &priced, MAILS);
    store
        .place_order_with_follow_up(&order, &[], &follow_up)
        .await
        .unwrap();
    // A double submit answers the first order and writes nothing more.
    store
        .place_order_with_follow_up(&order, &[], &follow_up)
        .await
        .unwrap();

    let records = outbox.deliveries().await.unwrap();
    let rows: Vec<_> = records
        .iter()
        .map(|r| {
            (
                r.submission_id,
                r.order_id.as_deref(),
                r.kind,
                r.next_attempt_ms,
            )
        })
        .collect();
    let mail_at = NOW.plus_seconds(WEEK_SECONDS);
    assert_eq!(
        rows,
        [
            (
                None,
                Some("order-1"),
                DeliveryKind::OrderConfirmation,
                NOW.millis()
            ),
            (
                None,
                Some("order-1"),
                DeliveryKind::ReviewRequest,
                mail_at.millis()
            ),
        ]
    );
    let scheduled = follow_up.review_request.clone().unwrap();
    assert_eq!(
        database
            .review_store()
            .request(&scheduled.request.token)
            .await
            .unwrap(),
        Some(scheduled.request.clone()),
        "the review request is stored with the order"
    );

    let due_now = outbox.claim_due(NOW.millis(), LEASE_MS, 10).await.unwrap();
    assert_eq!(due_now.len(), 1, "the review request waits for its day");
    assert_eq!(due_now[0].kind, DeliveryKind::OrderConfirmation);
    assert_eq!(
        due_now[0].subject,
        DeliverySubject::Order {
            order: Box::new(order.clone()),
            review_request: None
        }
    );
    outbox
        .mark_delivered(due_now[0].id, NOW.millis())
        .await
        .unwrap();
    let due_later = outbox
        .claim_due(mail_at.millis(), LEASE_MS, 10)
        .await
        .unwrap();
    assert_eq!(due_later.len(), 1);
    assert_eq!(due_later[0].kind, DeliveryKind::ReviewRequest);
    assert_eq!(
        due_later[0].subject,
        DeliverySubject::Order {
            order: Box::new(order),
            review_request: Some(scheduled.request)
        }
    );
}

async fn a_refused_order_enqueues_nothing(database: &Database) {
    let store = database.commerce_store();
    let sku = Sku::parse("POSTER-2").unwrap();
    store.set_stock(&sku, Stock::Limited(1)).await.unwrap();
    let cart = cart_of("POSTER-2", 2);
    let (order, priced) = order_for(&cart, 2);
    store.save_cart(&order.cart_token, &cart).await.unwrap();
    let refused = store
        .place_order_with_follow_up(&order, &[], &OrderFollowUp::new(&order, &priced, MAILS))
        .await
        .unwrap_err();
    assert!(
        matches!(refused, PlaceOrderError::OutOfStock(_)),
        "{refused:?}"
    );
    assert!(
        database
            .delivery_outbox()
            .deliveries()
            .await
            .unwrap()
            .is_empty()
    );
    let token = vitrine_core::checkout::review_request_token(&order);
    assert_eq!(database.review_store().request(&token).await.unwrap(), None);
}

async fn a_gift_card_mail_waits_for_the_day_the_buyer_chose(database: &Database) {
    use vitrine_core::forms::SiteLinks;
    use vitrine_core::gift_cards::{
        GiftCard, GiftCardRecipient, GiftCardSendDate, SequentialGiftCardCodes,
    };
    let store = database.commerce_store();
    let outbox = database.delivery_outbox();
    let mut cart = CartState::new("cart", "site", NOW);
    let card_item = Purchasable::new(
        "gift",
        "Gift card",
        ProductType::GiftCard,
        Sku::parse("GIFT-25").unwrap(),
        2_500,
        Stock::Unlimited,
    );
    cart.add_item(&card_item, 1).unwrap();
    let recipient = GiftCardRecipient::parse("Bea", "bea@example.com", "Enjoy")
        .unwrap()
        .unwrap();
    let day = GiftCardSendDate::parse("2026-12-24", NOW).unwrap();
    cart.set_gift_card_delivery(&Sku::parse("GIFT-25").unwrap(), Some(recipient), day)
        .unwrap();
    let (mut order, priced) = order_for(&cart, 3);
    order.gift_cards =
        GiftCard::issue_for(&priced, &order.id, NOW, &SequentialGiftCardCodes::new());
    store.save_cart(&order.cart_token, &cart).await.unwrap();
    let follow_up = OrderFollowUp::new(&order, &priced, OrderMails::default())
        .with_gift_card_mails(
            &order,
            &priced,
            "Clay Shop",
            &SiteLinks::new("https://shop.example"),
        );
    for _ in 0..2 {
        store
            .place_order_with_follow_up(&order, &[], &follow_up)
            .await
            .unwrap();
    }

    let send_at = day.unwrap().send_at();
    let records = outbox.deliveries().await.unwrap();
    let rows: Vec<_> = records
        .iter()
        .map(|r| (r.order_id.as_deref(), r.kind, r.next_attempt_ms))
        .collect();
    assert_eq!(
        rows,
        [(None, DeliveryKind::SiteUserMail, send_at.millis())],
        "one mail, however often the order is submitted"
    );
    assert!(
        outbox
            .claim_due(NOW.millis(), LEASE_MS, 10)
            .await
            .unwrap()
            .is_empty(),
        "the card waits for its day"
    );
    let due = outbox
        .claim_due(send_at.millis(), LEASE_MS, 10)
        .await
        .unwrap();
    assert_eq!(due.len(), 1);
    let DeliverySubject::Mail(mail) = &due[0].subject else {
        panic!("{:?}", due[0].subject);
    };
    assert_eq!(mail, &follow_up.gift_card_mails[0].mail);
    assert!(
        mail.text.contains(order.gift_cards[0].code.as_str())
            || mail.text.contains(&order.gift_cards[0].code.to_string())
    );
    assert!(mail.html.is_some());
}

/// A browser payment's order, placed pending with its confirmation held, paid after `n - 1`
/// other orders; whether its confirmation is due afterwards, and how many rows it has.
async fn held_confirmation_after(
    database: &Database,
    n: u32,
    outcomes: &[PaymentOutcome],
) -> (usize, usize) {
    let store = database.commerce_store();
    let outbox = database.delivery_outbox();
    let cart = cart_of(&format!("POSTER-H{n}"), 1);
    let (mut order, priced) = order_for(&cart, 10 + n);
    order.payment_status = PaymentStatus::Pending;
    order.payment_key = order.idempotency_key.as_str().to_owned();
    order.payment_id = String::new();
    store.save_cart(&order.cart_token, &cart).await.unwrap();
    let mut follow_up = OrderFollowUp::new(&order, &priced, MAILS);
    follow_up.confirmation_waits_for_payment = true;
    store
        .place_order_with_follow_up(&order, &[], &follow_up)
        .await
        .unwrap();
    assert!(
        outbox
            .claim_due(NOW.millis(), LEASE_MS, 10)
            .await
            .unwrap()
            .iter()
            .all(|due| due.kind != DeliveryKind::OrderConfirmation),
        "the confirmation waits for the payment"
    );
    for (i, outcome) in outcomes.iter().enumerate() {
        store
            .reconcile_payment(
                &PaymentEvent {
                    id: format!("evt_held_{n}_{i}"),
                    payment_id: format!("pi_held_{n}"),
                    payment_key: Some(order.payment_key.clone()),
                    outcome: *outcome,
                },
                NOW,
            )
            .await
            .unwrap();
    }
    let due = outbox
        .claim_due(NOW.millis() + 1, LEASE_MS, 10)
        .await
        .unwrap()
        .iter()
        .filter(|due| {
            due.kind == DeliveryKind::OrderConfirmation
                && matches!(&due.subject, DeliverySubject::Order { order: placed, .. } if placed.id == order.id)
        })
        .count();
    let rows = outbox
        .deliveries()
        .await
        .unwrap()
        .iter()
        .filter(|row| {
            row.order_id.as_deref() == Some(order.id.as_str())
                && row.kind == DeliveryKind::OrderConfirmation
        })
        .count();
    (due, rows)
}

async fn a_held_confirmation_goes_out_once_when_the_payment_succeeds_and_never_when_it_fails(
    database: &Database,
) {
    use PaymentOutcome::{Failed, Succeeded};
    assert_eq!(
        held_confirmation_after(database, 1, &[Succeeded, Succeeded]).await,
        (1, 1),
        "paid, reported twice: one mail, due at once"
    );
    assert_eq!(
        held_confirmation_after(database, 2, &[Failed]).await,
        (0, 0),
        "abandoned: no mail, ever"
    );
    assert_eq!(
        held_confirmation_after(database, 3, &[]).await,
        (0, 1),
        "still paying: held"
    );
}

/// Places order `n` of `email`'s with its confirmation and review request mails.
async fn placed_with_mails(database: &Database, n: u32, email: &str) -> Order {
    let store = database.commerce_store();
    let cart = cart_of("POSTER-1", 1);
    let (mut order, priced) = order_for(&cart, n);
    order.email = email.to_owned();
    store.save_cart(&order.cart_token, &cart).await.unwrap();
    let follow_up = OrderFollowUp::new(&order, &priced, MAILS);
    store
        .place_order_with_follow_up(&order, &[], &follow_up)
        .await
        .unwrap()
}

fn composed(to: &str) -> vitrine_core::forms::Mail {
    vitrine_core::forms::Mail {
        to: to.to_owned(),
        subject: "Your gift card".to_owned(),
        text: "A gift card for you.".to_owned(),
        html: None,
        list_unsubscribe: None,
    }
}

async fn an_erasure_withdraws_the_mails_not_yet_sent_to_the_address(database: &Database) {
    let store = database.commerce_store();
    let outbox = database.delivery_outbox();
    let ada = placed_with_mails(database, 1, "Ada@example.com").await;
    let bo = placed_with_mails(database, 2, "bo@example.com").await;
    outbox
        .enqueue_mail(&composed("ADA@example.com"), NOW.millis())
        .await
        .unwrap();
    outbox
        .enqueue_mail(&composed("bo@example.com"), NOW.millis())
        .await
        .unwrap();
    // Ada's confirmation went out before the erasure; her review request and the composed
    // mail to her still wait.
    let due = outbox.claim_due(NOW.millis(), LEASE_MS, 10).await.unwrap();
    let sent = due
        .iter()
        .find(|delivery| {
            delivery.kind == DeliveryKind::OrderConfirmation
                && matches!(&delivery.subject, DeliverySubject::Order { order, .. } if order.id == ada.id)
        })
        .expect("Ada's confirmation is due");
    outbox.mark_delivered(sent.id, NOW.millis()).await.unwrap();

    assert_eq!(
        store
            .erase_orders_of(
                "ada@EXAMPLE.com",
                vitrine_core::checkout::PlacedBetween::ALWAYS
            )
            .await
            .unwrap(),
        1
    );

    let left: Vec<_> = outbox
        .deliveries()
        .await
        .unwrap()
        .into_iter()
        .map(|record| (record.order_id, record.kind, record.delivered_ms.is_some()))
        .collect();
    let order_mail = |order: &Order, kind, sent| (Some(order.id.clone()), kind, sent);
    assert_eq!(
        left,
        [
            order_mail(&ada, DeliveryKind::OrderConfirmation, true),
            order_mail(&bo, DeliveryKind::OrderConfirmation, false),
            order_mail(&bo, DeliveryKind::ReviewRequest, false),
            (None, DeliveryKind::SiteUserMail, false),
        ],
        "what was sent stays recorded; nothing unsent to the address is left to send"
    );
    let later = outbox
        .claim_due(
            NOW.plus_seconds(WEEK_SECONDS).millis() + LEASE_MS,
            LEASE_MS,
            10,
        )
        .await
        .unwrap();
    assert!(
        later.iter().all(|delivery| match &delivery.subject {
            DeliverySubject::Mail(mail) => mail.to == "bo@example.com",
            DeliverySubject::Order { order, .. } => order.id == bo.id,
            DeliverySubject::Submission { .. } => false,
        }),
        "{later:?}"
    );
}

/// The composed mails of a database's outbox that the delivery worker will send: a mail due
/// at the farthest instant is held, and no worker's clock reaches it.
struct OutboxMails(std::sync::Arc<dyn vitrine_core::forms::DeliveryOutbox>);

#[async_trait::async_trait]
impl vitrine_core::checkout::held_mail_conformance::ComposedMailsDue for OutboxMails {
    async fn composed_mails_due(&self) -> Vec<vitrine_core::checkout::ScheduledMail> {
        let mut due = Vec::new();
        for record in self.0.deliveries().await.unwrap() {
            let waiting = record.delivered_ms.is_none() && !record.failed;
            if record.kind == DeliveryKind::SiteUserMail
                && waiting
                && record.next_attempt_ms < i64::MAX
            {
                due.push(vitrine_core::checkout::ScheduledMail {
                    mail: self.0.mail_of(record.id).await.unwrap().expect("its mail"),
                    due: Timestamp(record.next_attempt_ms),
                });
            }
        }
        due
    }
}

/// The commerce store and the outbox mails of `database`, for the held mail checks.
fn held_mail_store(
    database: &Database,
) -> (
    std::sync::Arc<dyn vitrine_core::checkout::CommerceStore>,
    std::sync::Arc<OutboxMails>,
) {
    (
        database.commerce_store(),
        std::sync::Arc::new(OutboxMails(database.delivery_outbox())),
    )
}

macro_rules! order_mail_tests {
    ($fresh:expr) => {
        #[tokio::test]
        async fn an_order_enqueues_its_mails_once_with_its_review_request() {
            let store = $fresh;
            super::an_order_enqueues_its_mails_once_with_its_review_request(&store.database).await;
        }

        #[tokio::test]
        async fn a_gift_card_mail_waits_for_the_day_the_buyer_chose() {
            let store = $fresh;
            super::a_gift_card_mail_waits_for_the_day_the_buyer_chose(&store.database).await;
        }

        #[tokio::test]
        async fn a_held_confirmation_goes_out_once_when_the_payment_succeeds_and_never_when_it_fails() {
            let store = $fresh;
            super::a_held_confirmation_goes_out_once_when_the_payment_succeeds_and_never_when_it_fails(
                &store.database,
            )
            .await;
        }

        #[tokio::test]
        async fn an_erasure_withdraws_the_mails_not_yet_sent_to_the_address() {
            let store = $fresh;
            super::an_erasure_withdraws_the_mails_not_yet_sent_to_the_address(&store.database)
                .await;
        }

        #[tokio::test]
        async fn a_refused_order_enqueues_nothing() {
            let store = $fresh;
            super::a_refused_order_enqueues_nothing(&store.database).await;
        }
    };
}

mod sqlite {
    order_mail_tests!(crate::sqlite::fresh().await);

    mod held_mails {
        vitrine_core::held_mail_conformance!({
            let fresh = crate::sqlite::fresh().await;
            let (store, mails) = super::super::held_mail_store(&fresh.database);
            (store, mails, fresh)
        });
    }
}

mod postgres {
    order_mail_tests!(match crate::postgres::fresh().await {
        Some(store) => store,
        None => return,
    });

    mod held_mails {
        vitrine_core::held_mail_conformance!({
            let Some(fresh) = crate::postgres::fresh().await else {
                return;
            };
            let (store, mails) = super::super::held_mail_store(&fresh.database);
            (store, mails, fresh)
        });
    }
}
