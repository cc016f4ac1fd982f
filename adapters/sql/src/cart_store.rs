//! The commerce store on SQL: carts by token, stock per SKU, and orders placed in one
//! transaction that decrements stock atomically. Both backends share the statements and,
//! through a macro (for the reasons given in `repository.rs`), the method bodies.

use std::fmt;

use sqlx::{PgPool, SqlitePool};
use vitrine_core::cart::{CartState, CartToken, CouponCode, Stock};
use vitrine_core::catalog::Sku;
use vitrine_core::checkout::{IdempotencyKey, Order, OrderLine};
use vitrine_core::money::Currency;
use vitrine_core::ports::RepositoryError;

/// The commerce store of a SQLite database.
#[derive(Clone)]
pub struct SqliteCommerceStore {
    pub(crate) pool: SqlitePool,
}

/// The commerce store of a PostgreSQL database.
#[derive(Clone)]
pub struct PostgresCommerceStore {
    pub(crate) pool: PgPool,
}

impl SqliteCommerceStore {
    pub(crate) fn new(pool: SqlitePool) -> Self {
        Self { pool }
    }
}

impl PostgresCommerceStore {
    pub(crate) fn new(pool: PgPool) -> Self {
        Self { pool }
    }
}

impl fmt::Debug for SqliteCommerceStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SqliteCommerceStore")
            .finish_non_exhaustive()
    }
}

impl fmt::Debug for PostgresCommerceStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PostgresCommerceStore")
            .finish_non_exhaustive()
    }
}

/// An order as stored: amounts in columns, lines and coupon codes as JSON text.
#[derive(sqlx::FromRow)]
pub(crate) struct OrderRow {
    id: String,
    idempotency_key: String,
    cart_token: String,
    email: String,
    currency: String,
    created: i64,
    subtotal_cents: i64,
    discount_cents: i64,
    shipping_cost_cents: i64,
    tax_cents: i64,
    grand_total_cents: i64,
    lines: String,
    coupon_codes: String,
    shipping_address: String,
    payment_id: String,
    gift_card_code: String,
    gift_card_cents: i64,
    payment_key: String,
    payment_status: String,
}

fn corrupt(what: &str, reason: impl ToString) -> RepositoryError {
    RepositoryError::Corrupt {
        what: what.to_owned(),
        reason: reason.to_string(),
    }
}

impl OrderRow {
    pub(crate) fn into_order(self) -> Result<Order, RepositoryError> {
        let lines: Vec<OrderLine> =
            serde_json::from_str(&self.lines).map_err(|error| corrupt("order lines", error))?;
        let coupon_codes: Vec<CouponCode> = serde_json::from_str(&self.coupon_codes)
            .map_err(|error| corrupt("order coupons", error))?;
        // Orders placed before addresses were recorded have an empty column.
        let shipping_address = if self.shipping_address.is_empty() {
            None
        } else {
            serde_json::from_str(&self.shipping_address)
                .map_err(|error| corrupt("an order's shipping address", error))?
        };
        let gift_card_payment =
            crate::gift_cards::payment_from_columns(&self.gift_card_code, self.gift_card_cents)?;
        Ok(Order {
            idempotency_key: IdempotencyKey::parse(self.idempotency_key)
                .map_err(|error| corrupt("an idempotency key", error))?,
            cart_token: CartToken::parse(self.cart_token)
                .map_err(|error| corrupt("a cart token", error))?,
            currency: Currency::from_code(&self.currency)
                .map_err(|error| corrupt("an order currency", error))?,
            id: self.id,
            email: self.email,
            lines,
            coupon_codes,
            subtotal_cents: self.subtotal_cents,
            discount_cents: self.discount_cents,
            shipping_cost_cents: self.shipping_cost_cents,
            tax_cents: self.tax_cents,
            grand_total_cents: self.grand_total_cents,
            created: vitrine_core::cart::Timestamp(self.created),
            shipping_address,
            payment_id: self.payment_id,
            payment_status: vitrine_core::checkout::PaymentStatus::parse(&self.payment_status)
                .ok_or_else(|| corrupt("an order's payment status", &self.payment_status))?,
            payment_key: self.payment_key,
            // Read by the store after the order's row, from their own table.
            gift_cards: Vec::new(),
            gift_card_payment,
        })
    }
}

/// An order with its fulfilment (`order_fulfilment`, absent while open), as the owner's
/// table reads it.
#[derive(sqlx::FromRow)]
pub(crate) struct OwnerOrderRow {
    #[sqlx(flatten)]
    order: OrderRow,
    fulfilment_status: Option<String>,
    tracking_url: Option<String>,
    fulfilment_changed_at: Option<i64>,
}

impl OwnerOrderRow {
    /// The row as the table shows it; the order's gift cards are not read (see
    /// [`vitrine_core::checkout::OwnerOrder`]).
    pub(crate) fn into_owner_order(
        self,
    ) -> Result<vitrine_core::checkout::OwnerOrder, RepositoryError> {
        let row = match (self.fulfilment_status, self.fulfilment_changed_at) {
            (Some(status), Some(at)) => Some((status, self.tracking_url.unwrap_or_default(), at)),
            _ => None,
        };
        let fulfilment = crate::order_aftercare::fulfilment(row)?;
        Ok(vitrine_core::checkout::OwnerOrder {
            order: self.order.into_order()?,
            fulfilment,
        })
    }
}

