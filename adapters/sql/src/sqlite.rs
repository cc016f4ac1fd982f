//! The embedded backend: one SQLite file in the data directory, opened in WAL mode.

use std::fmt;
use std::path::Path;
use std::str::FromStr;

use sqlx::sqlite::{
    SqliteConnectOptions, SqliteConnection, SqliteJournalMode, SqlitePool, SqlitePoolOptions,
    SqliteSynchronous,
};
use sqlx::{ConnectOptions, Connection};

use crate::database::{CONNECT_TIMEOUT, ConnectError, MigrateError, STATEMENT_CACHE};
use crate::repository::sql_site_repository;
use crate::sqlite_lock_wait::{self, BUSY_TIMEOUT};

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");

/// A [`SiteRepository`](vitrine_core::ports::SiteRepository) stored in a SQLite database.
#[derive(Clone)]
pub struct SqliteSiteRepository {
    pool: SqlitePool,
}

sql_site_repository!(SqliteSiteRepository);

impl fmt::Debug for SqliteSiteRepository {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SqliteSiteRepository")
            .field("connections", &self.pool.size())
            .finish_non_exhaustive()
    }
}

impl SqliteSiteRepository {
    /// Opens (creating when missing) the database at `url`; `shown_url` is what errors print.
    pub(crate) async fn open(url: &str, shown_url: &str) -> Result<Self, ConnectError> {
        let options = SqliteConnectOptions::from_str(url)
            .map_err(|error| ConnectError::InvalidUrl {
                url: shown_url.to_owned(),
                reason: error.to_string(),
            })?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            // FULL syncs the WAL at every commit, so a commit that returned (an acknowledged
            // form submission, an order) survives power loss too; group commit keeps the
            // number of commits, and so of syncs, low under load.
            .synchronous(SqliteSynchronous::Full)
            .foreign_keys(true)
            .busy_timeout(BUSY_TIMEOUT)
            // sqlx would log every statement at INFO, burying the request log; failures are
            // reported through the errors instead.
            .disable_statement_logging()
            // Group-committed form submissions use one statement text per batch size (up to
            // 256, twice); room for them and the rest keeps every one prepared once.
            .statement_cache_capacity(STATEMENT_CACHE);
        let in_memory = is_in_memory(url);
        if !in_memory {
            create_parent_directory(options.get_filename(), shown_url)?;
        }

        // One connection is opened straight away, without the pool's retries, so that a file
        // that cannot be opened is reported now with SQLite's own reason.
        let unavailable = |reason: String| ConnectError::SqliteUnavailable {
            url: shown_url.to_owned(),
            reason,
        };
        let first = tokio::time::timeout(CONNECT_TIMEOUT, SqliteConnection::connect_with(&options))
            .await
            .map_err(|_| unavailable(format!("no answer within {CONNECT_TIMEOUT:?}")))?
            .map_err(|error| unavailable(error.to_string()))?;
        let pool_options = SqlitePoolOptions::new()
            .acquire_timeout(CONNECT_TIMEOUT)
            // Waits for the write lock in short pauses instead of SQLite's long ones.
            .after_connect(|connection, _| Box::pin(sqlite_lock_wait::install(connection)));
        // An in-memory database lives only as long as one of its connections, so the pool
        // must never close its last one; and connections sharing it lock whole tables without
        // honouring the busy timeout, so one connection serves every caller in turn.
        let pool_options = if in_memory {
            pool_options
                .max_connections(1)
                .min_connections(1)
                .idle_timeout(None)
                .max_lifetime(None)
        } else {
            pool_options
        };
        let pool = pool_options.connect_lazy_with(options);
        // The pool opens its own first connection before the probe closes, so that an
        // in-memory database is never left without a connection (which would discard it).
        drop(
            pool.acquire()
                .await
                .map_err(|error| unavailable(error.to_string()))?,
        );
        first
            .close()
            .await
            .map_err(|error| unavailable(error.to_string()))?;
        Ok(Self { pool })
    }

