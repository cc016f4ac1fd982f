//! Rendered pages kept in memory until the site changes, so a visit costs a map lookup rather
//! than a render.
//!
//! A cached page is valid for the repository revision it was rendered at. The revision is read
//! from the repository at most once per `recheck_after` (a second by default), so an import by
//! another process sharing the database shows within that time, while a busy server reads the
//! database once a second instead of once a request. Only pages answered 200 are kept, and the
//! cache holds a bounded number of them, so requests for made-up paths cannot grow it.
//!
//! The day bounds it as well: a page is valid only on the day (by the page service's clock, in
//! UTC) it was rendered on, since what a page shows may follow the date (the calendar block
//! opens on the current month). Each page is thus rendered again once a day at most.
//!
//! Block plugins bound a page's life too: a page is valid only for the plugins' generation it
//! was rendered with (a plugin reloaded in development renders again), and no longer than the
//! shortest `cache-seconds` a plugin rendering on it asked for (an event list that must drop
//! past events).
//!
//! A product page keeps what a view of it tells the ad pixel beside its HTML, so a visit
//! served from the cache fires its ViewContent like a rendered one.
//!
//! Each page keeps its brotli and gzip copies and their entity tags beside the HTML. They are
//! made once, on the blocking pool, when the page first enters the cache; until they are
//! attached (a few milliseconds) the page goes out as HTML for the router's layer to compress.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::http::HeaderValue;
use vitrine_core::ports::{RepositoryError, SiteRepository};
use vitrine_core::site::SiteProfile;

use crate::shared::conversion_events::ViewedProduct;
use crate::shared::encoding::{Encoding, Representations};
use crate::shared::entity_tag::entity_tag;

/// How many pages the cache holds at most; a site has far fewer published pages.
const CAPACITY: usize = 2048;

pub(crate) struct PageCache {
    recheck_after: Duration,
    checked: RwLock<Option<(u64, Instant)>>,
    pages: RwLock<HashMap<String, CachedPage>>,
    /// The site's profile at a revision, so deciding a page's experiments before the cache
    /// lookup costs no database read.
    profile: RwLock<Option<(u64, Arc<SiteProfile>)>>,
}

struct CachedPage {
    version: Version,
    expires: Option<Instant>,
    page: Page,
}

/// A rendered page: its HTML, its compressed copies once made, for a product page the product
/// a view of it shows, and its `Cache-Control` (how long a shared cache in front may keep it),
/// made once when the page is cached rather than on every visit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Page {
    pub(crate) html: Bytes,
    pub(crate) encoded: Option<Arc<EncodedPage>>,
    pub(crate) viewed: Option<Arc<ViewedProduct>>,
    pub(crate) cache_control: HeaderValue,
    /// The other origins the page's blocks load from, for its Content-Security-Policy.
    pub(crate) third_parties: Arc<crate::render::ThirdPartySources>,
}

/// A page's representations and the strong entity tag of each: different bytes, different tag.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct EncodedPage {
    body: Representations,
    identity_tag: HeaderValue,
    brotli_tag: HeaderValue,
    gzip_tag: HeaderValue,
}

impl EncodedPage {
    /// Compresses `html` at the best settings and hashes every copy: run it on the blocking pool.
    pub(crate) fn new(html: Bytes) -> Self {
        let body = Representations::compressed(html);
        // A hex digest in quotes is always a valid header value.
        let tag = |encoding| {
            HeaderValue::from_str(&entity_tag(body.bytes(encoding)))
                .unwrap_or_else(|_| HeaderValue::from_static("\"\""))
        };
        Self {
            identity_tag: tag(Encoding::Identity),
            brotli_tag: tag(Encoding::Brotli),
            gzip_tag: tag(Encoding::Gzip),
            body,
        }
    }

    /// The copy a client with this `Accept-Encoding` gets, with its encoding and entity tag.
    pub(crate) fn negotiate(
        &self,
        accept_encoding: Option<&str>,
    ) -> (Encoding, &Bytes, &HeaderValue) {
        let (encoding, bytes) = self.body.negotiate(accept_encoding);
        let tag = match encoding {
            Encoding::Brotli => &self.brotli_tag,
            Encoding::Gzip => &self.gzip_tag,
            Encoding::Identity => &self.identity_tag,
        };
        (encoding, bytes, tag)
    }
}

/// What a cached page was rendered from: the site's revision, the plugins' generation and the
/// day (by the page service's clock) it was rendered on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Version {
    pub(crate) revision: u64,
    pub(crate) plugins: u64,
    /// Days since the Unix epoch, in UTC; `None` without a clock. A page made yesterday is
    /// made again today, so a calendar never opens on last month after midnight.
    pub(crate) day: Option<i64>,
}

