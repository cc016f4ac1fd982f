//! The page service: stored content in, a page to render out. Handlers call it and map the
//! result; every rule about which page a path shows lives here.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::cart::Timestamp;
use crate::enums::PageType;
use crate::header_footer::{HeaderFooter, HeaderFooterStore, MemoryHeaderFooterStore};
use crate::languages::{MemoryMultilingualStore, MultilingualService, MultilingualStore};
use crate::pages::access::{self, Lock, LockedMedia};
use crate::pages::{CaptchaSettingsContext, PageContext, Viewer};
use crate::ports::{Clock, ItemQuery, RepositoryError, SiteRepository};
use crate::search::{self, SearchDocument, SearchQuery, SearchResult};
use crate::site::{
    Block, BlockContent, BlockId, Body, Collection, Item, ItemId, MediaRef, PagePassword,
    PermissionType, SiteProfile, Slug,
};

/// How many items a blog or shop page lists.
const ITEMS_PER_PAGE: u32 = 24;
/// The most items a summary block may show, whatever its data asks for.
const MAX_SUMMARY_ITEMS: u8 = 30;

#[derive(Debug, thiserror::Error)]
pub enum PageError {
    #[error("no site has been imported yet")]
    NoSite,
    #[error(transparent)]
    Repository(#[from] RepositoryError),
}

/// What a page shows besides the site's chrome.
// One value lives per request, so the size difference between variants costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum PageContent {
    /// A layout page.
    Layout { collection: Collection },
    /// A blog or shop: its intro blocks and its first items.
    ItemList {
        collection: Collection,
        items: Vec<Item>,
    },
    /// One item of a collection: a post or a product.
    Item { collection: Collection, item: Item },
    /// The not-found page (page type 100).
    NotFound,
    /// The error page (page type 101).
    Error,
    /// What a visitor sees of a password-protected (page type 103) or members-only (106)
    /// collection, its items and its media: that it is locked, and nothing of its content.
    /// `access` says which lock page: the password form, the sign-in offer or the refusal;
    /// `refusal` why the password just entered did not open it.
    Locked {
        access: access::Access,
        refusal: Option<String>,
    },
    /// One gallery slide's own page, under the page that holds the gallery.
    Slide {
        collection: Collection,
        /// The address of the page that holds the gallery.
        page_path: String,
        slide: Box<super::slide_page::SlideInGallery>,
    },
    /// A commerce page (cart, checkout, order; page types 200-211) whose main content is one
    /// shopper's own, so the HTTP adapter renders it inside the site's chrome and never caches it.
    Commerce,
}

/// The items a summary block lists.
#[derive(Debug, Clone, PartialEq)]
pub struct SummaryContent {
    pub collection: Collection,
    pub items: Vec<Item>,
}

/// A product a product block shows, with the path of its own page.
#[derive(Debug, Clone, PartialEq)]
pub struct ResolvedProduct {
    pub item: Item,
    pub path: String,
}

/// Content that blocks on the page refer to, fetched once so rendering needs no further reads.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ResolvedBlocks {
    pub summaries: BTreeMap<BlockId, SummaryContent>,
    /// The collection and dated items of each calendar block.
    pub calendars: BTreeMap<BlockId, SummaryContent>,
    /// The month the page was made in (UTC), when it has a calendar block and the service a
    /// clock: the month calendars open on.
    pub current_month: Option<crate::site::YearMonth>,
    pub products: BTreeMap<ItemId, ResolvedProduct>,
}

/// Everything needed to render one page.
#[derive(Debug, Clone, PartialEq)]
pub struct PageView {
    pub page_type: PageType,
    /// The canonical site path of the page.
    pub path: String,
    /// The document title.
    pub title: String,
    pub description: String,
    pub image: Option<MediaRef>,
    pub profile: SiteProfile,
    pub context: PageContext,
    pub content: PageContent,
    pub resolved: ResolvedBlocks,
}

