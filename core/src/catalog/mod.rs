//! The product catalogue: products, variants, how a product's price is displayed, and the
//! form a product may ask the shopper to fill.

mod form;
mod product;
mod subscription;

pub use form::{
    DEFAULT_FORM_TITLE, FormAnswer, FormAnswers, MAX_ANSWER_LENGTH, MAX_FORM_FIELDS, ProductForm,
    ProductFormError, SubmittedAnswers, UNKNOWN_FIELD,
};
pub use product::{
    MAX_PRICE_CENTS, OptionValue, PriceDisplay, Product, ProductError, Sku, Variant,
};
pub use subscription::{BillingPeriod, BillingUnit, SubscriptionPlan};
