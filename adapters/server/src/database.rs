//! Opening the configured database and bringing its schema up to date.

use anyhow::Context;
use vitrine_sql::Database;

use crate::cli::DatabaseArgs;

/// The database URL the arguments name: `--database-url`, or the embedded SQLite file in the
/// data directory.
pub fn database_url(args: &DatabaseArgs) -> String {
    match &args.database_url {
        Some(url) => url.clone(),
        None => vitrine_sql::sqlite_url_for_data_dir(&args.data_dir),
    }
}

/// Opens the database and applies pending migrations.
pub async fn open(args: &DatabaseArgs) -> anyhow::Result<Database> {
    let url = database_url(args);
    let database = vitrine_sql::connect(&url).await.with_context(
        || "could not open the database; set another with --database-url or VITRINE_DATABASE_URL",
    )?;
    database.migrate().await.with_context(|| {
        format!(
            "could not bring the {} database {} up to date; it may belong to a newer Vitrine",
            database.kind(),
            database.url()
        )
    })?;
    tracing::info!(database = database.url(), kind = %database.kind(), "database ready");
    Ok(database)
}
