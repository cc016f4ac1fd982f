//! Products and variants (spec 000 s3) and their display states (spec 000 s4).

use serde::{Deserialize, Serialize};

use crate::enums::ProductType;

/// The highest price a product may have, in cents (spec 000 s5).
pub const MAX_PRICE_CENTS: i64 = 100_000_000;

/// Why a product or one of its values was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProductError {
    #[error("a SKU must not be empty")]
    EmptySku,
    #[error("a SKU has at most {max} characters; '{sku}' has {len}", max = Sku::MAX_LEN)]
    SkuTooLong { sku: String, len: usize },
    #[error("price {0} is outside 0 to {MAX_PRICE_CENTS} cents")]
    PriceOutOfRange(i64),
    #[error("a product needs at least one variant")]
    NoVariants,
    #[error("SKU '{0}' is used by two variants")]
    DuplicateSku(String),
}

/// A stock-keeping unit: at most 60 characters (spec 000 s5).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Sku(String);

impl Sku {
    pub const MAX_LEN: usize = 60;

    pub fn parse(value: impl Into<String>) -> Result<Self, ProductError> {
        let value = value.into();
        let len = value.chars().count();
        if value.trim().is_empty() {
            return Err(ProductError::EmptySku);
        }
        if len > Self::MAX_LEN {
            return Err(ProductError::SkuTooLong { sku: value, len });
        }
        Ok(Self(value))
    }

    /// The generated form of spec 000 s5: `SQ` followed by 7 digits.
    pub fn generated(number: u32) -> Self {
        Self(format!("SQ{:07}", number % 10_000_000))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for Sku {
    type Error = ProductError;
    fn try_from(value: String) -> Result<Self, Self::Error> {
        Self::parse(value)
    }
}

impl From<Sku> for String {
    fn from(sku: Sku) -> String {
        sku.0
    }
}

/// One option choice of a variant, such as Size: M.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OptionValue {
    pub name: String,
    pub value: String,
}

/// A purchasable variant (spec 000 s3). Prices are in the store currency's minor units.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Variant {
    pub sku: Sku,
    pub price: i64,
    pub sale_price: i64,
    pub on_sale: bool,
    pub qty_in_stock: u32,
    pub unlimited: bool,
    pub option_values: Vec<OptionValue>,
}

impl Variant {
    /// What the shopper pays for one unit.
    pub fn effective_price(&self) -> i64 {
        if self.on_sale {
            self.sale_price
        } else {
            self.price
        }
    }

    pub fn is_sold_out(&self) -> bool {
        !self.unlimited && self.qty_in_stock == 0
    }
}

/// A product's structured content (spec 000 s3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Product {
    pub product_type: ProductType,
    pub variants: Vec<Variant>,
    /// Set when the product is sold as a subscription.
    #[serde(default)]
    pub subscription_plan: Option<super::SubscriptionPlan>,
    /// What the shopper is asked when adding the product to the cart, if anything.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub form: Option<super::ProductForm>,
}

impl Product {
    pub fn new(product_type: ProductType, variants: Vec<Variant>) -> Result<Self, ProductError> {
        if variants.is_empty() {
            return Err(ProductError::NoVariants);
        }
        for (index, variant) in variants.iter().enumerate() {
            for price in [variant.price, variant.sale_price] {
                if !(0..=MAX_PRICE_CENTS).contains(&price) {
                    return Err(ProductError::PriceOutOfRange(price));
                }
            }
            if variants[..index]
                .iter()
                .any(|other| other.sku == variant.sku)
            {
                return Err(ProductError::DuplicateSku(variant.sku.as_str().to_owned()));
            }
        }
        Ok(Self {
            product_type,
            variants,
            subscription_plan: None,
            form: None,
        })
    }

    /// Whether this product's `variant` can no longer be bought: limited with zero stock,
    /// unless the product is digital, which never sells out (spec 000 s4).
    pub fn variant_sold_out(&self, variant: &Variant) -> bool {
        self.product_type != ProductType::Digital && variant.is_sold_out()
    }

    /// The display states of spec 000 s4.
    pub fn price_display(&self) -> PriceDisplay {
        let lowest = self
            .variants
            .iter()
            .map(Variant::effective_price)
            .min()
            .unwrap_or(0);
        let highest = self
            .variants
            .iter()
            .map(Variant::effective_price)
            .max()
            .unwrap_or(0);
        let on_sale = self.variants.iter().any(|variant| variant.on_sale);
        // A digital product has no stock to run out of.
        let sold_out = self.product_type != ProductType::Digital
            && self.variants.iter().all(Variant::is_sold_out);
        let regular = self
            .variants
            .iter()
            .filter(|variant| variant.on_sale && variant.effective_price() == lowest)
            .map(|variant| variant.price)
            .min();
        PriceDisplay {
            from: lowest,
            varied_prices: lowest != highest,
            on_sale,
            regular_price: if on_sale { regular } else { None },
            sold_out,
        }
    }
}

/// How a product's price reads in a listing: "from" the lowest price when variants differ,
/// the regular price struck through when on sale, and a sold-out mark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PriceDisplay {
    pub from: i64,
    pub varied_prices: bool,
    pub on_sale: bool,
    pub regular_price: Option<i64>,
    pub sold_out: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn variant(sku: &str, price: i64, stock: u32) -> Variant {
        Variant {
            sku: Sku::parse(sku).unwrap(),
            price,
            sale_price: 0,
            on_sale: false,
            qty_in_stock: stock,
            unlimited: false,
            option_values: vec![],
        }
    }

    #[test]
    fn all_limited_variants_out_of_stock_are_sold_out_except_digital() {
        let physical = Product::new(ProductType::Physical, vec![variant("A", 100, 0)]).unwrap();
        assert!(physical.price_display().sold_out);
        let digital = Product::new(ProductType::Digital, vec![variant("A", 100, 0)]).unwrap();
        assert!(!digital.price_display().sold_out);
    }

    #[test]
    fn varied_prices_and_sales_are_reported() {
        let mut cheap = variant("S", 1500, 3);
        cheap.on_sale = true;
        cheap.sale_price = 1200;
        let product =
            Product::new(ProductType::Physical, vec![cheap, variant("L", 1800, 2)]).unwrap();
        let display = product.price_display();
        assert_eq!(display.from, 1200);
        assert!(display.varied_prices && display.on_sale);
        assert_eq!(display.regular_price, Some(1500));
    }

    #[test]
    fn limits_of_the_spec_are_enforced() {
        assert!(matches!(
            Sku::parse("x".repeat(61)),
            Err(ProductError::SkuTooLong { len: 61, .. })
        ));
        assert_eq!(Sku::generated(42).as_str(), "SQ0000042");
        assert_eq!(
            Product::new(
                ProductType::Physical,
                vec![variant("A", MAX_PRICE_CENTS + 1, 1)]
            )
            .unwrap_err(),
            ProductError::PriceOutOfRange(MAX_PRICE_CENTS + 1)
        );
        assert_eq!(
            Product::new(
                ProductType::Physical,
                vec![variant("A", 1, 1), variant("A", 2, 1)]
            )
            .unwrap_err(),
            ProductError::DuplicateSku("A".into())
        );
    }
}
