//! Server-side rendering of published pages to HTML with compile-time askama templates
//! (`adapters/http/templates/`). Templates escape everything they print; the only ways around
//! that are in [`markup`]. Pages work without JavaScript; interactive blocks are also marked
//! as islands (`data-island`) that the web client's scripts enhance.

mod blocks;
mod chrome;
mod commerce;
pub(crate) mod commerce_pages;
mod consent;
pub(crate) mod dates;
pub(crate) mod donate_pages;
pub(crate) mod forms;
pub(crate) mod gift_cards;
mod image;
mod information_bar;
mod items;
mod layout;
mod markup;
pub(crate) mod membership_page;
mod pages;
pub(crate) mod people_pages;
pub(crate) mod plugin_styles;
pub(crate) mod pool;
mod popup;
mod product_data;
pub(crate) mod product_form;
mod reviews;
mod scope;
pub(crate) mod search_page;
mod slide_page;
pub(crate) mod subscription_page;
mod third_parties;
mod urls;

#[cfg(test)]
mod tests;

use std::collections::BTreeSet;

use askama::Template;
use vitrine_core::map_tiles::TileServer;
use vitrine_core::pages::{PageContent, PageView};
use vitrine_core::plugins::{BlockRenderer, InMemoryBlockRenderer as NoPluginsRenderer};
use vitrine_core::popup::popup_enabled;
use vitrine_core::reviews::ProductReviews;
use vitrine_core::site::{BlockContent, Layout};

pub(crate) use reviews::REVIEWS_SHOWN;

pub(crate) use blocks::stylesheet_link;
pub(crate) use consent::banner_settings;
pub use third_parties::ThirdPartySources;

use crate::assets::StartModule;
use chrome::{Footer, Header};
use markup::Markup;
use pages::PageMain;
use scope::RenderScope;

/// The stylesheets and scripts a page links to, as URLs (decided from the web build's manifest).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageAssets {
    pub stylesheets: Vec<String>,
    pub module_scripts: Vec<String>,
    pub module_preloads: Vec<String>,
}

/// Why a page could not be rendered.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("the page context could not be written as JSON")]
    Context(#[source] serde_json::Error),
    #[error("a page template failed to render")]
    Template(#[from] askama::Error),
}

/// The names of the islands (interactive blocks) on the page, e.g. `accordion`, so that only
/// their scripts are preloaded.
pub fn islands_on(view: &PageView) -> BTreeSet<&'static str> {
    let layout = content_layout(view);
    let mut islands: BTreeSet<&'static str> = layout
        .into_iter()
        .flat_map(|layout| layout.blocks())
        .filter_map(|block| blocks::island_name(&block.content))
        .collect();
    // The add-to-cart form of a product page or product block is the product island.
    let product_page =
        matches!(&view.content, PageContent::Item { item, .. } if item.product.is_some());
    let product_block = layout
        .into_iter()
        .flat_map(|layout| layout.blocks())
        .any(|block| matches!(block.content, BlockContent::Product { .. }));
    if product_page || product_block {
        islands.insert("product");
    }
    islands
}

/// The modules the common script starts at once on this page because the server rendered what
/// they drive: the cookie banner and the popup overlay. Preloaded beside the common script, they
/// arrive with it instead of one after another behind it.
pub fn started_modules(view: &PageView) -> Vec<StartModule> {
    let settings = &view.profile.settings;
    let banner = banner_settings(settings)
        .is_cookie_banner_enabled
        .then_some(StartModule::CookieBanner);
    let popup = (!is_status_page(view) && popup_enabled(&settings.popup_overlay))
        .then_some(StartModule::PopupOverlay);
    banner.into_iter().chain(popup).collect()
}

/// Pages that say something about the request rather than show the site's content: no popup,
/// no canonical copy, not indexed.
fn is_status_page(view: &PageView) -> bool {
    matches!(
        view.content,
        PageContent::NotFound
            | PageContent::Error
            | PageContent::Locked { .. }
            | PageContent::Commerce
    )
}

