//! The form store on SQL: submission keys and submissions, with a key's consumption and its
//! submission written in one transaction, and concurrent submissions group-committed
//! (`forms_batch.rs`). Both backends share the statements and, through a macro (for the
//! reasons given in `repository.rs`), the method bodies.

use std::fmt;
use std::sync::Arc;

use sqlx::{PgPool, SqlitePool};

use crate::forms_batch::{GroupCommitter, SubmissionWrites};

/// The form store of a SQLite database.
#[derive(Clone)]
pub struct SqliteFormStore {
    pool: SqlitePool,
    committer: Option<Arc<GroupCommitter>>,
}

/// The form store of a PostgreSQL database.
#[derive(Clone)]
pub struct PostgresFormStore {
    pool: PgPool,
    committer: Option<Arc<GroupCommitter>>,
}

impl fmt::Debug for SqliteFormStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SqliteFormStore").finish_non_exhaustive()
    }
}

impl fmt::Debug for PostgresFormStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PostgresFormStore").finish_non_exhaustive()
    }
}

/// How often a save that lost a race starts again: to a concurrent signup of the same
/// newsletter address on another server (the next attempt finds the winner's subscription),
/// or a deadlock PostgreSQL broke between two servers' batches claiming the same keys in
/// opposite orders (the next attempt finds the key claimed).
const ATTEMPTS: usize = 3;

/// PostgreSQL's code for a transaction it chose to abort to break a deadlock.
const DEADLOCK_DETECTED: &str = "40P01";

fn is_retryable(error: &sqlx::Error) -> bool {
    error
        .as_database_error()
        .is_some_and(|e| e.is_unique_violation() || e.code().as_deref() == Some(DEADLOCK_DETECTED))
}