/// The stored cart with the purchase columns applied: they are written only by placing an
/// order, so they win over the JSON state saved before it.
pub(crate) fn cart_from_row(
    state: &str,
    is_purchased: bool,
    order_id: String,
) -> Result<CartState, RepositoryError> {
    let mut cart: CartState =
        serde_json::from_str(state).map_err(|error| corrupt("a stored cart", error))?;
    if is_purchased {
        cart.is_purchased = true;
        cart.order_id = order_id;
        cart.reserved_until = None;
    }
    Ok(cart)
}

pub(crate) fn cart_json(cart: &CartState) -> Result<String, RepositoryError> {
    serde_json::to_string(cart).map_err(|error| RepositoryError::Rejected(error.to_string()))
}

pub(crate) fn stock_from_row(quantity: i64, unlimited: bool) -> Stock {
    if unlimited {
        Stock::Unlimited
    } else {
        Stock::Limited(u32::try_from(quantity.max(0)).unwrap_or(u32::MAX))
    }
}

pub(crate) fn stock_columns(stock: Stock) -> (i64, bool) {
    match stock {
        Stock::Unlimited => (0, true),
        Stock::Limited(quantity) => (i64::from(quantity), false),
    }
}

pub(crate) fn json_text<T: serde::Serialize>(value: &T) -> String {
    // Lines and codes are plain data with string keys; serialising them cannot fail.
    serde_json::to_string(value).unwrap_or_else(|_| "[]".to_owned())
}

pub(crate) fn sku_text(sku: &Sku) -> &str {
    sku.as_str()
}

