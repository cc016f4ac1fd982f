//! Test helpers: the fixture site and build, repositories that fail on purpose, and a small
//! client that sends one request through a router and collects the answer.

use std::sync::Arc;

use async_trait::async_trait;
use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode};
use tower::ServiceExt;
use vitrine_core::pages::PageService;
use vitrine_core::ports::conformance::fixture_site;
use vitrine_core::ports::memory::MemorySiteRepository;
use vitrine_core::ports::{ItemQuery, RepositoryError, SiteRepository};
use vitrine_core::site::{
    AccordionItem, Block, BlockContent, Body as PageBody, Collection, CollectionId, Item, ItemId,
    Layout, MediaFile, PermissionType, SafeHtml, Seo, Site, SiteProfile, Slug,
};
use vitrine_http::{AppState, AssetStore, HttpConfig};

pub const BASE_URL: &str = "https://shop.example";
pub const SITE_TITLE: &str = "Fixture Shop";
/// Text the failing repositories put in their errors; no response may ever contain it.
pub const SECRET: &str = "db-password-hunter2";

/// The core's fixture site plus a page with an accordion, the island the fixture build has.
pub fn site() -> Site {
    let mut site = fixture_site(SITE_TITLE);
    let faq = Collection {
        id: CollectionId::try_from("faq".to_owned()).unwrap(),
        collection_type: site.collections[0].collection_type,
        title: "Questions".into(),
        slug: Slug::parse("faq").unwrap(),
        description: "Asked often".into(),
        permission_type: PermissionType::Public,
        body: PageBody {
            raw: false,
            layout: Layout::stacked(vec![Block {
                id: "faq-accordion".to_owned().try_into().unwrap(),
                content: BlockContent::Accordion {
                    items: vec![AccordionItem {
                        title: "Do you ship abroad?".into(),
                        body: SafeHtml::sanitize("<p>Yes.</p>"),
                    }],
                    allow_multiple: false,
                    first_open: true,
                },
            }])
            .unwrap(),
        },
        seo: Seo::default(),
        enabled: true,
    };
    site.collections.push(faq);
    site
}

/// A page with the newsletter block `letter`.
pub fn letter_page() -> Collection {
    Collection {
        id: CollectionId::try_from("news".to_owned()).unwrap(),
        collection_type: vitrine_core::enums::CollectionType::Page,
        title: "News".into(),
        slug: Slug::parse("news").unwrap(),
        description: String::new(),
        permission_type: PermissionType::Public,
        body: PageBody {
            raw: false,
            layout: Layout::stacked(vec![Block {
                id: "letter".to_owned().try_into().unwrap(),
                content: BlockContent::Newsletter {
                    title: "Letter".into(),
                    description: String::new(),
                    button_label: "Sign up".into(),
                    placeholder: String::new(),
                },
            }])
            .unwrap(),
        },
        seo: Seo::default(),
        enabled: true,
    }
}

pub async fn repository() -> Arc<MemorySiteRepository> {
    let repository = Arc::new(MemorySiteRepository::new());
    repository.replace_site(&site()).await.unwrap();
    repository
}

/// The manifest of a tiny build: the runtime, the site stylesheet, and an accordion island
/// importing a shared React chunk that has a stylesheet of its own.
pub const FIXTURE_MANIFEST: &str = r#"{
  "src/main.ts": {"file": "assets/main-A1.js", "name": "main", "src": "src/main.ts", "isEntry": true},
  "src/styles/site.css": {"file": "assets/site-S1.css", "src": "src/styles/site.css", "isEntry": true},
  "src/islands/accordion.tsx": {"file": "assets/accordion-C1.js", "src": "src/islands/accordion.tsx", "isDynamicEntry": true, "imports": ["_react-B1.js"], "css": ["assets/accordion-D1.css"]},
  "_react-B1.js": {"file": "assets/react-B1.js", "name": "react"}
}"#;

/// A script long and repetitive enough that both compressions shrink it.
pub fn react_chunk() -> Vec<u8> {
    "export const createElement = (type, props) => ({ type, props });\n"
        .repeat(100)
        .into_bytes()
}

