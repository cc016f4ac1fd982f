//! The shared state every handler receives: the core's services, the repository port, the
//! built web assets and the adapter's configuration.

use std::sync::Arc;
use std::time::Duration;

use vitrine_core::cart::StoreRules;
use vitrine_core::checkout::{CartService, InMemoryCommerceStore};
use vitrine_core::forms::memory::{MemoryFormStore, MemoryRateLimiter};
use vitrine_core::forms::{FormService, RateLimiter};
use vitrine_core::pages::PageService;
use vitrine_core::plugins::{BlockRenderer, InMemoryBlockRenderer};
use vitrine_core::ports::SiteRepository;

use vitrine_core::analytics::{AnalyticsStore, MemoryAnalyticsStore};
use vitrine_core::consent::{ConsentReceiptStore, MemoryConsentReceiptStore};

use crate::assets::AssetStore;
use crate::pages::cache::PageCache;
use crate::render::pool::{DEFAULT_RENDER_QUEUE, RenderPool, default_render_workers};
use crate::shared::census_log::CensusLog;

/// How often the page cache asks the repository whether the site changed.
const DEFAULT_REVISION_CHECK: Duration = Duration::from_secs(1);
/// Above a checkout's worst case (three attempts of 20 s at the payment provider, 1.5 s
/// apart), so a payment is never cut off midway, while a request stuck on a dead dependency
/// still frees its place.
const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(75);
/// Far above what two cores serve at once, so only a flood meets it.
const DEFAULT_CONCURRENCY_LIMIT: usize = 1024;

/// How this adapter is deployed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpConfig {
    /// The origin visitors reach the site at, e.g. `https://shop.example`; absolute URLs in
    /// `sitemap.xml`, `robots.txt` and page metadata are built from it.
    pub public_base_url: String,
    /// The site is served over TLS (directly or by a proxy in front): cookies are `Secure`,
    /// the crumb is `__Host-crumb`, and responses carry `Strict-Transport-Security`. Off only
    /// for plain-HTTP development (`vitrine serve --plain-http`).
    pub secure_cookies: bool,
    /// How long a rendered page may be served before the cache asks the repository whether
    /// the site changed (an import by another process shows within this time).
    pub revision_check_interval: Duration,
    /// How many proxies in front of the server append to `X-Forwarded-For`; 0 (the default)
    /// ignores the header (`client_address.rs`).
    pub trusted_proxies: u8,
    /// Rate limits on state-changing requests per client address and per visitor.
    pub request_limits: crate::RequestLimits,
    /// Tighter limits on checkout entry, coupon and donation attempts (`attempt_limits.rs`).
    pub attempt_limits: crate::RequestLimits,
    /// How long a request may take before it answers 503.
    pub request_timeout: Duration,
    /// Requests served at once; more answer 503 at once rather than queue.
    pub concurrency_limit: usize,
}

impl HttpConfig {
    /// A configuration for `public_base_url`; a trailing slash is dropped so paths can be
    /// appended directly.
    pub fn new(public_base_url: impl Into<String>, secure_cookies: bool) -> Self {
        Self {
            public_base_url: without_trailing_slashes(public_base_url.into()),
            secure_cookies,
            revision_check_interval: DEFAULT_REVISION_CHECK,
            trusted_proxies: 0,
            request_limits: crate::RequestLimits::default(),
            attempt_limits: crate::shared::attempt_limits::default_attempt_limits(),
            request_timeout: DEFAULT_REQUEST_TIMEOUT,
            concurrency_limit: DEFAULT_CONCURRENCY_LIMIT,
        }
    }

    pub fn with_trusted_proxies(mut self, proxies: u8) -> Self {
        self.trusted_proxies = proxies;
        self
    }

    pub fn with_request_limits(mut self, limits: crate::RequestLimits) -> Self {
        self.request_limits = limits;
        self
    }

    pub fn with_attempt_limits(mut self, limits: crate::RequestLimits) -> Self {
        self.attempt_limits = limits;
        self
    }

    pub fn with_request_timeout(mut self, timeout: Duration) -> Self {
        self.request_timeout = timeout;
        self
    }

    pub fn with_concurrency_limit(mut self, requests: usize) -> Self {
        self.concurrency_limit = requests.max(1);
        self
    }

    pub fn with_revision_check_interval(mut self, interval: Duration) -> Self {
        self.revision_check_interval = interval;
        self
    }
}

