//! The renewal store ([`vitrine_core::checkout::RenewalStore`]) on SQL: subscriptions found by
//! their `next_step_at`, and one `renewal_claims` row per attempt. A claim is one statement
//! (an insert, or the takeover of a row whose lease ran out and that was never settled), so
//! two servers claiming at once get one row each way; settling records the outcome and
//! changes the subscription in one transaction, only if the outcome was not recorded before.
//! Both backends share the statements and, through a macro, the method bodies.

use std::fmt;

use sqlx::{PgPool, SqlitePool};

/// The renewal store of a SQLite database.
#[derive(Clone)]
pub struct SqliteRenewalStore {
    pool: SqlitePool,
}

/// The renewal store of a PostgreSQL database.
#[derive(Clone)]
pub struct PostgresRenewalStore {
    pool: PgPool,
}

impl SqliteRenewalStore {
    pub(crate) fn new(pool: SqlitePool) -> Self {
        Self { pool }
    }
}

impl PostgresRenewalStore {
    pub(crate) fn new(pool: PgPool) -> Self {
        Self { pool }
    }
}

impl fmt::Debug for SqliteRenewalStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SqliteRenewalStore").finish_non_exhaustive()
    }
}

impl fmt::Debug for PostgresRenewalStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PostgresRenewalStore")
            .finish_non_exhaustive()
    }
}

macro_rules! select_subscriptions {
    ($rest:literal) => {
        concat!(
            "SELECT id, order_id, email, sku, product_name, quantity, price_cents, currency, \
             billing_every, billing_unit, billing_cycles, status, started, payments_made, \
             next_billing_at, skipped_periods, payment_method, failed_attempts, retry_at, \
             next_step_at, account_id FROM subscriptions ",
            $rest
        )
    };
}

const DUE: &str = select_subscriptions!(
    "WHERE next_step_at IS NOT NULL AND next_step_at <= $1 ORDER BY next_step_at, id LIMIT $2"
);

const LIST: &str = select_subscriptions!("ORDER BY started DESC, id DESC LIMIT $1");

/// A new claim, or the takeover of an unsettled one whose lease ran out by `$4` (now).
const CLAIM: &str = "INSERT INTO renewal_claims \
     (subscription_id, period, attempt, claimed, lease_until) VALUES ($1, $2, $3, $4, $5) \
     ON CONFLICT (subscription_id, period, attempt) DO UPDATE SET lease_until = excluded.lease_until \
     WHERE renewal_claims.outcome IS NULL AND renewal_claims.lease_until <= excluded.claimed";

const CLAIM_STATE: &str = "SELECT outcome, payment_id, reason FROM renewal_claims \
     WHERE subscription_id = $1 AND period = $2 AND attempt = $3";

const SETTLE: &str = "UPDATE renewal_claims SET outcome = $4, payment_id = $5, reason = $6, \
     settled = $7 WHERE subscription_id = $1 AND period = $2 AND attempt = $3 \
     AND outcome IS NULL";

/// Writes the subscription's changing columns, only while it reads as the caller read it.
const CHANGE: &str = "UPDATE subscriptions SET status = $2, payments_made = $3, \
     next_billing_at = $4, skipped_periods = $5, payment_method = $6, failed_attempts = $7, \
     retry_at = $8, next_step_at = $9 \
     WHERE id = $1 AND status = $10 AND payments_made = $11 AND skipped_periods = $12 \
     AND failed_attempts = $13 AND payment_method IS NOT DISTINCT FROM $14";

const RECORDS: &str = "SELECT period, attempt, claimed, outcome, payment_id, reason \
     FROM renewal_claims WHERE subscription_id = $1 ORDER BY period, attempt";

/// An outcome as its three columns.
fn outcome_columns(
    outcome: &vitrine_core::checkout::RenewalOutcome,
) -> (&'static str, Option<&str>, Option<&str>) {
    match outcome {
        vitrine_core::checkout::RenewalOutcome::Paid { payment_id } => {
            ("paid", Some(payment_id), None)
        }
        vitrine_core::checkout::RenewalOutcome::Declined { reason } => {
            ("declined", None, Some(reason))
        }
    }
}

