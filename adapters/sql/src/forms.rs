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
    pub(crate) pool: SqlitePool,
    committer: Option<Arc<GroupCommitter>>,
}

/// The form store of a PostgreSQL database.
#[derive(Clone)]
pub struct PostgresFormStore {
    pub(crate) pool: PgPool,
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
    ($store:ident, $pool:ty, $connection:ty, $writers:expr) => {
        impl $store {
            pub(crate) fn new(pool: $pool, writes: SubmissionWrites) -> Self {
                let committer = match writes {
                    SubmissionWrites::PerSubmission => None,
                    SubmissionWrites::Grouped { max_batch } => {
                        let batch_pool = pool.clone();
                        Some(Arc::new(GroupCommitter::new(max_batch, $writers, move |batch| {
                            Self::write_batch(batch_pool.clone(), batch)
                        })))
                    }
                };
                Self { pool, committer }
            }

            /// The SQL of one submission, inside the caller's transaction or savepoint: claim
            /// the key, then store the submission. A key consumed before answers what it did,
            /// and nothing is written.
            async fn save_one(
                connection: &mut $connection,
                request: &$crate::forms_batch::SaveRequest,
            ) -> Result<vitrine_core::forms::SaveOutcome, sqlx::Error> {
                let claimed = sqlx::query($crate::forms_statements::CLAIM_KEY)
                    .bind(request.fingerprint.as_str())
                    .bind(request.key.as_str())
                    .bind(request.now)
                    .execute(&mut *connection)
                    .await?
                    .rows_affected();
                if claimed != 1 {
                    return Self::recall_in(connection, &request.key, &request.fingerprint).await;
                }
                Self::store_claimed(connection, request).await
            }

            /// Stores the submission of a key just claimed in this transaction (or finds the
            /// address's subscription) and links the key to it.
            async fn store_claimed(
                connection: &mut $connection,
                request: &$crate::forms_batch::SaveRequest,
            ) -> Result<vitrine_core::forms::SaveOutcome, sqlx::Error> {
                use vitrine_core::forms::SaveOutcome;
                use $crate::forms_statements as sql;
                let submission = &request.submission;
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
                        let id: i64 = sqlx::query_scalar(sql::INSERT_SUBMISSION)
                            .bind(submission.form_id.as_str())
                            .bind(submission.collection_id.as_deref())
                            .bind(submission.object_name.as_str())
                            .bind(submission.is_overlay_form)
                            .bind(submission.values.to_json())
                            .bind(submission.spam)
                            .bind(submission.subscription.as_deref())
                            .bind(submission.created_at)
                            .bind(request.key.as_str())
                            .fetch_one(&mut *connection)
                            .await?;
                        Self::write_follow_up(&mut *connection, id, submission, request.now)
                            .await?;
                        id
                    }
                };
                sqlx::query(sql::LINK_KEY)
                    .bind(id)
                    .bind(request.key.as_str())
                    .execute(&mut *connection)
                    .await?;
                Ok(SaveOutcome::Stored { id })
            }