macro_rules! sql_commerce_store {
    ($store:ty) => {
        impl $store {
            /// The order of `row`, with the gift cards it issued.
            async fn with_gift_cards(
                &self,
                row: Option<$crate::cart_store::OrderRow>,
            ) -> Result<Option<vitrine_core::checkout::Order>, vitrine_core::ports::RepositoryError>
            {
                use vitrine_core::checkout::CommerceStore;
                let Some(row) = row else {
                    return Ok(None);
                };
                let mut order = row.into_order()?;
                order.gift_cards = self.order_gift_cards(&order.id).await?;
                Ok(Some(order))
            }
        }

        #[async_trait::async_trait]
        impl vitrine_core::checkout::CommerceStore for $store {
            async fn load_cart(
                &self,
                token: &vitrine_core::cart::CartToken,
            ) -> Result<Option<vitrine_core::cart::CartState>, vitrine_core::ports::RepositoryError>
            {
                let row: Option<(String, bool, String)> =
                    sqlx::query_as($crate::cart_statements::LOAD_CART)
                        .bind(token.as_str())
                        .fetch_optional(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error("reading a cart"))?;
                row.map(|(state, purchased, order_id)| {
                    $crate::cart_store::cart_from_row(&state, purchased, order_id)
                })
                .transpose()
            }

            async fn save_cart(
                &self,
                token: &vitrine_core::cart::CartToken,
                cart: &vitrine_core::cart::CartState,
            ) -> Result<(), vitrine_core::ports::RepositoryError> {
                let done = sqlx::query($crate::cart_statements::SAVE_CART)
                    .bind(token.as_str())
                    .bind($crate::cart_store::cart_json(cart)?)
                    .execute(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("saving a cart"))?;
                if done.rows_affected() == 0 {
                    return Err(vitrine_core::ports::RepositoryError::Rejected(
                        "the cart has been purchased".into(),
                    ));
                }
                Ok(())
            }

            async fn set_stock(
                &self,
                sku: &vitrine_core::catalog::Sku,
                stock: vitrine_core::cart::Stock,
            ) -> Result<(), vitrine_core::ports::RepositoryError> {
                let (quantity, unlimited) = $crate::cart_store::stock_columns(stock);
                sqlx::query($crate::cart_statements::SET_STOCK)
                    .bind($crate::cart_store::sku_text(sku))
                    .bind(quantity)
                    .bind(unlimited)
                    .execute(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("setting stock"))?;
                Ok(())
            }

            async fn seed_stock(
                &self,
                sku: &vitrine_core::catalog::Sku,
                stock: vitrine_core::cart::Stock,
            ) -> Result<(), vitrine_core::ports::RepositoryError> {
                let (quantity, unlimited) = $crate::cart_store::stock_columns(stock);
                sqlx::query($crate::cart_statements::SEED_STOCK)
                    .bind($crate::cart_store::sku_text(sku))
                    .bind(quantity)
                    .bind(unlimited)
                    .execute(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("seeding stock"))?;
                Ok(())
            }

            async fn stock(
                &self,
                sku: &vitrine_core::catalog::Sku,
            ) -> Result<Option<vitrine_core::cart::Stock>, vitrine_core::ports::RepositoryError>
            {
                let row: Option<(i64, bool)> = sqlx::query_as($crate::cart_statements::STOCK)
                    .bind($crate::cart_store::sku_text(sku))
                    .fetch_optional(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("reading stock"))?;
                Ok(row.map(|(quantity, unlimited)| {
                    $crate::cart_store::stock_from_row(quantity, unlimited)
                }))
            }

            async fn place_order_with_follow_up(
                &self,
                order: &vitrine_core::checkout::Order,
                coupon_limits: &[vitrine_core::checkout::CouponLimit],
                follow_up: &vitrine_core::checkout::OrderFollowUp,
            ) -> Result<vitrine_core::checkout::Order, vitrine_core::checkout::PlaceOrderError>
            {
                use vitrine_core::checkout::PlaceOrderError;
                use $crate::cart_statements as sql;
                use $crate::errors::repository_error;

                if let Some(placed) = self.order_by_key(&order.idempotency_key).await? {
                    return Ok(placed);
                }
                // Dropping the transaction unfinished rolls it back: every early return
                // below leaves stock, cart and orders as they were.
                let mut tx = self
                    .pool
                    .begin()
                    .await
                    .map_err(repository_error("starting an order"))?;
                let marked = sqlx::query(sql::MARK_PURCHASED)
                    .bind(order.id.as_str())
                    .bind(order.cart_token.as_str())
                    .execute(&mut *tx)
                    .await
                    .map_err(repository_error("marking a cart purchased"))?;
                if marked.rows_affected() == 0 {
                    tx.rollback()
                        .await
                        .map_err(repository_error("rolling back an order"))?;
                    // A double submit waits here for the first one's commit and then
                    // answers with its order.
                    if let Some(placed) = self.order_by_key(&order.idempotency_key).await? {
                        return Ok(placed);
                    }
                    let (carts,): (i64,) = sqlx::query_as(sql::CART_EXISTS)
                        .bind(order.cart_token.as_str())
                        .fetch_one(&self.pool)
                        .await
                        .map_err(repository_error("reading a cart"))?;
                    return Err(if carts == 0 {
                        PlaceOrderError::UnknownCart
                    } else {
                        PlaceOrderError::AlreadyPurchased
                    });
                }
                if !order.payment_id.is_empty() {
                    let claimed = $crate::payment_claims::claim_payment!(
                        &mut *tx,
                        order.payment_id.as_str(),
                        order.idempotency_key,
                        vitrine_core::checkout::PaymentUse::Order,
                        order.created
                    )?;
                    if !claimed {
                        let (used_for,): (String,) =
                            sqlx::query_as($crate::payment_claims::CLAIMED_FOR)
                                .bind(order.payment_id.as_str())
                                .fetch_one(&mut *tx)
                                .await
                                .map_err(repository_error("reading a payment's claim"))?;
                        tx.rollback()
                            .await
                            .map_err(repository_error("rolling back an order"))?;
                        return Err(if used_for == "refund" {
                            PlaceOrderError::PaymentRefunded(order.payment_id.clone())
                        } else {
                            vitrine_core::ports::RepositoryError::Rejected(format!(
                                "payment {} paid for another {used_for}",
                                order.payment_id
                            ))
                            .into()
                        });
                    }
                }
                for limit in coupon_limits {
                    sqlx::query(sql::LOCK_COUPON)
                        .bind(limit.code.as_str())
                        .execute(&mut *tx)
                        .await
                        .map_err(repository_error("locking a coupon"))?;
                    let (total, by_customer): (i64, i64) = sqlx::query_as(sql::COUPON_USAGE)
                        .bind(limit.code.as_str())
                        .bind(order.email.as_str())
                        .fetch_one(&mut *tx)
                        .await
                        .map_err(repository_error("counting coupon uses"))?;
                    let reached =
                        |cap: Option<u32>, used: i64| cap.is_some_and(|cap| used >= i64::from(cap));
                    if reached(limit.total, total) || reached(limit.per_customer, by_customer) {
                        // Rolled back now rather than on drop: a dropped transaction's rollback
                        // waits for the connection's next use, and its row locks with it.
                        tx.rollback()
                            .await
                            .map_err(repository_error("rolling back an order"))?;
                        return Err(PlaceOrderError::CouponLimitReached(limit.code.clone()));
                    }
                }
                for line in &order.lines {
                    let taken = sqlx::query(sql::TAKE_STOCK)
                        .bind(i64::from(line.quantity))
                        .bind(line.sku.as_str())
                        .bind(order.cart_token.as_str())
                        .bind(order.created.millis())
                        .execute(&mut *tx)
                        .await
                        .map_err(repository_error("taking stock"))?;
                    if taken.rows_affected() == 0 {
                        // Either the SKU is not limited (untracked or unlimited) or it is
                        // short; only the second stops the order.
                        let stock: Option<(i64, bool)> = sqlx::query_as(sql::STOCK)
                            .bind(line.sku.as_str())
                            .fetch_optional(&mut *tx)
                            .await
                            .map_err(repository_error("reading stock"))?;
                        if matches!(stock, Some((_, false))) {
                            tx.rollback()
                                .await
                                .map_err(repository_error("rolling back an order"))?;
                            return Err(PlaceOrderError::OutOfStock(line.sku.clone()));
                        }
                    }
                }
                if let Some(payment) = &order.gift_card_payment {
                    let spent = sqlx::query($crate::gift_cards::SPEND_GIFT_CARD)
                        .bind(payment.amount_cents)
                        .bind(payment.code.as_str())
                        .bind(order.currency.code())
                        .execute(&mut *tx)
                        .await
                        .map_err(repository_error("spending a gift card"))?;
                    if spent.rows_affected() == 0 {
                        tx.rollback()
                            .await
                            .map_err(repository_error("rolling back an order"))?;
                        return Err(PlaceOrderError::GiftCardBalanceChanged(payment.code.clone()));
                    }
                }
                let (gift_card_code, gift_card_cents) =
                    $crate::gift_cards::payment_columns(order.gift_card_payment.as_ref());
                let inserted = sqlx::query(sql::INSERT_ORDER)
                    .bind(order.id.as_str())
                    .bind(order.idempotency_key.as_str())
                    .bind(order.cart_token.as_str())
                    .bind(order.email.as_str())
                    .bind(order.currency.code())
                    .bind(order.created.millis())
                    .bind(order.subtotal_cents)
                    .bind(order.discount_cents)
                    .bind(order.shipping_cost_cents)
                    .bind(order.tax_cents)
                    .bind(order.grand_total_cents)
                    .bind($crate::cart_store::json_text(&order.lines))
                    .bind($crate::cart_store::json_text(&order.coupon_codes))
                    .bind(
                        order
                            .shipping_address
                            .as_ref()
                            .map_or_else(String::new, $crate::cart_store::json_text),
                    )
                    .bind(order.payment_id.as_str())
                    .bind(gift_card_code)
                    .bind(gift_card_cents)
                    .bind(order.payment_key.as_str())
                    .bind(order.payment_status.as_str())
                    .execute(&mut *tx)
                    .await;
                match inserted {
                    Ok(_) => {}
                    Err(sqlx::Error::Database(error)) if error.is_unique_violation() => {
                        tx.rollback()
                            .await
                            .map_err(repository_error("rolling back an order"))?;
                        if let Some(placed) = self.order_by_key(&order.idempotency_key).await? {
                            return Ok(placed);
                        }
                        return Err(PlaceOrderError::Repository(
                            vitrine_core::ports::RepositoryError::Rejected(format!(
                                "order id {} is taken",
                                order.id
                            )),
                        ));
                    }
                    Err(error) => return Err(repository_error("recording an order")(error).into()),
                }
                for code in &order.coupon_codes {
                    sqlx::query(sql::INSERT_ORDER_COUPON)
                        .bind(order.id.as_str())
                        .bind(code.as_str())
                        .bind(order.email.as_str())
                        .execute(&mut *tx)
                        .await
                        .map_err(repository_error("recording a coupon's use"))?;
                }
                for (position, card) in order.gift_cards.iter().enumerate() {
                    let (name, email, message) = $crate::gift_cards::recipient_columns(card);
                    sqlx::query($crate::gift_cards::INSERT_GIFT_CARD)
                        .bind(card.code.as_str())
                        .bind(order.id.as_str())
                        .bind(i64::try_from(position).unwrap_or(i64::MAX))
                        .bind(card.sku.as_str())
                        .bind(card.currency.code())
                        .bind(card.initial_cents)
                        .bind(card.remaining_cents)
                        .bind(name)
                        .bind(email)
                        .bind(message)
                        .bind(card.created.millis())
                        .execute(&mut *tx)
                        .await
                        .map_err(repository_error("issuing a gift card"))?;
                }
                if let Some(subscription) = vitrine_core::checkout::Subscription::start(order) {
                    let row = $crate::subscription_rows::SubscriptionRow::new(&subscription);
                    $crate::subscription_rows::insert_subscription!(row)
                        .execute(&mut *tx)
                        .await
                        .map_err(repository_error("recording a subscription"))?;
                }
                Self::write_order_follow_up(&mut *tx, order, follow_up)
                    .await
                    .map_err(repository_error("enqueuing an order's mails"))?;
                sqlx::query(sql::RELEASE_HOLDS)
                    .bind(order.cart_token.as_str())
                    .execute(&mut *tx)
                    .await
                    .map_err(repository_error("ending a cart's holds"))?;
                tx.commit()
                    .await
                    .map_err(repository_error("committing an order"))?;
                Ok(order.clone())
            }

            async fn browser_payments_opened_before(
                &self,
                opened_before: vitrine_core::cart::Timestamp,
                limit: u32,
            ) -> Result<
                Vec<vitrine_core::checkout::WaitingBrowserPayment>,
                vitrine_core::ports::RepositoryError,
            > {
                let rows: Vec<(String, String, i64)> =
                    sqlx::query_as($crate::cart_statements::BROWSER_PAYMENTS_OPENED_BEFORE)
                        .bind(opened_before.millis())
                        .bind(i64::from(limit))
                        .fetch_all(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error(
                            "listing the browser payments still waiting",
                        ))?;
                Ok(rows
                    .into_iter()
                    .map(|(order_id, intent_id, opened)| {
                        vitrine_core::checkout::WaitingBrowserPayment {
                            order_id,
                            intent_id,
                            opened: vitrine_core::cart::Timestamp(opened),
                        }
                    })
                    .collect())
            }

            async fn hold_stock(
                &self,
                token: &vitrine_core::cart::CartToken,
                lines: &[(vitrine_core::catalog::Sku, u32)],
                now: vitrine_core::cart::Timestamp,
                seconds: i64,
            ) -> Result<vitrine_core::cart::Timestamp, vitrine_core::checkout::HoldStockError> {
                use vitrine_core::cart::HoldError;
                use $crate::cart_statements as sql;
                use $crate::errors::repository_error;

                let until = now.plus_seconds(seconds);
                let mut tx = self
                    .pool
                    .begin()
                    .await
                    .map_err(repository_error("starting a hold"))?;
                let outcome: Result<(), vitrine_core::checkout::HoldStockError> = async {
                    sqlx::query(sql::DELETE_EXPIRED_HOLDS)
                        .bind(now.millis())
                        .execute(&mut *tx)
                        .await
                        .map_err(repository_error("forgetting ended holds"))?;
                    sqlx::query(sql::RELEASE_HOLDS)
                        .bind(token.as_str())
                        .execute(&mut *tx)
                        .await
                        .map_err(repository_error("ending a cart's holds"))?;
                    for (sku, quantity) in lines {
                        let locked = sqlx::query(sql::LOCK_STOCK)
                            .bind(sku.as_str())
                            .execute(&mut *tx)
                            .await
                            .map_err(repository_error("locking stock"))?;
                        let stock: Option<(i64, bool)> = sqlx::query_as(sql::STOCK)
                            .bind(sku.as_str())
                            .fetch_optional(&mut *tx)
                            .await
                            .map_err(repository_error("reading stock"))?;
                        let Some((in_stock, false)) = stock.filter(|_| locked.rows_affected() > 0)
                        else {
                            // Unlimited or untracked: nothing to hold.
                            continue;
                        };
                        let (held,): (i64,) = sqlx::query_as(sql::HELD_BY_OTHERS)
                            .bind(sku.as_str())
                            .bind(token.as_str())
                            .bind(now.millis())
                            .fetch_one(&mut *tx)
                            .await
                            .map_err(repository_error("counting holds"))?;
                        let available = (in_stock - held).max(0);
                        if available < i64::from(*quantity) {
                            return Err(HoldError::Insufficient {
                                sku: sku.clone(),
                                available: u32::try_from(available).unwrap_or(u32::MAX),
                            }
                            .into());
                        }
                        sqlx::query(sql::INSERT_HOLD)
                            .bind(sku.as_str())
                            .bind(token.as_str())
                            .bind(i64::from(*quantity))
                            .bind(until.millis())
                            .execute(&mut *tx)
                            .await
                            .map_err(repository_error("holding stock"))?;
                    }
                    Ok(())
                }
                .await;
                // Ended now rather than on drop: a dropped transaction's rollback waits for
                // the connection's next use, and its row locks with it.
                match outcome {
                    Ok(()) => tx
                        .commit()
                        .await
                        .map_err(repository_error("committing a hold"))?,
                    Err(error) => {
                        tx.rollback()
                            .await
                            .map_err(repository_error("rolling back a hold"))?;
                        return Err(error);
                    }
                }
                Ok(until)
            }

            async fn release_holds(
                &self,
                token: &vitrine_core::cart::CartToken,
            ) -> Result<(), vitrine_core::ports::RepositoryError> {
                sqlx::query($crate::cart_statements::RELEASE_HOLDS)
                    .bind(token.as_str())
                    .execute(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("ending a cart's holds"))?;
                Ok(())
            }

            async fn held_by_others(
                &self,
                sku: &vitrine_core::catalog::Sku,
                token: &vitrine_core::cart::CartToken,
                now: vitrine_core::cart::Timestamp,
            ) -> Result<u32, vitrine_core::ports::RepositoryError> {
                let (held,): (i64,) = sqlx::query_as($crate::cart_statements::HELD_BY_OTHERS)
                    .bind(sku.as_str())
                    .bind(token.as_str())
                    .bind(now.millis())
                    .fetch_one(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("counting holds"))?;
                Ok(u32::try_from(held.max(0)).unwrap_or(u32::MAX))
            }

            async fn order(
                &self,
                id: &str,
            ) -> Result<Option<vitrine_core::checkout::Order>, vitrine_core::ports::RepositoryError>
            {
                let row: Option<$crate::cart_store::OrderRow> =
                    sqlx::query_as($crate::cart_statements::ORDER_BY_ID)
                        .bind(id)
                        .fetch_optional(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error("reading an order"))?;
                self.with_gift_cards(row).await
            }

            async fn order_by_key(
                &self,
                key: &vitrine_core::checkout::IdempotencyKey,
            ) -> Result<Option<vitrine_core::checkout::Order>, vitrine_core::ports::RepositoryError>
            {
                let row: Option<$crate::cart_store::OrderRow> =
                    sqlx::query_as($crate::cart_statements::ORDER_BY_KEY)
                        .bind(key.as_str())
                        .fetch_optional(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error("reading an order"))?;
                self.with_gift_cards(row).await
            }

            async fn orders_by_email(
                &self,
                email: &str,
                limit: u32,
            ) -> Result<Vec<vitrine_core::checkout::Order>, vitrine_core::ports::RepositoryError>
            {
                self.orders_placed_between(email, vitrine_core::checkout::PlacedBetween::ALWAYS, limit)
                    .await
            }

            async fn orders_placed_between(
                &self,
                email: &str,
                placed: vitrine_core::checkout::PlacedBetween,
                limit: u32,
            ) -> Result<Vec<vitrine_core::checkout::Order>, vitrine_core::ports::RepositoryError>
            {
                let (after, until) = placed.millis();
                let rows: Vec<$crate::cart_store::OrderRow> =
                    sqlx::query_as($crate::cart_statements::ORDERS_PLACED_BETWEEN)
                        .bind(email)
                        .bind(after)
                        .bind(until)
                        .bind(i64::from(limit))
                        .fetch_all(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error("reading an address's orders"))?;
                let mut orders = Vec::with_capacity(rows.len());
                for row in rows {
                    orders.extend(self.with_gift_cards(Some(row)).await?);
                }
                Ok(orders)
            }

            async fn order_page(
                &self,
                query: &vitrine_core::owners::tables::TableQuery,
            ) -> Result<
                vitrine_core::owners::tables::TablePage<vitrine_core::checkout::OwnerOrder>,
                vitrine_core::ports::RepositoryError,
            > {
                let (rows, total) = $crate::table_pages::fetch_table_page!(
                    &self.pool,
                    Self::PAGE_ORDERS,
                    Self::COUNT_ORDERS,
                    query,
                    $crate::cart_store::OwnerOrderRow
                )
                .await
                .map_err($crate::errors::repository_error("paging orders"))?;
                Ok(vitrine_core::owners::tables::TablePage {
                    rows: rows
                        .into_iter()
                        .map($crate::cart_store::OwnerOrderRow::into_owner_order)
                        .collect::<Result<_, _>>()?,
                    total,
                })
            }

            async fn erase_orders_of(
                &self,
                email: &str,
                placed: vitrine_core::checkout::PlacedBetween,
            ) -> Result<u32, vitrine_core::ports::RepositoryError> {
                $crate::order_erasure::erase_orders_of!(&self.pool, email, placed).await
            }

            async fn gift_card(
                &self,
                code: &vitrine_core::gift_cards::GiftCardCode,
            ) -> Result<
                Option<vitrine_core::gift_cards::GiftCard>,
                vitrine_core::ports::RepositoryError,
            > {
                let row: Option<$crate::gift_cards::GiftCardRow> =
                    sqlx::query_as($crate::gift_cards::GIFT_CARD_BY_CODE)
                        .bind(code.as_str())
                        .fetch_optional(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error("reading a gift card"))?;
                row.map($crate::gift_cards::GiftCardRow::into_gift_card)
                    .transpose()
            }

            async fn subscription(
                &self,
                id: &str,
            ) -> Result<
                Option<vitrine_core::checkout::Subscription>,
                vitrine_core::ports::RepositoryError,
            > {
                $crate::subscription_rows::subscription_by_id!(&self.pool, id).await
            }

            async fn subscriptions_by_email(
                &self,
                email: &str,
            ) -> Result<
                Vec<vitrine_core::checkout::Subscription>,
                vitrine_core::ports::RepositoryError,
            > {
                $crate::subscription_rows::subscriptions_by_email!(&self.pool, email).await
            }

            async fn claim_subscription(
                &self,
                id: &str,
                account: &str,
            ) -> Result<Option<String>, vitrine_core::ports::RepositoryError> {
                use $crate::subscription_rows as sql;
                let failed = $crate::errors::repository_error;
                // The update only fills an empty account, so the read after it answers
                // whoever claimed first.
                sqlx::query(sql::CLAIM_SUBSCRIPTION)
                    .bind(id)
                    .bind(account)
                    .execute(&self.pool)
                    .await
                    .map_err(failed("claiming a subscription"))?;
                let holder: Option<(Option<String>,)> =
                    sqlx::query_as(sql::ACCOUNT_OF_SUBSCRIPTION)
                        .bind(id)
                        .fetch_optional(&self.pool)
                        .await
                        .map_err(failed("reading a subscription's account"))?;
                Ok(holder.and_then(|(account,)| account))
            }

            async fn subscriptions_of_account(
                &self,
                account: &str,
            ) -> Result<
                Vec<vitrine_core::checkout::Subscription>,
                vitrine_core::ports::RepositoryError,
            > {
                $crate::subscription_rows::subscriptions_of_account!(&self.pool, account).await
            }

            async fn order_gift_cards(
                &self,
                order_id: &str,
            ) -> Result<Vec<vitrine_core::gift_cards::GiftCard>, vitrine_core::ports::RepositoryError>
            {
                $crate::gift_cards::order_gift_cards!(&self.pool, order_id).await
            }

            async fn reveal_gift_card_codes(
                &self,
                order_id: &str,
            ) -> Result<bool, vitrine_core::ports::RepositoryError> {
                let done = sqlx::query($crate::cart_statements::REVEAL_GIFT_CARD_CODES)
                    .bind(order_id)
                    .execute(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error(
                        "marking an order's gift card codes shown",
                    ))?;
                Ok(done.rows_affected() == 1)
            }

            async fn coupon_usage(
                &self,
                code: &vitrine_core::cart::CouponCode,
                email: &str,
            ) -> Result<vitrine_core::cart::CouponUsage, vitrine_core::ports::RepositoryError> {
                let (total, by_customer): (i64, i64) =
                    sqlx::query_as($crate::cart_statements::COUPON_USAGE)
                        .bind(code.as_str())
                        .bind(email)
                        .fetch_one(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error("counting coupon uses"))?;
                let count = |value: i64| u32::try_from(value.max(0)).unwrap_or(u32::MAX);
                Ok(vitrine_core::cart::CouponUsage {
                    total: count(total),
                    by_customer: count(by_customer),
                })
            }
        }
    };
}