/// The outcome its columns hold; none while unsettled.
fn outcome_of(
    outcome: Option<String>,
    payment_id: Option<String>,
    reason: Option<String>,
) -> Result<Option<vitrine_core::checkout::RenewalOutcome>, vitrine_core::ports::RepositoryError> {
    use vitrine_core::checkout::RenewalOutcome;
    match outcome.as_deref() {
        None => Ok(None),
        Some("paid") => Ok(Some(RenewalOutcome::Paid {
            payment_id: payment_id.unwrap_or_default(),
        })),
        Some("declined") => Ok(Some(RenewalOutcome::Declined {
            reason: reason.unwrap_or_default(),
        })),
        Some(other) => Err(vitrine_core::ports::RepositoryError::Corrupt {
            what: "a renewal's outcome".into(),
            reason: other.to_owned(),
        }),
    }
}

fn number(value: u32) -> i64 {
    i64::from(value)
}

/// Applies `$change` through `$tx` (a transaction), enqueuing its mails when it applied;
/// answers whether it did.
macro_rules! apply_change {
    ($tx:expr, $change:expr, $now:expr) => {{
        let change: &vitrine_core::checkout::SubscriptionChange<'_> = $change;
        let after = $crate::subscription_rows::SubscriptionRow::new(change.after);
        let before = $crate::subscription_rows::SubscriptionRow::new(change.before);
        let done = sqlx::query($crate::renewal_store::CHANGE)
            .bind(after.id)
            .bind(after.status)
            .bind(after.payments_made)
            .bind(after.next_billing_at)
            .bind(after.skipped_periods)
            .bind(after.payment_method)
            .bind(after.failed_attempts)
            .bind(after.retry_at)
            .bind(after.next_step_at)
            .bind(before.status)
            .bind(before.payments_made)
            .bind(before.skipped_periods)
            .bind(before.failed_attempts)
            .bind(before.payment_method)
            .execute(&mut *$tx)
            .await
            .map_err($crate::errors::repository_error("changing a subscription"))?;
        let applied = done.rows_affected() == 1;
        if applied {
            for mail in change.mails {
                sqlx::query($crate::outbox_statements::ENQUEUE_MAIL)
                    .bind($crate::outbox::mail_to_json(mail))
                    .bind(vitrine_core::forms::DeliveryKind::SiteUserMail.as_str())
                    .bind($now.millis())
                    .execute(&mut *$tx)
                    .await
                    .map_err($crate::errors::repository_error(
                        "enqueuing a subscription's mail",
                    ))?;
            }
        }
        applied
    }};
}

