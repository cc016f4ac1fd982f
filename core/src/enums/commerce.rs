//! Enumerations of the store: product types and the measurement standard.

use super::macros::numeric_enum;

numeric_enum! {
    /// The kind of a product (001 §3). 000 §3 names the first four on products'
    /// structured content; paywall products are member-area plans.
    pub enum ProductType {
        Physical = 1 => "physical",
        Digital = 2 => "digital",
        Service = 3 => "service",
        GiftCard = 4 => "gift card",
        Paywall = 5 => "paywall",
    }
}

numeric_enum! {
    /// The store's measurement standard (001 §3 "Units"; 000 §3 `measurementStandard`).
    pub enum Unit {
        Imperial = 1 => "imperial",
        Metric = 2 => "metric",
    }
}

impl Unit {
    /// The weight unit shown with this standard (000 §3): lbs or kg.
    pub const fn weight_unit(self) -> &'static str {
        match self {
            Self::Imperial => "lbs",
            Self::Metric => "kg",
        }
    }

    /// The dimension unit shown with this standard (000 §3): inch or cm.
    pub const fn dimension_unit(self) -> &'static str {
        match self {
            Self::Imperial => "inch",
            Self::Metric => "cm",
        }
    }
}