/// The blocks of the page's own content: a layout page's, a list's intro, an item's body.
pub(crate) fn content_layout(view: &PageView) -> Option<&Layout> {
    match &view.content {
        PageContent::Layout { collection } | PageContent::ItemList { collection, .. } => {
            Some(&collection.body.layout)
        }
        PageContent::Item { item, .. } => Some(&item.body.layout),
        PageContent::NotFound
        | PageContent::Error
        | PageContent::Locked { .. }
        | PageContent::Slide { .. }
        | PageContent::Commerce => None,
    }
}

/// The whole HTML document of a page. `public_base_url` is the site's public origin, for the
/// canonical link and Open Graph URLs.
pub fn render_page(
    view: &PageView,
    assets: &PageAssets,
    public_base_url: &str,
) -> Result<String, RenderError> {
    render_page_with_plugins(view, assets, public_base_url, &*NO_PLUGINS)
}

/// [`render_page`], with the blocks that plugins claim rendered by `plugins`.
pub fn render_page_with_plugins(
    view: &PageView,
    assets: &PageAssets,
    public_base_url: &str,
    plugins: &dyn BlockRenderer,
) -> Result<String, RenderError> {
    render_page_with_lifetime(view, assets, public_base_url, plugins, None, None)
        .map(|page| page.html)
}

/// A rendered page and how long it may be reused: the shortest `cache-seconds` of the plugin
/// renderings on it, none when no plugin limited it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderedPage {
    pub html: String,
    /// The other origins the page's blocks may load from.
    pub third_parties: ThirdPartySources,
    pub cache_seconds: Option<u32>,
    /// The plugin blocks' stylesheets the page links to.
    pub stylesheets: Vec<vitrine_core::plugins::PluginCss>,
}

/// [`render_page_with_plugins`], with the reviews of the page's product (product pages only)
/// and the tile server of map blocks (their static map and interactive map), also saying how
/// long the page may be served from a cache.
pub fn render_page_with_lifetime(
    view: &PageView,
    assets: &PageAssets,
    public_base_url: &str,
    plugins: &dyn BlockRenderer,
    reviews: Option<&ProductReviews>,
    map_tiles: Option<&TileServer>,
) -> Result<RenderedPage, RenderError> {
    let scope = RenderScope::new(view)
        .with_plugins(plugins)
        .with_base_url(public_base_url)
        .with_reviews(reviews)
        .with_map_tiles(map_tiles);
    // Built in document order: the first image inside `main` is the one that loads eagerly.
    let header = Header::new(view);
    let main = PageMain::new(&scope);
    let html = render_document(view, assets, public_base_url, header, main)?;
    Ok(RenderedPage {
        html,
        third_parties: ThirdPartySources::of(view),
        cache_seconds: scope.cache_seconds(),
        stylesheets: scope.take_stylesheets(),
    })
}

/// A commerce page (cart, checkout, order): the site's chrome and page context around
/// `main`, which holds one shopper's data, so the page is `noindex` and never cached.
pub(crate) fn render_commerce_page(
    view: &PageView,
    assets: &PageAssets,
    public_base_url: &str,
    main: &commerce_pages::CommerceMain,
) -> Result<String, RenderError> {
    let header = Header::new(view);
    render_document(
        view,
        assets,
        public_base_url,
        header,
        PageMain::Commerce(main),
    )
}