impl PageView {
    /// The HTTP status the page is served with.
    pub fn status_code(&self) -> u16 {
        match self.page_type {
            PageType::NotFound => 404,
            PageType::Error => 500,
            // A lock page offers a form (a password, signing in) but is a refusal as it stands;
            // 401 would need an HTTP authentication scheme, which these forms are not.
            PageType::LockScreen | PageType::MemberAreaAccessDenied => 403,
            _ => 200,
        }
    }
}

/// One published URL for `sitemap.xml`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SitemapEntry {
    pub path: String,
    /// Last change in milliseconds since the Unix epoch, when known.
    pub last_modified: Option<i64>,
    /// The same page in every published language, `x-default` last; empty for a site with
    /// one language.
    pub alternates: Vec<SitemapAlternate>,
}

/// One language's address of a sitemap page (`hreflang` is a tag or `x-default`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SitemapAlternate {
    pub hreflang: String,
    pub path: String,
}

pub struct PageService {
    repository: Arc<dyn SiteRepository>,
    captcha: Option<CaptchaSettingsContext>,
    header_footer: Arc<dyn HeaderFooterStore>,
    multilingual: Arc<dyn MultilingualStore>,
    /// Without one (services built for other features' tests) calendars open on their first
    /// item's month.
    clock: Option<Arc<dyn Clock>>,
}

impl PageService {
    pub fn new(repository: Arc<dyn SiteRepository>) -> Self {
        Self {
            repository,
            captcha: None,
            header_footer: Arc::new(MemoryHeaderFooterStore::new()),
            multilingual: Arc::new(MemoryMultilingualStore::new()),
            clock: None,
        }
    }

    /// Reads "now" from `clock` where a page depends on it (the calendar's current month).
    pub fn with_clock(mut self, clock: Arc<dyn Clock>) -> Self {
        self.clock = Some(clock);
        self
    }

    /// Now by the service's clock, if it has one: the cache keys pages by its day, so a page
    /// made yesterday is never served today.
    pub fn now(&self) -> Option<Timestamp> {
        self.clock.as_ref().map(|clock| clock.now())
    }

    /// Keeps the owner's choice of published languages in `store` (in memory by default).
    pub fn with_multilingual(mut self, store: Arc<dyn MultilingualStore>) -> Self {
        self.multilingual = store;
        self
    }

