//! Rendered pages kept in memory until the site changes, so a visit costs a map lookup rather
//! than a render.
//!
//! A cached page is valid for the repository revision it was rendered at. The revision is read
//! from the repository at most once per `recheck_after` (a second by default), so an import by
//! another process sharing the database shows within that time, while a busy server reads the
//! database once a second instead of once a request. Only pages answered 200 are kept, and the
//! cache holds a bounded number of them, so requests for made-up paths cannot grow it.

use std::collections::HashMap;
use std::sync::RwLock;
use std::time::{Duration, Instant};

use axum::body::Bytes;
use vitrine_core::ports::{RepositoryError, SiteRepository};

/// How many pages the cache holds at most; a site has far fewer published pages.
const CAPACITY: usize = 2048;

pub(crate) struct PageCache {
    recheck_after: Duration,
    checked: RwLock<Option<(u64, Instant)>>,
    pages: RwLock<HashMap<String, CachedPage>>,
}

struct CachedPage {
    revision: u64,
    html: Bytes,
}

impl PageCache {
    pub(crate) fn new(recheck_after: Duration) -> Self {
        Self {
            recheck_after,
            checked: RwLock::new(None),
            pages: RwLock::new(HashMap::new()),
        }
    }

    /// The repository's revision, read again when the last reading is older than
    /// `recheck_after`.
    pub(crate) async fn revision(
        &self,
        repository: &dyn SiteRepository,
    ) -> Result<u64, RepositoryError> {
        let last = *self
            .checked
            .read()
            .unwrap_or_else(|poison| poison.into_inner());
        if let Some((revision, at)) = last
            && at.elapsed() < self.recheck_after
        {
            return Ok(revision);
        }
        let revision = repository.revision().await?;
        *self
            .checked
            .write()
            .unwrap_or_else(|poison| poison.into_inner()) = Some((revision, Instant::now()));
        Ok(revision)
    }

    /// The page at `path` rendered at `revision`, if there is one.
    pub(crate) fn get(&self, path: &str, revision: u64) -> Option<Bytes> {
        let pages = self
            .pages
            .read()
            .unwrap_or_else(|poison| poison.into_inner());
        pages
            .get(path)
            .filter(|page| page.revision == revision)
            .map(|page| page.html.clone())
    }

    /// Forgets every page, when something pages show changed outside the site revision
    /// (a new product review).
    pub(crate) fn clear(&self) {
        self.pages
            .write()
            .unwrap_or_else(|poison| poison.into_inner())
            .clear();
    }

    /// Keeps a page rendered at `revision`. Pages of older revisions make room first.
    pub(crate) fn put(&self, path: &str, revision: u64, html: Bytes) {
        let mut pages = self
            .pages
            .write()
            .unwrap_or_else(|poison| poison.into_inner());
        if pages.len() >= CAPACITY && !pages.contains_key(path) {
            pages.retain(|_, page| page.revision == revision);
            if pages.len() >= CAPACITY {
                return;
            }
        }
        pages.insert(path.to_owned(), CachedPage { revision, html });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_is_served_only_at_the_revision_it_was_rendered_at() {
        let cache = PageCache::new(Duration::from_secs(1));
        cache.put("/", 3, Bytes::from_static(b"<p>three</p>"));
        assert_eq!(cache.get("/", 3).as_deref(), Some(&b"<p>three</p>"[..]));
        assert!(cache.get("/", 4).is_none());
        assert!(cache.get("/shop", 3).is_none());
    }

    #[test]
    fn a_full_cache_drops_stale_pages_before_refusing_new_ones() {
        let cache = PageCache::new(Duration::from_secs(1));
        for index in 0..CAPACITY {
            cache.put(&format!("/p{index}"), 1, Bytes::from_static(b"old"));
        }
        cache.put("/fresh", 2, Bytes::from_static(b"new"));
        assert!(cache.get("/fresh", 2).is_some());
        assert!(cache.get("/p0", 1).is_none(), "stale pages made room");

        for index in 0..CAPACITY {
            cache.put(&format!("/q{index}"), 2, Bytes::from_static(b"new"));
        }
        assert!(cache.get("/q0", 2).is_some());
        assert!(
            cache.get(&format!("/q{}", CAPACITY - 1), 2).is_none(),
            "a full cache of current pages refuses more"
        );
    }
}
