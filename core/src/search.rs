//! Site search (page type 102): which published pages and items answer a visitor's query.
//! Matching ignores case and accents; every word of the query must start a word of the page
//! (its title, description or excerpt, tags, categories or body text); pages whose title
//! holds more of the words rank first, and at most [`MAX_RESULTS`] are answered.

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

use crate::site::{BlockContent, Body, Collection, Item};

/// The longest query a visitor may search for, in characters.
pub const MAX_QUERY_CHARS: usize = 200;
/// The most results a search answers.
pub const MAX_RESULTS: usize = 50;
/// How long a result's excerpt may be, in characters, before it is cut at a word.
const EXCERPT_CHARS: usize = 200;

/// What a query that is too long reads (our text).
pub const QUERY_TOO_LONG: &str = "Your search is too long. Use at most 200 characters.";

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SearchQueryError {
    #[error("{QUERY_TOO_LONG}")]
    TooLong,
}

impl SearchQueryError {
    /// What the visitor reads.
    pub fn message(&self) -> &'static str {
        match self {
            Self::TooLong => QUERY_TOO_LONG,
        }
    }
}

/// A visitor's query: the text as typed (trimmed), and its words folded for matching.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchQuery {
    text: String,
    words: Vec<String>,
}

impl SearchQuery {
    pub fn parse(raw: &str) -> Result<Self, SearchQueryError> {
        let text = raw.trim();
        if text.chars().count() > MAX_QUERY_CHARS {
            return Err(SearchQueryError::TooLong);
        }
        Ok(Self {
            text: text.to_owned(),
            words: words(text),
        })
    }

    /// The query as the visitor typed it, without surrounding spaces.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// A query with no word to look for (empty, or only punctuation) searches nothing.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }
}

/// One searchable page of the site: a layout page, a blog or shop, or one of their items.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchDocument {
    pub path: String,
    pub title: String,
    /// The excerpt or description, shown under the result's link.
    pub description: String,
    /// Tags and categories.
    pub labels: Vec<String>,
    /// The text of its blocks.
    pub body: String,
}

impl SearchDocument {
    /// The page of `collection` itself, found at `path`.
    pub fn of_collection(collection: &Collection, path: String) -> Self {
        let description = [
            collection.description.as_str(),
            collection.seo.description.as_deref().unwrap_or_default(),
        ]
        .into_iter()
        .find(|text| !text.trim().is_empty())
        .unwrap_or_default()
        .to_owned();
        Self {
            path,
            title: collection.title.clone(),
            description,
            labels: Vec::new(),
            body: body_text(&collection.body),
        }
    }

    /// `item` of `collection`, at its own page.
    pub fn of_item(collection: &Collection, item: &Item) -> Self {
        let excerpt = item.excerpt.plain_text();
        let description = if excerpt.is_empty() {
            item.seo.description.clone().unwrap_or_default()
        } else {
            excerpt
        };
        Self {
            path: format!("/{}/{}", collection.slug, item.slug),
            title: item.title.clone(),
            description,
            labels: item.tags.iter().chain(&item.categories).cloned().collect(),
            body: body_text(&item.body),
        }
    }
}

/// One page that answers a query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchResult {
    pub path: String,
    pub title: String,
    pub excerpt: String,
}

/// The documents that hold every word of `query`, those with more of the words in their
/// title first, otherwise in the order given; none for an empty query.
pub fn search(documents: &[SearchDocument], query: &SearchQuery) -> Vec<SearchResult> {
    if query.is_empty() {
        return Vec::new();
    }
    let mut found: Vec<(usize, &SearchDocument)> = documents
        .iter()
        .filter_map(|document| {
            let title = words(&document.title);
            let rest = words(&format!(
                "{} {} {}",
                document.description,
                document.labels.join(" "),
                document.body
            ));
            let in_title = query
                .words
                .iter()
                .filter(|word| starts_a_word(&title, word))
                .count();
            let everywhere = query
                .words
                .iter()
                .all(|word| starts_a_word(&title, word) || starts_a_word(&rest, word));
            everywhere.then_some((in_title, document))
        })
        .collect();
    // A stable sort keeps the site's order among equally ranked pages.
    found.sort_by_key(|(in_title, _)| std::cmp::Reverse(*in_title));
    found
        .into_iter()
        .take(MAX_RESULTS)
        .map(|(_, document)| SearchResult {
            path: document.path.clone(),
            title: document.title.clone(),
            excerpt: excerpt(document),
        })
        .collect()
}

fn starts_a_word(words: &[String], prefix: &str) -> bool {
    words.iter().any(|word| word.starts_with(prefix))
}

/// `text` cut into lowercase words without accents: "Crème brûlée" is `creme`, `brulee`.
fn words(text: &str) -> Vec<String> {
    let folded: String = text
        .nfd()
        .filter(|c| !is_combining_mark(*c))
        .flat_map(char::to_lowercase)
        .collect();
    folded
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The description, or else the start of the body, at most [`EXCERPT_CHARS`] long.
fn excerpt(document: &SearchDocument) -> String {
    let text = if document.description.trim().is_empty() {
        &document.body
    } else {
        &document.description
    };
    if text.chars().count() <= EXCERPT_CHARS {
        return text.clone();
    }
    let cut: String = text.chars().take(EXCERPT_CHARS).collect();
    let at_word = cut.rsplit_once(' ').map_or(cut.as_str(), |(head, _)| head);
    format!("{}…", at_word.trim_end_matches([',', ';', ':', '.', ' ']))
}

/// The words a visitor reads in a page's blocks.
fn body_text(body: &Body) -> String {
    let mut parts: Vec<String> = Vec::new();
    for block in body.layout.blocks() {
        match &block.content {
            BlockContent::Html { html } => parts.push(html.plain_text()),
            BlockContent::Markdown(markdown) => parts.push(markdown.html().plain_text()),
            BlockContent::Menu(menu) => {
                for tab in &menu.tabs {
                    parts.push(tab.title.clone());
                    for section in &tab.sections {
                        parts.push(section.title.clone());
                        for item in &section.items {
                            parts.push(item.name.clone());
                            parts.extend(item.description.clone());
                        }
                    }
                }
            }
            BlockContent::Quote { text, source } => {
                parts.push(text.clone());
                parts.extend(source.clone());
            }
            BlockContent::Image { caption, .. } => parts.extend(caption.clone()),
            BlockContent::Accordion { items, .. } => {
                for item in items {
                    parts.push(item.title.clone());
                    parts.push(item.body.plain_text());
                }
            }
            BlockContent::Newsletter {
                title, description, ..
            } => {
                parts.push(title.clone());
                parts.push(description.clone());
            }
            _ => {}
        }
    }
    parts
        .iter()
        .map(|part| part.trim())
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests;