    /// The owner's multilingual calls (001 s7) over this site and its stored choice.
    pub fn multilingual(&self) -> MultilingualService<'_> {
        MultilingualService::new(self.repository.as_ref(), self.multilingual.as_ref())
    }

    /// Keeps the owner's header and footer in `store` (in memory by default).
    pub fn with_header_footer(mut self, store: Arc<dyn HeaderFooterStore>) -> Self {
        self.header_footer = store;
        self
    }

    /// The header and footer every page shows: the owner's, or the site's default.
    pub async fn header_footer(&self) -> Result<HeaderFooter, PageError> {
        Ok(self.profile().await?.header_footer)
    }

    /// Makes `chosen` the header and footer of every page.
    pub async fn replace_header_footer(&self, chosen: &HeaderFooter) -> Result<(), PageError> {
        Ok(self.header_footer.replace_header_footer(chosen).await?)
    }

    /// Tells every page's forms which captcha widget to show (the server then requires it).
    pub fn with_captcha(mut self, captcha: CaptchaSettingsContext) -> Self {
        self.captcha = Some(captcha);
        self
    }

    /// The captcha every page's forms show, if any.
    pub fn captcha_settings(&self) -> Option<&CaptchaSettingsContext> {
        self.captcha.as_ref()
    }

    /// The page at `path` for `viewer`; unknown paths give the not-found page.
    /// A path under a published language's prefix (`/fr/shop`) is that page in the language.
    pub async fn page(&self, path: &str, viewer: &Viewer) -> Result<PageView, PageError> {
        let profile = self.profile().await?;
        let language = profile
            .languages
            .split_prefix(path)
            .and_then(|(language, rest)| {
                let translation = profile.settings.languages.translation(&language.tag)?;
                Some((translation, rest))
            });
        let mut view = match language {
            Some((translation, rest)) => {
                let mut view = self.find_page(&rest, viewer).await?;
                super::localized::localize(&mut view, translation);
                view
            }
            None => self.find_page(path, viewer).await?,
        };
        view.context.captcha_settings = self.captcha.clone();
        Ok(view)
    }

    async fn find_page(&self, path: &str, viewer: &Viewer) -> Result<PageView, PageError> {
        let profile = self.profile().await?;
        let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
        let found = match segments.as_slice() {
            [] => {
                let home = self
                    .repository
                    .collection(&profile.settings.home_collection)
                    .await?;
                match home {
                    Some(home) => Some(self.collection_page(&profile, viewer, home, "/").await?),
                    None => None,
                }
            }
            [slug] => match self.collection_by_slug(slug).await? {
                Some(collection) => {
                    let path = self.canonical_path(&profile, &collection);
                    Some(
                        self.collection_page(&profile, viewer, collection, &path)
                            .await?,
                    )
                }
                None => None,
            },
            [collection_slug, item_slug] => {
                self.item_page(&profile, viewer, collection_slug, item_slug)
                    .await?
            }
            [collection_slug, super::slide_page::SLIDES_SEGMENT, slide_id] => {
                self.slide_page(&profile, viewer, collection_slug, slide_id)
                    .await?
            }
            _ => None,
        };
        match found {
            Some(view) => Ok(view),
            None => Ok(self.status_page(profile, viewer, PageType::NotFound, path)),
        }
    }

    /// The not-found page (page type 100) for `path`.
    pub async fn not_found(&self, path: &str, viewer: &Viewer) -> Result<PageView, PageError> {
        let profile = self.profile().await?;
        Ok(self.status_page(profile, viewer, PageType::NotFound, path))
    }

    /// The error page (page type 101), when the site itself can still be read.
    pub async fn error_page(&self, path: &str, viewer: &Viewer) -> Result<PageView, PageError> {
        let profile = self.profile().await?;
        Ok(self.status_page(profile, viewer, PageType::Error, path))
    }

    /// A commerce page of `page_type` at `path` headed `heading`: the site's chrome and page
    /// context around content the caller renders for one shopper.
    pub async fn commerce_page(
        &self,
        page_type: PageType,
        path: &str,
        heading: &str,
        viewer: &Viewer,
    ) -> Result<PageView, PageError> {
        let profile = self.profile().await?;
        Ok(PageView {
            page_type,
            path: path.to_owned(),
            title: titled(heading, &profile),
            description: String::new(),
            image: None,
            context: PageContext::build(&profile, viewer, page_type, None, None),
            profile,
            content: PageContent::Commerce,
            resolved: ResolvedBlocks::default(),
        })
    }

    /// Every public, published URL of the site.
    pub async fn sitemap(&self) -> Result<Vec<SitemapEntry>, PageError> {
        let profile = self.profile().await?;
        let mut entries = Vec::new();
        for collection in self.repository.collections().await? {
            if !is_public(&collection) {
                continue;
            }
            let items = if collection.lists_items() {
                self.repository
                    .items(&collection.id, ItemQuery::first(u32::MAX))
                    .await?
            } else {
                Vec::new()
            };
            entries.push(SitemapEntry {
                path: self.canonical_path(&profile, &collection),
                last_modified: items.iter().map(|item| item.published_on).max(),
                alternates: Vec::new(),
            });
            entries.extend(items.into_iter().map(|item| SitemapEntry {
                path: format!("/{}/{}", collection.slug, item.slug),
                last_modified: Some(item.published_on),
                alternates: Vec::new(),
            }));
        }
        Ok(in_every_language(&profile, entries))
    }

    /// The feed of the blog at `path` (`/journal`), the same for everyone; none when no
    /// collection is there, or it is not a blog open to an anonymous visitor
    /// ([`feed_path`](super::feed::feed_path)).
    pub async fn feed(&self, path: &str) -> Result<Option<super::feed::Feed>, PageError> {
        let profile = self.profile().await?;
        let Ok(slug) = Slug::parse(path.trim_matches('/')) else {
            return Ok(None);
        };
        let Some(collection) = self.repository.collection_by_slug(&slug).await? else {
            return Ok(None);
        };
        let areas = &profile.settings.member_areas;
        if super::feed::feed_path(&collection, areas).is_none() {
            return Ok(None);
        }
        let items = self
            .repository
            .items(&collection.id, ItemQuery::first(u32::MAX))
            .await?;
        let settings = &profile.settings;
        let site = (
            settings.site_title.as_str(),
            settings.site_description.as_str(),
            settings.locale.as_str(),
        );
        Ok(super::feed::Feed::of(&collection, areas, site, items))
    }

    /// The published pages and items of the site that answer `query` (page type 102) for
    /// `viewer`: every collection the gate lets them see, with its items, ranked by
    /// [`search::search`]. An anonymous visitor finds nothing locked; a member also finds
    /// their area's pages, and a browser that entered a page's password that page.
    pub async fn search(
        &self,
        query: &SearchQuery,
        viewer: &Viewer,
    ) -> Result<Vec<SearchResult>, PageError> {
        if query.is_empty() {
            return Ok(Vec::new());
        }
        let profile = self.profile().await?;
        let mut documents = Vec::new();
        for collection in self.repository.collections().await? {
            if !may_see(&profile, &collection, viewer) {
                continue;
            }
            let path = self.canonical_path(&profile, &collection);
            documents.push(SearchDocument::of_collection(&collection, path));
            if collection.lists_items() {
                let items = self
                    .repository
                    .items(&collection.id, ItemQuery::first(u32::MAX))
                    .await?;
                documents.extend(
                    items
                        .iter()
                        .map(|item| SearchDocument::of_item(&collection, item)),
                );
            }
        }
        Ok(search::search(&documents, query))
    }

    /// The site's profile; the public base URL is needed for absolute links.
    pub async fn profile(&self) -> Result<SiteProfile, PageError> {
        let mut profile = self.repository.profile().await?.ok_or(PageError::NoSite)?;
        if let Some(chosen) = self.header_footer.header_footer().await? {
            profile.header_footer = chosen;
        }
        if let Some(choice) = self.multilingual.choice().await? {
            profile
                .languages
                .keep_published(choice.published.as_deref());
        }
        Ok(profile)
    }

    pub(crate) async fn collection_by_slug(
        &self,
        slug: &str,
    ) -> Result<Option<Collection>, PageError> {
        let Ok(slug) = Slug::parse(slug) else {
            return Ok(None);
        };
        Ok(self.repository.collection_by_slug(&slug).await?)
    }

    pub(crate) fn canonical_path(&self, profile: &SiteProfile, collection: &Collection) -> String {
        if collection.id == profile.settings.home_collection {
            "/".to_owned()
        } else {
            collection.path()
        }
    }

    async fn collection_page(
        &self,
        profile: &SiteProfile,
        viewer: &Viewer,
        collection: Collection,
        path: &str,
    ) -> Result<PageView, PageError> {
        let lock = Lock::of(&collection, &profile.settings.member_areas);
        let decision = access::gate(&lock, viewer);
        if !decision.is_allowed() {
            return Ok(self.locked_page(profile, viewer, decision, path));
        }
        let is_home = collection.id == profile.settings.home_collection;
        let title = if is_home {
            profile.settings.site_title.clone()
        } else {
            titled(&collection.title, profile)
        };
        let description = collection
            .seo
            .description
            .clone()
            .filter(|d| !d.is_empty())
            .or_else(|| Some(collection.description.clone()).filter(|d| !d.is_empty()))
            .unwrap_or_else(|| profile.settings.site_description.clone());
        let image = collection
            .seo
            .image
            .clone()
            .or_else(|| profile.settings.social_image.clone());
        let resolved = self
            .resolve_blocks(profile, viewer, &collection.body)
            .await?;
        let page_type = if collection.lists_items() {
            PageType::MainContent
        } else {
            PageType::Page
        };
        let context = PageContext::build(profile, viewer, page_type, Some(&collection), None);
        let content = if collection.lists_items() {
            let items = self
                .repository
                .items(&collection.id, ItemQuery::first(ITEMS_PER_PAGE))
                .await?;
            PageContent::ItemList { collection, items }
        } else {
            PageContent::Layout { collection }
        };
        Ok(PageView {
            page_type,
            path: path.to_owned(),
            title,
            description,
            image,
            profile: profile.clone(),
            context,
            content,
            resolved,
        })
    }

    async fn item_page(
        &self,
        profile: &SiteProfile,
        viewer: &Viewer,
        collection_slug: &str,
        item_slug: &str,
    ) -> Result<Option<PageView>, PageError> {
        let Some(collection) = self.collection_by_slug(collection_slug).await? else {
            return Ok(None);
        };
        // Locked before the item is looked up, so the answer does not tell which items exist.
        let lock = Lock::of(&collection, &profile.settings.member_areas);
        let decision = access::gate(&lock, viewer);
        if !decision.is_allowed() {
            let path = format!("/{collection_slug}/{item_slug}");
            return Ok(Some(self.locked_page(profile, viewer, decision, &path)));
        }
        let Ok(item_slug) = Slug::parse(item_slug) else {
            return Ok(None);
        };
        if !collection.lists_items() {
            return Ok(None);
        }
        let Some(item) = self
            .repository
            .item_by_slug(&collection.id, &item_slug)
            .await?
        else {
            return Ok(None);
        };
        let resolved = self.resolve_blocks(profile, viewer, &item.body).await?;
        let context = PageContext::build(
            profile,
            viewer,
            PageType::ContentItem,
            Some(&collection),
            Some(&item),
        );
        let description = item
            .seo
            .description
            .clone()
            .filter(|d| !d.is_empty())
            .unwrap_or_else(|| item.excerpt.plain_text());
        Ok(Some(PageView {
            page_type: PageType::ContentItem,
            path: format!("/{}/{}", collection.slug, item.slug),
            title: titled(&item.title, profile),
            description,
            image: item.seo.image.clone().or_else(|| item.image.clone()),
            profile: profile.clone(),
            context,
            content: PageContent::Item { collection, item },
            resolved,
        }))
    }

    /// The lock page (103 or 106) the gate's `decision` shows at `path`. It names neither the
    /// collection nor the item, so it tells nothing of what it keeps.
    pub(crate) fn locked_page(
        &self,
        profile: &SiteProfile,
        viewer: &Viewer,
        decision: access::Access,
        path: &str,
    ) -> PageView {
        let page_type = decision.page_type().unwrap_or(PageType::LockScreen);
        let heading = if page_type == PageType::LockScreen {
            access::LOCKED_HEADING
        } else {
            access::MEMBERS_ONLY_HEADING
        };
        PageView {
            page_type,
            path: path.to_owned(),
            title: titled(heading, profile),
            description: String::new(),
            image: None,
            context: PageContext::build(profile, viewer, page_type, None, None),
            profile: profile.clone(),
            content: PageContent::Locked {
                access: decision,
                refusal: None,
            },
            resolved: ResolvedBlocks::default(),
        }
    }

    /// The password of the password-protected collection that `path` shows (the collection's
    /// page, one of its items or slides, in any published language); none when the path shows
    /// no such collection, or the site stores no password for it.
    pub async fn page_password(&self, path: &str) -> Result<Option<PagePassword>, PageError> {
        let profile = self.profile().await?;
        let path = match profile.languages.split_prefix(path) {
            Some((_, rest)) => rest,
            None => path.to_owned(),
        };
        let collection = match path.split('/').find(|segment| !segment.is_empty()) {
            None => {
                self.repository
                    .collection(&profile.settings.home_collection)
                    .await?
            }
            Some(slug) => self.collection_by_slug(slug).await?,
        };
        let Some(collection) = collection else {
            return Ok(None);
        };
        if collection.permission_type != PermissionType::PasswordProtected {
            return Ok(None);
        }
        Ok(profile
            .settings
            .page_passwords
            .into_iter()
            .find(|password| password.collection == collection.id))
    }

    /// Whether `viewer` may see `item`: the gate of its collection (a missing or disabled
    /// collection shows nothing). Calls that show or count a single item (quick view) ask it.
    pub async fn may_see_item(&self, item: &Item, viewer: &Viewer) -> Result<bool, PageError> {
        let profile = self.profile().await?;
        let Some(collection) = self.repository.collection(&item.collection_id).await? else {
            return Ok(false);
        };
        let lock = Lock::of(&collection, &profile.settings.member_areas);
        Ok(collection.enabled && access::gate(&lock, viewer).is_allowed())
    }

    /// Whether `viewer` may see the item with `id`: unknown items count as seen, so the caller
    /// answers for them as it does for any id (calls that take an item id, such as adding to
    /// the cart, ask it so a locked product answers as an unknown one).
    pub async fn may_see_item_id(&self, id: &ItemId, viewer: &Viewer) -> Result<bool, PageError> {
        match self.repository.item(id).await? {
            Some(item) => self.may_see_item(&item, viewer).await,
            None => Ok(true),
        }
    }

    /// The lock page a media file at `path` answers with when only content behind `lock`
    /// shows it; none when the viewer may see it.
    pub async fn locked_media_page(
        &self,
        path: &str,
        lock: &Lock,
        viewer: &Viewer,
    ) -> Result<Option<PageView>, PageError> {
        let decision = access::gate(lock, viewer);
        if decision.is_allowed() {
            return Ok(None);
        }
        let profile = self.profile().await?;
        let mut view = self.locked_page(&profile, viewer, decision, path);
        view.context.captcha_settings = self.captcha.clone();
        Ok(Some(view))
    }

    /// The media files only locked collections and their items show. It reads every enabled
    /// collection and its published items, so callers keep the answer for a site revision.
    pub async fn locked_media(&self) -> Result<LockedMedia, PageError> {
        let Some(profile) = self.repository.profile().await? else {
            return Ok(LockedMedia::default());
        };
        let mut content = vec![
            (Lock::Open, access::content_value(&profile.settings)),
            (Lock::Open, access::content_value(&profile.navigation)),
        ];
        for collection in self.repository.collections().await? {
            let permission = Lock::of(&collection, &profile.settings.member_areas);
            if collection.lists_items() {
                let items = self
                    .repository
                    .items(&collection.id, ItemQuery::first(u32::MAX))
                    .await?;
                content.extend(
                    items
                        .iter()
                        .map(|item| (permission.clone(), access::content_value(item))),
                );
            }
            content.push((permission, access::content_value(&collection)));
        }
        Ok(LockedMedia::new(content))
    }

    fn status_page(
        &self,
        profile: SiteProfile,
        viewer: &Viewer,
        page_type: PageType,
        path: &str,
    ) -> PageView {
        let (heading, content) = if page_type == PageType::NotFound {
            ("Page not found", PageContent::NotFound)
        } else {
            ("Something went wrong", PageContent::Error)
        };
        PageView {
            page_type,
            path: path.to_owned(),
            title: titled(heading, &profile),
            description: profile.settings.site_description.clone(),
            image: None,
            context: PageContext::build(&profile, viewer, page_type, None, None),
            profile,
            content,
            resolved: ResolvedBlocks::default(),
        }
    }

    /// Fetches what summary and product blocks refer to. A reference to something that is
    /// gone (a deleted product) is simply left out, so the block renders without it.
    /// Only content `viewer` may see is fetched: a locked collection's items are its content,
    /// so a page lists them only to a viewer the gate lets in (whose page is rendered for
    /// them alone, never shared).
    async fn resolve_blocks(
        &self,
        profile: &SiteProfile,
        viewer: &Viewer,
        body: &Body,
    ) -> Result<ResolvedBlocks, PageError> {
        let mut resolved = ResolvedBlocks::default();
        for Block { id, content } in body.layout.blocks() {
            match content {
                BlockContent::Summary {
                    collection, limit, ..
                } => {
                    let source = self.repository.collection(collection).await?;
                    if let Some(source) = source.filter(|source| may_see(profile, source, viewer)) {
                        let limit = (*limit).clamp(1, MAX_SUMMARY_ITEMS);
                        let items = self
                            .repository
                            .items(&source.id, ItemQuery::first(u32::from(limit)))
                            .await?;
                        resolved.summaries.insert(
                            id.clone(),
                            SummaryContent {
                                collection: source,
                                items,
                            },
                        );
                    }
                }
                BlockContent::Calendar(calendar) => {
                    if resolved.current_month.is_none() {
                        resolved.current_month = self
                            .now()
                            .and_then(|now| crate::site::YearMonth::of_millis(now.millis()));
                    }
                    let source = self.repository.collection(&calendar.collection).await?;
                    if let Some(source) = source.filter(|source| may_see(profile, source, viewer)) {
                        // A collection holds at most this many items, so the calendar sees all.
                        let limit = crate::site::MAX_ITEMS_PER_COLLECTION as u32;
                        let items = self
                            .repository
                            .items(&source.id, ItemQuery::first(limit))
                            .await?;
                        resolved.calendars.insert(
                            id.clone(),
                            SummaryContent {
                                collection: source,
                                items,
                            },
                        );
                    }
                }
                BlockContent::Product { item } => {
                    let Some(product) = self.repository.item(item).await? else {
                        continue;
                    };
                    // A product whose shop is disabled has no page to link to; leave it out,
                    // nor one whose shop is locked to this viewer.
                    let shop = self.repository.collection(&product.collection_id).await?;
                    if let Some(shop) = shop.filter(|shop| may_see(profile, shop, viewer)) {
                        let path = format!("/{}/{}", shop.slug, product.slug);
                        resolved.products.insert(
                            item.clone(),
                            ResolvedProduct {
                                item: product,
                                path,
                            },
                        );
                    }
                }
                _ => {}
            }
        }
        Ok(resolved)
    }
}

