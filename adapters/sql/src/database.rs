//! Choosing and opening a database from its URL, applying its migrations, and the errors
//! both steps report to the person starting Vitrine.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use vitrine_core::ports::SiteRepository;

use crate::postgres::PostgresSiteRepository;
use crate::sqlite::SqliteSiteRepository;
use crate::urls::hide_password;

/// Prepared statements each connection keeps: the site's queries plus the group-commit
/// statements of the form store, one text per batch size.
pub(crate) const STATEMENT_CACHE: usize = 640;

/// How long opening a database, or waiting for a free connection, may take.
pub(crate) const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Why a database could not be opened. Every message names the URL with its password hidden
/// and says what to check.
#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    #[error(
        "the database URL '{url}' is not supported: use sqlite:PATH or sqlite://PATH for the \
         embedded SQLite database, or postgres://USER:PASSWORD@HOST:PORT/DATABASE \
         (postgresql:// also works) for a PostgreSQL server"
    )]
    UnsupportedScheme { url: String },
    #[error("the database URL '{url}' is malformed: {reason}")]
    InvalidUrl { url: String, reason: String },
    #[error(
        "cannot create the directory '{directory}' for the SQLite database {url}: {reason}. \
         Check that the data directory's parent exists and that the user running Vitrine may \
         create directories there"
    )]
    SqliteDirectory {
        url: String,
        directory: String,
        reason: String,
    },
    #[error(
        "cannot open the SQLite database {url}: {reason}. Check that its directory exists and \
         that the user running Vitrine may create and write files in it"
    )]
    SqliteUnavailable { url: String, reason: String },
    #[error(
        "cannot connect to the PostgreSQL database {url}: {reason}. Check that the server is \
         running and listening on that host and port, and that the user and the database exist \
         and accept this login"
    )]
    PostgresUnreachable { url: String, reason: String },
}

/// Why the schema migrations could not be applied.
#[derive(Debug, thiserror::Error)]
#[error("cannot apply the database migrations to {url}: {reason}")]
pub struct MigrateError {
    url: String,
    reason: String,
}

impl MigrateError {
    pub(crate) fn new(shown_url: &str, error: sqlx::migrate::MigrateError) -> Self {
        Self {
            url: shown_url.to_owned(),
            reason: error.to_string(),
        }
    }
}

/// Which database engine a [`Database`] uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DatabaseKind {
    Sqlite,
    Postgres,
}

impl fmt::Display for DatabaseKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Sqlite => "SQLite",
            Self::Postgres => "PostgreSQL",
        })
    }
}

/// An open database: a connection pool to SQLite or PostgreSQL and the repositories on it.
pub struct Database {
    /// The URL with its password hidden: what logs and errors show.
    url: String,
    backend: Backend,
}

enum Backend {
    Sqlite(SqliteSiteRepository),
    Postgres(PostgresSiteRepository),
}

/// Opens the database `url` names; see [`Database::connect`].
pub async fn connect(url: &str) -> Result<Database, ConnectError> {
    Database::connect(url).await
}

/// One store of either backend, built from the backend's pool and any further arguments.
macro_rules! per_backend {
    ($database:expr, $sqlite:path, $postgres:path $(, $argument:expr)*) => {
        match &$database.backend {
            Backend::Sqlite(repository) => {
                Arc::new($sqlite(repository.pool().clone() $(, $argument)*))
            }
            Backend::Postgres(repository) => {
                Arc::new($postgres(repository.pool().clone() $(, $argument)*))
            }
        }
    };
}

/// The ports one SQL form store serves beside the form store itself.
trait FollowUpStore:
    vitrine_core::forms::DeliveryOutbox + vitrine_core::forms::NewsletterSubscriptions
{
}

impl<T> FollowUpStore for T where
    T: vitrine_core::forms::DeliveryOutbox + vitrine_core::forms::NewsletterSubscriptions
{
}

/// The ports one SQL analytics store serves.
trait CensusStore:
    vitrine_core::analytics::AnalyticsStore + vitrine_core::consent::ConsentReceiptStore
{
}

impl<T> CensusStore for T where
    T: vitrine_core::analytics::AnalyticsStore + vitrine_core::consent::ConsentReceiptStore
{
}

