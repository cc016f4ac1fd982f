//! The give-back of what placing an order took when its payment fails
//! ([`vitrine_core::checkout::TakenByPlacing`]), run inside the transaction of the payment
//! report that fails the order, after the order's row was read (and, on PostgreSQL, locked):
//! the move to failed and the give-back commit together, once. One text serves both dialects.

/// Adds `$1` back to the gift card `$2`, never above what it was issued with. A CASE rather
/// than `MIN`/`LEAST`, which the two dialects spell differently.
pub(crate) const GIVE_BACK_GIFT_CARD: &str = "UPDATE gift_cards SET remaining_cents = \
     CASE WHEN remaining_cents + $1 > initial_cents THEN initial_cents \
     ELSE remaining_cents + $1 END WHERE code = $2";

/// Drops the uses the order `$1` counted of its coupons.
pub(crate) const DROP_COUPON_USES: &str = "DELETE FROM order_coupons WHERE order_id = $1";

/// Empties the gift cards order `$1` issued: they were never paid for.
pub(crate) const EMPTY_ISSUED_GIFT_CARDS: &str =
    "UPDATE gift_cards SET remaining_cents = 0 WHERE order_id = $1";

/// Gives back, on the connection `$conn`, everything placing the order `$id` took: its units
/// to stock, its cart to the shopper, its gift card's balance and its coupons' uses; and
/// empties the cards it issued.
macro_rules! give_back_failed_order {
    ($conn:expr, $id:expr) => {{
        use $crate::errors::repository_error;
        let row: $crate::cart_store::OrderRow =
            sqlx::query_as($crate::cart_statements::ORDER_BY_ID)
                .bind($id)
                .fetch_one(&mut *$conn)
                .await
                .map_err(repository_error("reading a failed order"))?;
        let taken = vitrine_core::checkout::TakenByPlacing::of(&row.into_order()?);
        for line in &taken.units {
            sqlx::query($crate::order_aftercare::RESTOCK)
                .bind(line.sku.as_str())
                .bind(i64::from(line.quantity))
                .execute(&mut *$conn)
                .await
                .map_err(repository_error("restocking a failed order's units"))?;
        }
        sqlx::query($crate::cart_statements::RELEASE_FAILED_ORDER_CART)
            .bind(taken.order_id.as_str())
            .execute(&mut *$conn)
            .await
            .map_err(repository_error("giving a failed order's cart back"))?;
        if let Some(payment) = &taken.gift_card {
            sqlx::query($crate::failed_orders::GIVE_BACK_GIFT_CARD)
                .bind(payment.amount_cents)
                .bind(payment.code.as_str())
                .execute(&mut *$conn)
                .await
                .map_err(repository_error(
                    "giving a failed order's gift card balance back",
                ))?;
        }
        if !taken.coupons.is_empty() {
            sqlx::query($crate::failed_orders::DROP_COUPON_USES)
                .bind(taken.order_id.as_str())
                .execute(&mut *$conn)
                .await
                .map_err(repository_error("giving a failed order's coupon uses back"))?;
        }
        sqlx::query($crate::failed_orders::EMPTY_ISSUED_GIFT_CARDS)
            .bind(taken.order_id.as_str())
            .execute(&mut *$conn)
            .await
            .map_err(repository_error("emptying a failed order's gift cards"))?;
    }};
}
pub(crate) use give_back_failed_order;
