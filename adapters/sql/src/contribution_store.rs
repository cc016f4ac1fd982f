//! The contribution store on SQL: one contribution per idempotency key, kept by a UNIQUE
//! constraint, so two submits of one donation form arriving at once record one, and its
//! receipt enqueued in the delivery outbox in the same transaction. Both
//! backends share the statements and, through a macro, the method bodies.

use std::fmt;

use sqlx::{PgPool, SqlitePool};
use vitrine_core::cart::Timestamp;
use vitrine_core::checkout::{Contribution, ContributionPayment, IdempotencyKey};
use vitrine_core::money::Currency;
use vitrine_core::ports::RepositoryError;

/// The contribution store of a SQLite database.
#[derive(Clone)]
pub struct SqliteContributionStore {
    pool: SqlitePool,
}

/// The contribution store of a PostgreSQL database.
#[derive(Clone)]
pub struct PostgresContributionStore {
    pool: PgPool,
}

impl SqliteContributionStore {
    pub(crate) fn new(pool: SqlitePool) -> Self {
        Self { pool }
    }
}

impl PostgresContributionStore {
    pub(crate) fn new(pool: PgPool) -> Self {
        Self { pool }
    }
}

impl fmt::Debug for SqliteContributionStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SqliteContributionStore")
            .finish_non_exhaustive()
    }
}

impl fmt::Debug for PostgresContributionStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PostgresContributionStore")
            .finish_non_exhaustive()
    }
}

/// The columns a contribution is recorded with; its payment's state has defaults (paid).
macro_rules! record_columns {
    () => {
        "id, idempotency_key, donate_page_id, campaign_title, amount_minor, currency, name, \
         email, created, payment_id"
    };
}

macro_rules! contribution_columns {
    () => {
        concat!(record_columns!(), ", payment_status, intent_id, failure")
    };
}

/// Records a contribution unless one with its idempotency key exists; a taken id is still
/// a unique violation, so no contribution is ever recorded over another.
pub(crate) const RECORD: &str = concat!(
    "INSERT INTO contributions (",
    record_columns!(),
    ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (idempotency_key) DO NOTHING"
);

/// Keeps a contribution pending on the provider's intent `$11`, unless one with its
/// idempotency key exists.
pub(crate) const OPEN_PENDING: &str = concat!(
    "INSERT INTO contributions (",
    record_columns!(),
    ", payment_status, intent_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'pending', $11) \
     ON CONFLICT (idempotency_key) DO NOTHING"
);

/// Pays the pending contribution `$1` with the charge `$2`; changes nothing once settled.
pub(crate) const SETTLE_PAID: &str = "UPDATE contributions \
     SET payment_status = 'paid', payment_id = $2 WHERE id = $1 AND payment_status = 'pending'";

/// Fails the pending contribution `$1` for the reason `$2`; changes nothing once settled.
pub(crate) const SETTLE_FAILED: &str = "UPDATE contributions \
     SET payment_status = 'failed', failure = $2 WHERE id = $1 AND payment_status = 'pending'";

pub(crate) const BY_ID: &str = concat!(
    "SELECT ",
    contribution_columns!(),
    " FROM contributions WHERE id = $1"
);

pub(crate) const BY_KEY: &str = concat!(
    "SELECT ",
    contribution_columns!(),
    " FROM contributions WHERE idempotency_key = $1"
);

/// The pending contributions opened before `$1`, oldest first, at most `$2`
/// (`contributions_pending_by_created` of migration 0042 finds them).
pub(crate) const PENDING_OPENED_BEFORE: &str = concat!(
    "SELECT ",
    contribution_columns!(),
    " FROM contributions WHERE payment_status = 'pending' AND created < $1 \
     ORDER BY created, id LIMIT $2"
);

/// An address's contributions (`$1`, without case) made after `$2` and up to `$3` included,
/// newest first, at most `$4`.
pub(crate) const MADE_BETWEEN: &str = concat!(
    "SELECT ",
    contribution_columns!(),
    " FROM contributions WHERE LOWER(email) = LOWER($1) AND email <> '' \
     AND created > $2 AND created <= $3 ORDER BY created DESC, id DESC LIMIT $4"
);

