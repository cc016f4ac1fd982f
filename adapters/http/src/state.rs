//! The shared state every handler receives: the core's services, the repository port, the
//! built web assets and the adapter's configuration.

use std::sync::Arc;
use std::time::Duration;

use vitrine_core::pages::PageService;
use vitrine_core::ports::SiteRepository;

use crate::assets::AssetStore;
use crate::page_cache::PageCache;

/// How often the page cache asks the repository whether the site changed.
const DEFAULT_REVISION_CHECK: Duration = Duration::from_secs(1);

/// How this adapter is deployed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpConfig {
    /// The origin visitors reach the site at, e.g. `https://shop.example`; absolute URLs in
    /// `sitemap.xml`, `robots.txt` and page metadata are built from it.
    pub public_base_url: String,
    /// Marks cookies `Secure`; on whenever the site is served over HTTPS.
    pub secure_cookies: bool,
    /// How long a rendered page may be served before the cache asks the repository whether
    /// the site changed (an import by another process shows within this time).
    pub revision_check_interval: Duration,
}

impl HttpConfig {
    /// A configuration for `public_base_url`; a trailing slash is dropped so paths can be
    /// appended directly.
    pub fn new(public_base_url: impl Into<String>, secure_cookies: bool) -> Self {
        let mut public_base_url = public_base_url.into();
        while public_base_url.ends_with('/') {
            public_base_url.pop();
        }
        Self {
            public_base_url,
            secure_cookies,
            revision_check_interval: DEFAULT_REVISION_CHECK,
        }
    }

    pub fn with_revision_check_interval(mut self, interval: Duration) -> Self {
        self.revision_check_interval = interval;
        self
    }
}

/// Cloned into every request; each part is behind an `Arc`, so a clone is cheap.
#[derive(Clone)]
pub struct AppState {
    pub(crate) pages: Arc<PageService>,
    pub(crate) repository: Arc<dyn SiteRepository>,
    pub(crate) assets: Arc<AssetStore>,
    pub(crate) config: Arc<HttpConfig>,
    pub(crate) page_cache: Arc<PageCache>,
}

impl AppState {
    pub fn new(
        pages: Arc<PageService>,
        repository: Arc<dyn SiteRepository>,
        assets: Arc<AssetStore>,
        config: HttpConfig,
    ) -> Self {
        let config = HttpConfig::new(config.public_base_url, config.secure_cookies)
            .with_revision_check_interval(config.revision_check_interval);
        Self {
            pages,
            repository,
            assets,
            page_cache: Arc::new(PageCache::new(config.revision_check_interval)),
            config: Arc::new(config),
        }
    }

    pub fn config(&self) -> &HttpConfig {
        &self.config
    }
}

#[cfg(test)]
mod tests {
    use super::HttpConfig;

    #[test]
    fn trailing_slashes_are_dropped_from_the_public_base_url() {
        let config = HttpConfig::new("https://shop.example//", true);
        assert_eq!(config.public_base_url, "https://shop.example");
        assert!(config.secure_cookies);
    }
}