/// Cloned into every request, and by every layer a request passes, so it is one `Arc`: a clone
/// costs one reference count, not one per service. Handlers read its parts through `Deref`.
#[derive(Clone)]
pub struct AppState(Arc<Services>);

impl std::ops::Deref for AppState {
    type Target = Services;

    fn deref(&self) -> &Services {
        &self.0
    }
}

/// Only the `with_*` builders change the state, before the router is built, so the copy on
/// write never copies then; a state already shared keeps its own services.
impl std::ops::DerefMut for AppState {
    fn deref_mut(&mut self) -> &mut Services {
        Arc::make_mut(&mut self.0)
    }
}

/// The core's services and the adapter's parts every handler may reach, each behind an `Arc`.
#[derive(Clone)]
pub struct Services {
    pub(crate) pages: Arc<PageService>,
    pub(crate) repository: Arc<dyn SiteRepository>,
    pub(crate) assets: Arc<AssetStore>,
    pub(crate) config: Arc<HttpConfig>,
    pub(crate) page_cache: Arc<PageCache>,
    /// The media files only locked content shows, per site revision.
    pub(crate) locked_media: Arc<crate::pages::locked_media::LockedMediaCache>,
    /// The stylesheets of plugin blocks on the pages rendered so far.
    pub(crate) plugin_styles: Arc<crate::render::plugin_styles::PluginStyles>,
    /// Renders the blocks plugins claim; by default none are claimed and such blocks show
    /// the fallback.
    pub(crate) plugins: Arc<dyn BlockRenderer>,
    /// Where plugin renders run: a bounded pool of blocking threads over `plugins`.
    pub(crate) render_pool: Arc<RenderPool>,
    /// Form keys and submissions; by default kept in memory, which suits one process and
    /// tests. The server wires the database's form store with [`AppState::with_forms`].
    pub(crate) forms: Arc<FormService>,
    /// Consent receipts and who may export them.
    pub(crate) consent: Arc<ConsentState>,
    /// Census rows waiting to be written.
    pub(crate) census: Arc<CensusLog>,
    /// Where census rows are written and the owner's report reads from.
    pub(crate) analytics: Arc<dyn AnalyticsStore>,
    /// Carts and orders; by default kept in memory with the default store rules. The
    /// server wires the database's commerce store with [`AppState::with_carts`].
    pub(crate) carts: Arc<CartService>,
    /// Subscription renewals and the shopper's subscription pages; none until the server
    /// wires them with [`AppState::with_renewals`] (the pages then answer 404).
    pub(crate) renewals: Option<Arc<vitrine_core::checkout::RenewalService>>,
    /// Donation pages and contributions; kept in memory and paid through the test gateway
    /// unless the server wires them with [`AppState::with_donations`].
    pub(crate) donations: Arc<vitrine_core::checkout::DonationService>,
    /// Owners' refunds, fulfilment and cancellation of orders; without it their calls
    /// answer 404. The server wires it over the database ([`AppState::with_order_aftercare`]).
    pub(crate) order_aftercare: Option<Arc<vitrine_core::checkout::OrderAftercareService>>,
    /// The newsletter confirmation and unsubscribe pages; without it they answer 404.
    pub(crate) newsletter: Option<Arc<vitrine_core::forms::NewsletterService>>,
    /// Review requests and product reviews; kept in memory unless the server wires the
    /// database's review store with [`AppState::with_reviews`].
    pub(crate) reviews: Arc<vitrine_core::reviews::ReviewService>,
    /// Where conversion events go for visitors who consented to marketing; none by default.
    pub(crate) ad_pixel: Option<Arc<dyn vitrine_core::conversions::AdPixel>>,
    /// Counts state-changing requests and failed owner tokens; in this process's memory
    /// unless the server wires a shared one with [`AppState::with_request_limiter`].
    pub(crate) request_limiter: Arc<dyn RateLimiter>,
    /// Addresses locked out after guessing the owner token wrong too often.
    pub(crate) owner_lockouts: Arc<crate::shared::owner_throttle::OwnerLockouts>,
    /// Image variants under `/media/`: their caches and the pool that makes them.
    pub(crate) image_variants: Arc<crate::ImageVariants>,
    /// Site-user accounts and sessions; kept in memory (with mails left in a memory outbox
    /// nobody sends) unless the server wires the database with [`AppState::with_people`].
    pub(crate) people: Arc<vitrine_core::people::PeopleService>,
    /// Owner and contributor accounts, their sessions and API keys; kept in memory unless
    /// the server wires the database with [`AppState::with_owners`].
    pub(crate) owners: Arc<vitrine_core::owners::OwnerService>,
    /// The geocoder of the map block's place search; without one the places calls answer
    /// 503.
    pub(crate) geocoder: Option<Arc<dyn vitrine_core::places::Geocoder>>,
    /// The map block's tile server and its composed static maps; without one a map block
    /// shows its address and link only.
    pub(crate) static_maps: Option<Arc<crate::maps::StaticMaps>>,
    /// The key order links are signed with; random per process unless the server wires
    /// its lasting one with [`AppState::with_order_link_key`].
    pub(crate) order_links: vitrine_core::checkout::OrderLinkKey,
    /// Where the payment provider's webhooks are checked and recorded; without one (no
    /// signing secret configured) the webhook route answers 404.
    pub(crate) payment_reports: Option<Arc<dyn vitrine_core::checkout::PaymentReports>>,
}

