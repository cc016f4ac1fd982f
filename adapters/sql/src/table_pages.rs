//! What every owner's table shares on SQL (issue 18 §3): the search clause, the page and the
//! count of the rows it matches. The search is `$1`, a `LIKE` pattern escaped with a
//! backslash (`TableQuery::like_pattern`) or null for every row; a page is `$2` rows from row
//! `$3`. SQLite's `LIKE` ignores the case of ASCII letters; PostgreSQL needs `ILIKE`, which
//! ignores the case of every letter.

/// ` FROM $table WHERE $1 IS NULL OR column LIKE $1 ESCAPE '\' OR ...` for the searched
/// columns, with `LIKE` or `ILIKE` as given.
macro_rules! matching_any {
    ($from:literal, $like:literal, $first:literal $(, $column:literal)* $(,)?) => {
        concat!(
            " FROM ", $from, " WHERE $1 IS NULL OR ", $first, " ", $like, " $1 ESCAPE '\\'"
            $(, " OR ", $column, " ", $like, " $1 ESCAPE '\\'")*
        )
    };
}
pub(crate) use matching_any;

/// Reads one page of a table and the count of the rows its search matches: `$page` selects
/// rows of type `$row` (binding the pattern, the limit and the offset), `$count` counts them
/// (binding the pattern). An `async` block answering `(rows, total)` or the sqlx error.
macro_rules! fetch_table_page {
    ($pool:expr, $page:expr, $count:expr, $query:expr, $row:ty) => {
        async {
            let query: &vitrine_core::owners::tables::TableQuery = $query;
            let pattern = query.like_pattern();
            let rows: Vec<$row> = sqlx::query_as($page)
                .bind(pattern.as_deref())
                .bind(i64::from(query.limit()))
                .bind(i64::try_from(query.offset()).unwrap_or(i64::MAX))
                .fetch_all($pool)
                .await?;
            let (total,): (i64,) = sqlx::query_as($count)
                .bind(pattern.as_deref())
                .fetch_one($pool)
                .await?;
            Ok::<_, sqlx::Error>((rows, u64::try_from(total).unwrap_or_default()))
        }
    };
}
pub(crate) use fetch_table_page;