/// Empties the donor's name and address on every contribution given with `$1` (without
/// case) after `$2` and up to `$3` included; an emptied address is nobody's.
pub(crate) const ERASE_DONOR: &str = "UPDATE contributions SET name = '', email = '' \
     WHERE LOWER(email) = LOWER($1) AND email <> '' AND created > $2 AND created <= $3";

#[derive(sqlx::FromRow)]
pub(crate) struct ContributionRow {
    id: String,
    idempotency_key: String,
    donate_page_id: String,
    campaign_title: String,
    amount_minor: i64,
    currency: String,
    name: String,
    email: String,
    created: i64,
    payment_id: String,
    payment_status: String,
    intent_id: String,
    failure: String,
}

fn corrupt(what: &str, reason: impl ToString) -> RepositoryError {
    RepositoryError::Corrupt {
        what: what.to_owned(),
        reason: reason.to_string(),
    }
}

impl ContributionRow {
    pub(crate) fn into_contribution(self) -> Result<Contribution, RepositoryError> {
        let payment = match self.payment_status.as_str() {
            "paid" => ContributionPayment::Paid {
                payment_id: self.payment_id,
            },
            "pending" => ContributionPayment::Pending {
                intent_id: self.intent_id,
            },
            "failed" => ContributionPayment::Failed {
                message: self.failure,
            },
            other => return Err(corrupt("a contribution's payment status", other)),
        };
        Ok(Contribution {
            idempotency_key: IdempotencyKey::parse(self.idempotency_key)
                .map_err(|error| corrupt("a contribution's idempotency key", error))?,
            currency: Currency::from_code(&self.currency)
                .map_err(|error| corrupt("a contribution's currency", error))?,
            id: self.id,
            donate_page_id: self.donate_page_id,
            campaign_title: self.campaign_title,
            amount_minor: self.amount_minor,
            name: self.name,
            email: self.email,
            created: Timestamp(self.created),
            payment,
        })
    }
}

/// `$query` with the [`RECORD`] columns of `$contribution` bound, in order.
macro_rules! bind_record {
    ($query:expr, $contribution:expr) => {
        $query
            .bind(&$contribution.id)
            .bind($contribution.idempotency_key.as_str())
            .bind(&$contribution.donate_page_id)
            .bind(&$contribution.campaign_title)
            .bind($contribution.amount_minor)
            .bind($contribution.currency.code())
            .bind(&$contribution.name)
            .bind(&$contribution.email)
            .bind($contribution.created.millis())
            .bind($contribution.payment_id())
    };
}
pub(crate) use bind_record;

