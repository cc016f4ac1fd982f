//! The owner's multilingual choice ([`vitrine_core::languages::MultilingualStore`]) in the
//! one-row `site_multilingual` table. Saving moves the site revision on in the same
//! transaction, so every server sharing the database renders its pages again.

use sqlx::{PgPool, SqlitePool};

const SELECT: &str =
    "SELECT published, provider_disconnected FROM site_multilingual WHERE singleton = 1";

const UPSERT: &str = "INSERT INTO site_multilingual (singleton, published, provider_disconnected) \
     VALUES (1, $1, $2) \
     ON CONFLICT (singleton) DO UPDATE SET published = excluded.published, \
     provider_disconnected = excluded.provider_disconnected";

/// The multilingual choice of a SQLite database.
#[derive(Clone)]
pub struct SqliteMultilingualStore {
    pool: SqlitePool,
}

/// The multilingual choice of a PostgreSQL database.
#[derive(Clone)]
pub struct PostgresMultilingualStore {
    pool: PgPool,
}

impl SqliteMultilingualStore {
    pub(crate) fn new(pool: SqlitePool) -> Self {
        Self { pool }
    }
}

impl PostgresMultilingualStore {
    pub(crate) fn new(pool: PgPool) -> Self {
        Self { pool }
    }
}

macro_rules! sql_multilingual_store {
    ($store:ty) => {
        impl std::fmt::Debug for $store {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($store)).finish_non_exhaustive()
            }
        }

        #[async_trait::async_trait]
        impl vitrine_core::languages::MultilingualStore for $store {
            async fn choice(
                &self,
            ) -> Result<
                Option<vitrine_core::languages::MultilingualChoice>,
                vitrine_core::ports::RepositoryError,
            > {
                let row: Option<(Option<String>, bool)> = sqlx::query_as(SELECT)
                    .fetch_optional(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error(
                        "reading the multilingual choice",
                    ))?;
                let Some((published, provider_disconnected)) = row else {
                    return Ok(None);
                };
                let published = published
                    .map(|json| serde_json::from_str(&json))
                    .transpose()
                    .map_err(|error| vitrine_core::ports::RepositoryError::Corrupt {
                        what: "the published languages".to_owned(),
                        reason: error.to_string(),
                    })?;
                Ok(Some(vitrine_core::languages::MultilingualChoice {
                    published,
                    provider_disconnected,
                }))
            }

            async fn save_choice(
                &self,
                choice: &vitrine_core::languages::MultilingualChoice,
            ) -> Result<(), vitrine_core::ports::RepositoryError> {
                use $crate::errors::repository_error;
                let published = match &choice.published {
                    Some(tags) => Some(serde_json::to_string(tags).map_err(|error| {
                        vitrine_core::ports::RepositoryError::Rejected(error.to_string())
                    })?),
                    None => None,
                };
                let mut tx = self
                    .pool
                    .begin()
                    .await
                    .map_err(repository_error("starting to save the multilingual choice"))?;
                sqlx::query(UPSERT)
                    .bind(published)
                    .bind(choice.provider_disconnected)
                    .execute(&mut *tx)
                    .await
                    .map_err(repository_error("writing the multilingual choice"))?;
                sqlx::query($crate::statements::BUMP_REVISION)
                    .execute(&mut *tx)
                    .await
                    .map_err(repository_error("counting the new revision"))?;
                tx.commit()
                    .await
                    .map_err(repository_error("committing the multilingual choice"))
            }
        }
    };
}

sql_multilingual_store!(SqliteMultilingualStore);
sql_multilingual_store!(PostgresMultilingualStore);