macro_rules! sql_form_store {
    ($store:ident, $pool:ty, $connection:ty) => {
        impl $store {
            pub(crate) fn new(pool: $pool, writes: SubmissionWrites) -> Self {
                let committer = match writes {
                    SubmissionWrites::PerSubmission => None,
                    SubmissionWrites::Grouped { max_batch } => {
                        let batch_pool = pool.clone();
                        Some(Arc::new(GroupCommitter::new(max_batch, move |batch| {
                            Self::write_batch(batch_pool.clone(), batch)
                        })))
                    }
                };
                Self { pool, committer }
            }

            /// The SQL of one submission, inside the caller's transaction or savepoint: claim
            /// the key, store the submission (or find the address's subscription), link the
            /// key to it. A key consumed before answers what it did, and nothing is written.
            async fn save_one(
                connection: &mut $connection,
                request: &$crate::forms_batch::SaveRequest,
            ) -> Result<vitrine_core::forms::SaveOutcome, sqlx::Error> {
                use vitrine_core::forms::SaveOutcome;
                use $crate::forms_statements as sql;
                let submission = &request.submission;
                let claimed = sqlx::query(sql::CLAIM_KEY)
                    .bind(request.fingerprint.as_str())
                    .bind(request.key.as_str())
                    .bind(request.now)
                    .execute(&mut *connection)
                    .await?
                    .rows_affected();
                if claimed != 1 {
                    return Self::recall_in(connection, &request.key, &request.fingerprint).await;
                }
                let existing: Option<i64> = match &submission.subscription {
                    Some(email) => {
                        sqlx::query_scalar(sql::FIND_SUBSCRIPTION)
                            .bind(submission.form_id.as_str())
                            .bind(email.as_str())
                            .fetch_optional(&mut *connection)
                            .await?
                    }
                    None => None,
                };
                let id = match existing {
                    Some(id) => id,
                    None => {
                        sqlx::query_scalar(sql::INSERT_SUBMISSION)
                            .bind(submission.form_id.as_str())
                            .bind(submission.collection_id.as_deref())
                            .bind(submission.object_name.as_str())
                            .bind(submission.is_overlay_form)
                            .bind(submission.values.to_json())
                            .bind(submission.spam)
                            .bind(submission.subscription.as_deref())
                            .bind(submission.created_at)
                            .fetch_one(&mut *connection)
                            .await?
                    }
                };
                sqlx::query(sql::LINK_KEY)
                    .bind(id)
                    .bind(request.key.as_str())
                    .execute(&mut *connection)
                    .await?;
                Ok(SaveOutcome::Stored { id })
            }

            async fn recall_in(
                connection: &mut $connection,
                key: &vitrine_core::forms::SubmissionKey,
                fingerprint: &str,
            ) -> Result<vitrine_core::forms::SaveOutcome, sqlx::Error> {
                use vitrine_core::forms::SaveOutcome;
                let row: Option<(Option<String>, Option<i64>)> =
                    sqlx::query_as($crate::forms_statements::READ_KEY)
                        .bind(key.as_str())
                        .fetch_optional(&mut *connection)
                        .await?;
                Ok(match row {
                    Some((Some(used), Some(id))) if used == fingerprint => {
                        SaveOutcome::Replayed { id }
                    }
                    Some((Some(_), _)) => SaveOutcome::KeyReused,
                    _ => SaveOutcome::KeyUnknown,
                })
            }

            /// One submission in a transaction of its own: the naive way, and the fallback
            /// when a batch's transaction fails as a whole.
            async fn save_alone(
                pool: &$pool,
                request: &$crate::forms_batch::SaveRequest,
            ) -> Result<vitrine_core::forms::SaveOutcome, vitrine_core::ports::RepositoryError>
            {
                let mut attempt = 0;
                loop {
                    attempt += 1;
                    let result = async {
                        let mut tx = pool.begin().await?;
                        let outcome = Self::save_one(&mut tx, request).await?;
                        // The answer goes out only after the commit returns, so an
                        // acknowledged submission is on disk.
                        tx.commit().await?;
                        Ok::<_, sqlx::Error>(outcome)
                    }
                    .await;
                    match result {
                        Err(error) if attempt < ATTEMPTS && is_retryable(&error) => {}
                        result => {
                            return result.map_err($crate::errors::repository_error(
                                "storing a form submission",
                            ));
                        }
                    }
                }
            }

            /// One submission in a savepoint of the batch's transaction: its failure rolls
            /// back only its own statements.
            async fn save_in_savepoint(
                tx: &mut sqlx::Transaction<'static, <$connection as sqlx::Connection>::Database>,
                request: &$crate::forms_batch::SaveRequest,
            ) -> Result<vitrine_core::forms::SaveOutcome, sqlx::Error> {
                let mut attempt = 0;
                loop {
                    attempt += 1;
                    let mut savepoint = sqlx::Acquire::begin(&mut *tx).await?;
                    match Self::save_one(&mut savepoint, request).await {
                        Ok(outcome) => {
                            savepoint.commit().await?;
                            return Ok(outcome);
                        }
                        Err(error) => {
                            savepoint.rollback().await?;
                            if !(attempt < ATTEMPTS && is_retryable(&error)) {
                                return Err(error);
                            }
                        }
                    }
                }
            }

            /// Writes a batch in one transaction and answers each caller after the commit.
            /// When the transaction fails as a whole (it could not begin or commit), nothing
            /// of it was acknowledged, so each submission is tried again on its own; one that
            /// did commit after all finds its key consumed and is answered as a replay.
            async fn write_batch(pool: $pool, batch: Vec<$crate::forms_batch::Pending>) {
                let together = async {
                    let mut tx = pool.begin().await?;
                    let mut outcomes = Vec::with_capacity(batch.len());
                    for pending in &batch {
                        outcomes.push(Self::save_in_savepoint(&mut tx, &pending.request).await);
                    }
                    tx.commit().await?;
                    Ok::<_, sqlx::Error>(outcomes)
                }
                .await;
                match together {
                    Ok(outcomes) => {
                        for (pending, outcome) in batch.into_iter().zip(outcomes) {
                            let answer = outcome.map_err($crate::errors::repository_error(
                                "storing a form submission",
                            ));
                            // A caller that gave up waiting no longer needs its answer.
                            let _ = pending.reply.send(answer);
                        }
                    }
                    Err(error) => {
                        tracing::warn!(%error, size = batch.len(),
                            "a batch of form submissions failed; saving each on its own");
                        for pending in batch {
                            let answer = Self::save_alone(&pool, &pending.request).await;
                            let _ = pending.reply.send(answer);
                        }
                    }
                }
            }
        }

        #[async_trait::async_trait]
        impl vitrine_core::forms::SubmissionKeyStore for $store {
            async fn issue(
                &self,
                key: &vitrine_core::forms::SubmissionKey,
                expires_at: i64,
            ) -> Result<(), vitrine_core::ports::RepositoryError> {
                sqlx::query($crate::forms_statements::INSERT_KEY)
                    .bind(key.as_str())
                    .bind(expires_at)
                    .execute(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("issuing a form key"))?;
                Ok(())
            }

            async fn is_live(
                &self,
                key: &vitrine_core::forms::SubmissionKey,
                now: i64,
            ) -> Result<bool, vitrine_core::ports::RepositoryError> {
                let count: i64 = sqlx::query_scalar($crate::forms_statements::KEY_IS_LIVE)
                    .bind(key.as_str())
                    .bind(now)
                    .fetch_one(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("reading a form key"))?;
                Ok(count > 0)
            }
        }

        #[async_trait::async_trait]
        impl vitrine_core::forms::SubmissionStore for $store {
            async fn save(
                &self,
                key: &vitrine_core::forms::SubmissionKey,
                fingerprint: &str,
                submission: &vitrine_core::forms::NewSubmission,
                now: i64,
            ) -> Result<vitrine_core::forms::SaveOutcome, vitrine_core::ports::RepositoryError>
            {
                let request = $crate::forms_batch::SaveRequest {
                    key: key.clone(),
                    fingerprint: fingerprint.to_owned(),
                    submission: submission.clone(),
                    now,
                };
                match &self.committer {
                    Some(committer) => committer.save(request).await,
                    None => Self::save_alone(&self.pool, &request).await,
                }
            }

            async fn recall(
                &self,
                key: &vitrine_core::forms::SubmissionKey,
                fingerprint: &str,
            ) -> Result<vitrine_core::forms::SaveOutcome, vitrine_core::ports::RepositoryError>
            {
                let mut connection = self
                    .pool
                    .acquire()
                    .await
                    .map_err($crate::errors::repository_error("reading a form key"))?;
                Self::recall_in(&mut connection, key, fingerprint)
                    .await
                    .map_err($crate::errors::repository_error("reading a form key"))
            }

            async fn list(
                &self,
            ) -> Result<
                Vec<vitrine_core::forms::StoredSubmission>,
                vitrine_core::ports::RepositoryError,
            > {
                let rows: Vec<(i64, String, Option<String>, String, bool, String, bool, i64)> =
                    sqlx::query_as($crate::forms_statements::LIST_SUBMISSIONS)
                        .fetch_all(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error("listing form submissions"))?;
                Ok(rows
                    .into_iter()
                    .map(
                        |(
                            id,
                            form_id,
                            collection_id,
                            object_name,
                            is_overlay_form,
                            values_json,
                            spam,
                            created_at,
                        )| {
                            vitrine_core::forms::StoredSubmission {
                                id,
                                form_id,
                                collection_id,
                                object_name,
                                is_overlay_form,
                                values_json,
                                spam,
                                created_at,
                            }
                        },
                    )
                    .collect())
            }
        }
    };
}

sql_form_store!(SqliteFormStore, SqlitePool, sqlx::SqliteConnection);
sql_form_store!(PostgresFormStore, PgPool, sqlx::PgConnection);
