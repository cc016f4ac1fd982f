//! The erasure checks every [`CommerceStore`] must pass: erasing an address strips the
//! personal fields of the orders placed with it and keeps what the site owner's books need.
//! The in-memory store, SQLite and PostgreSQL run them through
//! [`order_erasure_conformance!`](crate::order_erasure_conformance).

use super::details::ShippingAddress;
use super::order::Order;
use super::placed_between::PlacedBetween;
use super::store::CommerceStore;
use super::subscription::Subscription;
use super::subscription_conformance::{monthly_for, ordered};
use crate::cart::{CouponCode, Stock, Timestamp};

/// Generates one `#[tokio::test]` per check; `$make` builds a fresh, empty store (it may
/// use `.await`, and may `return` to skip when its database is not configured).
#[macro_export]
macro_rules! order_erasure_conformance {
    ($make:expr) => {
        $crate::order_erasure_conformance!(@tests $make;
            an_erased_address_leaves_its_orders_without_personal_fields,
            erasing_touches_no_other_address,
            an_erased_address_is_removed_from_the_gift_cards_sent_to_it,
            an_address_held_for_a_span_reads_and_erases_the_orders_of_that_span_only,
            a_gift_card_sent_before_the_span_keeps_its_recipient,
        );
    };
    (@tests $make:expr; $($name:ident),* $(,)?) => {
        $(
            #[tokio::test]
            async fn $name() {
                let store = $make;
                $crate::checkout::erasure_conformance::$name(&store).await;
            }
        )*
    };
}

fn address(name: &str) -> ShippingAddress {
    ShippingAddress {
        name: name.into(),
        line1: "12 Analytical Row".into(),
        line2: "Flat 3".into(),
        city: "London".into(),
        region: "LND".into(),
        postal_code: "SW1A 1AA".into(),
        country: "GB".into(),
    }
}

/// An order of `email`'s, shipped to them, with the coupon SAVE; a monthly subscription
/// when `subscribes`.
async fn placed(store: &dyn CommerceStore, n: usize, email: &str, subscribes: bool) -> Order {
    placed_at(store, n, email, subscribes, None).await
}

/// [`placed`], at `at` when given.
async fn placed_at(
    store: &dyn CommerceStore,
    n: usize,
    email: &str,
    subscribes: bool,
    at: Option<Timestamp>,
) -> Order {
    let plan = subscribes.then(|| monthly_for(6));
    let mut order = ordered(store, n, plan, Stock::Unlimited, 1).await;
    if let Some(at) = at {
        order.created = at;
    }
    order.email = email.into();
    order.shipping_address = Some(address(email));
    order.coupon_codes = vec![CouponCode::parse("SAVE").expect("a valid code")];
    store.place_order(&order, &[]).await.expect("placed")
}

pub async fn an_erased_address_leaves_its_orders_without_personal_fields(
    store: &dyn CommerceStore,
) {
    let first = placed(store, 1, "Ada@Example.com", true).await;
    let second = placed(store, 2, "ada@example.com", false).await;

    assert_eq!(
        store
            .erase_orders_of("ADA@example.com", PlacedBetween::ALWAYS)
            .await
            .unwrap(),
        2
    );

    for placed in [&first, &second] {
        let erased = store.order(&placed.id).await.unwrap().expect("kept");
        assert_eq!(erased.email, "");
        assert_eq!(
            erased.shipping_address,
            Some(ShippingAddress {
                name: String::new(),
                line1: String::new(),
                line2: String::new(),
                city: String::new(),
                region: "LND".into(),
                postal_code: String::new(),
                country: "GB".into(),
            }),
            "the region and country stay: the order's tax was worked out from them"
        );
        let personal = Order {
            email: placed.email.clone(),
            shipping_address: placed.shipping_address.clone(),
            ..erased
        };
        assert_eq!(
            &personal, placed,
            "amounts, lines, SKUs, payment and dates stay for the books"
        );
    }
    assert!(
        store
            .orders_by_email("ada@example.com", 10)
            .await
            .unwrap()
            .is_empty()
    );
    let code = CouponCode::parse("SAVE").unwrap();
    let usage = store.coupon_usage(&code, "ada@example.com").await.unwrap();
    assert_eq!(
        (usage.total, usage.by_customer),
        (2, 0),
        "the coupon's uses still count, but no longer as the address's"
    );
    let subscription = store
        .subscription(&format!("{}-subscription", first.id))
        .await
        .unwrap()
        .expect("kept");
    let started = Subscription::start(&first).expect("a subscription order");
    assert_eq!(
        subscription,
        Subscription {
            email: String::new(),
            ..started
        }
    );
    assert_eq!(
        store
            .erase_orders_of("ada@example.com", PlacedBetween::ALWAYS)
            .await
            .unwrap(),
        0,
        "erasing again finds nothing"
    );
    assert_eq!(
        store
            .erase_orders_of("", PlacedBetween::ALWAYS)
            .await
            .unwrap(),
        0,
        "the emptied address of erased orders is nobody's"
    );
}

