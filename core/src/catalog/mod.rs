//! The product catalogue: products, variants and how a product's price is displayed.

mod product;

pub use product::{
    OptionValue, PriceDisplay, Product, ProductError, Sku, Variant, MAX_PRICE_CENTS,
};
