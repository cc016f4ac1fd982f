//! The PostgreSQL backend, each test in a fresh schema of the database named by
//! `VITRINE_TEST_POSTGRES_URL`.
//!
//! Without that variable the tests print a notice and pass, so that `cargo test` works on a
//! machine without PostgreSQL; in CI (`CI=true`) they fail instead, so a missing service
//! cannot turn the suite silently green.

use sqlx::{AssertSqlSafe, Connection, PgConnection};
use vitrine_sql::{ConnectError, DatabaseKind, connect};

use crate::checks;
use crate::support::TestStore;

const URL_VARIABLE: &str = "VITRINE_TEST_POSTGRES_URL";

/// The server URL to test against, or `None` (after saying so) when none is configured.
fn server_url() -> Option<String> {
    match std::env::var(URL_VARIABLE) {
        Ok(url) if !url.trim().is_empty() => Some(url),
        _ if std::env::var("CI").as_deref() == Ok("true") => panic!(
            "{URL_VARIABLE} is not set, but CI=true: the PostgreSQL tests must run in CI. Set it \
             to a database the tests may create schemas in, e.g. \
             postgres://postgres@127.0.0.1:5432/test"
        ),
        _ => {
            eprintln!("skipping a PostgreSQL test: {URL_VARIABLE} is not set");
            None
        }
    }
}

/// A migrated, empty schema of its own, dropped again when the test ends.
type FreshPostgres = TestStore<Schema>;

/// A schema created for one test.
pub(crate) struct Schema {
    server_url: String,
    name: String,
}

impl Drop for Schema {
    // Dropping needs a connection, which needs async, which a destructor cannot await; a
    // short-lived thread with its own runtime does the work. A failure only leaves an empty
    // schema behind, so it is reported and otherwise ignored.
    fn drop(&mut self) {
        let server_url = self.server_url.clone();
        let statement = format!("DROP SCHEMA IF EXISTS {} CASCADE", self.name);
        let outcome = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()?;
            runtime.block_on(async {
                let mut connection = PgConnection::connect(&server_url).await?;
                sqlx::query(AssertSqlSafe(statement))
                    .execute(&mut connection)
                    .await?;
                connection.close().await?;
                Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
            })
        })
        .join();
        if let Ok(Err(error)) = outcome {
            eprintln!("could not drop the test schema {}: {error}", self.name);
        }
    }
}

pub(crate) async fn fresh() -> Option<FreshPostgres> {
    let (url, schema) = empty_schema().await?;
    let database = connect(&url).await.unwrap();
    database.migrate().await.unwrap();
    Some(TestStore::new(database, schema))
}

/// A schema of its own with no table in it yet, and the URL whose connections use it;
/// dropped again when the guard goes.
pub(crate) async fn empty_schema() -> Option<(String, Schema)> {
    let server_url = server_url()?;
    // The name is generated here from a UUID, so splicing it into SQL is safe.
    let schema = format!("vitrine_test_{}", uuid::Uuid::new_v4().simple());
    let mut admin = PgConnection::connect(&server_url)
        .await
        .unwrap_or_else(|error| panic!("{URL_VARIABLE} cannot be reached: {error}"));
    sqlx::query(AssertSqlSafe(format!("CREATE SCHEMA {schema}")))
        .execute(&mut admin)
        .await
        .unwrap();
    admin.close().await.unwrap();

    // Every connection of the pool starts with the schema first on its search path, through
    // the `options` parameter PostgreSQL applies at login.
    let separator = if server_url.contains('?') { '&' } else { '?' };
    let url = format!("{server_url}{separator}options=-c%20search_path%3D{schema}");
    Some((
        url,
        Schema {
            server_url,
            name: schema,
        },
    ))
}

vitrine_core::site_repository_conformance!(match fresh().await {
    Some(database) => database,
    None => return,
});

#[tokio::test]
async fn a_failed_replacement_keeps_the_previous_site() {
    let Some(postgres) = fresh().await else {
        return;
    };
    checks::a_failed_replacement_keeps_the_previous_site(&postgres).await;
}

#[tokio::test]
async fn an_item_outside_any_collection_is_refused() {
    let Some(postgres) = fresh().await else {
        return;
    };
    checks::an_item_outside_any_collection_is_refused(&postgres).await;
}

#[tokio::test]
async fn migrations_can_run_again() {
    let Some(postgres) = fresh().await else {
        return;
    };
    assert_eq!(postgres.database.kind(), DatabaseKind::Postgres);
    checks::migrations_can_run_again(&postgres.database).await;
}

#[tokio::test]
async fn the_tables_live_in_the_tests_own_schema() {
    let Some(postgres) = fresh().await else {
        return;
    };
    let mut connection = PgConnection::connect(&postgres.guard.server_url)
        .await
        .unwrap();
    let tables: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = $1",
    )
    .bind(&postgres.guard.name)
    .fetch_one(&mut connection)
    .await
    .unwrap();
    connection.close().await.unwrap();
    // website, collections, items, media, site_revision and sqlx's record of applied
    // migrations, plus the tables later migrations add (forms and others).
    assert!(tables >= 6, "only {tables} tables in the test's schema");
}

/// Needs no server: nothing listens on port 1.
#[tokio::test]
async fn an_unreachable_server_is_named_with_the_password_hidden() {
    let error = connect("postgres://vitrine:s3cret-pw@127.0.0.1:1/shop")
        .await
        .unwrap_err();

    assert!(
        matches!(error, ConnectError::PostgresUnreachable { .. }),
        "{error:?}"
    );
    let message = error.to_string();
    assert!(
        message.contains("postgres://vitrine:***@127.0.0.1:1/shop"),
        "{message}"
    );
    assert!(!message.contains("s3cret-pw"), "{message}");
    assert!(message.contains("running and listening"), "{message}");
    assert!(
        message.contains("the user and the database exist"),
        "{message}"
    );
}