/// The mails that waited for the payment of order `$order` (its confirmation, its gift cards'
/// mails to their recipients), as its payment settles inside `$tx`: made due at `$now` (a gift
/// card's mail on its chosen day, unless that has passed) when the payment succeeded,
/// dropped otherwise.
macro_rules! settle_held_mails {
    ($tx:ident, $order:expr, $paid:expr, $now:expr) => {{
        use $crate::outbox_statements::{
            DROP_HELD_CONFIRMATION, DROP_HELD_MAILS, HELD_UNTIL_PAID_MS, RELEASE_HELD_CONFIRMATION,
            RELEASE_HELD_MAILS,
        };
        let kind = vitrine_core::forms::DeliveryKind::OrderConfirmation.as_str();
        let (confirmation, gift_card_mails) = if $paid {
            (
                sqlx::query(RELEASE_HELD_CONFIRMATION)
                    .bind($order)
                    .bind(kind)
                    .bind($now.millis())
                    .bind(HELD_UNTIL_PAID_MS),
                sqlx::query(RELEASE_HELD_MAILS)
                    .bind($order)
                    .bind($now.millis()),
            )
        } else {
            (
                sqlx::query(DROP_HELD_CONFIRMATION)
                    .bind($order)
                    .bind(kind)
                    .bind(HELD_UNTIL_PAID_MS),
                sqlx::query(DROP_HELD_MAILS).bind($order),
            )
        };
        for query in [confirmation, gift_card_mails] {
            query
                .execute(&mut *$tx)
                .await
                .map_err($crate::errors::repository_error(
                    "settling an order's held mails",
                ))?;
        }
    }};
}
pub(crate) use settle_held_mails;