/// Where consent receipts go, and the owner's export token (no export without one).
pub(crate) struct ConsentState {
    pub(crate) receipts: Arc<dyn ConsentReceiptStore>,
    pub(crate) owner_token: Option<String>,
}

impl AppState {
    pub fn new(
        pages: Arc<PageService>,
        repository: Arc<dyn SiteRepository>,
        assets: Arc<AssetStore>,
        config: HttpConfig,
    ) -> Self {
        let config = HttpConfig {
            public_base_url: without_trailing_slashes(config.public_base_url),
            ..config
        };
        let forms = Arc::new(memory_form_service(repository.clone()));
        // One ledger for orders and donations, as the database's one table is.
        let ledger = Arc::new(vitrine_core::checkout::MemoryPaymentLedger::new());
        let carts = Arc::new(
            CartService::new(
                repository.clone(),
                Arc::new(InMemoryCommerceStore::new().with_ledger(ledger.clone())),
                StoreRules::default(),
            )
            .with_gift_card_codes(Arc::new(crate::RandomGiftCardCodes)),
        );
        let contributions =
            Arc::new(vitrine_core::checkout::InMemoryContributionStore::new().with_ledger(ledger));
        let donations = Arc::new(vitrine_core::checkout::DonationService::new(
            repository.clone(),
            contributions.clone(),
            carts.payments().clone(),
        ));
        let plugins: Arc<dyn BlockRenderer> = Arc::new(InMemoryBlockRenderer::new());
        let people = Arc::new(memory_people_service(
            &config.public_base_url,
            carts.store().clone(),
            contributions,
        ));
        Self(Arc::new(Services {
            pages,
            repository,
            assets,
            page_cache: Arc::new(PageCache::new(config.revision_check_interval)),
            locked_media: Arc::default(),
            plugin_styles: Arc::default(),
            config: Arc::new(config),
            plugins: plugins.clone(),
            render_pool: Arc::new(RenderPool::new(
                plugins,
                default_render_workers(),
                DEFAULT_RENDER_QUEUE,
            )),
            forms,
            consent: Arc::new(ConsentState {
                receipts: Arc::new(MemoryConsentReceiptStore::new()),
                owner_token: None,
            }),
            census: Arc::new(CensusLog::default()),
            analytics: Arc::new(MemoryAnalyticsStore::new()),
            donations,
            order_aftercare: None,
            carts,
            renewals: None,
            newsletter: None,
            reviews: Arc::new(vitrine_core::reviews::ReviewService::new(Arc::new(
                vitrine_core::reviews::InMemoryReviewStore::new(),
            ))),
            ad_pixel: None,
            geocoder: None,
            static_maps: None,
            request_limiter: Arc::new(MemoryRateLimiter::new()),
            owner_lockouts: Arc::default(),
            image_variants: Arc::new(crate::ImageVariants::in_memory()),
            people,
            owners: Arc::new(memory_owner_service()),
            order_links: random_order_link_key(),
            payment_reports: None,
        }))
    }

    /// Opens order pages through links signed with `key` (the key the order mails' links
    /// are signed with).
    pub fn with_order_link_key(mut self, key: vitrine_core::checkout::OrderLinkKey) -> Self {
        self.order_links = key;
        self
    }

    /// Takes the payment provider's webhooks, checked and read by `reports`, into the
    /// commerce store of the cart service.
    pub fn with_payment_reports(
        mut self,
        reports: Arc<dyn vitrine_core::checkout::PaymentReports>,
    ) -> Self {
        self.payment_reports = Some(reports);
        self
    }

