//! Orders' refunds and fulfilment on both databases: the core's conformance suite, through
//! the commerce store and the aftercare store of one fresh database; and the shopper's mails
//! the changes enqueue, read back from the delivery outbox.

mod sqlite {
    vitrine_core::order_aftercare_conformance!({
        let fresh = crate::sqlite::fresh().await;
        (
            fresh.database.commerce_store(),
            fresh.database.order_aftercare_store(),
            fresh,
        )
    });

    #[tokio::test]
    async fn refund_and_shipping_mails_wait_in_the_outbox_whole() {
        let fresh = crate::sqlite::fresh().await;
        super::mails_wait_in_the_outbox(&fresh.database).await;
    }
}

mod postgres {
    vitrine_core::order_aftercare_conformance!(match crate::postgres::fresh().await {
        Some(fresh) => (
            fresh.database.commerce_store(),
            fresh.database.order_aftercare_store(),
            fresh,
        ),
        None => return,
    });

    #[tokio::test]
    async fn refund_and_shipping_mails_wait_in_the_outbox_whole() {
        let Some(fresh) = crate::postgres::fresh().await else {
            return;
        };
        super::mails_wait_in_the_outbox(&fresh.database).await;
    }
}

/// A refund's and a fulfilment's mails are in the outbox, both parts, due at once.
async fn mails_wait_in_the_outbox(database: &vitrine_sql::Database) {
    use vitrine_core::cart::Timestamp;
    use vitrine_core::checkout::aftercare_conformance::place_paid_order;
    use vitrine_core::checkout::{RefundOutcome, RefundRequest, TrackingUrl};
    use vitrine_core::forms::{DeliveryKind, DeliverySubject, Mail};

    let now = Timestamp(1_700_000_000_000);
    let commerce = database.commerce_store();
    let aftercare = database.order_aftercare_store();
    let order = place_paid_order(&*commerce).await;
    let mail = |subject: &str| Mail {
        to: order.email.clone(),
        subject: subject.into(),
        text: format!("{subject} (text)"),
        html: Some(format!("<p>{subject}</p>")),
        list_unsubscribe: None,
    };
    let refund = aftercare
        .request_refund(&order.id, &RefundRequest::everything(), now)
        .await
        .unwrap();
    aftercare
        .settle_refund(
            &refund.id,
            &RefundOutcome::Refunded {
                gateway_refund_id: "re_1".into(),
                mail: Some(mail("Your refund")),
            },
            now,
        )
        .await
        .unwrap();
    let tracking = TrackingUrl::parse("https://track.example/1").unwrap();
    aftercare
        .fulfil_order(&order.id, &tracking, now, &mail("Your order has shipped"))
        .await
        .unwrap();
    let outbox = database.delivery_outbox();
    let due = outbox.claim_due(now.millis(), 60_000, 10).await.unwrap();
    let mails: Vec<Mail> = due
        .into_iter()
        .map(|delivery| {
            assert_eq!(delivery.kind, DeliveryKind::SiteUserMail);
            match delivery.subject {
                DeliverySubject::Mail(mail) => mail,
                other => panic!("expected a composed mail, got {other:?}"),
            }
        })
        .collect();
    assert_eq!(
        mails,
        vec![mail("Your refund"), mail("Your order has shipped")]
    );
}
