//! Erasing an address from the orders placed with it within one account's hold of it, for
//! account deletion: one transaction empties the orders' email and personal address fields,
//! and the address kept beside them on their coupon uses and the subscriptions they
//! started, and the recipient of every gift card sent to the address within the hold, and
//! withdraws the orders' own mails still waiting in the outbox. While the account still
//! holds the address, the composed mails to it still waiting are withdrawn too, so nothing
//! goes out to an address its owner has had erased; once another account holds it, those
//! mails are the other account's.

use vitrine_core::checkout::ShippingAddress;
use vitrine_core::ports::RepositoryError;

/// The orders of an address still carrying it placed after `$2` and up to `$3`, with their
/// shipping address as stored. An erased order's empty email is nobody's, so it is never
/// matched.
pub(crate) const ORDERS_TO_ERASE: &str = "SELECT id, shipping_address FROM orders \
     WHERE LOWER(email) = LOWER($1) AND email <> '' AND created > $2 AND created <= $3";

pub(crate) const ERASE_ORDER: &str =
    "UPDATE orders SET email = '', shipping_address = $2 WHERE id = $1";

pub(crate) const ERASE_ORDER_COUPONS: &str =
    "UPDATE order_coupons SET email = '' WHERE order_id = $1";

pub(crate) const ERASE_ORDER_SUBSCRIPTION: &str =
    "UPDATE subscriptions SET email = '' WHERE order_id = $1";

/// The mails about an erased order that never went out (waiting, or given up on) are
/// withdrawn; those sent stay as the record that they were.
pub(crate) const WITHDRAW_ORDER_MAILS: &str =
    "DELETE FROM form_deliveries WHERE order_id = $1 AND delivered_ms IS NULL";

/// The composed mails that never went out, read so that those to the erased address can be
/// withdrawn: the address is inside the stored mail, compared without case once parsed.
pub(crate) const UNSENT_COMPOSED_MAILS: &str =
    "SELECT id, mail FROM form_deliveries WHERE mail IS NOT NULL AND delivered_ms IS NULL";

pub(crate) const WITHDRAW_MAIL: &str = "DELETE FROM form_deliveries WHERE id = $1";

/// The gift cards sent to an address after `$2` and up to `$3` lose their recipient; an
/// empty address is nobody's.
pub(crate) const ERASE_GIFT_CARD_RECIPIENTS: &str = "UPDATE gift_cards \
     SET recipient_name = '', recipient_email = '', message = '' \
     WHERE LOWER(recipient_email) = LOWER($1) AND recipient_email <> '' \
     AND created > $2 AND created <= $3";

/// The shipping address column of an erased order: empty stays empty (nothing shipped),
/// and an address keeps only what [`ShippingAddress::erased`] keeps.
pub(crate) fn erased_address_column(stored: &str) -> Result<String, RepositoryError> {
    if stored.is_empty() {
        return Ok(String::new());
    }
    let address: ShippingAddress =
        serde_json::from_str(stored).map_err(|error| RepositoryError::Corrupt {
            what: "an order's shipping address".to_owned(),
            reason: error.to_string(),
        })?;
    Ok(crate::cart_store::json_text(&address.erased()))
}

/// The ids among `unsent` (id and stored mail) of the mails addressed to `email`, compared
/// without case. The emptied address of erased records is nobody's. A stored mail that
/// cannot be read cannot be sent either (the delivery worker reports it), so it does not
/// stop the erasure.
pub(crate) fn mails_to(email: &str, unsent: &[(i64, String)]) -> Vec<i64> {
    if email.is_empty() {
        return Vec::new();
    }
    let email = email.to_lowercase();
    unsent
        .iter()
        .filter(|(_, json)| {
            crate::outbox::mail_from_json(json).is_ok_and(|mail| mail.to.to_lowercase() == email)
        })
        .map(|(id, _)| *id)
        .collect()
}