    /// The key order links are signed with, for tests and mails.
    pub fn order_link_key(&self) -> &vitrine_core::checkout::OrderLinkKey {
        &self.order_links
    }

    /// Serves image variants through `variants` (with a disk cache in the data directory in
    /// production; in memory only by default).
    pub fn with_image_variants(mut self, variants: Arc<crate::ImageVariants>) -> Self {
        self.image_variants = variants;
        self
    }

    /// The image variants, for tests and the server to inspect.
    pub fn image_variants(&self) -> &Arc<crate::ImageVariants> {
        &self.image_variants
    }

    /// Runs the site-user calls through `people` (over the database's people store, the
    /// delivery outbox and the shared rate limiter in production).
    pub fn with_people(mut self, people: Arc<vitrine_core::people::PeopleService>) -> Self {
        self.people = people;
        self
    }

    /// Runs the owner area through `owners` (over the database's owner store and the shared
    /// rate limiter in production).
    pub fn with_owners(mut self, owners: Arc<vitrine_core::owners::OwnerService>) -> Self {
        self.owners = owners;
        self
    }

    /// The owner service, for tests that add accounts.
    pub fn owners(&self) -> &Arc<vitrine_core::owners::OwnerService> {
        &self.owners
    }

    /// Counts requests for the rate limits through `limiter` (Redis when several servers
    /// serve one site, so they count together).
    pub fn with_request_limiter(mut self, limiter: Arc<dyn RateLimiter>) -> Self {
        self.request_limiter = limiter;
        self
    }

    /// Serves the newsletter confirmation and unsubscribe pages through `newsletter`.
    pub fn with_newsletter(
        mut self,
        newsletter: Arc<vitrine_core::forms::NewsletterService>,
    ) -> Self {
        self.newsletter = Some(newsletter);
        self
    }

    /// Keeps consent receipts in `receipts` (in memory by default) and lets the owner export
    /// them with `owner_token` as a bearer token (no export when `None`).
    pub fn with_consent_receipts(
        mut self,
        receipts: Arc<dyn ConsentReceiptStore>,
        owner_token: Option<String>,
    ) -> Self {
        self.consent = Arc::new(ConsentState {
            receipts,
            owner_token,
        });
        self
    }

    /// Reads the owner's analytics report from `analytics` (the store census rows are flushed
    /// to; in memory by default).
    pub fn with_analytics_store(mut self, analytics: Arc<dyn AnalyticsStore>) -> Self {
        self.analytics = analytics;
        self
    }

    /// Records census rows into `census` (a default buffer otherwise).
    pub fn with_census(mut self, census: Arc<CensusLog>) -> Self {
        self.census = census;
        self
    }

    /// Renders plugin blocks with `plugins` (the WebAssembly host in production).
    pub fn with_block_renderer(mut self, plugins: Arc<dyn BlockRenderer>) -> Self {
        self.render_pool = Arc::new(self.render_pool.with_renderer(plugins.clone()));
        self.plugins = plugins;
        self
    }

    /// Runs at most `workers` plugin renders at once, with at most `queue` more waiting;
    /// further renders are refused as busy (by default one worker per core and a queue of
    /// [`DEFAULT_RENDER_QUEUE`]).
    pub fn with_render_pool(mut self, workers: usize, queue: usize) -> Self {
        self.render_pool = Arc::new(RenderPool::new(self.plugins.clone(), workers, queue));
        self
    }

    /// Runs the form calls through `forms` (over the database's form store in production).
    pub fn with_forms(mut self, forms: Arc<FormService>) -> Self {
        self.forms = forms;
        self
    }

    /// Runs the cart calls through `carts` (over the database's commerce store in
    /// production).
    /// Takes owners' refunds, fulfilment and cancellation of orders through `aftercare`.
    pub fn with_order_aftercare(
        mut self,
        aftercare: Arc<vitrine_core::checkout::OrderAftercareService>,
    ) -> Self {
        self.order_aftercare = Some(aftercare);
        self
    }

    /// Serves the subscription pages the renewal mails link to through `renewals`.
    pub fn with_renewals(mut self, renewals: Arc<vitrine_core::checkout::RenewalService>) -> Self {
        self.renewals = Some(renewals);
        self
    }

    pub fn with_carts(mut self, carts: Arc<CartService>) -> Self {
        self.carts = carts;
        self
    }

