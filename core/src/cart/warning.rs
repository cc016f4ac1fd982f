//! Typed warnings: things the shopper should know that did not stop the operation, kept
//! apart from errors, which did.

use serde::{Deserialize, Serialize};

/// What kind of warning it is, for code that reacts to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum WarningCode {
    /// Fewer units are in the cart than asked for, because stock is short.
    QuantityReduced,
    /// An applied coupon takes nothing off any more (expired, used up, ...).
    CouponNotApplied,
    /// The subtotal is below the store's minimum, so checkout is not yet possible.
    BelowMinimumSubtotal,
    /// The subtotal is past the most a cart may total, so checkout is not possible. Only a
    /// stored cart can be there: every cart operation refuses to take it past the limit.
    TotalTooLarge,
}

/// A warning as the specification shapes it: `{code, target, message}`, where the target
/// names what it is about (a SKU, a coupon code, or `subtotal`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CartWarning {
    pub code: WarningCode,
    pub target: String,
    pub message: String,
}

impl CartWarning {
    /// Stock allowed only `kept` of the units asked for.
    pub fn quantity_reduced(sku: &str, kept: u32) -> Self {
        let message = if kept == 1 {
            "Only 1 is available, so your cart holds 1.".to_owned()
        } else {
            format!("Only {kept} are available, so your cart holds {kept}.")
        };
        Self {
            code: WarningCode::QuantityReduced,
            target: sku.to_owned(),
            message,
        }
    }
}
