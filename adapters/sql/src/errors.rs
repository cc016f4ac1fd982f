//! Translation of sqlx's errors into the core's [`RepositoryError`], so that no sqlx type
//! crosses the port.

use sqlx::error::ErrorKind;
use vitrine_core::ports::RepositoryError;

/// Names the operation that failed in the translated error, because sqlx's own messages
/// ("no such table", "UNIQUE constraint failed: items.id") do not say what was being done.
pub(crate) fn repository_error(doing: &'static str) -> impl FnOnce(sqlx::Error) -> RepositoryError {
    move |error| translate(doing, error)
}

fn translate(doing: &str, error: sqlx::Error) -> RepositoryError {
    match error {
        // A broken constraint means the data offered was inconsistent (two items with one id,
        // an item in a collection that does not exist), not that the store is down.
        sqlx::Error::Database(database_error)
            if !matches!(database_error.kind(), ErrorKind::Other) =>
        {
            RepositoryError::Rejected(format!("{doing}: {}", database_error.message()))
        }
        sqlx::Error::ColumnDecode { .. }
        | sqlx::Error::Decode(_)
        | sqlx::Error::ColumnNotFound(_)
        | sqlx::Error::ColumnIndexOutOfBounds { .. }
        | sqlx::Error::TypeNotFound { .. } => RepositoryError::Corrupt {
            what: doing.to_owned(),
            reason: error.to_string(),
        },
        other => RepositoryError::Unavailable(format!("{doing}: {other}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decoding_failures_are_corrupt_data_and_the_rest_is_unavailability() {
        let corrupt =
            repository_error("reading an item")(sqlx::Error::ColumnNotFound("slug".into()));
        assert!(
            matches!(&corrupt, RepositoryError::Corrupt { what, reason }
                if what == "reading an item" && reason.contains("slug")),
            "{corrupt:?}"
        );
        let closed = repository_error("reading an item")(sqlx::Error::PoolClosed);
        assert!(
            matches!(&closed, RepositoryError::Unavailable(message)
                if message.starts_with("reading an item: ")),
            "{closed:?}"
        );
    }
}
