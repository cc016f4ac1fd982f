//! The SQLite backend, each test on a fresh database file in its own temporary directory.

use sqlx::{Connection, SqliteConnection};
use tempfile::TempDir;
use vitrine_core::ports::SiteRepository;
use vitrine_core::ports::conformance::fixture_site;
use vitrine_sql::{ConnectError, DatabaseKind, connect, sqlite_url_for_data_dir};

use crate::checks;
use crate::support::TestStore;

/// A migrated, empty database that lives as long as its temporary directory.
type FreshSqlite = TestStore<TempDir>;

pub(crate) async fn fresh() -> FreshSqlite {
    let directory = tempfile::tempdir().unwrap();
    let database = connect(&sqlite_url_for_data_dir(directory.path()))
        .await
        .unwrap();
    database.migrate().await.unwrap();
    TestStore::new(database, directory)
}

vitrine_core::site_repository_conformance!(fresh().await);

/// A second connection to `sqlite`'s file that holds SQLite's write lock (`BEGIN IMMEDIATE`)
/// until it runs `COMMIT`: another writer, as a concurrent request would be.
pub(crate) async fn hold_write_lock(sqlite: &FreshSqlite) -> SqliteConnection {
    let file = sqlite.guard.path().join(vitrine_sql::SQLITE_FILE_NAME);
    let mut holder = SqliteConnection::connect(&format!("sqlite://{}", file.display()))
        .await
        .unwrap();
    sqlx::query("BEGIN IMMEDIATE")
        .execute(&mut holder)
        .await
        .unwrap();
    holder
}

#[tokio::test]
async fn a_failed_replacement_keeps_the_previous_site() {
    checks::a_failed_replacement_keeps_the_previous_site(&fresh().await).await;
}

#[tokio::test]
async fn an_item_outside_any_collection_is_refused() {
    checks::an_item_outside_any_collection_is_refused(&fresh().await).await;
}

#[tokio::test]
async fn migrations_can_run_again() {
    let sqlite = fresh().await;
    checks::migrations_can_run_again(&sqlite.database).await;
}

#[tokio::test]
async fn the_database_file_is_in_wal_mode() {
    let sqlite = fresh().await;
    assert_eq!(sqlite.database.kind(), DatabaseKind::Sqlite);
    sqlite.replace_site(&fixture_site("First")).await.unwrap();

    // WAL mode is recorded in the file itself, so a separate connection that sets nothing
    // reports it too.
    let file = sqlite.guard.path().join(vitrine_sql::SQLITE_FILE_NAME);
    let mut connection = SqliteConnection::connect(&format!("sqlite://{}", file.display()))
        .await
        .unwrap();
    let mode: String = sqlx::query_scalar("PRAGMA journal_mode")
        .fetch_one(&mut connection)
        .await
        .unwrap();
    assert_eq!(mode, "wal");
    connection.close().await.unwrap();
}

/// A write that finds another connection holding SQLite's write lock waits for it (in short
/// pauses, `sqlite_lock_wait`) and lands once the lock is free, instead of failing as locked.
#[tokio::test]
async fn a_write_waits_for_another_connections_write_lock_and_then_lands() {
    let sqlite = fresh().await;
    let mut holder = hold_write_lock(&sqlite).await;

    let repository = sqlite.repository.clone();
    let write = tokio::spawn(async move { repository.replace_site(&fixture_site("Waited")).await });
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    assert!(!write.is_finished(), "the write went past a held lock");

    sqlx::query("COMMIT").execute(&mut holder).await.unwrap();
    write.await.unwrap().unwrap();
    let profile = sqlite.repository.profile().await.unwrap().unwrap();
    assert_eq!(profile.settings.site_title, "Waited");
    holder.close().await.unwrap();
}

#[tokio::test]
async fn a_missing_data_directory_is_created() {
    let parent = tempfile::tempdir().unwrap();
    let data_dir = parent.path().join("not").join("yet");
    let database = connect(&sqlite_url_for_data_dir(&data_dir)).await.unwrap();
    database.migrate().await.unwrap();
    assert!(data_dir.join("vitrine.db").is_file());
    database.close().await;
}

#[tokio::test]
async fn a_data_directory_that_cannot_be_created_is_named_in_the_error() {
    let parent = tempfile::tempdir().unwrap();
    let blocker = parent.path().join("a-file");
    std::fs::write(&blocker, b"not a directory").unwrap();
    let url = sqlite_url_for_data_dir(&blocker.join("data"));

    let error = connect(&url).await.unwrap_err();

    assert!(
        matches!(error, ConnectError::SqliteDirectory { .. }),
        "{error:?}"
    );
    let message = error.to_string();
    assert!(message.contains(&url), "{message}");
    assert!(message.contains("may create directories"), "{message}");
}

#[tokio::test]
async fn an_in_memory_database_keeps_its_content_between_calls() {
    let database = connect("sqlite::memory:").await.unwrap();
    database.migrate().await.unwrap();
    let repository = database.repository();
    repository
        .replace_site(&fixture_site("Memory"))
        .await
        .unwrap();
    let profile = repository.profile().await.unwrap().unwrap();
    assert_eq!(profile.settings.site_title, "Memory");
}

#[tokio::test]
async fn an_unknown_scheme_lists_the_supported_ones_without_the_password() {
    let error = connect("mysql://root:hunter2@localhost/shop")
        .await
        .unwrap_err();

    assert!(
        matches!(error, ConnectError::UnsupportedScheme { .. }),
        "{error:?}"
    );
    let message = error.to_string();
    assert!(
        message.contains("mysql://root:***@localhost/shop"),
        "{message}"
    );
    assert!(!message.contains("hunter2"), "{message}");
    for scheme in ["sqlite:", "sqlite://", "postgres://", "postgresql://"] {
        assert!(message.contains(scheme), "{message} should name {scheme}");
    }
}

#[tokio::test]
async fn a_path_without_a_scheme_is_refused() {
    let error = connect("vitrine.db").await.unwrap_err();
    assert!(
        matches!(error, ConnectError::UnsupportedScheme { .. }),
        "{error:?}"
    );
}