fn render_document<'a>(
    view: &'a PageView,
    assets: &'a PageAssets,
    public_base_url: &str,
    header: Header<'a>,
    main: PageMain<'a>,
) -> Result<String, RenderError> {
    let settings = &view.profile.settings;
    let context_json = Markup::script_json(&view.context).map_err(RenderError::Context)?;
    let footer = Footer::new(view);
    let is_status_page = is_status_page(view);
    let url = urls::absolute_url(public_base_url, &view.path);
    let lang = document_language(&settings.locale);
    let image = view
        .image
        .as_ref()
        .filter(|image| urls::safe_src(&image.path).is_some());
    // The display rules never open it on a not-found or error page or a lock screen (000 s3),
    // so those leave it out.
    let popup_overlay = (!is_status_page)
        .then(|| {
            popup::PopupOverlay::for_site(
                &settings.popup_overlay,
                &settings.site_title,
                forms::CaptchaWidget::new(view.context.captcha_settings.as_ref()),
            )
        })
        .flatten();
    // Every language's copy of the page, and the default language's as `x-default` (the one
    // for visitors whose language the site does not have); none on status pages.
    let alternates: Vec<HrefLang> = if is_status_page {
        Vec::new()
    } else {
        let alternates = view.profile.languages.alternates(&view.path);
        let x_default = alternates.first().map(|first| HrefLang {
            lang: "x-default".to_owned(),
            href: urls::absolute_url(public_base_url, &first.path),
        });
        alternates
            .iter()
            .map(|alternate| HrefLang {
                lang: alternate.tag.to_string(),
                href: urls::absolute_url(public_base_url, &alternate.path),
            })
            .chain(x_default)
            .collect()
    };
    let feed = feed_link(view, public_base_url);
    let document = Document {
        lang,
        alternates,
        feed,
        title: &view.title,
        description: view.description.trim(),
        // A not-found or error page is not the canonical copy of anything.
        canonical: (!is_status_page).then(|| url.clone()),
        noindex: is_status_page,
        open_graph: OpenGraph {
            kind: open_graph_type(&view.content),
            url,
            image: image.map(|image| {
                let (path, width, height) = image::share_image(image);
                OpenGraphImage {
                    url: urls::absolute_url(public_base_url, &path),
                    width,
                    height,
                    alt: image.alt.trim(),
                }
            }),
            site_name: &settings.site_title,
            locale: lang.replace('-', "_"),
        },
        assets,
        context_json,
        header,
        main,
        footer,
        cookie_banner: consent::CookieBanner::for_site(settings),
        captcha_script: captcha_script(view, popup_overlay.as_ref()),
        popup_overlay,
    };
    Ok(document.render()?)
}

/// The renderer of pages rendered without plugins: it claims nothing, so plugin blocks show
/// the fallback.
static NO_PLUGINS: std::sync::LazyLock<NoPluginsRenderer> =
    std::sync::LazyLock::new(NoPluginsRenderer::new);

/// A plain error page for when the site itself cannot be read: no site data, no scripts.
pub fn render_unavailable_page(assets: &PageAssets) -> String {
    Unavailable {
        stylesheets: &assets.stylesheets,
    }
    .render()
    // The template prints nothing that can fail to format; this text is the same page.
    .unwrap_or_else(|_| FALLBACK_UNAVAILABLE_PAGE.to_owned())
}

const FALLBACK_UNAVAILABLE_PAGE: &str = "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Site unavailable</title></head><body><main><h1>This site is unavailable right now</h1><p>Please try again in a few minutes.</p></main></body></html>";

#[derive(Template)]
#[template(path = "document.html", whitespace = "minimize")]
struct Document<'a> {
    lang: &'a str,
    /// `<link rel="alternate" hreflang>` to the page in every published language.
    alternates: Vec<HrefLang>,
    /// `<link rel="alternate" type="application/rss+xml">` to the feed of the blog shown.
    feed: Option<FeedLink>,
    title: &'a str,
    description: &'a str,
    canonical: Option<String>,
    noindex: bool,
    open_graph: OpenGraph<'a>,
    assets: &'a PageAssets,
    context_json: Markup,
    header: Header<'a>,
    main: PageMain<'a>,
    footer: Footer<'a>,
    /// The cookie banner, for sites that enable it.
    cookie_banner: Option<consent::CookieBanner>,
    /// The captcha provider's script, on pages with a form when the server requires one.
    captcha_script: Option<&'static str>,
    /// The popup overlay, a closed dialog, for sites that have one.
    popup_overlay: Option<popup::PopupOverlay<'a>>,
}

/// The feed a blog's page and its posts' pages point feed readers to.
struct FeedLink {
    title: String,
    href: String,
}