/// The UTC day of a moment in milliseconds since the Unix epoch.
pub(crate) fn day_of(millis: i64) -> i64 {
    millis.div_euclid(86_400_000)
}

impl PageCache {
    pub(crate) fn new(recheck_after: Duration) -> Self {
        Self {
            recheck_after,
            checked: RwLock::new(None),
            pages: RwLock::new(HashMap::new()),
            profile: RwLock::new(None),
        }
    }

    /// The site's profile at `revision`, read from the repository once per revision; none when
    /// there is no site or it cannot be read.
    pub(crate) async fn profile(
        &self,
        revision: u64,
        repository: &dyn SiteRepository,
    ) -> Option<Arc<SiteProfile>> {
        if let Some(profile) = self.kept_profile(revision) {
            return Some(profile);
        }
        let profile = Arc::new(repository.profile().await.ok().flatten()?);
        *self
            .profile
            .write()
            .unwrap_or_else(|poison| poison.into_inner()) = Some((revision, Arc::clone(&profile)));
        Some(profile)
    }

    /// The repository's revision, read again when the last reading is older than
    /// `recheck_after`.
    pub(crate) async fn revision(
        &self,
        repository: &dyn SiteRepository,
    ) -> Result<u64, RepositoryError> {
        if let Some(revision) = self.fresh_revision() {
            return Ok(revision);
        }
        let revision = repository.revision().await?;
        *self
            .checked
            .write()
            .unwrap_or_else(|poison| poison.into_inner()) = Some((revision, Instant::now()));
        Ok(revision)
    }

    /// The profile kept for `revision`, without reading the repository.
    pub(crate) fn kept_profile(&self, revision: u64) -> Option<Arc<SiteProfile>> {
        self.profile
            .read()
            .unwrap_or_else(|poison| poison.into_inner())
            .as_ref()
            .filter(|(at, _)| *at == revision)
            .map(|(_, profile)| Arc::clone(profile))
    }

    /// The last reading of the revision while it is younger than `recheck_after`, without
    /// reading the repository.
    pub(crate) fn fresh_revision(&self) -> Option<u64> {
        self.checked
            .read()
            .unwrap_or_else(|poison| poison.into_inner())
            .filter(|(_, at)| at.elapsed() < self.recheck_after)
            .map(|(revision, _)| revision)
    }

    /// The page at `path` rendered at `version`, if there is one and it has not expired.
    pub(crate) fn get(&self, path: &str, version: Version) -> Option<Page> {
        let pages = self
            .pages
            .read()
            .unwrap_or_else(|poison| poison.into_inner());
        let now = Instant::now();
        pages
            .get(path)
            .filter(|page| page.version == version)
            .filter(|page| page.expires.is_none_or(|expires| now < expires))
            .map(|cached| cached.page.clone())
    }

    /// Forgets every page, when something pages show changed outside the site revision
    /// (a new product review).
    pub(crate) fn clear(&self) {
        self.pages
            .write()
            .unwrap_or_else(|poison| poison.into_inner())
            .clear();
    }

    /// Keeps a page rendered at `version`, for at most `seconds` when given. Pages of older
    /// versions make room first. True when the page was stored; false when it was not, or when
    /// a valid copy rendered by a concurrent visit is there already (which is kept, with its
    /// compressed copies, so each page is compressed once).
    pub(crate) fn put(
        &self,
        path: &str,
        version: Version,
        page: Page,
        seconds: Option<u32>,
    ) -> bool {
        if seconds == Some(0) {
            return false;
        }
        let now = Instant::now();
        let expires = seconds.map(|seconds| now + Duration::from_secs(seconds.into()));
        let valid = |page: &CachedPage| {
            page.version == version && page.expires.is_none_or(|expires| now < expires)
        };
        let mut pages = self
            .pages
            .write()
            .unwrap_or_else(|poison| poison.into_inner());
        match pages.get(path) {
            Some(cached) if valid(cached) => return false,
            Some(_) => {}
            None if pages.len() >= CAPACITY => {
                pages.retain(|_, page| valid(page));
                if pages.len() >= CAPACITY {
                    return false;
                }
            }
            None => {}
        }
        pages.insert(
            path.to_owned(),
            CachedPage {
                version,
                expires,
                page,
            },
        );
        true
    }