    /// Takes contributions through `donations` (over the database's contribution store and
    /// the carts' payment gateway in production).
    pub fn with_donations(
        mut self,
        donations: Arc<vitrine_core::checkout::DonationService>,
    ) -> Self {
        self.donations = donations;
        self
    }

    /// Runs review requests and reviews through `reviews` (over the database's review
    /// store in production).
    pub fn with_reviews(mut self, reviews: Arc<vitrine_core::reviews::ReviewService>) -> Self {
        self.reviews = reviews;
        self
    }

    /// Sends conversion events of consenting visitors to `pixel`.
    pub fn with_ad_pixel(mut self, pixel: Arc<dyn vitrine_core::conversions::AdPixel>) -> Self {
        self.ad_pixel = Some(pixel);
        self
    }

    /// Answers the places calls with `geocoder`.
    pub fn with_geocoder(mut self, geocoder: Arc<dyn vitrine_core::places::Geocoder>) -> Self {
        self.geocoder = Some(geocoder);
        self
    }

    /// Draws map blocks' static maps, and lets their interactive maps load, from the tile
    /// server of `maps`.
    pub fn with_static_maps(mut self, maps: Arc<crate::maps::StaticMaps>) -> Self {
        self.static_maps = Some(maps);
        self
    }

    pub fn config(&self) -> &HttpConfig {
        &self.config
    }
}

/// A fresh key from the operating system's generator.
pub fn random_order_link_key() -> vitrine_core::checkout::OrderLinkKey {
    let mut bytes = [0u8; 32];
    rand::fill(&mut bytes);
    vitrine_core::checkout::OrderLinkKey::new(bytes)
}

fn without_trailing_slashes(mut url: String) -> String {
    while url.ends_with('/') {
        url.pop();
    }
    url
}

/// A people service whose accounts, sessions, mails and limits live in this process's
/// memory, hashing at OWASP's cost; deleting an account erases its address from `orders`.
fn memory_people_service(
    public_base_url: &str,
    orders: Arc<dyn vitrine_core::checkout::CommerceStore>,
    contributions: Arc<dyn vitrine_core::checkout::ContributionStore>,
) -> vitrine_core::people::PeopleService {
    use vitrine_core::people::{
        InMemoryPeopleStore, PasswordCost, PasswordHasher, PeopleLimits, PeoplePorts,
        PeopleService, PersonalRecords,
    };
    let hasher =
        PasswordHasher::new(PasswordCost::OWASP).expect("OWASP's argon2id parameters are valid");
    let mails = Arc::new(MemoryFormStore::new());
    PeopleService::new(
        PeoplePorts {
            store: Arc::new(InMemoryPeopleStore::new()),
            outbox: mails.clone(),
            records: PersonalRecords {
                orders,
                newsletters: mails,
                contributions,
            },
            limiter: Arc::new(MemoryRateLimiter::new()),
            secrets: Arc::new(crate::people::site_users::OsSecrets),
            passwords: Arc::new(crate::people::site_users::BlockingPasswords(Arc::new(
                hasher,
            ))),
        },
        vitrine_core::forms::SiteLinks::new(public_base_url),
        PeopleLimits::default(),
    )
}

/// An owner service whose accounts, sessions, keys and attempt counts live in this
/// process's memory.
fn memory_owner_service() -> vitrine_core::owners::OwnerService {
    use vitrine_core::owners::{InMemoryOwnerStore, OwnerLimits, OwnerPorts, OwnerService};
    use vitrine_core::people::{PasswordCost, PasswordHasher};
    let hasher =
        PasswordHasher::new(PasswordCost::OWASP).expect("OWASP's argon2id parameters are valid");
    OwnerService::new(
        OwnerPorts {
            store: Arc::new(InMemoryOwnerStore::new()),
            limiter: Arc::new(MemoryRateLimiter::new()),
            secrets: Arc::new(crate::people::site_users::OsSecrets),
            passwords: Arc::new(crate::people::site_users::BlockingPasswords(Arc::new(
                hasher,
            ))),
        },
        OwnerLimits::default(),
    )
}

/// A form service whose keys, submissions and rate limits live in this process's memory.
fn memory_form_service(repository: Arc<dyn SiteRepository>) -> FormService {
    let store = Arc::new(MemoryFormStore::new());
    FormService::new(
        repository,
        store.clone(),
        store,
        Arc::new(MemoryRateLimiter::new()),
    )
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