            /// A whole batch in one transaction with one statement claiming every key and one
            /// inserting every new submission (newsletter signups, which may meet an existing
            /// subscription, are stored one by one). Any failure fails the whole batch, which
            /// is then written submission by submission.
            async fn write_together(
                pool: &$pool,
                batch: &[$crate::forms_batch::Pending],
            ) -> Result<Vec<vitrine_core::forms::SaveOutcome>, sqlx::Error> {
                use std::collections::{HashMap, HashSet};
                use vitrine_core::forms::SaveOutcome;
                use $crate::forms_statements as sql;
                type Db = <$connection as sqlx::Connection>::Database;
                let request = |index: usize| &batch[index].request;
                // A key's first save in the batch leads; a repeat of it (a retry arriving
                // together with the first try) is answered from the leader's claim.
                let mut seen = HashSet::new();
                let leaders: Vec<usize> = (0..batch.len())
                    .filter(|index| seen.insert(request(*index).key.as_str()))
                    .collect();
                let mut tx = pool.begin().await?;
                let mut claim = sqlx::QueryBuilder::<Db>::new(sql::CLAIM_MANY_START);
                claim.push_values(&leaders, |mut row, index| {
                    let request = request(*index);
                    row.push_bind(request.key.as_str().to_owned())
                        .push_bind(request.now)
                        .push_bind(request.fingerprint.clone());
                });
                claim.push(sql::CLAIM_MANY_END);
                let claimed: HashSet<String> = claim
                    .build_query_scalar::<String>()
                    .fetch_all(&mut *tx)
                    .await?
                    .into_iter()
                    .collect();
                let is_claimed = |index: &usize| claimed.contains(request(*index).key.as_str());
                let mut outcomes: Vec<Option<SaveOutcome>> = vec![None; batch.len()];
                let (signups, fresh): (Vec<usize>, Vec<usize>) = leaders
                    .iter()
                    .copied()
                    .filter(is_claimed)
                    .partition(|index| request(*index).submission.subscription.is_some());
                if !fresh.is_empty() {
                    let mut insert = sqlx::QueryBuilder::<Db>::new(sql::INSERT_MANY_START);
                    insert.push_values(&fresh, |mut row, index| {
                        let request = request(*index);
                        let submission = &request.submission;
                        row.push_bind(submission.form_id.clone())
                            .push_bind(submission.collection_id.clone())
                            .push_bind(submission.object_name.clone())
                            .push_bind(submission.is_overlay_form)
                            .push_bind(submission.values.to_json())
                            .push_bind(submission.spam)
                            .push_bind(submission.subscription.clone())
                            .push_bind(submission.created_at)
                            .push_bind(request.key.as_str().to_owned());
                    });
                    insert.push(sql::INSERT_MANY_END);
                    // Rows come back in no promised order; each names its key.
                    let ids: HashMap<String, i64> = insert
                        .build_query_as::<(i64, String)>()
                        .fetch_all(&mut *tx)
                        .await?
                        .into_iter()
                        .map(|(id, key)| (key, id))
                        .collect();
                    for index in fresh {
                        let id = *ids.get(request(index).key.as_str()).ok_or_else(|| {
                            sqlx::Error::Protocol("a stored submission came back without its key".into())
                        })?;
                        let request = request(index);
                        Self::write_follow_up(&mut *tx, id, &request.submission, request.now)
                            .await?;
                        outcomes[index] = Some(SaveOutcome::Stored { id });
                    }
                }
                for index in signups {
                    outcomes[index] = Some(Self::store_claimed(&mut tx, request(index)).await?);
                }
                for (index, outcome) in outcomes.iter_mut().enumerate() {
                    if outcome.is_none() {
                        let request = request(index);
                        *outcome =
                            Some(Self::recall_in(&mut tx, &request.key, &request.fingerprint).await?);
                    }
                }
                // The answers go out only after the commit returns, so an acknowledged
                // submission is on disk.
                tx.commit().await?;
                Ok(outcomes.into_iter().flatten().collect())
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

            /// Writes a batch and answers each caller after its commit: all together when
            /// nothing fails; otherwise in one transaction with a savepoint per submission, so
            /// the one the database refuses fails alone; and when even that transaction fails
            /// as a whole (it could not begin or commit; nothing of it was acknowledged), each
            /// submission in a transaction of its own. A submission that was committed after
            /// all finds its key consumed and is answered as a replay.
            async fn write_batch(pool: $pool, batch: Vec<$crate::forms_batch::Pending>) {
                let answers = match Self::write_together(&pool, &batch).await {
                    Ok(outcomes) => outcomes.into_iter().map(Ok).collect(),
                    Err(error) => {
                        tracing::debug!(%error, size = batch.len(),
                            "a batch of form submissions failed together; saving each apart");
                        Self::write_apart(&pool, &batch).await
                    }
                };
                for (pending, answer) in batch.into_iter().zip(answers) {
                    // A caller that gave up waiting no longer needs its answer.
                    let _ = pending.reply.send(answer);
                }
            }

            async fn write_apart(
                pool: &$pool,
                batch: &[$crate::forms_batch::Pending],
            ) -> Vec<Result<vitrine_core::forms::SaveOutcome, vitrine_core::ports::RepositoryError>>
            {
                let apart = async {
                    let mut tx = pool.begin().await?;
                    let mut outcomes = Vec::with_capacity(batch.len());
                    for pending in batch {
                        outcomes.push(Self::save_in_savepoint(&mut tx, &pending.request).await);
                    }
                    tx.commit().await?;
                    Ok::<_, sqlx::Error>(outcomes)
                }
                .await;
                match apart {
                    Ok(outcomes) => outcomes
                        .into_iter()
                        .map(|outcome| {
                            outcome.map_err($crate::errors::repository_error(
                                "storing a form submission",
                            ))
                        })
                        .collect(),
                    Err(error) => {
                        tracing::warn!(%error, size = batch.len(),
                            "a batch of form submissions failed; saving each on its own");
                        let mut answers = Vec::with_capacity(batch.len());
                        for pending in batch {
                            answers.push(Self::save_alone(pool, &pending.request).await);
                        }
                        answers
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
                let rows: Vec<SubmissionRow> =
                    sqlx::query_as($crate::forms_statements::LIST_SUBMISSIONS)
                        .fetch_all(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error("listing form submissions"))?;
                Ok(rows.into_iter().map(stored_submission).collect())
            }

            async fn page(
                &self,
                query: &vitrine_core::owners::tables::TableQuery,
            ) -> Result<
                vitrine_core::owners::tables::TablePage<vitrine_core::forms::StoredSubmission>,
                vitrine_core::ports::RepositoryError,
            > {
                let (rows, total) = $crate::table_pages::fetch_table_page!(
                    &self.pool,
                    Self::PAGE_SUBMISSIONS,
                    Self::COUNT_SUBMISSIONS,
                    query,
                    SubmissionRow
                )
                .await
                .map_err($crate::errors::repository_error("paging form submissions"))?;
                Ok(vitrine_core::owners::tables::TablePage {
                    rows: rows.into_iter().map(stored_submission).collect(),
                    total,
                })
            }
        }
    };
}

/// A stored submission's columns in the order the listing statements select them.
type SubmissionRow = (i64, String, Option<String>, String, bool, String, bool, i64);

fn stored_submission(
    (id, form_id, collection_id, object_name, is_overlay_form, values_json, spam, created_at): SubmissionRow,
) -> vitrine_core::forms::StoredSubmission {
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
}

impl SqliteFormStore {
    const PAGE_SUBMISSIONS: &str = crate::forms_statements::SQLITE_PAGE_SUBMISSIONS;
    const COUNT_SUBMISSIONS: &str = crate::forms_statements::SQLITE_COUNT_SUBMISSIONS;
    pub(crate) const PAGE_SUBSCRIBERS: &str = crate::outbox_statements::SQLITE_PAGE_SUBSCRIBERS;
    pub(crate) const COUNT_SUBSCRIBERS: &str = crate::outbox_statements::SQLITE_COUNT_SUBSCRIBERS;
}

impl PostgresFormStore {
    const PAGE_SUBMISSIONS: &str = crate::forms_statements::POSTGRES_PAGE_SUBMISSIONS;
    const COUNT_SUBMISSIONS: &str = crate::forms_statements::POSTGRES_COUNT_SUBMISSIONS;
    pub(crate) const PAGE_SUBSCRIBERS: &str = crate::outbox_statements::POSTGRES_PAGE_SUBSCRIBERS;
    pub(crate) const COUNT_SUBSCRIBERS: &str = crate::outbox_statements::POSTGRES_COUNT_SUBSCRIBERS;
}

// SQLite writes one transaction at a time, so one writer; PostgreSQL overlaps a few batches
// (within the pool of 10 connections, leaving most for pages).
sql_form_store!(SqliteFormStore, SqlitePool, sqlx::SqliteConnection, 1);
sql_form_store!(PostgresFormStore, PgPool, sqlx::PgConnection, 3);