impl Database {
    /// Opens the database `url` names, choosing the engine by its scheme: `sqlite:PATH` or
    /// `sqlite://PATH` (the file and its directory are created when missing), `postgres://`
    /// or `postgresql://`. The database is reached once before this returns, so an unreachable
    /// one is reported here rather than on the first page view.
    pub async fn connect(url: &str) -> Result<Self, ConnectError> {
        let shown = hide_password(url);
        let Some(scheme) = scheme(url) else {
            return Err(ConnectError::UnsupportedScheme { url: shown });
        };
        // sqlx expects the scheme in lowercase; people may well type `SQLite:`.
        let url = format!("{scheme}{}", &url[scheme.len()..]);
        let backend = match scheme.as_str() {
            "sqlite" => Backend::Sqlite(SqliteSiteRepository::open(&url, &shown).await?),
            "postgres" | "postgresql" => {
                Backend::Postgres(PostgresSiteRepository::open(&url, &shown).await?)
            }
            _ => return Err(ConnectError::UnsupportedScheme { url: shown }),
        };
        Ok(Self {
            url: shown,
            backend,
        })
    }

    /// Applies the migrations this build carries that the database has not seen yet. Running
    /// it again changes nothing.
    pub async fn migrate(&self) -> Result<(), MigrateError> {
        match &self.backend {
            Backend::Sqlite(repository) => repository.migrate(&self.url).await,
            Backend::Postgres(repository) => repository.migrate(&self.url).await,
        }
    }

    /// The site repository stored in this database; clones share the connection pool.
    pub fn repository(&self) -> Arc<dyn SiteRepository> {
        match &self.backend {
            Backend::Sqlite(repository) => Arc::new(repository.clone()),
            Backend::Postgres(repository) => Arc::new(repository.clone()),
        }
    }

    /// The form store (submission keys and submissions) of this database, group-committing
    /// concurrent submissions; clones share the connection pool and the writer.
    pub fn form_store(&self) -> Arc<dyn vitrine_core::forms::FormStore> {
        self.form_store_with(crate::SubmissionWrites::default())
    }

    /// The form store, writing submissions as `writes` says (the benchmark compares both).
    pub fn form_store_with(
        &self,
        writes: crate::SubmissionWrites,
    ) -> Arc<dyn vitrine_core::forms::FormStore> {
        per_backend!(
            self,
            crate::forms::SqliteFormStore::new,
            crate::forms::PostgresFormStore::new,
            writes
        )
    }

    /// The commerce store (carts, stock and orders) of this database; clones share the
    /// connection pool.
    pub fn commerce_store(&self) -> Arc<dyn vitrine_core::checkout::CommerceStore> {
        per_backend!(
            self,
            crate::cart_store::SqliteCommerceStore::new,
            crate::cart_store::PostgresCommerceStore::new
        )
    }

    /// Orders' refunds and fulfilment, beside the commerce store's orders and stock of this
    /// database; clones share the connection pool.
    pub fn order_aftercare_store(&self) -> Arc<dyn vitrine_core::checkout::OrderAftercareStore> {
        per_backend!(
            self,
            crate::cart_store::SqliteCommerceStore::new,
            crate::cart_store::PostgresCommerceStore::new
        )
    }

    /// The contribution store (donations) of this database; clones share the connection
    /// pool.
    pub fn contribution_store(&self) -> Arc<dyn vitrine_core::checkout::ContributionStore> {
        per_backend!(
            self,
            crate::contribution_store::SqliteContributionStore::new,
            crate::contribution_store::PostgresContributionStore::new
        )
    }

    /// The renewal store (subscriptions as renewals change them, and the claim of each
    /// renewal attempt) of this database; clones share the connection pool.
    pub fn renewal_store(&self) -> Arc<dyn vitrine_core::checkout::RenewalStore> {
        per_backend!(
            self,
            crate::renewal_store::SqliteRenewalStore::new,
            crate::renewal_store::PostgresRenewalStore::new
        )
    }

    /// The people store (site-user accounts, mailed tokens, sessions and their saved data)
    /// of this database; clones share the connection pool.
    pub fn people_store(&self) -> Arc<dyn vitrine_core::people::PeopleStore> {
        per_backend!(
            self,
            crate::people_store::SqlitePeopleStore::new,
            crate::people_store::PostgresPeopleStore::new
        )
    }

    /// The owner's header and footer in this database; clones share the connection pool.
    pub fn header_footer_store(&self) -> Arc<dyn vitrine_core::header_footer::HeaderFooterStore> {
        per_backend!(
            self,
            crate::header_footer_store::SqliteHeaderFooterStore::new,
            crate::header_footer_store::PostgresHeaderFooterStore::new
        )
    }