    /// Adds the compressed copies to the page at `path`, if it is still the page they were made
    /// from.
    pub(crate) fn attach(&self, path: &str, version: Version, encoded: EncodedPage) {
        let mut pages = self
            .pages
            .write()
            .unwrap_or_else(|poison| poison.into_inner());
        if let Some(cached) = pages.get_mut(path)
            && cached.version == version
            && cached.page.html == encoded.body.original()
        {
            cached.page.encoded = Some(Arc::new(encoded));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A page that tells the ad pixel nothing.
    fn page(html: &'static [u8]) -> Page {
        Page {
            html: Bytes::from_static(html),
            encoded: None,
            viewed: None,
            cache_control: HeaderValue::from_static("public, max-age=0"),
            third_parties: Arc::default(),
        }
    }

    fn at(revision: u64) -> Version {
        Version {
            revision,
            plugins: 0,
            day: Some(20_000),
        }
    }

    #[test]
    fn days_turn_at_utc_midnight() {
        assert_eq!(day_of(86_399_999), 0);
        assert_eq!(day_of(86_400_000), 1);
        assert_eq!(day_of(-1), -1);
    }

    #[test]
    fn a_page_is_served_only_at_the_revision_it_was_rendered_at() {
        let cache = PageCache::new(Duration::from_secs(1));
        cache.put("/", at(3), page(b"<p>three</p>"), None);
        assert_eq!(
            cache.get("/", at(3)).map(|page| page.html).as_deref(),
            Some(&b"<p>three</p>"[..])
        );
        assert!(cache.get("/", at(4)).is_none());
        assert!(cache.get("/shop", at(3)).is_none());
    }

    #[test]
    fn reloaded_plugins_and_plugin_lifetimes_end_a_pages_reuse() {
        let cache = PageCache::new(Duration::from_secs(1));
        cache.put("/", at(3), page(b"a"), None);
        let reloaded = Version {
            plugins: 1,
            ..at(3)
        };
        assert!(cache.get("/", reloaded).is_none());
        let tomorrow = Version {
            day: Some(20_001),
            ..at(3)
        };
        assert!(
            cache.get("/", tomorrow).is_none(),
            "a new day renders again"
        );

        cache.put("/events", at(3), page(b"soon"), Some(3600));
        assert!(cache.get("/events", at(3)).is_some(), "within its lifetime");
        cache.put("/now", at(3), page(b"now"), Some(0));
        assert!(
            cache.get("/now", at(3)).is_none(),
            "zero seconds is never reused"
        );
        cache.put("/expired", at(3), page(b"old"), Some(1));
        if let Some(page) = cache.pages.write().unwrap().get_mut("/expired") {
            page.expires = Some(Instant::now());
        }
        assert!(cache.get("/expired", at(3)).is_none(), "past its lifetime");
    }

    #[test]
    fn a_full_cache_drops_stale_pages_before_refusing_new_ones() {
        let cache = PageCache::new(Duration::from_secs(1));
        for index in 0..CAPACITY {
            cache.put(&format!("/p{index}"), at(1), page(b"old"), None);
        }
        cache.put("/fresh", at(2), page(b"new"), None);
        assert!(cache.get("/fresh", at(2)).is_some());
        assert!(cache.get("/p0", at(1)).is_none(), "stale pages made room");

        for index in 0..CAPACITY {
            cache.put(&format!("/q{index}"), at(2), page(b"new"), None);
        }
        assert!(cache.get("/q0", at(2)).is_some());
        assert!(
            cache.get(&format!("/q{}", CAPACITY - 1), at(2)).is_none(),
            "a full cache of current pages refuses more"
        );
    }

    #[test]
    fn a_page_is_stored_once_per_version_and_keeps_its_compressed_copies() {
        const HTML: &[u8] = b"<p>hello hello hello hello hello hello hello hello hello</p>";
        let cache = PageCache::new(Duration::from_secs(1));
        assert!(cache.put("/", at(1), page(HTML), None));
        assert!(
            !cache.put("/", at(1), page(HTML), None),
            "a concurrent render of the same version is not stored again"
        );

        cache.attach(
            "/",
            at(1),
            EncodedPage::new(Bytes::from_static(b"<p>other</p>")),
        );
        assert!(
            cache.get("/", at(1)).unwrap().encoded.is_none(),
            "copies of other HTML are not attached"
        );
        cache.attach("/", at(1), EncodedPage::new(Bytes::from_static(HTML)));
        let encoded = cache.get("/", at(1)).unwrap().encoded.unwrap();
        let (encoding, bytes, brotli_tag) = encoded.negotiate(Some("gzip, br"));
        assert_eq!(encoding, Encoding::Brotli);
        assert!(bytes.len() < HTML.len());
        let (_, original, identity_tag) = encoded.negotiate(None);
        assert_eq!(original.as_ref(), HTML);
        assert_ne!(brotli_tag, identity_tag);

        assert!(cache.put("/", at(2), page(HTML), None), "a new revision");
        assert!(cache.get("/", at(2)).unwrap().encoded.is_none());
    }
}
