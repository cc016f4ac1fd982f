//! The page and search of an owner's table, as every table store answers it: a page of
//! [`TABLE_PAGE_SIZE`] rows (or an export of up to [`MAX_EXPORT_ROWS`]), newest first, of the
//! rows containing the search text, with how many rows match in all.
//!
//! A search matches a row when one of its searched columns contains the text. Letters are
//! compared without case: SQLite's `LIKE` and the in-memory stores fold ASCII letters only,
//! PostgreSQL's `ILIKE` folds every letter, so "É" finds "é" on PostgreSQL alone; text typed
//! as it was stored is found everywhere.

/// Rows on one page of a table.
pub const TABLE_PAGE_SIZE: u32 = 25;
/// The longest search text, in characters.
pub const MAX_SEARCH_CHARS: usize = 100;
/// The most rows one CSV export holds; an owner with more narrows the export with a search.
pub const MAX_EXPORT_ROWS: u32 = 100_000;

/// Why a table's page or search was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableQueryError {
    #[error("Pages are numbered from 1.")]
    PageZero,
    #[error("Search for at most {MAX_SEARCH_CHARS} characters.")]
    SearchTooLong,
}

/// A page of a table and the text searched for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableQuery {
    search: Option<String>,
    offset: u64,
    limit: u32,
}

impl TableQuery {
    /// Page `page` (from 1) of the rows matching `search`; a blank search is none.
    pub fn page(search: Option<&str>, page: u32) -> Result<Self, TableQueryError> {
        if page == 0 {
            return Err(TableQueryError::PageZero);
        }
        Ok(Self {
            search: Self::search_text(search)?,
            offset: u64::from(page - 1) * u64::from(TABLE_PAGE_SIZE),
            limit: TABLE_PAGE_SIZE,
        })
    }

    /// Every row matching `search`, up to [`MAX_EXPORT_ROWS`], for an export.
    pub fn export(search: Option<&str>) -> Result<Self, TableQueryError> {
        Ok(Self {
            search: Self::search_text(search)?,
            offset: 0,
            limit: MAX_EXPORT_ROWS,
        })
    }

    fn search_text(search: Option<&str>) -> Result<Option<String>, TableQueryError> {
        let Some(text) = search.map(str::trim).filter(|text| !text.is_empty()) else {
            return Ok(None);
        };
        if text.chars().count() > MAX_SEARCH_CHARS {
            return Err(TableQueryError::SearchTooLong);
        }
        Ok(Some(text.to_owned()))
    }

    pub fn search(&self) -> Option<&str> {
        self.search.as_deref()
    }

    /// The page number, from 1.
    pub fn page_number(&self) -> u32 {
        u32::try_from(self.offset / u64::from(self.limit.max(1))).unwrap_or(u32::MAX - 1) + 1
    }

    pub fn offset(&self) -> u64 {
        self.offset
    }

    pub fn limit(&self) -> u32 {
        self.limit
    }

    /// The search as a `LIKE` pattern with `\` as its escape character: the text with `%`,
    /// `_` and `\` escaped, between two `%`. None without a search.
    pub fn like_pattern(&self) -> Option<String> {
        let text = self.search.as_deref()?;
        let mut pattern = String::with_capacity(text.len() + 2);
        pattern.push('%');
        for c in text.chars() {
            if matches!(c, '%' | '_' | '\\') {
                pattern.push('\\');
            }
            pattern.push(c);
        }
        pattern.push('%');
        Some(pattern)
    }

    /// Whether a row with these searched columns matches, as the SQL stores decide it: true
    /// without a search, else when one column contains the text, ASCII letters without case.
    pub fn matches(&self, columns: &[&str]) -> bool {
        let Some(text) = self.search.as_deref() else {
            return true;
        };
        let wanted = text.to_ascii_lowercase();
        columns
            .iter()
            .any(|column| column.to_ascii_lowercase().contains(&wanted))
    }

    /// The page of `matching` (every matching row, newest first) this query asks for: what
    /// the in-memory stores answer.
    pub fn cut<T>(&self, matching: Vec<T>) -> TablePage<T> {
        let total = matching.len() as u64;
        let rows = matching
            .into_iter()
            .skip(usize::try_from(self.offset).unwrap_or(usize::MAX))
            .take(self.limit as usize)
            .collect();
        TablePage { rows, total }
    }
}

/// One page of a table's rows and how many rows match the search in all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TablePage<T> {
    pub rows: Vec<T>,
    pub total: u64,
}

impl<T> TablePage<T> {
    /// How many pages of [`TABLE_PAGE_SIZE`] the matching rows fill; 1 when none match.
    pub fn page_count(&self) -> u32 {
        let pages = self.total.div_ceil(u64::from(TABLE_PAGE_SIZE)).max(1);
        u32::try_from(pages).unwrap_or(u32::MAX)
    }

    pub fn map<U>(self, f: impl FnMut(T) -> U) -> TablePage<U> {
        TablePage {
            rows: self.rows.into_iter().map(f).collect(),
            total: self.total,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_count_from_one_and_blank_searches_are_none() {
        assert_eq!(TableQuery::page(None, 0), Err(TableQueryError::PageZero));
        let query = TableQuery::page(Some("   "), 3).unwrap();
        assert_eq!(query.search(), None);
        assert_eq!(query.offset(), 50);
        assert_eq!(query.limit(), TABLE_PAGE_SIZE);
        assert_eq!(query.page_number(), 3);
    }

    #[test]
    fn a_search_longer_than_the_limit_is_refused() {
        let long = "a".repeat(MAX_SEARCH_CHARS + 1);
        assert_eq!(
            TableQuery::page(Some(&long), 1),
            Err(TableQueryError::SearchTooLong)
        );
        assert!(TableQuery::export(Some(&"é".repeat(MAX_SEARCH_CHARS))).is_ok());
    }

    #[test]
    fn like_patterns_escape_the_wildcards() {
        let query = TableQuery::page(Some(" 50%_off\\ "), 1).unwrap();
        assert_eq!(query.like_pattern().as_deref(), Some("%50\\%\\_off\\\\%"));
        assert_eq!(TableQuery::page(None, 1).unwrap().like_pattern(), None);
    }

    #[test]
    fn matching_ignores_ascii_case_and_takes_any_column() {
        let query = TableQuery::page(Some("ADA"), 1).unwrap();
        assert!(query.matches(&["x", "ada@example.com"]));
        assert!(!query.matches(&["grace@example.com"]));
        assert!(TableQuery::page(None, 1).unwrap().matches(&[]));
    }

    #[test]
    fn a_cut_takes_the_asked_page_and_counts_all() {
        let query = TableQuery::page(None, 2).unwrap();
        let page = query.cut((0..60).collect::<Vec<_>>());
        assert_eq!(page.total, 60);
        assert_eq!(page.rows.first(), Some(&25));
        assert_eq!(page.rows.len(), 25);
        assert_eq!(page.page_count(), 3);
        assert_eq!(
            TablePage::<u8> {
                rows: vec![],
                total: 0
            }
            .page_count(),
            1
        );
    }
}