macro_rules! sql_contribution_store {
    ($store:ty) => {
        #[async_trait::async_trait]
        impl vitrine_core::checkout::ContributionStore for $store {
            async fn record_with_receipt(
                &self,
                contribution: &vitrine_core::checkout::Contribution,
                receipt: Option<&vitrine_core::forms::Mail>,
            ) -> Result<
                vitrine_core::checkout::Contribution,
                vitrine_core::checkout::RecordContributionError,
            > {
                use vitrine_core::checkout::RecordContributionError;
                use $crate::errors::repository_error;

                if let Some(recorded) = self
                    .contribution_by_key(&contribution.idempotency_key)
                    .await?
                {
                    return Ok(recorded);
                }
                let mut tx = self
                    .pool
                    .begin()
                    .await
                    .map_err(repository_error("starting a contribution"))?;
                let claimed = $crate::payment_claims::claim_payment!(
                    &mut *tx,
                    contribution.payment_id(),
                    contribution.idempotency_key,
                    vitrine_core::checkout::PaymentUse::Contribution,
                    contribution.created
                )?;
                if !claimed {
                    let (used_for,): (String,) =
                        sqlx::query_as($crate::payment_claims::CLAIMED_FOR)
                            .bind(contribution.payment_id())
                            .fetch_one(&mut *tx)
                            .await
                            .map_err(repository_error("reading a payment's claim"))?;
                    tx.rollback()
                        .await
                        .map_err(repository_error("rolling back a contribution"))?;
                    if used_for == "refund" {
                        return Err(RecordContributionError::PaymentRefunded(
                            contribution.payment_id().to_owned(),
                        ));
                    }
                    // A second submit of the same form, whose charge the provider replayed,
                    // recorded it first: its contribution is the answer.
                    return self
                        .contribution_by_key(&contribution.idempotency_key)
                        .await?
                        .ok_or_else(|| {
                            vitrine_core::ports::RepositoryError::Rejected(format!(
                                "payment {} paid for another {used_for}",
                                contribution.payment_id()
                            ))
                            .into()
                        });
                }
                $crate::contribution_store::bind_record!(
                    sqlx::query($crate::contribution_store::RECORD),
                    contribution
                )
                .execute(&mut *tx)
                .await
                .map_err(repository_error("recording a contribution"))?;
                if let Some(receipt) = receipt {
                    sqlx::query($crate::outbox_statements::ENQUEUE_MAIL)
                        .bind($crate::outbox::mail_to_json(receipt))
                        .bind(vitrine_core::forms::DeliveryKind::SiteUserMail.as_str())
                        .bind(contribution.created.millis())
                        .execute(&mut *tx)
                        .await
                        .map_err(repository_error("enqueueing a contribution's receipt"))?;
                }
                tx.commit()
                    .await
                    .map_err(repository_error("committing a contribution"))?;
                Ok(self
                    .contribution_by_key(&contribution.idempotency_key)
                    .await?
                    .ok_or_else(|| {
                        vitrine_core::ports::RepositoryError::Unavailable(
                            "a recorded contribution could not be read back".into(),
                        )
                    })?)
            }

            async fn open_pending(
                &self,
                contribution: &vitrine_core::checkout::Contribution,
            ) -> Result<vitrine_core::checkout::Contribution, vitrine_core::ports::RepositoryError>
            {
                use $crate::errors::repository_error;

                let vitrine_core::checkout::ContributionPayment::Pending { intent_id } =
                    &contribution.payment
                else {
                    return Err(vitrine_core::ports::RepositoryError::Rejected(format!(
                        "contribution {} is not pending",
                        contribution.id
                    )));
                };
                $crate::contribution_store::bind_record!(
                    sqlx::query($crate::contribution_store::OPEN_PENDING),
                    contribution
                )
                .bind(intent_id)
                .execute(&self.pool)
                .await
                .map_err(repository_error("keeping a pending contribution"))?;
                self.contribution_by_key(&contribution.idempotency_key)
                    .await?
                    .ok_or_else(|| {
                        vitrine_core::ports::RepositoryError::Unavailable(
                            "a pending contribution could not be read back".into(),
                        )
                    })
            }

            async fn settle(
                &self,
                id: &str,
                settlement: &vitrine_core::checkout::ContributionSettlement,
                receipt: Option<&vitrine_core::forms::Mail>,
                now: vitrine_core::cart::Timestamp,
            ) -> Result<
                Option<(vitrine_core::checkout::Contribution, bool)>,
                vitrine_core::checkout::RecordContributionError,
            > {
                use vitrine_core::checkout::{ContributionSettlement, RecordContributionError};
                use $crate::errors::repository_error;

                let Some(pending) = self.contribution(id).await? else {
                    return Ok(None);
                };
                let mut tx = self
                    .pool
                    .begin()
                    .await
                    .map_err(repository_error("starting a contribution's settlement"))?;
                let (statement, value) = match settlement {
                    ContributionSettlement::Paid(payment) => {
                        ($crate::contribution_store::SETTLE_PAID, payment.id.as_str())
                    }
                    ContributionSettlement::Failed { message } => {
                        ($crate::contribution_store::SETTLE_FAILED, message.as_str())
                    }
                    ContributionSettlement::Unchanged | ContributionSettlement::Mismatch => {
                        return Ok(Some((pending, false)));
                    }
                };
                let moved = sqlx::query(statement)
                    .bind(id)
                    .bind(value)
                    .execute(&mut *tx)
                    .await
                    .map_err(repository_error("settling a contribution"))?
                    .rows_affected()
                    == 1;
                if !moved {
                    tx.rollback()
                        .await
                        .map_err(repository_error("rolling back a contribution's settlement"))?;
                    return Ok(self.contribution(id).await?.map(|found| (found, false)));
                }
                if let ContributionSettlement::Paid(payment) = settlement {
                    let claimed = $crate::payment_claims::claim_payment!(
                        &mut *tx,
                        payment.id.as_str(),
                        pending.idempotency_key,
                        vitrine_core::checkout::PaymentUse::Contribution,
                        now
                    )?;
                    if !claimed {
                        tx.rollback().await.map_err(repository_error(
                            "rolling back a contribution's settlement",
                        ))?;
                        return Err(RecordContributionError::PaymentRefunded(payment.id.clone()));
                    }
                    if let Some(receipt) = receipt {
                        sqlx::query($crate::outbox_statements::ENQUEUE_MAIL)
                            .bind($crate::outbox::mail_to_json(receipt))
                            .bind(vitrine_core::forms::DeliveryKind::SiteUserMail.as_str())
                            .bind(now.millis())
                            .execute(&mut *tx)
                            .await
                            .map_err(repository_error("enqueueing a contribution's receipt"))?;
                    }
                }
                tx.commit()
                    .await
                    .map_err(repository_error("committing a contribution's settlement"))?;
                Ok(self.contribution(id).await?.map(|found| (found, true)))
            }

            async fn contribution(
                &self,
                id: &str,
            ) -> Result<
                Option<vitrine_core::checkout::Contribution>,
                vitrine_core::ports::RepositoryError,
            > {
                let row: Option<$crate::contribution_store::ContributionRow> =
                    sqlx::query_as($crate::contribution_store::BY_ID)
                        .bind(id)
                        .fetch_optional(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error("reading a contribution"))?;
                row.map($crate::contribution_store::ContributionRow::into_contribution)
                    .transpose()
            }

            async fn pending_contributions_opened_before(
                &self,
                before: vitrine_core::cart::Timestamp,
                limit: u32,
            ) -> Result<
                Vec<vitrine_core::checkout::Contribution>,
                vitrine_core::ports::RepositoryError,
            > {
                let rows: Vec<$crate::contribution_store::ContributionRow> =
                    sqlx::query_as($crate::contribution_store::PENDING_OPENED_BEFORE)
                        .bind(before.millis())
                        .bind(i64::from(limit))
                        .fetch_all(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error(
                            "listing the pending contributions",
                        ))?;
                rows.into_iter()
                    .map($crate::contribution_store::ContributionRow::into_contribution)
                    .collect()
            }

            async fn contribution_by_key(
                &self,
                key: &vitrine_core::checkout::IdempotencyKey,
            ) -> Result<
                Option<vitrine_core::checkout::Contribution>,
                vitrine_core::ports::RepositoryError,
            > {
                let row: Option<$crate::contribution_store::ContributionRow> =
                    sqlx::query_as($crate::contribution_store::BY_KEY)
                        .bind(key.as_str())
                        .fetch_optional(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error("reading a contribution"))?;
                row.map($crate::contribution_store::ContributionRow::into_contribution)
                    .transpose()
            }

            async fn contributions_made_between(
                &self,
                email: &str,
                made: vitrine_core::checkout::PlacedBetween,
                limit: u32,
            ) -> Result<
                Vec<vitrine_core::checkout::Contribution>,
                vitrine_core::ports::RepositoryError,
            > {
                let (after, until) = made.millis();
                let rows: Vec<$crate::contribution_store::ContributionRow> =
                    sqlx::query_as($crate::contribution_store::MADE_BETWEEN)
                        .bind(email)
                        .bind(after)
                        .bind(until)
                        .bind(i64::from(limit))
                        .fetch_all(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error(
                            "reading an address's contributions",
                        ))?;
                rows.into_iter()
                    .map($crate::contribution_store::ContributionRow::into_contribution)
                    .collect()
            }

            async fn erase_contributions_of(
                &self,
                email: &str,
                made: vitrine_core::checkout::PlacedBetween,
            ) -> Result<u32, vitrine_core::ports::RepositoryError> {
                let (after, until) = made.millis();
                let done = sqlx::query($crate::contribution_store::ERASE_DONOR)
                    .bind(email)
                    .bind(after)
                    .bind(until)
                    .execute(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error(
                        "erasing a donor's personal fields",
                    ))?;
                Ok(u32::try_from(done.rows_affected()).unwrap_or(u32::MAX))
            }
        }
    };
}

sql_contribution_store!(SqliteContributionStore);
sql_contribution_store!(PostgresContributionStore);
crate::payment_claims::sql_payment_ledger!(SqliteContributionStore);
crate::payment_claims::sql_payment_ledger!(PostgresContributionStore);
