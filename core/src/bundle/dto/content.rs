//! The shapes of `collections/<slug>.toml` and of the item files beside them.

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, Visitor};

use crate::bundle::dto::{ImageDto, RowDto, SeoDto};
use crate::catalog::MAX_PRICE_CENTS;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CollectionFile {
    pub id: Option<String>,
    #[serde(rename = "type")]
    pub collection_type: CollectionTypeDto,
    pub title: String,
    #[serde(default)]
    pub description: String,
    #[serde(default = "enabled_by_default")]
    pub enabled: bool,
    #[serde(default)]
    pub permission: PermissionDto,
    /// The password that opens a password-protected collection, in plain text: the import
    /// keeps only its argon2id hash.
    pub password: Option<String>,
    #[serde(default)]
    pub seo: SeoDto,
    pub blocks: Option<Vec<toml::Table>>,
    pub rows: Option<Vec<RowDto>>,
}

fn enabled_by_default() -> bool {
    true
}

/// The collection types a bundle can declare: a layout page, a blog (the specification's
/// "generic" collection) and a shop ("products").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum CollectionTypeDto {
    Page,
    Generic,
    Products,
}

impl CollectionTypeDto {
    pub fn lists_items(self) -> bool {
        self != Self::Page
    }
}

#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum PermissionDto {
    #[default]
    Public,
    PasswordProtected,
    MembersOnly,
}

/// An item: the whole of a `.toml` item file, or the front matter of a `.md` one.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ItemFile {
    pub id: Option<String>,
    pub title: String,
    #[serde(default)]
    pub status: ItemStatusDto,
    pub published: toml::value::Datetime,
    #[serde(default)]
    pub position: u32,
    /// Markdown.
    pub excerpt: Option<String>,
    pub author: Option<String>,
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(default)]
    pub categories: Vec<String>,
    pub image: Option<ImageDto>,
    #[serde(default)]
    pub seo: SeoDto,
    pub blocks: Option<Vec<toml::Table>>,
    pub rows: Option<Vec<RowDto>>,
    pub product: Option<ProductDto>,
}

/// Item statuses of spec 001 s3; a bundle has no use for "deleted".
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum ItemStatusDto {
    #[default]
    Published,
    Scheduled,
    NeedsReview,
    Draft,
    Private,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ProductDto {
    #[serde(rename = "type")]
    pub product_type: ProductTypeDto,
    /// The option names every variant sets, in display order (e.g. Size, Colour).
    #[serde(default)]
    pub options: Vec<String>,
    pub variants: Vec<VariantDto>,
    /// Sold as a subscription: `subscription = { every = 1, unit = "month", cycles = 0 }`.
    pub subscription: Option<SubscriptionDto>,
    /// What the shopper is asked when adding the product to the cart: `[product.form]`.
    pub form: Option<ProductFormDto>,
}

/// A product's form: a title and `[[product.form.fields]]` written as a form block's fields.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ProductFormDto {
    pub title: Option<String>,
    pub fields: Vec<super::FormFieldDto>,
}

/// A subscription plan (000 s3): billed every `every` units; `cycles` 0 or absent means
/// until cancelled.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SubscriptionDto {
    pub every: std::num::NonZeroU32,
    pub unit: crate::catalog::BillingUnit,
    pub cycles: Option<u32>,
}

/// Product types of spec 000 s3.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum ProductTypeDto {
    Physical,
    Digital,
    Service,
    GiftCard,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct VariantDto {
    /// Absent: a SKU is generated, `SQ` followed by 7 digits (000 s5).
    pub sku: Option<String>,
    pub price: Cents,
    pub sale_price: Option<Cents>,
    #[serde(default)]
    pub on_sale: bool,
    pub stock: Option<u32>,
    #[serde(default)]
    pub unlimited: bool,
    #[serde(default)]
    pub options: BTreeMap<String, String>,
}

/// A price in the store currency's minor units, within the limit of spec 000 s5.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Cents(pub i64);

const CENTS_EXPECTED: &str = "an integer number of cents from 0 to 100000000";

impl<'de> Deserialize<'de> for Cents {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_i64(CentsVisitor)
    }
}

struct CentsVisitor;

impl Visitor<'_> for CentsVisitor {
    type Value = Cents;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(CENTS_EXPECTED)
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<Cents, E> {
        if (0..=MAX_PRICE_CENTS).contains(&value) {
            Ok(Cents(value))
        } else {
            Err(E::custom(format!(
                "expected {CENTS_EXPECTED}, found {value}"
            )))
        }
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<Cents, E> {
        match i64::try_from(value) {
            Ok(value) => self.visit_i64(value),
            Err(_) => Err(E::custom(format!(
                "expected {CENTS_EXPECTED}, found {value}"
            ))),
        }
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Cents, E> {
        // Prices are whole cents: 12.5 is refused rather than silently rounded.
        Err(E::custom(format!(
            "expected {CENTS_EXPECTED}, found {value}"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize)]
    struct Priced {
        price: Cents,
    }

    #[test]
    fn cents_accept_the_spec_range_only() {
        let ok: Priced = toml::from_str("price = 100000000").unwrap();
        assert_eq!(ok.price, Cents(MAX_PRICE_CENTS));
        let error = toml::from_str::<Priced>("price = -5").unwrap_err();
        assert_eq!(
            error.message(),
            format!("expected {CENTS_EXPECTED}, found -5")
        );
        let error = toml::from_str::<Priced>("price = 12.5").unwrap_err();
        assert_eq!(
            error.message(),
            format!("expected {CENTS_EXPECTED}, found 12.5")
        );
    }
}