    pub(crate) async fn migrate(&self, shown_url: &str) -> Result<(), MigrateError> {
        MIGRATOR
            .run(&self.pool)
            .await
            .map_err(|error| MigrateError::new(shown_url, error))
    }

    /// The pool, for the other stores that share this database (forms).
    pub(crate) fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    pub(crate) async fn close(&self) {
        self.pool.close().await;
    }
}

fn is_in_memory(url: &str) -> bool {
    url.contains(":memory:") || url.contains("mode=memory")
}

/// Creates the directory the database file lives in, so that a fresh data directory works
/// without a separate setup step.
fn create_parent_directory(file: &Path, shown_url: &str) -> Result<(), ConnectError> {
    let Some(directory) = file.parent().filter(|d| !d.as_os_str().is_empty()) else {
        return Ok(());
    };
    std::fs::create_dir_all(directory).map_err(|error| ConnectError::SqliteDirectory {
        url: shown_url.to_owned(),
        directory: directory.display().to_string(),
        reason: error.to_string(),
    })
}

/// The lookups migration 0024 indexes find their rows through the index, not by a scan of
/// the whole table (SQLite's plan; PostgreSQL chooses by its statistics, and the twin
/// migration creates the same indexes there).
#[cfg(test)]
mod query_plans {
    use super::SqliteSiteRepository;

    /// A migrated, empty database in memory.
    async fn migrated() -> SqliteSiteRepository {
        let repository = SqliteSiteRepository::open("sqlite::memory:", "memory")
            .await
            .unwrap();
        repository.migrate("memory").await.unwrap();
        repository
    }

    /// SQLite's plan for `statement`, one line per step.
    async fn plan(repository: &SqliteSiteRepository, statement: &str) -> String {
        let rows: Vec<(i64, i64, i64, String)> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "EXPLAIN QUERY PLAN {statement}"
        )))
        .fetch_all(&repository.pool)
        .await
        .unwrap();
        rows.into_iter()
            .map(|(_, _, _, step)| step)
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[tokio::test]
    async fn address_and_exposure_lookups_use_their_indexes() {
        let repository = migrated().await;
        let orders = plan(&repository, crate::cart_statements::ORDERS_PLACED_BETWEEN).await;
        assert!(orders.contains("orders_email_lower"), "{orders}");
        let donations = plan(&repository, crate::contribution_store::MADE_BETWEEN).await;
        assert!(
            donations.contains("contributions_email_lower"),
            "{donations}"
        );
        let letters = plan(&repository, crate::outbox_statements::SUBSCRIPTIONS_OF).await;
        assert!(
            letters.contains("newsletter_subscribers_email_lower"),
            "{letters}"
        );
        let exposures = plan(&repository, crate::analytics_statements::EXPOSURE_COUNTS).await;
        assert!(
            exposures.contains("analytics_events_visitor_kind_time"),
            "{exposures}"
        );
        // Migration 0046 dropped the `(kind, ...)` indexes the dashboard no longer reads;
        // the exposures themselves are still found by kind and subject, not by a scan.
        assert!(
            exposures.contains("SEARCH e USING INDEX analytics_events_kind_subject_day_value"),
            "{exposures}"
        );
    }

    /// A percentile reads its bucket's values day by day, each day from the bucket's lower
    /// bound, rather than every value of the range (on a year of 10 million page views, ten
    /// times the rows for 30 days).
    #[tokio::test]
    async fn a_percentile_seeks_its_bucket_in_each_day_of_the_range() {
        use crate::analytics_statements as statements;
        let repository = migrated().await;
        let range = vitrine_core::analytics::DayRange::custom(20_389, 20_418).unwrap();
        let statement = format!(
            "{}{}{}",
            statements::NTH_VALUE_IN_BUCKET,
            statements::range_days(range),
            statements::NTH_VALUE_ORDER
        );
        let bucket_read = plan(&repository, &statement).await;
        assert!(
            bucket_read.contains(
                "analytics_events_kind_subject_day_value (kind=? AND subject=? AND day=? AND \
                 metric_value>?)"
            ),
            "{bucket_read}"
        );
    }
}
