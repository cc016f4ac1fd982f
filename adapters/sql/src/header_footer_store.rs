//! The owner's header and footer ([`vitrine_core::header_footer::HeaderFooterStore`]) in the
//! one-row `site_header_footer` table. A replacement moves the site revision on in the same
//! transaction, so every server sharing the database renders its pages again within its next
//! revision check. Both backends share the statements and, through a macro, the method bodies.

use sqlx::{PgPool, SqlitePool};

const SELECT: &str = "SELECT header, footer FROM site_header_footer WHERE singleton = 1";

const UPSERT: &str = "INSERT INTO site_header_footer (singleton, header, footer) \
     VALUES (1, $1, $2) \
     ON CONFLICT (singleton) DO UPDATE SET header = excluded.header, footer = excluded.footer";

/// The header and footer of a SQLite database.
#[derive(Clone)]
pub struct SqliteHeaderFooterStore {
    pool: SqlitePool,
}

/// The header and footer of a PostgreSQL database.
#[derive(Clone)]
pub struct PostgresHeaderFooterStore {
    pool: PgPool,
}

impl SqliteHeaderFooterStore {
    pub(crate) fn new(pool: SqlitePool) -> Self {
        Self { pool }
    }
}

impl PostgresHeaderFooterStore {
    pub(crate) fn new(pool: PgPool) -> Self {
        Self { pool }
    }
}

macro_rules! sql_header_footer_store {
    ($store:ty) => {
        impl std::fmt::Debug for $store {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($store)).finish_non_exhaustive()
            }
        }

        #[async_trait::async_trait]
        impl vitrine_core::header_footer::HeaderFooterStore for $store {
            async fn header_footer(
                &self,
            ) -> Result<
                Option<vitrine_core::header_footer::HeaderFooter>,
                vitrine_core::ports::RepositoryError,
            > {
                let row: Option<(String, String)> = sqlx::query_as(SELECT)
                    .fetch_optional(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error(
                        "reading the header and footer",
                    ))?;
                // Stored HTML is cleaned again as it is read, like all owner HTML.
                Ok(row.map(
                    |(header, footer)| vitrine_core::header_footer::HeaderFooter {
                        header: vitrine_core::site::SafeHtml::from(header),
                        footer: vitrine_core::site::SafeHtml::from(footer),
                    },
                ))
            }

            async fn replace_header_footer(
                &self,
                value: &vitrine_core::header_footer::HeaderFooter,
            ) -> Result<(), vitrine_core::ports::RepositoryError> {
                use $crate::errors::repository_error;
                let mut tx = self.pool.begin().await.map_err(repository_error(
                    "starting to replace the header and footer",
                ))?;
                sqlx::query(UPSERT)
                    .bind(value.header.as_str())
                    .bind(value.footer.as_str())
                    .execute(&mut *tx)
                    .await
                    .map_err(repository_error("writing the header and footer"))?;
                sqlx::query($crate::statements::BUMP_REVISION)
                    .execute(&mut *tx)
                    .await
                    .map_err(repository_error("counting the new revision"))?;
                tx.commit()
                    .await
                    .map_err(repository_error("committing the header and footer"))
            }
        }
    };
}

sql_header_footer_store!(SqliteHeaderFooterStore);
sql_header_footer_store!(PostgresHeaderFooterStore);