pub fn fixture_assets() -> AssetStore {
    let files = vec![
        (
            ".vite/manifest.json".to_owned(),
            FIXTURE_MANIFEST.as_bytes().to_vec(),
        ),
        (
            "assets/main-A1.js".to_owned(),
            b"import('./accordion-C1.js');\n".to_vec(),
        ),
        (
            "assets/site-S1.css".to_owned(),
            b"body { margin: 0; }\n".to_vec(),
        ),
        (
            "assets/accordion-C1.js".to_owned(),
            b"import './react-B1.js';\n".to_vec(),
        ),
        (
            "assets/accordion-D1.css".to_owned(),
            b".accordion { display: block; }\n".to_vec(),
        ),
        ("assets/react-B1.js".to_owned(), react_chunk()),
        (
            "assets/logo-L1.png".to_owned(),
            vec![137, 80, 78, 71, 13, 10, 26, 10],
        ),
    ];
    AssetStore::from_files(files).expect("the fixture build is consistent")
}

pub fn config() -> HttpConfig {
    HttpConfig::new(BASE_URL, false)
}

pub fn router_with(
    repository: Arc<dyn SiteRepository>,
    assets: AssetStore,
    config: HttpConfig,
) -> Router {
    let pages = Arc::new(PageService::new(repository.clone()));
    vitrine_http::router(AppState::new(pages, repository, Arc::new(assets), config))
}

/// The router over `repository` and the fixture build, with `owner_token` as the owner's
/// token for the owner-only calls.
pub fn owner_router(repository: Arc<dyn SiteRepository>, owner_token: &str) -> Router {
    let state = AppState::new(
        Arc::new(PageService::new(repository.clone())),
        repository,
        Arc::new(fixture_assets()),
        config(),
    )
    .with_consent_receipts(
        Arc::new(vitrine_core::consent::MemoryConsentReceiptStore::new()),
        Some(owner_token.to_owned()),
    );
    vitrine_http::router(state)
}

/// The router over the fixture site and build.
pub async fn app() -> Router {
    router_with(repository().await, fixture_assets(), config())
}

pub struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Vec<u8>,
}

impl Answer {
    pub fn text(&self) -> String {
        String::from_utf8(self.body.clone()).expect("the body is UTF-8")
    }

    pub fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .unwrap_or_else(|| panic!("the response has no {name} header: {:?}", self.headers))
            .to_str()
            .unwrap()
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).expect("the body is JSON")
    }

    /// The `crumb` value of the response's `Set-Cookie`, if it sets one.
    pub fn set_crumb(&self) -> Option<String> {
        self.headers
            .get_all("set-cookie")
            .iter()
            .filter_map(|value| value.to_str().ok())
            .find_map(|cookie| cookie.strip_prefix("crumb="))
            .map(|rest| rest.split(';').next().unwrap_or_default().to_owned())
    }

    /// The cart token the answer hands out in its cookie.
    pub fn cart_cookie(&self) -> String {
        self.headers
            .get_all("set-cookie")
            .iter()
            .filter_map(|value| value.to_str().ok())
            .find_map(|cookie| cookie.strip_prefix("vitrine_cart="))
            .and_then(|rest| rest.split(';').next())
            .expect("a cart cookie is set")
            .to_owned()
    }

    /// The page context JSON embedded in an HTML page.
    pub fn page_context(&self) -> serde_json::Value {
        let html = self.text();
        let at = html
            .find("id=\"vitrine-page-context\"")
            .expect("the page embeds its context");
        let start = at + html[at..].find('>').unwrap() + 1;
        let end = start + html[start..].find("</script>").unwrap();
        serde_json::from_str(&html[start..end]).expect("the page context is JSON")
    }
}

/// The `Set-Cookie` of the answer that sets `name`, with the cookie's attributes.
pub fn set_cookie<'a>(answer: &'a Answer, name: &str) -> Option<&'a str> {
    answer
        .headers
        .get_all("set-cookie")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .find(|cookie| cookie.starts_with(&format!("{name}=")))
}

/// The value a `Set-Cookie` gives its cookie.
pub fn cookie_value(set_cookie: &str) -> String {
    set_cookie
        .split(';')
        .next()
        .and_then(|pair| pair.split_once('='))
        .map(|(_, value)| value.to_owned())
        .unwrap()
}

pub async fn send(router: &Router, request: Request<Body>) -> Answer {
    let response = router
        .clone()
        .oneshot(request)
        .await
        .expect("routers are infallible");
    let status = response.status();
    let headers = response.headers().clone();
    let body = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .expect("the body can be read")
        .to_vec();
    Answer {
        status,
        headers,
        body,
    }
}

pub fn get(path: &str) -> Request<Body> {
    Request::get(path).body(Body::empty()).unwrap()
}

pub async fn fetch(router: &Router, path: &str) -> Answer {
    send(router, get(path)).await
}

