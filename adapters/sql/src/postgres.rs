//! The server backend: a PostgreSQL database shared by several Vitrine processes.

use std::fmt;
use std::str::FromStr;

use sqlx::postgres::{PgConnectOptions, PgConnection, PgPool, PgPoolOptions};
use sqlx::{ConnectOptions, Connection};

use crate::database::{CONNECT_TIMEOUT, ConnectError, MigrateError, STATEMENT_CACHE};
use crate::repository::sql_site_repository;

/// Connections kept per process; pages read a few rows each, so a handful serves many visitors.
const MAX_CONNECTIONS: u32 = 10;

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

/// A [`SiteRepository`](vitrine_core::ports::SiteRepository) stored in a PostgreSQL database.
#[derive(Clone)]
pub struct PostgresSiteRepository {
    pool: PgPool,
}

sql_site_repository!(PostgresSiteRepository);

impl fmt::Debug for PostgresSiteRepository {
    // The pool's own Debug output includes its connect options; this one never shows them,
    // because they hold the password.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PostgresSiteRepository")
            .field("connections", &self.pool.size())
            .finish_non_exhaustive()
    }
}

impl PostgresSiteRepository {
    /// Connects to the server at `url`; `shown_url` (password hidden) is what errors print.
    pub(crate) async fn open(url: &str, shown_url: &str) -> Result<Self, ConnectError> {
        let options = PgConnectOptions::from_str(url)
            .map_err(|error| ConnectError::InvalidUrl {
                url: shown_url.to_owned(),
                reason: error.to_string(),
            })?
            // sqlx would log every statement at INFO, burying the request log; failures are
            // reported through the errors instead.
            .disable_statement_logging()
            // Group-committed form submissions use one statement text per batch size (up to
            // 256, twice); room for them and the rest keeps every one prepared once.
            .statement_cache_capacity(STATEMENT_CACHE);

        // The pool retries refused connections until its timeout and then reports only that
        // it timed out. One direct attempt first keeps the real reason (refused, unknown
        // database, authentication failed) for the message.
        let unreachable = |reason: String| ConnectError::PostgresUnreachable {
            url: shown_url.to_owned(),
            reason,
        };
        let probe = tokio::time::timeout(CONNECT_TIMEOUT, PgConnection::connect_with(&options))
            .await
            .map_err(|_| unreachable(format!("no answer within {CONNECT_TIMEOUT:?}")))?
            .map_err(|error| unreachable(error.to_string()))?;
        probe
            .close()
            .await
            .map_err(|error| unreachable(error.to_string()))?;

        let pool = PgPoolOptions::new()
            .max_connections(MAX_CONNECTIONS)
            .acquire_timeout(CONNECT_TIMEOUT)
            .connect_lazy_with(options);
        Ok(Self { pool })
    }

    pub(crate) async fn migrate(&self, shown_url: &str) -> Result<(), MigrateError> {
        MIGRATOR
            .run(&self.pool)
            .await
            .map_err(|error| MigrateError::new(shown_url, error))
    }

    /// The pool, for the other stores that share this database (forms).
    pub(crate) fn pool(&self) -> &PgPool {
        &self.pool
    }

    pub(crate) async fn close(&self) {
        self.pool.close().await;
    }
}
