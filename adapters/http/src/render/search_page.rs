//! The main content of the search page (page type 102): a search form that works without
//! JavaScript, and the pages that answer the query as links with their excerpts.

use askama::Template;
use vitrine_core::search::{MAX_QUERY_CHARS, SearchResult};

/// What a search that found nothing reads (our text).
pub(crate) fn no_results_text(query: &str) -> String {
    format!("No results for \u{201c}{query}\u{201d}.")
}

/// How many pages a search found (our text).
fn found_text(count: usize, query: &str) -> String {
    let noun = if count == 1 { "result" } else { "results" };
    format!("{count} {noun} for \u{201c}{query}\u{201d}.")
}

#[derive(Debug, Clone, Template)]
#[template(path = "commerce/search.html", whitespace = "minimize")]
pub(crate) struct SearchMain {
    /// The query as typed, kept in the field.
    pub(crate) query: String,
    pub(crate) max_chars: usize,
    /// Why the query could not be searched.
    pub(crate) error: Option<&'static str>,
    /// How many pages were found; none before a search.
    pub(crate) summary: Option<String>,
    pub(crate) results: Vec<SearchResult>,
}

impl SearchMain {
    /// The form alone, holding `query`: before a search, or with `error` when it was refused.
    pub(crate) fn form(query: &str, error: Option<&'static str>) -> Self {
        Self {
            query: query.to_owned(),
            max_chars: MAX_QUERY_CHARS,
            error,
            summary: None,
            results: Vec::new(),
        }
    }

    /// The form holding `query` over what the search found.
    pub(crate) fn answered(query: &str, results: Vec<SearchResult>) -> Self {
        let summary = if results.is_empty() {
            no_results_text(query)
        } else {
            found_text(results.len(), query)
        };
        Self {
            summary: Some(summary),
            results,
            ..Self::form(query, None)
        }
    }
}
