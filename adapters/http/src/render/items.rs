//! Items: the cards that list them (in summaries, blogs and shops) and the pages of a single
//! blog post or product.

use askama::Template;
use vitrine_core::catalog::Product;
use vitrine_core::enums::{CollectionType, ProductType};
use vitrine_core::site::{Collection, Item};

use super::commerce::{AddToCartForm, PriceView};
use super::dates::DisplayDate;
use super::gift_cards::gift_card_checkout_href;
use super::image::ImageView;
use super::layout::LayoutView;
use super::markup::Markup;
use super::product_data::{ProductPageFacts, product_json_ld};
use super::reviews::ReviewsSection;
use super::scope::RenderScope;
use super::urls;

/// The site path of an item's own page.
pub(crate) fn item_path(collection: &Collection, item: &Item) -> String {
    format!("/{}/{}", collection.slug, item.slug)
}

/// One item in a list: image, title linking to the item, and a price for products or a date
/// and excerpt for posts. The whole card is clickable through its title link (CSS), so each
/// card is one link and one tab stop.
#[derive(Debug, Template)]
#[template(path = "partials/item_card.html", whitespace = "minimize")]
pub(crate) struct ItemCard<'a> {
    pub(crate) href: String,
    pub(crate) title: &'a str,
    pub(crate) image: Option<ImageView<'a>>,
    pub(crate) date: Option<DisplayDate>,
    pub(crate) excerpt: String,
    pub(crate) price: Option<PriceView>,
    /// `h2` in a page's list, `h3` under a summary's own heading.
    pub(crate) heading_level: u8,
}

super::markup::nested_templates!(ItemCard);

impl<'a> ItemCard<'a> {
    pub(crate) fn new(
        scope: &RenderScope<'a>,
        collection: &Collection,
        item: &'a Item,
        heading_level: u8,
    ) -> Self {
        let price = item.product.as_ref().map(|product| scope.price(product));
        Self {
            href: scope.page_href(item_path(collection, item)),
            title: &item.title,
            image: item.image.as_ref().and_then(|image| scope.image(image)),
            // Products are not dated; posts are.
            date: if price.is_some() {
                None
            } else {
                scope.date(item.published_on)
            },
            excerpt: if price.is_some() {
                String::new()
            } else {
                item.excerpt.plain_text()
            },
            price,
            heading_level,
        }
    }
}

/// A blog or shop page: its title, its intro blocks and its items.
#[derive(Debug, Template)]
#[template(path = "pages/item_list.html", whitespace = "minimize")]
pub(crate) struct ItemListPage<'a> {
    /// `None` when the intro blocks bring their own `h1`.
    pub(crate) heading: Option<&'a str>,
    pub(crate) description: &'a str,
    pub(crate) intro: LayoutView<'a>,
    pub(crate) cards: Vec<ItemCard<'a>>,
    /// A shop (a products collection) lists its items in a grid; a blog lists posts.
    pub(crate) is_shop: bool,
}

impl<'a> ItemListPage<'a> {
    pub(crate) fn new(
        scope: &RenderScope<'a>,
        collection: &'a Collection,
        items: &'a [Item],
    ) -> Self {
        let intro = LayoutView::new(scope, &collection.body.layout);
        Self {
            heading: (!intro.has_main_heading()).then_some(collection.title.as_str()),
            description: collection.description.trim(),
            cards: items
                .iter()
                .map(|item| ItemCard::new(scope, collection, item, 2))
                .collect(),
            is_shop: collection.collection_type == CollectionType::Products,
            intro,
        }
    }
}

/// A blog post: title, date, author, image, body and tags.
#[derive(Debug, Template)]
#[template(path = "pages/post.html", whitespace = "minimize")]
pub(crate) struct PostPage<'a> {
    pub(crate) title: &'a str,
    pub(crate) date: Option<DisplayDate>,
    pub(crate) author: Option<&'a str>,
    pub(crate) image: Option<ImageView<'a>>,
    pub(crate) body: LayoutView<'a>,
    /// Shown when the post has no body blocks.
    pub(crate) excerpt: Markup,
    pub(crate) tags: &'a [String],
    pub(crate) collection_title: &'a str,
    pub(crate) collection_href: String,
}

impl<'a> PostPage<'a> {
    pub(crate) fn new(scope: &RenderScope<'a>, collection: &'a Collection, item: &'a Item) -> Self {
        Self {
            title: &item.title,
            date: scope.date(item.published_on),
            author: item
                .author
                .as_deref()
                .filter(|author| !author.trim().is_empty()),
            image: item.image.as_ref().and_then(|image| scope.image(image)),
            body: LayoutView::new(scope, &item.body.layout),
            excerpt: Markup::sanitized(&item.excerpt),
            tags: &item.tags,
            collection_title: &collection.title,
            collection_href: scope.page_href(collection.path()),
        }
    }
}

/// A product page: image, title, price, description, the add-to-cart form, then the body.
#[derive(Debug, Template)]
#[template(path = "pages/product.html", whitespace = "minimize")]
pub(crate) struct ProductPage<'a> {
    pub(crate) title: &'a str,
    pub(crate) image: Option<ImageView<'a>>,
    pub(crate) price: PriceView,
    /// "Every month, until cancelled", for a product sold as a subscription.
    pub(crate) subscription: Option<String>,
    pub(crate) excerpt: Markup,
    pub(crate) form: AddToCartForm<'a>,
    /// The gift card checkout page, for a gift card product.
    pub(crate) gift_card_href: Option<String>,
    /// schema.org `Product` data as JSON-LD.
    pub(crate) json_ld: Markup,
    /// Shown when the page was rendered with the product's reviews.
    pub(crate) reviews: Option<ReviewsSection>,
    pub(crate) body: LayoutView<'a>,
    pub(crate) collection_title: &'a str,
    pub(crate) collection_href: String,
}

impl<'a> ProductPage<'a> {
    pub(crate) fn new(
        scope: &RenderScope<'a>,
        collection: &'a Collection,
        item: &'a Item,
        product: &'a Product,
    ) -> Self {
        Self {
            title: &item.title,
            image: item.image.as_ref().and_then(|image| scope.image(image)),
            price: scope.price(product),
            subscription: product.subscription_plan.map(|plan| plan.describe()),
            excerpt: Markup::sanitized(&item.excerpt),
            form: AddToCartForm::new(scope, item, product, "product".to_owned()),
            gift_card_href: (product.product_type == ProductType::GiftCard).then(|| {
                gift_card_checkout_href(
                    scope.view.profile.website.id.as_str(),
                    item.id.as_str(),
                    None,
                )
            }),
            json_ld: product_json_ld(
                item,
                product,
                ProductPageFacts {
                    url: &urls::absolute_url(scope.base_url(), &scope.view.path),
                    description: &scope.view.description,
                    image_url: item
                        .image
                        .as_ref()
                        .and_then(|image| urls::safe_src(&image.path))
                        .map(|src| urls::absolute_url(scope.base_url(), src)),
                    currency: scope.currency(),
                    rating: scope.reviews().map(|reviews| reviews.summary),
                },
            ),
            reviews: scope.reviews().map(ReviewsSection::new),
            body: LayoutView::new(scope, &item.body.layout),
            collection_title: &collection.title,
            collection_href: scope.page_href(collection.path()),
        }
    }
}
