//! The payment ledger ([`vitrine_core::checkout::PaymentLedger`]) in the `payment_claims`
//! table, shared by the commerce and contribution stores of one database: an order or a
//! contribution claims its charge inside its own transaction, a refund claims it before the
//! provider is asked, and the primary key lets only the first claim in.

/// Claims a charge; no row is written when something claimed it before.
pub(crate) const CLAIM: &str = "INSERT INTO payment_claims \
     (payment_id, idempotency_key, used_for, claimed) VALUES ($1, $2, $3, $4) \
     ON CONFLICT (payment_id) DO NOTHING";

pub(crate) const CLAIMED_FOR: &str = "SELECT used_for FROM payment_claims WHERE payment_id = $1";

pub(crate) const REFUNDED_ATTEMPTS: &str = "SELECT COUNT(*) FROM payment_claims \
     WHERE idempotency_key = $1 AND used_for = 'refund'";

pub(crate) const RECORD_REFUND_FAILURE: &str = "UPDATE payment_claims SET refund_failure = $2 \
     WHERE payment_id = $1 AND used_for = 'refund'";

pub(crate) const FAILED_REFUNDS: &str = "SELECT payment_id, idempotency_key, refund_failure, \
     claimed FROM payment_claims WHERE refund_failure IS NOT NULL ORDER BY claimed, payment_id";

/// Claims `$payment_id` for `$used_for` (a [`vitrine_core::checkout::PaymentUse`]) through
/// `$executor`; answers whether this claim got it.
macro_rules! claim_payment {
    ($executor:expr, $payment_id:expr, $key:expr, $used_for:expr, $now:expr) => {
        sqlx::query($crate::payment_claims::CLAIM)
            .bind($payment_id)
            .bind($key.as_str())
            .bind($used_for.as_str())
            .bind($now.millis())
            .execute($executor)
            .await
            .map(|done| done.rows_affected() == 1)
            .map_err($crate::errors::repository_error("claiming a payment"))
    };
}
pub(crate) use claim_payment;

macro_rules! sql_payment_ledger {
    ($store:ty) => {
        #[async_trait::async_trait]
        impl vitrine_core::checkout::PaymentLedger for $store {
            async fn refunded_attempts(
                &self,
                key: &vitrine_core::checkout::IdempotencyKey,
            ) -> Result<u32, vitrine_core::ports::RepositoryError> {
                let (count,): (i64,) = sqlx::query_as($crate::payment_claims::REFUNDED_ATTEMPTS)
                    .bind(key.as_str())
                    .fetch_one(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error(
                        "counting refunded payments",
                    ))?;
                Ok(u32::try_from(count).unwrap_or(u32::MAX))
            }

            async fn claim_for_refund(
                &self,
                payment_id: &str,
                key: &vitrine_core::checkout::IdempotencyKey,
                now: vitrine_core::cart::Timestamp,
            ) -> Result<vitrine_core::checkout::RefundClaim, vitrine_core::ports::RepositoryError>
            {
                let claimed = $crate::payment_claims::claim_payment!(
                    &self.pool,
                    payment_id,
                    key,
                    vitrine_core::checkout::PaymentUse::Refund,
                    now
                )?;
                Ok(if claimed {
                    vitrine_core::checkout::RefundClaim::Claimed
                } else {
                    vitrine_core::checkout::RefundClaim::AlreadyClaimed
                })
            }

            async fn record_refund_failure(
                &self,
                payment_id: &str,
                reason: &str,
            ) -> Result<(), vitrine_core::ports::RepositoryError> {
                sqlx::query($crate::payment_claims::RECORD_REFUND_FAILURE)
                    .bind(payment_id)
                    .bind(reason)
                    .execute(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error(
                        "recording a failed refund",
                    ))?;
                Ok(())
            }

            async fn failed_refunds(
                &self,
            ) -> Result<
                Vec<vitrine_core::checkout::FailedRefund>,
                vitrine_core::ports::RepositoryError,
            > {
                let rows: Vec<(String, String, String, i64)> =
                    sqlx::query_as($crate::payment_claims::FAILED_REFUNDS)
                        .fetch_all(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error("reading failed refunds"))?;
                Ok(rows
                    .into_iter()
                    .map(|(payment_id, idempotency_key, reason, claimed)| {
                        vitrine_core::checkout::FailedRefund {
                            payment_id,
                            idempotency_key,
                            reason,
                            claimed: vitrine_core::cart::Timestamp(claimed),
                        }
                    })
                    .collect())
            }
        }
    };
}
pub(crate) use sql_payment_ledger;