pub async fn erasing_touches_no_other_address(store: &dyn CommerceStore) {
    let other = placed(store, 1, "bo@example.com", true).await;
    placed(store, 2, "ada@example.com", false).await;

    assert_eq!(
        store
            .erase_orders_of("%@example.com", PlacedBetween::ALWAYS)
            .await
            .unwrap(),
        0
    );
    assert_eq!(
        store
            .erase_orders_of("nobody@example.com", PlacedBetween::ALWAYS)
            .await
            .unwrap(),
        0
    );
    assert_eq!(
        store
            .erase_orders_of("ada@example.com", PlacedBetween::ALWAYS)
            .await
            .unwrap(),
        1
    );
    assert_eq!(store.order(&other.id).await.unwrap(), Some(other.clone()));
    let subscription = store
        .subscription(&format!("{}-subscription", other.id))
        .await
        .unwrap()
        .expect("kept");
    assert_eq!(subscription.email, "bo@example.com");
    let code = CouponCode::parse("SAVE").unwrap();
    let usage = store.coupon_usage(&code, "bo@example.com").await.unwrap();
    assert_eq!((usage.total, usage.by_customer), (2, 1));
}

/// A gift card someone else bought for the erased address loses its recipient (name, address
/// and the buyer's message to them): the card, its code and its balance stay, since the
/// card is still money its holder may spend.
pub async fn an_erased_address_is_removed_from_the_gift_cards_sent_to_it(
    store: &dyn CommerceStore,
) {
    use super::conformance::{card_for, gift_card_cart, order_for, token};
    use crate::gift_cards::GiftCardRecipient;
    let cart = gift_card_cart("GIFT-25", 2_500, 2);
    store.save_cart(&token(7), &cart).await.unwrap();
    let mut order = order_for(&cart, 7);
    order.email = "bo@example.com".into();
    let recipient = |name: &str, email: &str| GiftCardRecipient {
        name: name.into(),
        email: email.into(),
        message: format!("For {name}"),
    };
    order.gift_cards = vec![
        card_for(&order, 1, 2_500, Some(recipient("Ada", "ADA@example.com"))),
        card_for(&order, 2, 2_500, Some(recipient("Cy", "cy@example.com"))),
    ];
    store.place_order(&order, &[]).await.expect("placed");

    assert_eq!(
        store
            .erase_orders_of("ada@example.com", PlacedBetween::ALWAYS)
            .await
            .unwrap(),
        0,
        "the address placed no order"
    );
    let cards = store.order_gift_cards(&order.id).await.unwrap();
    assert_eq!(
        cards[0],
        crate::gift_cards::GiftCard {
            recipient: None,
            ..order.gift_cards[0].clone()
        },
        "the code, value and balance stay"
    );
    assert_eq!(
        cards[1], order.gift_cards[1],
        "another recipient keeps theirs"
    );
    assert_eq!(
        store.order(&order.id).await.unwrap().expect("kept").email,
        "bo@example.com"
    );
}

