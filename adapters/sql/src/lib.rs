//! SQL adapters of the core's ports: the embedded SQLite database (the default) and
//! PostgreSQL, through sqlx.
//!
//! [`connect`] chooses the engine from the URL, [`Database::migrate`] brings the schema up to
//! date, and [`Database::repository`] hands out the [`SiteRepository`] the core's services use.
//! sqlx's types and errors stay inside this crate: reads and writes fail with the core's
//! [`RepositoryError`], opening a database with [`ConnectError`].
//!
//! [`SiteRepository`]: vitrine_core::ports::SiteRepository
//! [`RepositoryError`]: vitrine_core::ports::RepositoryError

mod analytics;
mod analytics_statements;
mod cart_statements;
mod cart_store;
mod contribution_store;
mod database;
mod errors;
mod failed_orders;
mod forms;
mod forms_batch;
mod forms_statements;
mod gift_cards;
mod header_footer_store;
mod multilingual_store;
mod order_aftercare;
mod order_erasure;
mod order_follow_up;
mod outbox;
mod outbox_statements;
mod owner_statements;
mod owner_store;
mod payment_claims;
mod people_statements;
mod people_store;
mod postgres;
mod renewal_store;
mod repository;
mod review_statements;
mod review_store;
mod rows;
mod sqlite;
mod sqlite_lock_wait;
mod statements;
mod subscription_rows;
mod table_pages;
mod urls;

pub use analytics::{PostgresAnalyticsStore, SqliteAnalyticsStore};
pub use cart_store::{PostgresCommerceStore, SqliteCommerceStore};
pub use contribution_store::{PostgresContributionStore, SqliteContributionStore};
pub use database::{ConnectError, Database, DatabaseKind, MigrateError, connect};
pub use forms::{PostgresFormStore, SqliteFormStore};
pub use forms_batch::SubmissionWrites;
pub use header_footer_store::{PostgresHeaderFooterStore, SqliteHeaderFooterStore};
pub use multilingual_store::{PostgresMultilingualStore, SqliteMultilingualStore};
pub use owner_store::{PostgresOwnerStore, SqliteOwnerStore};
pub use people_store::{PostgresPeopleStore, SqlitePeopleStore};
pub use postgres::PostgresSiteRepository;
pub use review_store::{PostgresReviewStore, SqliteReviewStore};
pub use sqlite::SqliteSiteRepository;
pub use urls::{SQLITE_FILE_NAME, hide_password, sqlite_url_for_data_dir};
