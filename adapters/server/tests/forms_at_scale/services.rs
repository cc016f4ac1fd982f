//! The shared services the tests need: a fresh PostgreSQL schema and a Redis URL. Without
//! them the tests print a notice and pass on a developer's machine; with `CI=true` they fail.

use sqlx::{AssertSqlSafe, Connection, PgConnection};

fn required(variable: &str, example: &str) -> Option<String> {
    match std::env::var(variable) {
        Ok(value) if !value.trim().is_empty() => Some(value),
        _ if std::env::var("CI").as_deref() == Ok("true") => {
            panic!("{variable} is not set, but CI=true: this test must run in CI (e.g. {example})")
        }
        _ => {
            eprintln!("skipping: {variable} is not set");
            None
        }
    }
}

pub fn redis_url() -> Option<String> {
    required("VITRINE_TEST_REDIS_URL", "redis://127.0.0.1:6379")
}

/// A schema of its own on the test PostgreSQL, dropped when the test ends.
pub struct Schema {
    server_url: String,
    name: String,
    /// The database URL that puts the schema first on the search path.
    pub url: String,
}

impl Schema {
    pub async fn fresh() -> Option<Self> {
        let server_url = required(
            "VITRINE_TEST_POSTGRES_URL",
            "postgres://postgres@127.0.0.1:5432/test",
        )?;
        // Generated here from a UUID, so splicing it into SQL is safe.
        let name = format!("vitrine_scale_{}", uuid::Uuid::new_v4().simple());
        let mut admin = PgConnection::connect(&server_url)
            .await
            .unwrap_or_else(|error| panic!("VITRINE_TEST_POSTGRES_URL cannot be reached: {error}"));
        sqlx::query(AssertSqlSafe(format!("CREATE SCHEMA {name}")))
            .execute(&mut admin)
            .await
            .unwrap();
        admin.close().await.unwrap();
        let separator = if server_url.contains('?') { '&' } else { '?' };
        let url = format!("{server_url}{separator}options=-c%20search_path%3D{name}");
        Some(Self {
            server_url,
            name,
            url,
        })
    }
}

impl Drop for Schema {
    fn drop(&mut self) {
        let (server_url, name) = (self.server_url.clone(), self.name.clone());
        // A destructor cannot await: a short-lived thread with its own runtime drops it.
        let _ = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async {
                if let Ok(mut connection) = PgConnection::connect(&server_url).await {
                    let statement = format!("DROP SCHEMA IF EXISTS {name} CASCADE");
                    let _ = sqlx::query(AssertSqlSafe(statement))
                        .execute(&mut connection)
                        .await;
                }
            });
        })
        .join();
    }
}
