//! A PostgreSQL schema of its own for one bench run, on the server of
//! `VITRINE_TEST_POSTGRES_URL`, dropped at the end, so a bench never touches another run's
//! tables.

use sqlx::Connection;
use vitrine_sql::Database;

/// The bench's database inside its schema, and the connection that drops the schema.
pub struct BenchSchema {
    pub database: Database,
    admin: sqlx::PgConnection,
    schema: String,
}

/// A fresh schema named after `name` and this process on `server`.
pub async fn open(server: &str, name: &str) -> BenchSchema {
    let schema = format!("vitrine_{name}_{}", std::process::id());
    let mut admin = sqlx::PgConnection::connect(server)
        .await
        .expect("PostgreSQL is reachable");
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE SCHEMA {schema}")))
        .execute(&mut admin)
        .await
        .expect("a bench schema");
    let separator = if server.contains('?') { '&' } else { '?' };
    let database = Database::connect(&format!(
        "{server}{separator}options=-c%20search_path%3D{schema}"
    ))
    .await
    .expect("PostgreSQL opens");
    BenchSchema {
        database,
        admin,
        schema,
    }
}

impl BenchSchema {
    /// `VACUUM ANALYZE` of every table of the database, the bench's schema's included.
    #[allow(
        dead_code,
        reason = "only the benches that write a year of rows vacuum"
    )]
    pub async fn vacuum_analyze(&mut self) {
        sqlx::query("VACUUM ANALYZE")
            .execute(&mut self.admin)
            .await
            .expect("the bench's tables are vacuumed");
    }

    /// Closes the database and drops the schema with everything the bench wrote.
    pub async fn drop(mut self) {
        self.database.close().await;
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "DROP SCHEMA {} CASCADE",
            self.schema
        )))
        .execute(&mut self.admin)
        .await
        .expect("the bench schema is dropped");
    }
}