fn secret_error() -> RepositoryError {
    RepositoryError::Unavailable(format!("connection refused ({SECRET})"))
}

/// A repository whose every call fails, as when the database is down.
pub struct BrokenRepository;

#[async_trait]
impl SiteRepository for BrokenRepository {
    async fn replace_site(&self, _site: &Site) -> Result<(), RepositoryError> {
        Err(secret_error())
    }
    async fn revision(&self) -> Result<u64, RepositoryError> {
        Err(secret_error())
    }
    async fn is_empty(&self) -> Result<bool, RepositoryError> {
        Err(secret_error())
    }
    async fn profile(&self) -> Result<Option<SiteProfile>, RepositoryError> {
        Err(secret_error())
    }
    async fn collection_by_slug(
        &self,
        _slug: &Slug,
    ) -> Result<Option<Collection>, RepositoryError> {
        Err(secret_error())
    }
    async fn collection(&self, _id: &CollectionId) -> Result<Option<Collection>, RepositoryError> {
        Err(secret_error())
    }
    async fn collections(&self) -> Result<Vec<Collection>, RepositoryError> {
        Err(secret_error())
    }
    async fn item_by_slug(
        &self,
        _c: &CollectionId,
        _s: &Slug,
    ) -> Result<Option<Item>, RepositoryError> {
        Err(secret_error())
    }
    async fn item(&self, _id: &ItemId) -> Result<Option<Item>, RepositoryError> {
        Err(secret_error())
    }
    async fn items(&self, _c: &CollectionId, _q: ItemQuery) -> Result<Vec<Item>, RepositoryError> {
        Err(secret_error())
    }
    async fn media(&self, _path: &str) -> Result<Option<MediaFile>, RepositoryError> {
        Err(secret_error())
    }
}

/// The fixture site, except that listing items fails: the site can be read, one page cannot.
pub struct FailingItems(pub MemorySiteRepository);

impl FailingItems {
    pub async fn new() -> Self {
        let inner = MemorySiteRepository::new();
        inner.replace_site(&site()).await.unwrap();
        Self(inner)
    }
}

#[async_trait]
impl SiteRepository for FailingItems {
    async fn replace_site(&self, site: &Site) -> Result<(), RepositoryError> {
        self.0.replace_site(site).await
    }
    async fn revision(&self) -> Result<u64, RepositoryError> {
        self.0.revision().await
    }
    async fn is_empty(&self) -> Result<bool, RepositoryError> {
        self.0.is_empty().await
    }
    async fn profile(&self) -> Result<Option<SiteProfile>, RepositoryError> {
        self.0.profile().await
    }
    async fn collection_by_slug(&self, slug: &Slug) -> Result<Option<Collection>, RepositoryError> {
        self.0.collection_by_slug(slug).await
    }
    async fn collection(&self, id: &CollectionId) -> Result<Option<Collection>, RepositoryError> {
        self.0.collection(id).await
    }
    async fn collections(&self) -> Result<Vec<Collection>, RepositoryError> {
        self.0.collections().await
    }
    async fn item_by_slug(
        &self,
        c: &CollectionId,
        s: &Slug,
    ) -> Result<Option<Item>, RepositoryError> {
        self.0.item_by_slug(c, s).await
    }
    async fn item(&self, id: &ItemId) -> Result<Option<Item>, RepositoryError> {
        self.0.item(id).await
    }
    async fn items(&self, _c: &CollectionId, _q: ItemQuery) -> Result<Vec<Item>, RepositoryError> {
        Err(RepositoryError::Corrupt {
            what: "items".into(),
            reason: SECRET.into(),
        })
    }
    async fn media(&self, path: &str) -> Result<Option<MediaFile>, RepositoryError> {
        self.0.media(path).await
    }
}

/// The token the answer hands out in its cookie.
pub fn cart_cookie(answer: &Answer) -> String {
    answer
        .headers
        .get_all("set-cookie")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .find_map(|cookie| cookie.strip_prefix("vitrine_cart="))
        .and_then(|rest| rest.split(';').next())
        .expect("a cart cookie is set")
        .to_owned()
}

/// Rate limits of `per_address` and `per_visitor` requests per window of `window_seconds`.
pub fn rate_limits(
    per_address: u32,
    per_visitor: u32,
    window_seconds: i64,
) -> vitrine_http::RequestLimits {
    let limit = |max| vitrine_core::forms::RateLimit {
        max,
        window_seconds,
    };
    vitrine_http::RequestLimits {
        per_address: limit(per_address),
        per_visitor: limit(per_visitor),
    }
}