macro_rules! sql_renewal_store {
    ($store:ty) => {
        #[async_trait::async_trait]
        impl vitrine_core::checkout::RenewalStore for $store {
            async fn find_subscription(
                &self,
                id: &str,
            ) -> Result<
                Option<vitrine_core::checkout::Subscription>,
                vitrine_core::ports::RepositoryError,
            > {
                $crate::subscription_rows::subscription_by_id!(&self.pool, id).await
            }

            async fn due_subscriptions(
                &self,
                now: vitrine_core::cart::Timestamp,
                limit: u32,
            ) -> Result<
                Vec<vitrine_core::checkout::Subscription>,
                vitrine_core::ports::RepositoryError,
            > {
                $crate::subscription_rows::read_subscriptions!(
                    &self.pool,
                    $crate::renewal_store::DUE,
                    "reading due subscriptions",
                    now.millis(),
                    i64::from(limit)
                )
                .await
            }

            async fn list_subscriptions(
                &self,
                limit: u32,
            ) -> Result<
                Vec<vitrine_core::checkout::Subscription>,
                vitrine_core::ports::RepositoryError,
            > {
                $crate::subscription_rows::read_subscriptions!(
                    &self.pool,
                    $crate::renewal_store::LIST,
                    "listing subscriptions",
                    i64::from(limit)
                )
                .await
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

            async fn subscriptions_of_account(
                &self,
                account: &str,
            ) -> Result<
                Vec<vitrine_core::checkout::Subscription>,
                vitrine_core::ports::RepositoryError,
            > {
                $crate::subscription_rows::subscriptions_of_account!(&self.pool, account).await
            }

            async fn claim_renewal(
                &self,
                claim: &vitrine_core::checkout::RenewalClaim,
                now: vitrine_core::cart::Timestamp,
                lease_ms: i64,
            ) -> Result<vitrine_core::checkout::ClaimOutcome, vitrine_core::ports::RepositoryError>
            {
                use vitrine_core::checkout::ClaimOutcome;
                let period = $crate::renewal_store::number(claim.period);
                let attempt = $crate::renewal_store::number(claim.attempt);
                let done = sqlx::query($crate::renewal_store::CLAIM)
                    .bind(claim.subscription_id.as_str())
                    .bind(period)
                    .bind(attempt)
                    .bind(now.millis())
                    .bind(now.millis().saturating_add(lease_ms))
                    .execute(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("claiming a renewal"))?;
                if done.rows_affected() == 1 {
                    return Ok(ClaimOutcome::Claimed);
                }
                let (outcome, payment_id, reason): (
                    Option<String>,
                    Option<String>,
                    Option<String>,
                ) = sqlx::query_as($crate::renewal_store::CLAIM_STATE)
                    .bind(claim.subscription_id.as_str())
                    .bind(period)
                    .bind(attempt)
                    .fetch_one(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error(
                        "reading a renewal's claim",
                    ))?;
                Ok(
                    match $crate::renewal_store::outcome_of(outcome, payment_id, reason)? {
                        Some(outcome) => ClaimOutcome::Settled(outcome),
                        None => ClaimOutcome::Busy,
                    },
                )
            }

            async fn settle_renewal(
                &self,
                claim: &vitrine_core::checkout::RenewalClaim,
                outcome: &vitrine_core::checkout::RenewalOutcome,
                change: vitrine_core::checkout::SubscriptionChange<'_>,
                now: vitrine_core::cart::Timestamp,
            ) -> Result<bool, vitrine_core::ports::RepositoryError> {
                let (word, payment_id, reason) = $crate::renewal_store::outcome_columns(outcome);
                let mut tx = self
                    .pool
                    .begin()
                    .await
                    .map_err($crate::errors::repository_error("settling a renewal"))?;
                let settled = sqlx::query($crate::renewal_store::SETTLE)
                    .bind(claim.subscription_id.as_str())
                    .bind($crate::renewal_store::number(claim.period))
                    .bind($crate::renewal_store::number(claim.attempt))
                    .bind(word)
                    .bind(payment_id)
                    .bind(reason)
                    .bind(now.millis())
                    .execute(&mut *tx)
                    .await
                    .map_err($crate::errors::repository_error("settling a renewal"))?;
                if settled.rows_affected() != 1 {
                    tx.rollback()
                        .await
                        .map_err($crate::errors::repository_error("settling a renewal"))?;
                    return Ok(false);
                }
                let applied = apply_change!(tx, &change, now);
                tx.commit()
                    .await
                    .map_err($crate::errors::repository_error("settling a renewal"))?;
                Ok(applied)
            }

            async fn change_subscription(
                &self,
                change: vitrine_core::checkout::SubscriptionChange<'_>,
                now: vitrine_core::cart::Timestamp,
            ) -> Result<bool, vitrine_core::ports::RepositoryError> {
                let mut tx = self
                    .pool
                    .begin()
                    .await
                    .map_err($crate::errors::repository_error("changing a subscription"))?;
                let applied = apply_change!(tx, &change, now);
                tx.commit()
                    .await
                    .map_err($crate::errors::repository_error("changing a subscription"))?;
                Ok(applied)
            }

            async fn renewal_records(
                &self,
                subscription_id: &str,
            ) -> Result<
                Vec<vitrine_core::checkout::RenewalRecord>,
                vitrine_core::ports::RepositoryError,
            > {
                type Row = (
                    i64,
                    i64,
                    i64,
                    Option<String>,
                    Option<String>,
                    Option<String>,
                );
                let rows: Vec<Row> = sqlx::query_as($crate::renewal_store::RECORDS)
                    .bind(subscription_id)
                    .fetch_all(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("reading renewal claims"))?;
                rows.into_iter()
                    .map(|(period, attempt, claimed, outcome, payment_id, reason)| {
                        let corrupt = |error: std::num::TryFromIntError| {
                            vitrine_core::ports::RepositoryError::Corrupt {
                                what: "a renewal's period or attempt".into(),
                                reason: error.to_string(),
                            }
                        };
                        Ok(vitrine_core::checkout::RenewalRecord {
                            claim: vitrine_core::checkout::RenewalClaim {
                                subscription_id: subscription_id.to_owned(),
                                period: u32::try_from(period).map_err(corrupt)?,
                                attempt: u32::try_from(attempt).map_err(corrupt)?,
                            },
                            claimed: vitrine_core::cart::Timestamp(claimed),
                            outcome: $crate::renewal_store::outcome_of(
                                outcome, payment_id, reason,
                            )?,
                        })
                    })
                    .collect()
            }
        }
    };
}

sql_renewal_store!(SqliteRenewalStore);
sql_renewal_store!(PostgresRenewalStore);