/// One address held by two accounts in turn: the first up to 2,000 (its span ends there,
/// included), the second after. Each reads and erases the orders of its own span, and the
/// gift cards sent to the address within it; the first's erasure leaves the second's orders
/// whole.
pub async fn an_address_held_for_a_span_reads_and_erases_the_orders_of_that_span_only(
    store: &dyn CommerceStore,
) {
    let early = placed_at(store, 1, "ada@example.com", true, Some(Timestamp(1_000))).await;
    let at_leaving = placed_at(store, 2, "Ada@Example.com", false, Some(Timestamp(2_000))).await;
    let later = placed_at(store, 3, "ada@example.com", true, Some(Timestamp(3_000))).await;
    let first = PlacedBetween {
        after: None,
        until: Some(Timestamp(2_000)),
    };
    let second = PlacedBetween {
        after: Some(Timestamp(2_000)),
        until: None,
    };
    let ids = |orders: Vec<Order>| orders.into_iter().map(|o| o.id).collect::<Vec<_>>();
    assert_eq!(
        ids(store
            .orders_placed_between("ADA@example.com", first, 10)
            .await
            .unwrap()),
        [at_leaving.id.clone(), early.id.clone()],
        "newest first, the end of the span included"
    );
    assert_eq!(
        ids(store
            .orders_placed_between("ada@example.com", first, 1)
            .await
            .unwrap()),
        std::slice::from_ref(&at_leaving.id)
    );
    assert_eq!(
        ids(store
            .orders_placed_between("ada@example.com", second, 10)
            .await
            .unwrap()),
        std::slice::from_ref(&later.id),
        "the start of a span is the end of the one before"
    );
    assert!(
        store
            .orders_placed_between("%@example.com", PlacedBetween::ALWAYS, 10)
            .await
            .unwrap()
            .is_empty()
    );

    assert_eq!(
        store
            .erase_orders_of("ada@example.com", first)
            .await
            .unwrap(),
        2
    );
    assert_eq!(
        store.order(&later.id).await.unwrap(),
        Some(later.clone()),
        "the later holder's order stays whole"
    );
    let subscription = store
        .subscription(&format!("{}-subscription", later.id))
        .await
        .unwrap()
        .expect("kept");
    assert_eq!(subscription.email, "ada@example.com");
    assert_eq!(
        store.order(&early.id).await.unwrap().expect("kept").email,
        ""
    );
    assert_eq!(
        ids(store
            .orders_placed_between("ada@example.com", PlacedBetween::ALWAYS, 10)
            .await
            .unwrap()),
        std::slice::from_ref(&later.id)
    );
    assert_eq!(
        store
            .erase_orders_of("ada@example.com", second)
            .await
            .unwrap(),
        1
    );
    assert_eq!(
        store.order(&later.id).await.unwrap().expect("kept").email,
        ""
    );
}

/// A gift card sent to an address before the span of the account erased keeps its recipient:
/// it was sent to whoever held the address then.
pub async fn a_gift_card_sent_before_the_span_keeps_its_recipient(store: &dyn CommerceStore) {
    use super::conformance::{card_for, gift_card_cart, order_for, token};
    use crate::gift_cards::GiftCardRecipient;
    let cart = gift_card_cart("GIFT-25", 2_500, 1);
    store.save_cart(&token(7), &cart).await.unwrap();
    let mut order = order_for(&cart, 7);
    order.email = "bo@example.com".into();
    let card = card_for(
        &order,
        1,
        2_500,
        Some(GiftCardRecipient {
            name: "Ada".into(),
            email: "ada@example.com".into(),
            message: "For Ada".into(),
        }),
    );
    order.gift_cards = vec![card.clone()];
    store.place_order(&order, &[]).await.expect("placed");

    let after_it = PlacedBetween {
        after: Some(card.created),
        until: None,
    };
    assert_eq!(
        store
            .erase_orders_of("ada@example.com", after_it)
            .await
            .unwrap(),
        0
    );
    assert_eq!(
        store.order_gift_cards(&order.id).await.unwrap(),
        std::slice::from_ref(&card)
    );
    let up_to_it = PlacedBetween {
        after: None,
        until: Some(card.created),
    };
    store
        .erase_orders_of("ada@example.com", up_to_it)
        .await
        .unwrap();
    assert_eq!(
        store.order_gift_cards(&order.id).await.unwrap()[0].recipient,
        None
    );
}