/// Payment reports: recorded once, and applied to their order in the same transaction.
macro_rules! sql_payment_event_log {
    ($store:ty) => {
        #[async_trait::async_trait]
        impl vitrine_core::checkout::PaymentEventLog for $store {
            async fn reconcile_payment(
                &self,
                event: &vitrine_core::checkout::PaymentEvent,
                now: vitrine_core::cart::Timestamp,
            ) -> Result<vitrine_core::checkout::Reconciliation, vitrine_core::ports::RepositoryError>
            {
                use vitrine_core::checkout::{PaymentOutcome, PaymentStatus, Reconciliation};
                use $crate::cart_statements as sql;
                use $crate::errors::repository_error;

                let mut tx = self
                    .pool
                    .begin()
                    .await
                    .map_err(repository_error("starting a payment report"))?;
                let recorded = sqlx::query(sql::RECORD_PAYMENT_EVENT)
                    .bind(event.id.as_str())
                    .bind(event.payment_id.as_str())
                    .bind(event.outcome.as_str())
                    .bind(now.millis())
                    .execute(&mut *tx)
                    .await
                    .map_err(repository_error("recording a payment report"))?;
                if recorded.rows_affected() == 0 {
                    // A concurrent delivery of the same report waits here for the first
                    // one's commit, then finds its row. Ended at once: a transaction merely
                    // dropped is rolled back only when its connection is next used.
                    tx.rollback()
                        .await
                        .map_err(repository_error("ending a duplicate payment report"))?;
                    return Ok(Reconciliation::Duplicate);
                }
                let row: Option<(String, String, String, String, i64, String)> =
                    sqlx::query_as(Self::ORDER_OF_PAYMENT)
                        .bind(event.payment_id.as_str())
                        .bind(event.payment_key.as_deref().unwrap_or(""))
                        .fetch_optional(&mut *tx)
                        .await
                        .map_err(repository_error("finding a report's order"))?;
                let Some((order_id, mut payment_id, status, form_key, due_cents, currency)) = row
                else {
                    tx.commit()
                        .await
                        .map_err(repository_error("recording a payment report"))?;
                    return Ok(Reconciliation::NoOrder);
                };
                let status = PaymentStatus::parse(&status).ok_or_else(|| {
                    vitrine_core::ports::RepositoryError::Corrupt {
                        what: "an order's payment status".into(),
                        reason: status.clone(),
                    }
                })?;
                let in_browser = status == PaymentStatus::Pending && {
                    let (waiting,): (i64,) = sqlx::query_as(sql::WAITS_FOR_BROWSER_PAYMENT)
                        .bind(order_id.as_str())
                        .fetch_one(&mut *tx)
                        .await
                        .map_err(repository_error("finding a report's intent"))?;
                    waiting > 0
                };
                if in_browser && event.outcome == PaymentOutcome::Declined {
                    // The payer may confirm the same intent again with another card.
                    tx.commit()
                        .await
                        .map_err(repository_error("recording a payment report"))?;
                    return Ok(Reconciliation::Declined {
                        order_id,
                        payment_id: event.payment_id.clone(),
                    });
                }
                let mut outcome = event.outcome;
                if payment_id.is_empty() && outcome == PaymentOutcome::Succeeded {
                    let key = vitrine_core::checkout::IdempotencyKey::parse(form_key).map_err(
                        |error| vitrine_core::ports::RepositoryError::Corrupt {
                            what: "an idempotency key".into(),
                            reason: error.to_string(),
                        },
                    )?;
                    // A pending order claims the charge it waited for, unless a refund
                    // claimed it first, in which case the money went back. A failed one gave
                    // back what placing it took: the charge goes back too, claimed for its
                    // refund here so that it is given back once.
                    let late = status == PaymentStatus::Failed;
                    let claimed = $crate::payment_claims::claim_payment!(
                        &mut *tx,
                        event.payment_id.as_str(),
                        key,
                        if late {
                            vitrine_core::checkout::PaymentUse::Refund
                        } else {
                            vitrine_core::checkout::PaymentUse::Order
                        },
                        now
                    )?;
                    if late {
                        let currency = vitrine_core::money::Currency::from_code(&currency)
                            .map_err(|error| vitrine_core::ports::RepositoryError::Corrupt {
                                what: "an order currency".into(),
                                reason: error.to_string(),
                            })?;
                        tx.commit()
                            .await
                            .map_err(repository_error("recording a payment report"))?;
                        return Ok(if claimed {
                            Reconciliation::Refunding {
                                order_id,
                                payment: vitrine_core::checkout::Payment {
                                    id: event.payment_id.clone(),
                                    amount_minor: due_cents,
                                    currency,
                                },
                            }
                        } else {
                            Reconciliation::Applied { order_id, status }
                        });
                    }
                    if claimed {
                        payment_id = event.payment_id.clone();
                    } else {
                        outcome = PaymentOutcome::Refunded;
                    }
                }
                let before = status;
                let status = status.after(outcome);
                if vitrine_core::checkout::payment_fails_order(before, status) {
                    // Nothing was bought: what placing the order took is given back, once,
                    // since the order's row was read (on PostgreSQL, locked) above.
                    $crate::failed_orders::give_back_failed_order!(tx, order_id.as_str());
                }
                if before == PaymentStatus::Pending && status != PaymentStatus::Pending {
                    sqlx::query(sql::END_BROWSER_PAYMENT_WAIT)
                        .bind(order_id.as_str())
                        .execute(&mut *tx)
                        .await
                        .map_err(repository_error("ending a browser payment's wait"))?;
                    $crate::cart_store::settle_held_mails!(
                        tx,
                        order_id.as_str(),
                        status == PaymentStatus::Paid,
                        now
                    );
                }
                sqlx::query(sql::SET_ORDER_PAYMENT)
                    .bind(order_id.as_str())
                    .bind(payment_id.as_str())
                    .bind(status.as_str())
                    .execute(&mut *tx)
                    .await
                    .map_err(repository_error("moving an order's payment status"))?;
                tx.commit()
                    .await
                    .map_err(repository_error("recording a payment report"))?;
                Ok(Reconciliation::Applied { order_id, status })
            }
        }
    };
}

