//! Orders after checkout on SQL: refunds and fulfilment beside the orders and stock of the
//! commerce store. Each change locks its order's row first, reads the refunds and fulfilment
//! recorded, checks the core's rules against them, and writes the change, the stock it gives
//! back and the mail it sends (into the delivery outbox) in one transaction, so two owners
//! acting at once are checked one after the other. Both backends share the statements and,
//! through a macro, the method bodies.

use vitrine_core::cart::Timestamp;
use vitrine_core::checkout::{
    Aftercare, Fulfilment, OrderRefund, RefundLine, RefundState, TrackingUrl,
};
use vitrine_core::ports::RepositoryError;

/// Locks the order's row for the rest of the transaction (a write on both dialects).
pub(crate) const LOCK_ORDER: &str = "UPDATE orders SET id = id WHERE id = $1";

pub(crate) const FULFILMENT_OF: &str =
    "SELECT status, tracking_url, changed_at FROM order_fulfilment WHERE order_id = $1";

macro_rules! refund_columns {
    () => {
        "id, order_id, sequence, amount_cents, lines, state, gateway_refund_id, reason, \
         requested_at"
    };
}

pub(crate) const REFUNDS_OF: &str = concat!(
    "SELECT ",
    refund_columns!(),
    " FROM order_refunds WHERE order_id = $1 ORDER BY sequence"
);

pub(crate) const REFUND_BY_ID: &str = concat!(
    "SELECT ",
    refund_columns!(),
    " FROM order_refunds WHERE id = $1"
);

pub(crate) const INSERT_REFUND: &str = concat!(
    "INSERT INTO order_refunds (",
    refund_columns!(),
    ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
);

/// Settles a requested refund; a settled one is left alone (0 rows).
pub(crate) const SETTLE_REFUND: &str = "UPDATE order_refunds SET state = $2, \
     gateway_refund_id = $3, reason = $4 WHERE id = $1 AND state = 'requested'";

/// Puts `$2` units of `$1` back, for SKUs whose stock is counted.
pub(crate) const RESTOCK: &str =
    "UPDATE stock SET quantity = quantity + $2 WHERE sku = $1 AND unlimited = FALSE";

pub(crate) const SET_FULFILMENT: &str = "INSERT INTO order_fulfilment \
     (order_id, status, tracking_url, changed_at) VALUES ($1, $2, $3, $4)";

