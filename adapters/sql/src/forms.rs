//! The form store on SQL: submission keys and submissions, with a key's consumption and its
//! submission written in one transaction. Both backends share the statements and, through a
//! macro (for the reasons given in `repository.rs`), the method bodies.

use std::fmt;

use sqlx::{PgPool, SqlitePool};

/// The form store of a SQLite database.
#[derive(Clone)]
pub struct SqliteFormStore {
    pub(crate) pool: SqlitePool,
}

/// The form store of a PostgreSQL database.
#[derive(Clone)]
pub struct PostgresFormStore {
    pub(crate) pool: PgPool,
}

impl SqliteFormStore {
    pub(crate) fn new(pool: SqlitePool) -> Self {
        Self { pool }
    }
}

impl PostgresFormStore {
    pub(crate) fn new(pool: PgPool) -> Self {
        Self { pool }
    }
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

/// How often a save that lost a race to a concurrent signup of the same newsletter address
/// starts again; the second attempt finds the winner's subscription.
const ATTEMPTS: usize = 3;

macro_rules! sql_form_store {
    ($store:ty) => {
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
                use vitrine_core::forms::SaveOutcome;
                let mut attempt = 0;
                loop {
                    attempt += 1;
                    match self.try_save(key, fingerprint, submission, now).await {
                        Ok(Some(id)) => return Ok(SaveOutcome::Stored { id }),
                        Ok(None) => break,
                        Err(error)
                            if attempt < ATTEMPTS
                                && error
                                    .as_database_error()
                                    .is_some_and(|e| e.is_unique_violation()) =>
                        {
                            continue;
                        }
                        Err(error) => {
                            return Err($crate::errors::repository_error(
                                "storing a form submission",
                            )(error));
                        }
                    }
                }
                // The key was not claimable: unknown, expired, or consumed before.
                let row: Option<(Option<String>, Option<i64>)> =
                    sqlx::query_as($crate::forms_statements::READ_KEY)
                        .bind(key.as_str())
                        .fetch_optional(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error("reading a form key"))?;
                Ok(match row {
                    Some((Some(used), Some(id))) if used == fingerprint => {
                        SaveOutcome::Replayed { id }
                    }
                    Some((Some(_), _)) => SaveOutcome::KeyReused,
                    _ => SaveOutcome::KeyUnknown,
                })
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

        impl $store {
            /// One transaction: claim the key, store the submission (or find the address's
            /// subscription), link the key to it. `None` when the key could not be claimed.
            async fn try_save(
                &self,
                key: &vitrine_core::forms::SubmissionKey,
                fingerprint: &str,
                submission: &vitrine_core::forms::NewSubmission,
                now: i64,
            ) -> Result<Option<i64>, sqlx::Error> {
                use $crate::forms_statements as sql;
                let mut tx = self.pool.begin().await?;
                let claimed = sqlx::query(sql::CLAIM_KEY)
                    .bind(fingerprint)
                    .bind(key.as_str())
                    .bind(now)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
                if claimed != 1 {
                    tx.rollback().await?;
                    return Ok(None);
                }
                let existing: Option<i64> = match &submission.subscription {
                    Some(email) => {
                        sqlx::query_scalar(sql::FIND_SUBSCRIPTION)
                            .bind(submission.form_id.as_str())
                            .bind(email.as_str())
                            .fetch_optional(&mut *tx)
                            .await?
                    }
                    None => None,
                };
                let id = match existing {
                    Some(id) => id,
                    None => {
                        let id: i64 = sqlx::query_scalar(sql::INSERT_SUBMISSION)
                            .bind(submission.form_id.as_str())
                            .bind(submission.collection_id.as_deref())
                            .bind(submission.object_name.as_str())
                            .bind(submission.is_overlay_form)
                            .bind(submission.values.to_json())
                            .bind(submission.spam)
                            .bind(submission.subscription.as_deref())
                            .bind(submission.created_at)
                            .fetch_one(&mut *tx)
                            .await?;
                        Self::write_follow_up(&mut *tx, id, submission, now).await?;
                        id
                    }
                };
                sqlx::query(sql::LINK_KEY)
                    .bind(id)
                    .bind(key.as_str())
                    .execute(&mut *tx)
                    .await?;
                // The answer goes out only after the commit returns, so an acknowledged
                // submission is on disk.
                tx.commit().await?;
                Ok(Some(id))
            }
        }
    };
}

sql_form_store!(SqliteFormStore);
sql_form_store!(PostgresFormStore);
