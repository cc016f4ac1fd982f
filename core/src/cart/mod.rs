//! The shopping cart (000 s3): entries, coupons, shipping, tax, the minimum subtotal, typed
//! warnings, stock holds and the cart indicator. Pure rules; time comes in as arguments.

mod coupon;
mod entry;
mod ids;
pub mod indicator;
mod line;
mod pricing;
mod reservation;
mod shipping;
mod state;
mod tax;
pub mod texts;
pub mod vectors;
mod warning;

#[cfg(test)]
mod tests;

pub use coupon::{
    AppliedCoupon, Coupon, CouponError, CouponKind, CouponUsage, InvalidCoupon, InvalidCouponReason,
};
pub use entry::{CartEntry, MAX_LINE_QUANTITY, Purchasable, Stock};
pub use ids::{CartIdError, CartToken, CouponCode, Timestamp};
pub use indicator::CartIndicator;
pub use line::{LineId, units_by_sku};
pub use pricing::{
    CheckoutBlocker, ShoppingCart, SiteStoreRules, StoreRules, minimum_subtotal_message,
};
pub use reservation::{HoldError, StockHolds};
pub use shipping::{ShippingLocation, ShippingOption, ShippingRate};
pub use state::{CartError, CartState, MAX_CART_LINES, MAX_CART_TOTAL_CENTS, SUBSCRIPTION_ALONE};
pub use tax::{TaxRule, applicable_rules};
pub use warning::{CartWarning, WarningCode};
