//! Rendering tests: pages of a site that uses every block type, built by the core's page
//! service from an in-memory repository, so they are the views the router really renders.

mod blocks;
mod commerce;
mod document;
mod page_blocks;
mod site;

use std::sync::Arc;

use vitrine_core::pages::{PageService, PageView, Viewer};
use vitrine_core::ports::SiteRepository;
use vitrine_core::ports::memory::MemorySiteRepository;
use vitrine_core::site::Site;

use super::{PageAssets, render_page};

pub(super) const BASE_URL: &str = "https://studio.example";

/// The page at `path` of `site`, as the page service resolves it.
pub(super) fn view_of(site: &Site, path: &str) -> PageView {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a test runtime starts");
    runtime.block_on(async {
        let repository = Arc::new(MemorySiteRepository::new());
        repository
            .replace_site(site)
            .await
            .expect("the site is stored");
        let service = PageService::new(repository);
        service
            .page(path, &Viewer::default())
            .await
            .expect("the page resolves")
    })
}

pub(super) fn assets() -> PageAssets {
    PageAssets {
        stylesheets: vec!["/assets/site-abc123.css".into()],
        module_scripts: vec!["/assets/main-def456.js".into()],
        module_preloads: vec!["/assets/accordion-0a1b2c.js".into()],
    }
}

/// The HTML of the page at `path` of the test site.
pub(super) fn render(path: &str) -> String {
    render_site(&site::studio(), path)
}

pub(super) fn render_site(site: &Site, path: &str) -> String {
    render_page(&view_of(site, path), &assets(), BASE_URL).expect("the page renders")
}

/// Every value of an attribute in document order, e.g. all `id`s.
pub(super) fn attribute_values<'a>(html: &'a str, attribute: &str) -> Vec<&'a str> {
    let needle = format!(" {attribute}=\"");
    html.match_indices(&needle)
        .map(|(start, _)| {
            let value = &html[start + needle.len()..];
            &value[..value.find('"').expect("attribute values are quoted")]
        })
        .collect()
}

/// The element that starts at the first occurrence of `marker` (text inside its start tag),
/// through its matching end tag.
pub(super) fn element_at<'a>(html: &'a str, marker: &str) -> &'a str {
    let found = html
        .find(marker)
        .unwrap_or_else(|| panic!("{marker} is on the page"));
    let start = html[..=found]
        .rfind('<')
        .expect("the marker is inside a start tag");
    let name: String = html[start + 1..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    let (open, close) = (format!("<{name}"), format!("</{name}>"));
    let mut depth = 0usize;
    let mut at = start;
    while at < html.len() {
        let rest = &html[at..];
        if rest.starts_with(&close) {
            depth -= 1;
            if depth == 0 {
                return &html[start..at + close.len()];
            }
            at += close.len();
        } else if rest.starts_with(&open) && rest[open.len()..].starts_with([' ', '>']) {
            depth += 1;
            at += open.len();
        } else {
            at += rest.chars().next().map_or(1, char::len_utf8);
        }
    }
    &html[start..]
}