sql_payment_event_log!(SqliteCommerceStore);
sql_payment_event_log!(PostgresCommerceStore);
impl SqliteCommerceStore {
    /// SQLite writes one transaction at a time, and the report's insert took the lock.
    const ORDER_OF_PAYMENT: &str = crate::cart_statements::ORDER_OF_PAYMENT;
    const PAGE_ORDERS: &str = crate::cart_statements::SQLITE_PAGE_ORDERS;
    const COUNT_ORDERS: &str = crate::cart_statements::SQLITE_COUNT_ORDERS;
}

impl PostgresCommerceStore {
    /// Locked, so that two reports about one order (a cancellation recorded by two servers
    /// under different ids) move it one after the other, and its stock comes back once.
    const ORDER_OF_PAYMENT: &str = crate::cart_statements::POSTGRES_ORDER_OF_PAYMENT;
    const PAGE_ORDERS: &str = crate::cart_statements::POSTGRES_PAGE_ORDERS;
    const COUNT_ORDERS: &str = crate::cart_statements::POSTGRES_COUNT_ORDERS;
}

sql_commerce_store!(SqliteCommerceStore);
sql_commerce_store!(PostgresCommerceStore);
crate::payment_claims::sql_payment_ledger!(SqliteCommerceStore);
crate::payment_claims::sql_payment_ledger!(PostgresCommerceStore);
