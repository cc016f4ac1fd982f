//! The renewal store on both databases: the core's conformance suite (claims, leases, two
//! runners at once, settling once), each test on a fresh database, and what only SQL can
//! show: a renewal's mail lands in the delivery outbox in the transaction that settles it.

use vitrine_core::checkout::{
    BillingEvent, ClaimOutcome, RenewalClaim, RenewalOutcome, SubscriptionChange,
};
use vitrine_core::forms::Mail;

mod sqlite {
    async fn fresh() -> (
        std::sync::Arc<dyn vitrine_core::checkout::CommerceStore>,
        std::sync::Arc<dyn vitrine_core::checkout::RenewalStore>,
        impl Send + Sync,
    ) {
        let store = crate::sqlite::fresh().await;
        (
            store.database.commerce_store(),
            store.database.renewal_store(),
            store,
        )
    }

    vitrine_core::renewal_store_conformance!(fresh().await);

    #[tokio::test]
    async fn a_settled_renewal_enqueues_its_mail_in_the_same_transaction() {
        let store = crate::sqlite::fresh().await;
        super::mails_go_to_the_outbox(&store.database).await;
    }
}

mod postgres {
    async fn fresh() -> Option<(
        std::sync::Arc<dyn vitrine_core::checkout::CommerceStore>,
        std::sync::Arc<dyn vitrine_core::checkout::RenewalStore>,
        impl Send + Sync,
    )> {
        let store = crate::postgres::fresh().await?;
        Some((
            store.database.commerce_store(),
            store.database.renewal_store(),
            store,
        ))
    }

    vitrine_core::renewal_store_conformance!(match fresh().await {
        Some(store) => store,
        None => return,
    });

    #[tokio::test]
    async fn a_settled_renewal_enqueues_its_mail_in_the_same_transaction() {
        let Some(store) = crate::postgres::fresh().await else {
            return;
        };
        super::mails_go_to_the_outbox(&store.database).await;
    }
}

async fn mails_go_to_the_outbox(database: &vitrine_sql::Database) {
    use vitrine_core::cart::{CartState, CartToken, Purchasable, Stock, StoreRules, Timestamp};
    use vitrine_core::catalog::{BillingPeriod, BillingUnit, Sku, SubscriptionPlan};
    use vitrine_core::checkout::{IdempotencyKey, Order};

    let commerce = database.commerce_store();
    let renewals = database.renewal_store();
    let outbox = database.delivery_outbox();
    let now = Timestamp(1_769_853_600_000);
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
            "Club",
            vitrine_core::enums::ProductType::Service,
            Sku::parse("CLUB").unwrap(),
            900,
            Stock::Unlimited,
        )
    };
    let mut cart = CartState::new("cart", "site", now);
    cart.add_item(&item, 1).unwrap();
    let token = CartToken::parse("renewal-mail-cart").unwrap();
    commerce.save_cart(&token, &cart).await.unwrap();
    let priced = cart.price(&StoreRules::default(), now);
    let key = IdempotencyKey::parse("renewal-mail-key").unwrap();
    let mut order =
        Order::from_cart(&priced, "order-mail", key, token, "a@example.com", now).unwrap();
    order.payment_id = "test_ch_first".into();
    commerce.place_order(&order, &[]).await.unwrap();
    let subscription = renewals
        .find_subscription("order-mail-subscription")
        .await
        .unwrap()
        .unwrap();
    let claim = RenewalClaim {
        subscription_id: subscription.id.clone(),
        period: 1,
        attempt: 0,
    };
    let due = subscription.next_billing.unwrap();
    assert_eq!(
        renewals.claim_renewal(&claim, due, 1_000).await.unwrap(),
        ClaimOutcome::Claimed
    );
    let after = subscription.after(&BillingEvent::Charged).unwrap();
    let mail = Mail {
        to: "a@example.com".into(),
        subject: "Your Club subscription is renewed".into(),
        text: "We charged".into(),
        html: Some("<p>We charged</p>".into()),
        list_unsubscribe: None,
    };
    let before = outbox.deliveries().await.unwrap().len();
    let change = SubscriptionChange {
        before: &subscription,
        after: &after,
        mails: std::slice::from_ref(&mail),
    };
    let paid = RenewalOutcome::Paid {
        payment_id: "test_ch_renewal".into(),
    };
    assert!(
        renewals
            .settle_renewal(&claim, &paid, change.clone(), due)
            .await
            .unwrap()
    );
    let deliveries = outbox.deliveries().await.unwrap();
    assert_eq!(deliveries.len(), before + 1);
    let id = deliveries.last().unwrap().id;
    assert_eq!(outbox.mail_of(id).await.unwrap().as_ref(), Some(&mail));
    // Settling again enqueues nothing more.
    assert!(
        !renewals
            .settle_renewal(&claim, &paid, change, due)
            .await
            .unwrap()
    );
    assert_eq!(outbox.deliveries().await.unwrap().len(), before + 1);
}
