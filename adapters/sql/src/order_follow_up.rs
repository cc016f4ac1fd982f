//! What an order's transaction writes beside the order: the review request made with it and
//! the shopper's mails in the delivery outbox (with the composed mails that give its gift
//! cards to their recipients, due on the day the buyer chose) (the same table and worker as the form
//! deliveries), so a placed order is never left without them. The mails that wait for the
//! order's payment are written held (`cart_store::settle_held_mails!` settles them). Both
//! backends share the statements and, through a macro, the method body.

use vitrine_core::checkout::Order;

/// Seconds since the Unix epoch at which the order was placed, as outbox rows count their
/// creation.
pub(crate) fn created_seconds(order: &Order) -> i64 {
    order.created.millis().div_euclid(1000)
}

macro_rules! sql_order_follow_up {
    ($store:ty, $db:ty) => {
        impl $store {
            /// Writes `follow_up` for `order` on `conn`, inside the order's transaction.
            pub(crate) async fn write_order_follow_up(
                conn: &mut <$db as sqlx::Database>::Connection,
                order: &vitrine_core::checkout::Order,
                follow_up: &vitrine_core::checkout::OrderFollowUp,
            ) -> Result<(), sqlx::Error> {
                use vitrine_core::forms::DeliveryKind;
                use $crate::outbox_statements::ENQUEUE_FOR_ORDER;
                let created = $crate::order_follow_up::created_seconds(order);
                if follow_up.confirmation {
                    let due = if follow_up.confirmation_waits_for_payment {
                        $crate::outbox_statements::HELD_UNTIL_PAID_MS
                    } else {
                        order.created.millis()
                    };
                    sqlx::query(ENQUEUE_FOR_ORDER)
                        .bind(order.id.as_str())
                        .bind(None::<&str>)
                        .bind(DeliveryKind::OrderConfirmation.as_str())
                        .bind(due)
                        .bind(created)
                        .execute(&mut *conn)
                        .await?;
                }
                if let Some(intent) = &follow_up.browser_intent {
                    sqlx::query($crate::cart_statements::WAIT_FOR_BROWSER_PAYMENT)
                        .bind(order.id.as_str())
                        .bind(intent.as_str())
                        .bind(order.created.millis())
                        .execute(&mut *conn)
                        .await?;
                }
                if let Some(scheduled) = &follow_up.review_request {
                    let request = &scheduled.request;
                    $crate::review_store::save_request_query!(request)
                        .execute(&mut *conn)
                        .await?;
                    sqlx::query(ENQUEUE_FOR_ORDER)
                        .bind(order.id.as_str())
                        .bind(Some(request.token.as_str()))
                        .bind(DeliveryKind::ReviewRequest.as_str())
                        .bind(scheduled.mail_at.millis())
                        .bind(created)
                        .execute(&mut *conn)
                        .await?;
                }
                let held = follow_up.gift_card_mails_wait_for_payment;
                for scheduled in &follow_up.gift_card_mails {
                    let due = if held {
                        $crate::outbox_statements::HELD_UNTIL_PAID_MS
                    } else {
                        scheduled.due.millis()
                    };
                    sqlx::query($crate::outbox_statements::ENQUEUE_MAIL_DUE)
                        .bind($crate::outbox::mail_to_json(&scheduled.mail))
                        .bind(DeliveryKind::SiteUserMail.as_str())
                        .bind(due)
                        .bind(created)
                        .bind(held.then_some(order.id.as_str()))
                        .bind(held.then_some(scheduled.due.millis()))
                        .execute(&mut *conn)
                        .await?;
                }
                Ok(())
            }
        }
    };
}

sql_order_follow_up!(crate::cart_store::SqliteCommerceStore, sqlx::Sqlite);
sql_order_follow_up!(crate::cart_store::PostgresCommerceStore, sqlx::Postgres);
