//! JSON-LD `Product` data for product pages (schema.org), so search engines read the price,
//! currency, availability and rating a shopper sees: one `Offer` per variant.

use serde::Serialize;
use vitrine_core::catalog::Product;
use vitrine_core::money::Currency;
use vitrine_core::reviews::RatingSummary;
use vitrine_core::site::Item;

use super::markup::Markup;

const IN_STOCK: &str = "https://schema.org/InStock";
const OUT_OF_STOCK: &str = "https://schema.org/OutOfStock";

#[derive(Debug, Serialize)]
struct ProductData<'a> {
    #[serde(rename = "@context")]
    context: &'static str,
    #[serde(rename = "@type")]
    kind: &'static str,
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    image: Option<String>,
    url: &'a str,
    /// The SKU of a product with one variant; with several, each offer carries its own.
    #[serde(skip_serializing_if = "Option::is_none")]
    sku: Option<&'a str>,
    offers: Vec<Offer<'a>>,
    #[serde(rename = "aggregateRating", skip_serializing_if = "Option::is_none")]
    aggregate_rating: Option<AggregateRating>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Offer<'a> {
    #[serde(rename = "@type")]
    kind: &'static str,
    sku: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    /// A decimal in major units, as schema.org expects ("12.50"; "1200" for yen).
    price: String,
    price_currency: &'static str,
    availability: &'static str,
    url: &'a str,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct AggregateRating {
    #[serde(rename = "@type")]
    kind: &'static str,
    /// One decimal, e.g. "4.3".
    rating_value: String,
    review_count: u32,
    best_rating: u8,
    worst_rating: u8,
}

/// What the page knows about the product beyond the catalogue entry.
pub(crate) struct ProductPageFacts<'a> {
    pub(crate) url: &'a str,
    pub(crate) description: &'a str,
    pub(crate) image_url: Option<String>,
    pub(crate) currency: Currency,
    pub(crate) rating: Option<RatingSummary>,
}

/// The `<script type="application/ld+json">` body for a product page.
pub(crate) fn product_json_ld(
    item: &Item,
    product: &Product,
    facts: ProductPageFacts<'_>,
) -> Markup {
    let description = Some(facts.description.trim()).filter(|text| !text.is_empty());
    let data = ProductData {
        context: "https://schema.org",
        kind: "Product",
        name: &item.title,
        description,
        image: facts.image_url,
        url: facts.url,
        sku: match product.variants.as_slice() {
            [only] => Some(only.sku.as_str()),
            _ => None,
        },
        offers: product
            .variants
            .iter()
            .map(|variant| Offer {
                kind: "Offer",
                sku: variant.sku.as_str(),
                name: (!variant.option_values.is_empty()).then(|| {
                    variant
                        .option_values
                        .iter()
                        .map(|option| format!("{}: {}", option.name, option.value))
                        .collect::<Vec<_>>()
                        .join(", ")
                }),
                price: decimal(variant.effective_price(), facts.currency),
                price_currency: facts.currency.code(),
                availability: if product.variant_sold_out(variant) {
                    OUT_OF_STOCK
                } else {
                    IN_STOCK
                },
                url: facts.url,
            })
            .collect(),
        aggregate_rating: facts
            .rating
            .filter(|rating| rating.count() > 0)
            .map(|rating| AggregateRating {
                kind: "AggregateRating",
                rating_value: rating.average_text(),
                review_count: rating.count(),
                best_rating: 5,
                worst_rating: 1,
            }),
    };
    // Plain strings and numbers always serialise; an empty object would only lose the data.
    Markup::script_json(&data).unwrap_or_default()
}

/// Minor units as a decimal string in major units with the currency's fraction digits.
fn decimal(minor: i64, currency: Currency) -> String {
    let digits = currency.fraction_digits() as usize;
    if digits == 0 {
        return minor.to_string();
    }
    let per_major = currency.minor_units_per_major();
    let sign = if minor < 0 { "-" } else { "" };
    let minor = minor.unsigned_abs();
    let per_major = per_major.unsigned_abs();
    format!("{sign}{}.{:0digits$}", minor / per_major, minor % per_major)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prices_are_decimals_in_major_units() {
        assert_eq!(decimal(1250, Currency::Eur), "12.50");
        assert_eq!(decimal(5, Currency::Usd), "0.05");
        assert_eq!(decimal(1200, Currency::Jpy), "1200");
        assert_eq!(decimal(100_000_000, Currency::Usd), "1000000.00");
    }
}
