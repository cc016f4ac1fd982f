//! The shared state every handler receives: the core's services, the repository port, the
//! built web assets and the adapter's configuration.

use std::sync::Arc;

use vitrine_core::pages::PageService;
use vitrine_core::ports::SiteRepository;

use crate::assets::AssetStore;

/// How this adapter is deployed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpConfig {
    /// The origin visitors reach the site at, e.g. `https://shop.example`; absolute URLs in
    /// `sitemap.xml`, `robots.txt` and page metadata are built from it.
    pub public_base_url: String,
    /// Marks cookies `Secure`; on whenever the site is served over HTTPS.
    pub secure_cookies: bool,
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
        }
    }
}

/// Cloned into every request; each part is behind an `Arc`, so a clone is cheap.
#[derive(Clone)]
pub struct AppState {
    pub(crate) pages: Arc<PageService>,
    pub(crate) repository: Arc<dyn SiteRepository>,
    pub(crate) assets: Arc<AssetStore>,
    pub(crate) config: Arc<HttpConfig>,
}

impl AppState {
    pub fn new(
        pages: Arc<PageService>,
        repository: Arc<dyn SiteRepository>,
        assets: Arc<AssetStore>,
        config: HttpConfig,
    ) -> Self {
        let config = HttpConfig::new(config.public_base_url, config.secure_cookies);
        Self {
            pages,
            repository,
            assets,
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
