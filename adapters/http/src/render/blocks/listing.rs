//! Blocks that list other content: summaries of a collection's items, and a single product.

use askama::Template;
use vitrine_core::catalog::Product;
use vitrine_core::pages::ResolvedProduct;
use vitrine_core::site::{BlockId, ItemId, SummaryDesign};

use crate::render::commerce::{AddToCartForm, PriceView};
use crate::render::image::ImageView;
use crate::render::items::ItemCard;
use crate::render::markup::Markup;
use crate::render::scope::RenderScope;

/// Another collection's items as cards (summary v2). The page service fetched them; a summary
/// whose collection is gone shows its title and an empty-state line.
#[derive(Debug, Template)]
#[template(path = "blocks/summary.html", whitespace = "minimize")]
pub(crate) struct SummaryBlock<'a> {
    pub(crate) title: Option<&'a str>,
    pub(crate) design: &'static str,
    pub(crate) cards: Vec<ItemCard<'a>>,
}

impl<'a> SummaryBlock<'a> {
    pub(crate) fn new(
        scope: &RenderScope<'a>,
        block_id: &'a BlockId,
        title: Option<&'a str>,
        design: SummaryDesign,
    ) -> Self {
        let title = title.filter(|title| !title.trim().is_empty());
        // Card titles sit one level below the summary's own heading, if it has one.
        let heading_level = if title.is_some() { 3 } else { 2 };
        let cards = scope
            .view
            .resolved
            .summaries
            .get(block_id)
            .map(|summary| {
                summary
                    .items
                    .iter()
                    .map(|item| ItemCard::new(scope, &summary.collection, item, heading_level))
                    .collect()
            })
            .unwrap_or_default();
        Self {
            title,
            design: match design {
                SummaryDesign::Grid => "grid",
                SummaryDesign::List => "list",
                SummaryDesign::Carousel => "carousel",
                SummaryDesign::Wall => "wall",
            },
            cards,
        }
    }
}

/// One product with its price and add-to-cart form. A product that no longer exists leaves
/// the block empty.
#[derive(Debug, Template)]
#[template(path = "blocks/product.html", whitespace = "minimize")]
pub(crate) struct ProductBlock<'a> {
    pub(crate) product: Option<ProductSummary<'a>>,
}

#[derive(Debug)]
pub(crate) struct ProductSummary<'a> {
    pub(crate) title: &'a str,
    pub(crate) href: &'a str,
    pub(crate) image: Option<ImageView<'a>>,
    pub(crate) price: PriceView,
    pub(crate) excerpt: Markup,
    pub(crate) form: AddToCartForm<'a>,
}

impl<'a> ProductBlock<'a> {
    pub(crate) fn new(scope: &RenderScope<'a>, block_id: &str, item_id: &ItemId) -> Self {
        let product = scope
            .view
            .resolved
            .products
            .get(item_id)
            .and_then(|resolved| Some((resolved, resolved.item.product.as_ref()?)))
            .map(|(resolved, product): (&'a ResolvedProduct, &'a Product)| {
                let item = &resolved.item;
                ProductSummary {
                    title: &item.title,
                    href: &resolved.path,
                    image: item.image.as_ref().and_then(|image| scope.image(image)),
                    price: scope.price(product),
                    excerpt: Markup::sanitized(&item.excerpt),
                    form: AddToCartForm::new(scope, item, product, format!("block-{block_id}")),
                }
            });
        Self { product }
    }
}