fn is_public(collection: &Collection) -> bool {
    collection.permission_type == PermissionType::Public
}

/// Whether the gate lets `viewer` see `collection`'s content.
fn may_see(profile: &SiteProfile, collection: &Collection, viewer: &Viewer) -> bool {
    let lock = Lock::of(collection, &profile.settings.member_areas);
    access::gate(&lock, viewer).is_allowed()
}

/// Each entry once per published language, every copy listing all of them and `x-default`
/// (the default language's), as search engines ask of a multilingual sitemap.
fn in_every_language(profile: &SiteProfile, entries: Vec<SitemapEntry>) -> Vec<SitemapEntry> {
    if profile.languages.published.is_empty() {
        return entries;
    }
    let mut localized = Vec::new();
    for entry in entries {
        let alternates = profile.languages.alternates(&entry.path);
        let mut listed: Vec<SitemapAlternate> = alternates
            .iter()
            .map(|alternate| SitemapAlternate {
                hreflang: alternate.tag.to_string(),
                path: alternate.path.clone(),
            })
            .collect();
        listed.push(SitemapAlternate {
            hreflang: "x-default".to_owned(),
            path: entry.path.clone(),
        });
        localized.extend(alternates.into_iter().map(|alternate| SitemapEntry {
            path: alternate.path,
            last_modified: entry.last_modified,
            alternates: listed.clone(),
        }));
    }
    localized
}

pub(crate) fn titled(heading: &str, profile: &SiteProfile) -> String {
    format!("{heading} — {}", profile.settings.site_title)
}
