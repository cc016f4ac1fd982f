//! What every part of one page render shares: the page, the store's money format, and which
//! image is the page's first (the one that loads eagerly).

use std::cell::{Cell, RefCell};

use vitrine_core::catalog::Product;
use vitrine_core::map_tiles::TileServer;
use vitrine_core::money::{self, Currency, FormatOptions, Locale, Money};
use vitrine_core::pages::PageView;
use vitrine_core::plugins::{BlockRenderer, PluginCss};
use vitrine_core::reviews::ProductReviews;
use vitrine_core::site::MediaRef;

use super::commerce::PriceView;
use super::image::{ImageSizes, ImageView, Loading};
use super::urls;

pub(crate) struct RenderScope<'a> {
    pub(crate) view: &'a PageView,
    locale: Locale,
    currency: Currency,
    /// Set once the first content image has been handed out; every later one loads lazily.
    hero_taken: Cell<bool>,
    /// Renders the blocks plugins claim, when the page is rendered with plugins.
    plugins: Option<&'a dyn BlockRenderer>,
    /// The shortest reuse time a plugin rendering on the page asked for.
    cache_seconds: Cell<Option<u32>>,
    /// The plugin blocks' own stylesheets, for the server to serve.
    stylesheets: RefCell<Vec<PluginCss>>,
    /// The site's public origin, for absolute URLs in structured data.
    base_url: &'a str,
    /// The reviews of the page's product, when the page is a product page.
    reviews: Option<&'a ProductReviews>,
    /// The tile server of map blocks, when the site has one.
    map_tiles: Option<&'a TileServer>,
}

impl<'a> RenderScope<'a> {
    pub(crate) fn new(view: &'a PageView) -> Self {
        let settings = &view.profile.settings;
        Self {
            view,
            locale: Locale::best_match(&settings.locale),
            currency: settings.store.selected_currency,
            hero_taken: Cell::new(false),
            plugins: None,
            cache_seconds: Cell::new(None),
            stylesheets: RefCell::new(Vec::new()),
            base_url: "",
            reviews: None,
            map_tiles: None,
        }
    }

    pub(crate) fn with_map_tiles(mut self, map_tiles: Option<&'a TileServer>) -> Self {
        self.map_tiles = map_tiles;
        self
    }

    pub(crate) fn map_tiles(&self) -> Option<&'a TileServer> {
        self.map_tiles
    }

    pub(crate) fn with_reviews(mut self, reviews: Option<&'a ProductReviews>) -> Self {
        self.reviews = reviews;
        self
    }

    pub(crate) fn reviews(&self) -> Option<&'a ProductReviews> {
        self.reviews
    }

    pub(crate) fn with_base_url(mut self, base_url: &'a str) -> Self {
        self.base_url = base_url;
        self
    }

    pub(crate) fn base_url(&self) -> &'a str {
        self.base_url
    }

    pub(crate) fn currency(&self) -> Currency {
        self.currency
    }

    pub(crate) fn with_plugins(mut self, plugins: &'a dyn BlockRenderer) -> Self {
        self.plugins = Some(plugins);
        self
    }

    pub(crate) fn plugins(&self) -> Option<&'a dyn BlockRenderer> {
        self.plugins
    }

    /// Records that a part of the page may be reused for `seconds` at most.
    pub(crate) fn limit_cache_seconds(&self, seconds: u32) {
        let shortest = self
            .cache_seconds
            .get()
            .map_or(seconds, |old| old.min(seconds));
        self.cache_seconds.set(Some(shortest));
    }

    /// Keeps a plugin block's stylesheet, which the page links to.
    pub(crate) fn add_stylesheet(&self, css: PluginCss) {
        self.stylesheets.borrow_mut().push(css);
    }

    /// The plugin blocks' stylesheets the page links to.
    pub(crate) fn take_stylesheets(&self) -> Vec<PluginCss> {
        self.stylesheets.take()
    }

    /// How long the page may be reused, when a part of it limited that.
    pub(crate) fn cache_seconds(&self) -> Option<u32> {
        self.cache_seconds.get()
    }

    pub(crate) fn locale_tag(&self) -> &'a str {
        &self.view.profile.settings.locale
    }

    /// A site path inside the page's language: `/fr/shop` for `/shop` on a French page.
    pub(crate) fn page_href(&self, path: String) -> String {
        let languages = &self.view.profile.languages;
        match languages
            .published
            .iter()
            .find(|language| language.tag == languages.current)
            .and_then(|language| language.prefix.as_deref())
        {
            Some(prefix) if path == "/" => format!("/{prefix}"),
            Some(prefix) => format!("/{prefix}{path}"),
            None => path,
        }
    }

    /// A date as the page's language writes it.
    pub(crate) fn date(&self, epoch_millis: i64) -> Option<super::dates::DisplayDate> {
        super::dates::display_date_in(epoch_millis, self.locale_tag())
    }

    pub(crate) fn currency_code(&self) -> &'static str {
        self.currency.code()
    }

    /// An image of the page content with its own alt text.
    pub(crate) fn image(&self, media: &'a MediaRef) -> Option<ImageView<'a>> {
        self.image_with_alt(media, &media.alt)
    }

    /// An image whose alt text the caller chooses, e.g. empty when the surrounding link
    /// already says what it shows. The first content image of the page (built in document
    /// order) loads eagerly, as the likely largest contentful paint; the rest load lazily.
    pub(crate) fn image_with_alt(
        &self,
        media: &'a MediaRef,
        alt: &'a str,
    ) -> Option<ImageView<'a>> {
        urls::safe_src(&media.path)?;
        let loading = if self.hero_taken.replace(true) {
            Loading::Lazy
        } else {
            Loading::Priority
        };
        ImageView::new(media, alt, loading, ImageSizes::Content)
    }

    /// An amount in the store currency, formatted for the site locale.
    pub(crate) fn money(&self, amount_minor: i64) -> String {
        money::format(
            Money::new(amount_minor, self.currency),
            &self.locale,
            FormatOptions::default(),
        )
    }

    pub(crate) fn price(&self, product: &Product) -> PriceView {
        PriceView::new(&product.price_display(), |amount| self.money(amount))
    }
}