    /// The owner's multilingual choice in this database; clones share the connection pool.
    pub fn multilingual_store(&self) -> Arc<dyn vitrine_core::languages::MultilingualStore> {
        per_backend!(
            self,
            crate::multilingual_store::SqliteMultilingualStore::new,
            crate::multilingual_store::PostgresMultilingualStore::new
        )
    }

    /// The owner store (owner accounts, setup links, owner sessions and API keys) of this
    /// database; clones share the connection pool.
    pub fn owner_store(&self) -> Arc<dyn vitrine_core::owners::OwnerStore> {
        per_backend!(
            self,
            crate::owner_store::SqliteOwnerStore::new,
            crate::owner_store::PostgresOwnerStore::new
        )
    }

    /// The review store (review requests and product reviews) of this database; clones
    /// share the connection pool.
    pub fn review_store(&self) -> Arc<dyn vitrine_core::reviews::ReviewStore> {
        per_backend!(
            self,
            crate::review_store::SqliteReviewStore::new,
            crate::review_store::PostgresReviewStore::new
        )
    }

    /// The delivery outbox of this database: the deliveries the form store writes with each
    /// submission, for the delivery worker.
    pub fn delivery_outbox(&self) -> Arc<dyn vitrine_core::forms::DeliveryOutbox> {
        self.follow_up_store()
    }

    /// The newsletter subscribers of this database, for the confirmation and unsubscribe
    /// pages.
    pub fn newsletter_subscriptions(
        &self,
    ) -> Arc<dyn vitrine_core::forms::NewsletterSubscriptions> {
        self.follow_up_store()
    }

    /// The form store's tables of what follows a submission (deliveries, subscribers), read
    /// and written outside a submission, so without the group-commit writer.
    fn follow_up_store(&self) -> Arc<dyn FollowUpStore> {
        per_backend!(
            self,
            crate::forms::SqliteFormStore::new,
            crate::forms::PostgresFormStore::new,
            crate::SubmissionWrites::PerSubmission
        )
    }

    /// The analytics store (census rows and daily figures) of this database; clones share the
    /// connection pool.
    pub fn analytics_store(&self) -> Arc<dyn vitrine_core::analytics::AnalyticsStore> {
        self.census_store()
    }

    /// The consent receipt store of this database; clones share the connection pool.
    pub fn consent_receipt_store(&self) -> Arc<dyn vitrine_core::consent::ConsentReceiptStore> {
        self.census_store()
    }

    /// The analytics tables, which hold the consent receipts too.
    fn census_store(&self) -> Arc<dyn CensusStore> {
        per_backend!(
            self,
            crate::analytics::SqliteAnalyticsStore::new,
            crate::analytics::PostgresAnalyticsStore::new
        )
    }

    pub fn kind(&self) -> DatabaseKind {
        match &self.backend {
            Backend::Sqlite(_) => DatabaseKind::Sqlite,
            Backend::Postgres(_) => DatabaseKind::Postgres,
        }
    }

    /// The URL this database was opened with, password hidden.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Closes every connection, waiting for those in use to come back. For SQLite this also
    /// folds the write-ahead log back into the database file.
    pub async fn close(&self) {
        match &self.backend {
            Backend::Sqlite(repository) => repository.close().await,
            Backend::Postgres(repository) => repository.close().await,
        }
    }
}

impl fmt::Debug for Database {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Database")
            .field("kind", &self.kind())
            .field("url", &self.url)
            .finish()
    }
}

/// The URL's scheme in lowercase, when it has one.
fn scheme(url: &str) -> Option<String> {
    let (scheme, _) = url.split_once(':')?;
    let valid = !scheme.is_empty()
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    valid.then(|| scheme.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::scheme;

    #[test]
    fn schemes_are_read_case_insensitively() {
        assert_eq!(scheme("sqlite:vitrine.db").as_deref(), Some("sqlite"));
        assert_eq!(scheme("SQLite://x.db").as_deref(), Some("sqlite"));
        assert_eq!(scheme("postgresql://h/db").as_deref(), Some("postgresql"));
        assert_eq!(scheme("vitrine.db"), None);
        assert_eq!(scheme("C:\\data\\vitrine.db").as_deref(), Some("c"));
    }
}