/// Withdraws, inside the transaction `$tx`, the composed mails to `$email` not yet sent;
/// how many.
macro_rules! withdraw_mails_to {
    ($tx:ident, $email:expr) => {
        async {
            use $crate::errors::repository_error;
            use $crate::order_erasure as sql;
            let unsent: Vec<(i64, String)> = sqlx::query_as(sql::UNSENT_COMPOSED_MAILS)
                .fetch_all(&mut *$tx)
                .await
                .map_err(repository_error("reading the mails not yet sent"))?;
            let withdrawn = sql::mails_to($email, &unsent);
            for id in &withdrawn {
                sqlx::query(sql::WITHDRAW_MAIL)
                    .bind(id)
                    .execute(&mut *$tx)
                    .await
                    .map_err(repository_error("withdrawing a mail"))?;
            }
            Ok::<u32, vitrine_core::ports::RepositoryError>(
                u32::try_from(withdrawn.len()).unwrap_or(u32::MAX),
            )
        }
    };
}
pub(crate) use withdraw_mails_to;

/// Erases `$email` from its orders placed within `$placed` through `$pool`, in one
/// transaction; the number of orders changed.
macro_rules! erase_orders_of {
    ($pool:expr, $email:expr, $placed:expr) => {
        async {
            use $crate::errors::repository_error;
            use $crate::order_erasure as sql;
            let placed: vitrine_core::checkout::PlacedBetween = $placed;
            let (after, until) = placed.millis();
            let mut tx = $pool
                .begin()
                .await
                .map_err(repository_error("starting an erasure"))?;
            let orders: Vec<(String, String)> = sqlx::query_as(sql::ORDERS_TO_ERASE)
                .bind($email)
                .bind(after)
                .bind(until)
                .fetch_all(&mut *tx)
                .await
                .map_err(repository_error("finding an address's orders"))?;
            for (id, address) in &orders {
                sqlx::query(sql::ERASE_ORDER)
                    .bind(id)
                    .bind(sql::erased_address_column(address)?)
                    .execute(&mut *tx)
                    .await
                    .map_err(repository_error("erasing an order's personal fields"))?;
                for statement in [
                    sql::ERASE_ORDER_COUPONS,
                    sql::ERASE_ORDER_SUBSCRIPTION,
                    sql::WITHDRAW_ORDER_MAILS,
                ] {
                    sqlx::query(statement)
                        .bind(id)
                        .execute(&mut *tx)
                        .await
                        .map_err(repository_error("erasing an order's address"))?;
                }
            }
            sqlx::query(sql::ERASE_GIFT_CARD_RECIPIENTS)
                .bind($email)
                .bind(after)
                .bind(until)
                .execute(&mut *tx)
                .await
                .map_err(repository_error("erasing gift card recipients"))?;
            if placed.until.is_none() {
                $crate::order_erasure::withdraw_mails_to!(tx, $email).await?;
            }
            tx.commit()
                .await
                .map_err(repository_error("committing an erasure"))?;
            Ok::<u32, vitrine_core::ports::RepositoryError>(
                u32::try_from(orders.len()).unwrap_or(u32::MAX),
            )
        }
    };
}
pub(crate) use erase_orders_of;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_order_that_shipped_nothing_stays_without_an_address() {
        assert_eq!(erased_address_column("").unwrap(), "");
    }

    #[test]
    fn only_the_mails_to_the_erased_address_are_withdrawn() {
        let mail = |to: &str| {
            crate::outbox::mail_to_json(&vitrine_core::forms::Mail {
                to: to.to_owned(),
                subject: "Your gift card".to_owned(),
                text: "Enjoy".to_owned(),
                html: None,
                list_unsubscribe: None,
            })
        };
        let unsent = [
            (1, mail("Ada@Example.com")),
            (2, mail("bo@example.com")),
            (3, "{not json".to_owned()),
            (4, mail("ada@example.com")),
            (5, mail("")),
        ];
        assert_eq!(mails_to("ada@EXAMPLE.com", &unsent), [1, 4]);
        assert!(
            mails_to("", &unsent).is_empty(),
            "an empty address is nobody's"
        );
    }

    #[test]
    fn an_unreadable_address_is_reported_not_overwritten() {
        assert!(matches!(
            erased_address_column("{not json"),
            Err(RepositoryError::Corrupt { .. })
        ));
    }
}
