//! The product catalogue: products, variants and how a product's price is displayed.

mod product;
mod subscription;

pub use product::{
    MAX_PRICE_CENTS, OptionValue, PriceDisplay, Product, ProductError, Sku, Variant,
};
pub use subscription::{BillingPeriod, BillingUnit, SubscriptionPlan};
