//! Prices and the add-to-cart form: how a product's price display state (spec 000 s4) reads on
//! a page, in the store currency.

use askama::Template;
use serde::Serialize;
use vitrine_core::catalog::{PriceDisplay, Product, Variant};
use vitrine_core::site::Item;

use super::scope::RenderScope;

/// A product's price as shown in listings and on its page.
#[derive(Debug, Clone, PartialEq, Eq, Template)]
#[template(path = "partials/price.html", whitespace = "minimize")]
pub(crate) struct PriceView {
    /// The lowest price a shopper pays, formatted.
    pub(crate) current: String,
    /// Variants differ in price, so the current price reads "from ...".
    pub(crate) varied: bool,
    pub(crate) on_sale: bool,
    /// The price before the sale, struck through.
    pub(crate) regular: Option<String>,
    pub(crate) sold_out: bool,
}

impl PriceView {
    pub(crate) fn new(display: &PriceDisplay, format: impl Fn(i64) -> String) -> Self {
        Self {
            current: format(display.from),
            varied: display.varied_prices,
            on_sale: display.on_sale,
            regular: display
                .regular_price
                .filter(|regular| *regular != display.from)
                .map(&format),
            sold_out: display.sold_out,
        }
    }
}

impl askama::filters::HtmlSafe for PriceView {}

/// The form that adds a product to the cart.
#[derive(Debug, Clone, Template)]
#[template(path = "partials/add_to_cart.html", whitespace = "minimize")]
pub(crate) struct AddToCartForm<'a> {
    /// Prefix of the form's element ids, unique on the page.
    pub(crate) id_prefix: String,
    pub(crate) item_id: &'a str,
    /// The variants to choose from; a product with one variant gets no choice.
    pub(crate) choices: Vec<VariantChoice>,
    /// The SKU sent when there is nothing to choose.
    pub(crate) only_sku: Option<&'a str>,
    pub(crate) sold_out: bool,
    /// JSON for the product island (`web/src/islands/product.tsx`), escaped as an attribute.
    pub(crate) island_props: String,
    /// The details the product asks for, sent with the add.
    pub(crate) product_form: Option<super::product_form::ProductFormFields>,
}

/// What the product island needs to show the chosen variant's price and stock without asking
/// the server: every variant's prices, already formatted in the store currency.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ProductIslandProps {
    pub(crate) item_id: String,
    pub(crate) variants: Vec<VariantOffer>,
}

/// One variant as the island shows it once chosen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct VariantOffer {
    pub(crate) sku: String,
    /// What one unit costs now, formatted.
    pub(crate) price: String,
    /// The price before the sale, formatted, only when on sale.
    pub(crate) regular: Option<String>,
    pub(crate) on_sale: bool,
    pub(crate) sold_out: bool,
}

impl ProductIslandProps {
    pub(crate) fn new(scope: &RenderScope<'_>, item_id: &str, product: &Product) -> Self {
        Self {
            item_id: item_id.to_owned(),
            variants: product
                .variants
                .iter()
                .map(|variant| VariantOffer {
                    sku: variant.sku.as_str().to_owned(),
                    price: scope.money(variant.effective_price()),
                    regular: variant.on_sale.then(|| scope.money(variant.price)),
                    on_sale: variant.on_sale,
                    sold_out: product.variant_sold_out(variant),
                })
                .collect(),
        }
    }
}

/// One option of the variant `<select>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct VariantChoice {
    pub(crate) sku: String,
    pub(crate) label: String,
    pub(crate) sold_out: bool,
}

impl<'a> AddToCartForm<'a> {
    pub(crate) fn new(
        scope: &RenderScope<'_>,
        item: &'a Item,
        product: &'a Product,
        id_prefix: String,
    ) -> Self {
        let display = product.price_display();
        let only_sku = match product.variants.as_slice() {
            [only] => Some(only.sku.as_str()),
            _ => None,
        };
        let choices = if only_sku.is_some() {
            Vec::new()
        } else {
            product
                .variants
                .iter()
                .map(|variant| VariantChoice {
                    sku: variant.sku.as_str().to_owned(),
                    label: variant_label(scope, variant, display.varied_prices, product),
                    sold_out: product.variant_sold_out(variant),
                })
                .collect()
        };
        let props = ProductIslandProps::new(scope, item.id.as_str(), product);
        Self {
            item_id: item.id.as_str(),
            choices,
            only_sku,
            sold_out: display.sold_out,
            // Serialising plain strings and flags cannot fail.
            island_props: serde_json::to_string(&props).unwrap_or_else(|_| "{}".to_owned()),
            product_form: product.form.as_ref().map(|form| {
                super::product_form::ProductFormFields::new(
                    &id_prefix,
                    form,
                    &Default::default(),
                    &Default::default(),
                )
            }),
            id_prefix,
        }
    }
}

super::markup::nested_templates!(AddToCartForm);

/// "Size: M, Colour: Blue", with the price when variants differ in price and a sold-out mark.
fn variant_label(
    scope: &RenderScope<'_>,
    variant: &Variant,
    with_price: bool,
    product: &Product,
) -> String {
    let mut label = if variant.option_values.is_empty() {
        variant.sku.as_str().to_owned()
    } else {
        variant
            .option_values
            .iter()
            .map(|option| format!("{}: {}", option.name, option.value))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if with_price {
        label.push_str(" — ");
        label.push_str(&scope.money(variant.effective_price()));
    }
    if product.variant_sold_out(variant) {
        label.push_str(" (Sold out)");
    }
    label
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dollars(cents: i64) -> String {
        format!("${}.{:02}", cents / 100, cents % 100)
    }

    fn display(from: i64, varied: bool, regular: Option<i64>, sold_out: bool) -> PriceDisplay {
        PriceDisplay {
            from,
            varied_prices: varied,
            on_sale: regular.is_some(),
            regular_price: regular,
            sold_out,
        }
    }

    #[test]
    fn a_plain_price_is_just_the_amount() {
        let html = PriceView::new(&display(2500, false, None, false), dollars).to_string();
        assert!(
            html.contains(r#"<span class="price__current">$25.00</span>"#),
            "{html}"
        );
        assert!(
            !html.contains("from") && !html.contains("<s ") && !html.contains("badge"),
            "{html}"
        );
    }

    #[test]
    fn a_sale_strikes_the_regular_price_and_marks_it() {
        let html = PriceView::new(&display(2000, false, Some(2500), false), dollars).to_string();
        assert!(html.contains("$20.00"), "{html}");
        assert!(
            html.contains(r#"<s class="price__regular">"#) && html.contains("$25.00</s>"),
            "{html}"
        );
        assert!(
            html.contains(r#"<span class="badge badge--sale">Sale</span>"#),
            "{html}"
        );
    }

    #[test]
    fn varied_prices_read_from_the_lowest() {
        let html = PriceView::new(&display(1200, true, None, false), dollars).to_string();
        assert!(html.contains(r#"<span class="price__from">from</span> <span class="price__current">$12.00</span>"#), "{html}");
    }

    #[test]
    fn sold_out_products_are_marked() {
        let html = PriceView::new(&display(1200, false, None, true), dollars).to_string();
        assert!(
            html.contains(r#"<span class="badge badge--sold-out">Sold out</span>"#),
            "{html}"
        );
    }
}