fn corrupt(what: &str, reason: impl ToString) -> RepositoryError {
    RepositoryError::Corrupt {
        what: what.to_owned(),
        reason: reason.to_string(),
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct RefundRow {
    id: String,
    order_id: String,
    sequence: i64,
    amount_cents: i64,
    lines: String,
    state: String,
    gateway_refund_id: String,
    reason: String,
    requested_at: i64,
}

impl RefundRow {
    pub(crate) fn into_refund(self) -> Result<OrderRefund, RepositoryError> {
        let lines: Vec<RefundLine> =
            serde_json::from_str(&self.lines).map_err(|error| corrupt("refund lines", error))?;
        Ok(OrderRefund {
            sequence: u32::try_from(self.sequence)
                .map_err(|error| corrupt("a refund's sequence", error))?,
            state: RefundState::parse(&self.state)
                .ok_or_else(|| corrupt("a refund's state", &self.state))?,
            id: self.id,
            order_id: self.order_id,
            amount_cents: self.amount_cents,
            lines,
            gateway_refund_id: self.gateway_refund_id,
            reason: self.reason,
            requested: Timestamp(self.requested_at),
        })
    }
}

/// An order's fulfilment from its `order_fulfilment` row (status, tracking link, time), if
/// it has one: open without.
pub(crate) fn fulfilment(
    row: Option<(String, String, i64)>,
) -> Result<Fulfilment, RepositoryError> {
    Ok(match row {
        None => Fulfilment::Open,
        Some((status, tracking_url, at)) => match status.as_str() {
            "fulfilled" => Fulfilment::Fulfilled {
                tracking_url: TrackingUrl::parse(&tracking_url)
                    .map_err(|error| corrupt("a tracking link", error))?,
                at: Timestamp(at),
            },
            "cancelled" => Fulfilment::Cancelled { at: Timestamp(at) },
            other => return Err(corrupt("an order's fulfilment", other)),
        },
    })
}

/// An order's state after checkout from its fulfilment row (if any) and its refunds.
pub(crate) fn aftercare(
    fulfilment_row: Option<(String, String, i64)>,
    refunds: Vec<RefundRow>,
) -> Result<Aftercare, RepositoryError> {
    Ok(Aftercare {
        fulfilment: fulfilment(fulfilment_row)?,
        refunds: refunds
            .into_iter()
            .map(RefundRow::into_refund)
            .collect::<Result<_, _>>()?,
    })
}

pub(crate) fn lines_json(lines: &[RefundLine]) -> String {
    // Skus and numbers always serialise.
    serde_json::to_string(lines).unwrap_or_else(|_| "[]".to_owned())
}

/// Reads the order `$id` and its state after checkout on the connection `$conn`, after
/// locking the order's row; `None` for an unknown order.
macro_rules! locked_aftercare {
    ($conn:expr, $id:expr) => {{
        use $crate::errors::repository_error;
        let locked = sqlx::query($crate::order_aftercare::LOCK_ORDER)
            .bind($id)
            .execute(&mut *$conn)
            .await
            .map_err(repository_error("locking an order"))?;
        if locked.rows_affected() == 0 {
            None
        } else {
            let row: $crate::cart_store::OrderRow =
                sqlx::query_as($crate::cart_statements::ORDER_BY_ID)
                    .bind($id)
                    .fetch_one(&mut *$conn)
                    .await
                    .map_err(repository_error("reading an order"))?;
            let fulfilment: Option<(String, String, i64)> =
                sqlx::query_as($crate::order_aftercare::FULFILMENT_OF)
                    .bind($id)
                    .fetch_optional(&mut *$conn)
                    .await
                    .map_err(repository_error("reading an order's fulfilment"))?;
            let refunds: Vec<$crate::order_aftercare::RefundRow> =
                sqlx::query_as($crate::order_aftercare::REFUNDS_OF)
                    .bind($id)
                    .fetch_all(&mut *$conn)
                    .await
                    .map_err(repository_error("reading an order's refunds"))?;
            Some((
                row.into_order()?,
                $crate::order_aftercare::aftercare(fulfilment, refunds)?,
            ))
        }
    }};
}

/// Puts `$lines` back into stock and enqueues `$mail`, on the connection `$conn`.
macro_rules! restock_and_mail {
    ($conn:expr, $lines:expr, $mail:expr, $now:expr) => {{
        use $crate::errors::repository_error;
        for line in $lines {
            sqlx::query($crate::order_aftercare::RESTOCK)
                .bind(line.sku.as_str())
                .bind(i64::from(line.quantity))
                .execute(&mut *$conn)
                .await
                .map_err(repository_error("restocking an order's units"))?;
        }
        if let Some(mail) = $mail {
            sqlx::query($crate::outbox_statements::ENQUEUE_MAIL)
                .bind($crate::outbox::mail_to_json(mail))
                .bind(vitrine_core::forms::DeliveryKind::SiteUserMail.as_str())
                .bind($now.millis())
                .execute(&mut *$conn)
                .await
                .map_err(repository_error("enqueueing an order's mail"))?;
        }
    }};
}

/// Moves an open order to `$status` (with `$tracking`) when `$check` allows it, putting
/// back the units `$restock` names and enqueueing `$mail`, in one transaction that locks the
/// order's row first.
macro_rules! change_order {
    ($store:expr, $id:expr, $now:expr, $mail:expr, $check:expr, $status:expr, $tracking:expr, $restock:expr) => {{
        use vitrine_core::checkout::{ChangeOrderError, ChangeOrderStoreError, RefundLine};
        use $crate::errors::repository_error;
        let mut tx = $store
            .pool
            .begin()
            .await
            .map_err(repository_error("changing an order"))?;
        let Some((order, care)) = locked_aftercare!(tx, $id) else {
            // Ended at once: a transaction merely dropped is rolled back only when its
            // connection is next used.
            tx.rollback()
                .await
                .map_err(repository_error("ending a change of no order"))?;
            return Err(ChangeOrderError::UnknownOrder($id.to_owned()).into());
        };
        if let Err(refusal) = ($check)(&care, &order) {
            tx.rollback()
                .await
                .map_err(repository_error("ending a refused change"))?;
            return Err(ChangeOrderStoreError::Refused(refusal));
        }
        sqlx::query($crate::order_aftercare::SET_FULFILMENT)
            .bind($id)
            .bind($status)
            .bind($tracking)
            .bind($now.millis())
            .execute(&mut *tx)
            .await
            .map_err(repository_error("changing an order"))?;
        let lines: Vec<RefundLine> = ($restock)(&care, &order);
        restock_and_mail!(tx, &lines, Some($mail), $now);
        tx.commit()
            .await
            .map_err(repository_error("changing an order"))?;
        Ok(())
    }};
}

macro_rules! sql_order_aftercare {
    ($store:ty) => {
        #[async_trait::async_trait]
        impl vitrine_core::checkout::OrderAftercareStore for $store {
            async fn order_aftercare(
                &self,
                order_id: &str,
            ) -> Result<
                Option<(
                    vitrine_core::checkout::Order,
                    vitrine_core::checkout::Aftercare,
                )>,
                vitrine_core::ports::RepositoryError,
            > {
                use $crate::errors::repository_error;
                let mut tx = self
                    .pool
                    .begin()
                    .await
                    .map_err(repository_error("reading an order"))?;
                let found = locked_aftercare!(tx, order_id);
                tx.rollback()
                    .await
                    .map_err(repository_error("reading an order"))?;
                Ok(found)
            }

            async fn request_refund(
                &self,
                order_id: &str,
                request: &vitrine_core::checkout::RefundRequest,
                now: vitrine_core::cart::Timestamp,
            ) -> Result<
                vitrine_core::checkout::OrderRefund,
                vitrine_core::checkout::RequestRefundError,
            > {
                use vitrine_core::checkout::{OrderRefund, RefundError};
                use $crate::errors::repository_error;
                let mut tx = self
                    .pool
                    .begin()
                    .await
                    .map_err(repository_error("starting a refund"))?;
                let Some((order, care)) = locked_aftercare!(tx, order_id) else {
                    tx.rollback()
                        .await
                        .map_err(repository_error("ending a refund of no order"))?;
                    return Err(RefundError::UnknownOrder(order_id.to_owned()).into());
                };
                let plan = match care.plan_refund(&order, request) {
                    Ok(plan) => plan,
                    Err(refusal) => {
                        tx.rollback()
                            .await
                            .map_err(repository_error("ending a refused refund"))?;
                        return Err(refusal.into());
                    }
                };
                let refund = OrderRefund::requested(order_id, care.next_sequence(), plan, now);
                sqlx::query($crate::order_aftercare::INSERT_REFUND)
                    .bind(&refund.id)
                    .bind(&refund.order_id)
                    .bind(i64::from(refund.sequence))
                    .bind(refund.amount_cents)
                    .bind($crate::order_aftercare::lines_json(&refund.lines))
                    .bind(refund.state.as_str())
                    .bind(&refund.gateway_refund_id)
                    .bind(&refund.reason)
                    .bind(now.millis())
                    .execute(&mut *tx)
                    .await
                    .map_err(repository_error("recording a refund"))?;
                tx.commit()
                    .await
                    .map_err(repository_error("recording a refund"))?;
                Ok(refund)
            }

            async fn settle_refund(
                &self,
                refund_id: &str,
                outcome: &vitrine_core::checkout::RefundOutcome,
                now: vitrine_core::cart::Timestamp,
            ) -> Result<(), vitrine_core::ports::RepositoryError> {
                use vitrine_core::checkout::{RefundOutcome, RefundState};
                use $crate::errors::repository_error;
                let mut tx = self
                    .pool
                    .begin()
                    .await
                    .map_err(repository_error("settling a refund"))?;
                let (state, gateway_refund_id, reason) = match outcome {
                    RefundOutcome::Refunded {
                        gateway_refund_id, ..
                    } => (RefundState::Refunded, gateway_refund_id.as_str(), ""),
                    RefundOutcome::Failed { reason } => (RefundState::Failed, "", reason.as_str()),
                };
                let settled = sqlx::query($crate::order_aftercare::SETTLE_REFUND)
                    .bind(refund_id)
                    .bind(state.as_str())
                    .bind(gateway_refund_id)
                    .bind(reason)
                    .execute(&mut *tx)
                    .await
                    .map_err(repository_error("settling a refund"))?;
                if settled.rows_affected() == 1
                    && let RefundOutcome::Refunded { mail, .. } = outcome
                {
                    let row: $crate::order_aftercare::RefundRow =
                        sqlx::query_as($crate::order_aftercare::REFUND_BY_ID)
                            .bind(refund_id)
                            .fetch_one(&mut *tx)
                            .await
                            .map_err(repository_error("reading a refund"))?;
                    let refund = row.into_refund()?;
                    restock_and_mail!(tx, &refund.lines, mail.as_ref(), now);
                }
                tx.commit()
                    .await
                    .map_err(repository_error("settling a refund"))?;
                Ok(())
            }

            async fn cancel_order(
                &self,
                order_id: &str,
                now: vitrine_core::cart::Timestamp,
                mail: &vitrine_core::forms::Mail,
            ) -> Result<(), vitrine_core::checkout::ChangeOrderStoreError> {
                change_order!(
                    self,
                    order_id,
                    now,
                    mail,
                    |care: &vitrine_core::checkout::Aftercare, order| care.check_cancel(order),
                    "cancelled",
                    "",
                    |care: &vitrine_core::checkout::Aftercare, order| care.cancel_restock(order)
                )
            }

            async fn fulfil_order(
                &self,
                order_id: &str,
                tracking_url: &vitrine_core::checkout::TrackingUrl,
                now: vitrine_core::cart::Timestamp,
                mail: &vitrine_core::forms::Mail,
            ) -> Result<(), vitrine_core::checkout::ChangeOrderStoreError> {
                change_order!(
                    self,
                    order_id,
                    now,
                    mail,
                    |care: &vitrine_core::checkout::Aftercare, order| care.check_fulfil(order),
                    "fulfilled",
                    tracking_url.as_str(),
                    |_: &vitrine_core::checkout::Aftercare, _| Vec::new()
                )
            }
        }
    };
}

sql_order_aftercare!(crate::cart_store::SqliteCommerceStore);
sql_order_aftercare!(crate::cart_store::PostgresCommerceStore);