/// The feed link of the blog `view` shows (its list or one of its posts); none for other
/// pages, and for a blog the gate keeps from anonymous visitors, which has no feed.
fn feed_link(view: &PageView, public_base_url: &str) -> Option<FeedLink> {
    let collection = match &view.content {
        PageContent::ItemList { collection, .. } | PageContent::Item { collection, .. } => {
            collection
        }
        _ => return None,
    };
    let path = vitrine_core::pages::feed_path(collection, &view.profile.settings.member_areas)?;
    Some(FeedLink {
        title: collection.title.clone(),
        href: urls::absolute_url(public_base_url, &path),
    })
}

/// One `hreflang` alternate of a page.
struct HrefLang {
    lang: String,
    href: String,
}

/// The captcha provider's script when this page shows a form or newsletter (its own or the
/// popup's) and the server requires a captcha: the widget needs it, and other pages should
/// not load it.
fn captcha_script(view: &PageView, popup: Option<&popup::PopupOverlay>) -> Option<&'static str> {
    let settings = view.context.captcha_settings.as_ref()?;
    let islands = islands_on(view);
    let popup_form = popup.is_some_and(|popup| popup.newsletter.is_some());
    if !islands.contains("form") && !islands.contains("newsletter") && !popup_form {
        return None;
    }
    forms::CaptchaWidget::script(&settings.provider)
}

/// The Content-Security-Policy of pages when it differs from the strict default: with the
/// captcha provider's hosts when the server requires a captcha, with the tile server's
/// origin among image sources when map blocks may load an interactive map, and with the
/// origins the page's own blocks load from (`third_parties`). `None` keeps the default.
pub fn page_content_security_policy(
    captcha_provider: Option<&str>,
    tile_origin: Option<&str>,
    third_parties: Option<&ThirdPartySources>,
) -> Option<String> {
    let third_parties = third_parties.filter(|sources| !sources.is_empty());
    if captcha_provider.is_none() && tile_origin.is_none() && third_parties.is_none() {
        return None;
    }
    let policy = captcha_provider.map_or_else(
        || crate::shared::security_headers::CONTENT_SECURITY_POLICY_VALUE.to_owned(),
        captcha_content_security_policy,
    );
    let policy = match tile_origin {
        Some(origin) => policy.replace(
            "img-src 'self' data:",
            &format!("img-src 'self' data: {origin}"),
        ),
        None => policy,
    };
    Some(match third_parties {
        Some(sources) => sources.widen(&policy),
        None => policy,
    })
}

/// The Content-Security-Policy of pages when the server requires a captcha: the strict
/// policy plus the provider's hosts for its script, its calls and its frames.
pub fn captcha_content_security_policy(provider: &str) -> String {
    let hosts = forms::CaptchaWidget::hosts(provider);
    crate::shared::security_headers::CONTENT_SECURITY_POLICY_VALUE
        .replace("script-src 'self'", &format!("script-src 'self' {hosts}"))
        .replace("connect-src 'self'", &format!("connect-src 'self' {hosts}"))
        + &format!("; frame-src {hosts}")
}

struct OpenGraph<'a> {
    /// `og:type`.
    kind: &'static str,
    url: String,
    image: Option<OpenGraphImage<'a>>,
    site_name: &'a str,
    locale: String,
}

struct OpenGraphImage<'a> {
    url: String,
    width: u32,
    height: u32,
    alt: &'a str,
}

impl OpenGraph<'_> {
    /// A large card when there is an image to show, a summary card otherwise.
    fn twitter_card(&self) -> &'static str {
        if self.image.is_some() {
            "summary_large_image"
        } else {
            "summary"
        }
    }
}

#[derive(Template)]
#[template(path = "unavailable.html", whitespace = "minimize")]
struct Unavailable<'a> {
    stylesheets: &'a [String],
}

fn open_graph_type(content: &PageContent) -> &'static str {
    match content {
        PageContent::Item { item, .. } if item.product.is_some() => "product",
        PageContent::Item { .. } => "article",
        _ => "website",
    }
}

/// The `lang` attribute: the site locale when it looks like a language tag, else the spec's
/// default locale, en-US.
fn document_language(locale: &str) -> &str {
    let locale = locale.trim();
    let plausible = !locale.is_empty()
        && locale.len() <= 35
        && locale
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-')
        && locale
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic());
    if plausible { locale } else { "en-US" }
}
