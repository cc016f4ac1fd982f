//! Pricing a cart: the shopping cart of 000 s3 with every total, flag and coupon list,
//! derived from the stored state and the store's rules.

use super::coupon::{AppliedCoupon, CouponKind, InvalidCoupon};
use super::entry::CartEntry;
use super::ids::{CouponCode, Timestamp};
use super::shipping::{ShippingLocation, ShippingOption};
use super::state::{CartState, MAX_CART_TOTAL_CENTS};
use super::tax::{TaxRule, applicable_rules};
use super::warning::{CartWarning, WarningCode};
use crate::money::{Currency, FormatOptions, Locale, Money, format};

/// The store's side of pricing: its currency, shipping options, tax rules and minimum
/// order subtotal.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StoreRules {
    pub currency: Currency,
    pub shipping_options: Vec<ShippingOption>,
    pub tax_rules: Vec<TaxRule>,
    /// The smallest subtotal (before discounts) that may check out. The specification
    /// gives the rule and its text but not the value, so each store sets it; none means
    /// no minimum.
    pub minimum_subtotal_cents: Option<i64>,
    /// The coupons shoppers may apply, by code.
    pub coupons: Vec<super::coupon::Coupon>,
}

/// The store rules a site's bundle sets (`[settings.store]` of `site.toml`), kept with the
/// site's settings: everything of [`StoreRules`] but the currency, which the store settings
/// hold. Validated when the bundle is imported.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SiteStoreRules {
    pub shipping_options: Vec<ShippingOption>,
    pub tax_rules: Vec<TaxRule>,
    pub coupons: Vec<super::coupon::Coupon>,
    pub minimum_subtotal_cents: Option<i64>,
}

impl SiteStoreRules {
    /// The rules carts are priced by, in the store's `currency`.
    pub fn in_currency(&self, currency: Currency) -> StoreRules {
        StoreRules {
            currency,
            shipping_options: self.shipping_options.clone(),
            tax_rules: self.tax_rules.clone(),
            minimum_subtotal_cents: self.minimum_subtotal_cents,
            coupons: self.coupons.clone(),
        }
    }
}

/// The shopping cart of 000 s3: the stored state with everything derived from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShoppingCart {
    pub id: String,
    pub website_id: String,
    pub order_id: String,
    pub created: Timestamp,
    pub is_purchased: bool,
    pub entries: Vec<CartEntry>,
    pub shipping_options: Vec<ShippingOption>,
    pub applicable_tax_rules: Vec<TaxRule>,
    pub coupons: Vec<AppliedCoupon>,
    pub valid_coupons: Vec<CouponCode>,
    pub invalid_coupons: Vec<InvalidCoupon>,
    pub selected_shipping_option: Option<ShippingOption>,
    pub shipping_location: Option<ShippingLocation>,
    pub subtotal_cents: i64,
    pub tax_cents: i64,
    pub shipping_cost_cents: i64,
    pub discount_cents: i64,
    pub grand_total_cents: i64,
    pub subtotal_amount: Money,
    pub total_quantity: u32,
    pub has_digital: bool,
    pub purely_digital: bool,
    pub requires_shipping: bool,
    pub reserved_until: Option<Timestamp>,
    /// Coupons that stopped applying and a subtotal under the minimum, as typed warnings.
    pub warnings: Vec<CartWarning>,
}

impl Default for ShoppingCart {
    /// The defaults of 000 s3: empty lists, zero totals, zero US dollars, flags false.
    fn default() -> Self {
        CartState::new("", "", Timestamp(0)).price(&StoreRules::default(), Timestamp(0))
    }
}

impl ShoppingCart {
    /// The weight of what ships, in thousandths of the store's unit, which by-weight
    /// shipping options are priced on.
    pub fn shipped_weight_thousandths(&self) -> u64 {
        self.entries
            .iter()
            .filter(|entry| entry.requires_shipping())
            .map(|entry| u64::from(entry.weight_thousandths) * u64::from(entry.quantity))
            .sum()
    }

    /// Whether the shopper may proceed to checkout: something in the cart, the minimum
    /// subtotal reached, and shipping chosen when something ships.
    pub fn checkout_blocker(&self) -> Option<CheckoutBlocker> {
        if self.entries.is_empty() {
            return Some(CheckoutBlocker::Empty);
        }
        if let Some(warning) = self
            .warnings
            .iter()
            .find(|warning| warning.code == WarningCode::BelowMinimumSubtotal)
        {
            return Some(CheckoutBlocker::BelowMinimumSubtotal(
                warning.message.clone(),
            ));
        }
        if self
            .warnings
            .iter()
            .any(|warning| warning.code == WarningCode::TotalTooLarge)
        {
            return Some(CheckoutBlocker::TotalTooLarge);
        }
        if self.requires_shipping && self.selected_shipping_option.is_none() {
            return Some(CheckoutBlocker::NoShippingOption);
        }
        None
    }
}

/// What keeps a priced cart from checking out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckoutBlocker {
    /// 'You have nothing in your shopping cart' (000 s8).
    Empty,
    /// 'To check out, your order subtotal must be {subtotal} or more', filled in.
    BelowMinimumSubtotal(String),
    NoShippingOption,
    /// The subtotal is past [`super::state::MAX_CART_TOTAL_CENTS`].
    TotalTooLarge,
}

/// The text of 000 s5 for a subtotal below the minimum, with the minimum formatted.
pub fn minimum_subtotal_message(minimum: Money) -> String {
    let amount = format(minimum, &Locale::default(), FormatOptions::default());
    super::texts::MINIMUM_SUBTOTAL_TEMPLATE.replace("{subtotal}", &amount)
}

impl CartState {
    /// Prices the cart at `now` under the store's rules.
    ///
    /// Discounts never exceed the subtotal, so no total is ever negative. Tax is charged on
    /// the discounted subtotal (and on shipping where a rule says so); every percentage is
    /// rounded half to even, rule by rule.
    pub fn price(&self, rules: &StoreRules, now: Timestamp) -> ShoppingCart {
        let currency = rules.currency;
        let mut warnings = Vec::new();
        // A stored cart past the limit is shown held at it and kept out of checkout; no
        // operation could have put it there, but a bad price in storage must not panic here.
        let subtotal = self.checked_subtotal_cents().unwrap_or_else(|_| {
            warnings.push(CartWarning {
                code: WarningCode::TotalTooLarge,
                target: "subtotal".to_owned(),
                message: super::texts::TOTAL_TOO_LARGE.to_owned(),
            });
            MAX_CART_TOTAL_CENTS
        });
        let total_quantity = self
            .entries
            .iter()
            .fold(0_u32, |units, entry| units.saturating_add(entry.quantity));
        let requires_shipping = self.entries.iter().any(CartEntry::requires_shipping);
        let has_digital = self.entries.iter().any(CartEntry::is_digital);
        let purely_digital =
            !self.entries.is_empty() && self.entries.iter().all(CartEntry::is_digital);

        let mut valid_coupons = Vec::new();
        let mut invalid_coupons = Vec::new();
        let mut free_shipping = false;
        let mut discount: i64 = 0;
        for applied in &self.coupons {
            let code = applied.coupon.code.clone();
            match applied.coupon.check(applied.usage, now, requires_shipping) {
                Ok(()) => {
                    discount = discount.saturating_add(match applied.coupon.kind {
                        CouponKind::Percentage { basis_points } => {
                            percent(subtotal, basis_points, currency)
                        }
                        CouponKind::FixedAmount { amount_cents } => amount_cents,
                        CouponKind::FreeShipping => {
                            free_shipping = true;
                            0
                        }
                    });
                    valid_coupons.push(code);
                }
                Err(reason) => {
                    warnings.push(CartWarning {
                        code: WarningCode::CouponNotApplied,
                        target: code.as_str().to_owned(),
                        message: reason.message().to_owned(),
                    });
                    invalid_coupons.push(InvalidCoupon { code, reason });
                }
            }
        }
        let discount = discount.clamp(0, subtotal.max(0));

        let selected = self.selected_shipping_option.as_ref().and_then(|id| {
            rules
                .shipping_options
                .iter()
                .find(|option| &option.id == id)
                .cloned()
        });
        let shipped_weight: u64 = self
            .entries
            .iter()
            .filter(|entry| entry.requires_shipping())
            .map(|entry| u64::from(entry.weight_thousandths) * u64::from(entry.quantity))
            .fold(0, u64::saturating_add);
        let shipping = match &selected {
            Some(option) if requires_shipping && !free_shipping => {
                option.cost_cents(shipped_weight)
            }
            _ => 0,
        };

        let tax_rules = applicable_rules(&rules.tax_rules, self.shipping_location.as_ref());
        let taxable = subtotal.saturating_sub(discount);
        let tax: i64 = tax_rules
            .iter()
            .map(|rule| {
                let rate = rule.rate_basis_points.max(0);
                let on_shipping = if rule.applies_to_shipping {
                    percent(shipping, rate, currency)
                } else {
                    0
                };
                percent(taxable, rate, currency).saturating_add(on_shipping)
            })
            .fold(0, i64::saturating_add);

        if let Some(minimum) = rules.minimum_subtotal_cents
            && !self.entries.is_empty()
            && subtotal < minimum
        {
            warnings.push(CartWarning {
                code: WarningCode::BelowMinimumSubtotal,
                target: "subtotal".to_owned(),
                message: minimum_subtotal_message(Money::new(minimum, currency)),
            });
        }

        ShoppingCart {
            id: self.id.clone(),
            website_id: self.website_id.clone(),
            order_id: self.order_id.clone(),
            created: self.created,
            is_purchased: self.is_purchased,
            entries: self.entries.clone(),
            shipping_options: if requires_shipping {
                rules.shipping_options.clone()
            } else {
                Vec::new()
            },
            applicable_tax_rules: tax_rules,
            coupons: self.coupons.clone(),
            valid_coupons,
            invalid_coupons,
            selected_shipping_option: selected,
            shipping_location: self.shipping_location.clone(),
            subtotal_cents: subtotal,
            tax_cents: tax,
            shipping_cost_cents: shipping,
            discount_cents: discount,
            grand_total_cents: taxable.saturating_add(shipping).saturating_add(tax),
            subtotal_amount: Money::new(subtotal, currency),
            total_quantity,
            has_digital,
            purely_digital,
            requires_shipping,
            reserved_until: self.reserved_until,
            warnings,
        }
    }
}

/// A percentage of an amount in basis points, rounded half to even by [`Money`]. Amounts
/// in a cart are far below the overflow bound, so a failure here cannot happen; it would
/// count as zero rather than abort pricing.
fn percent(amount_cents: i64, basis_points: i64, currency: Currency) -> i64 {
    Money::new(amount_cents, currency)
        .percentage(basis_points)
        .map_or(0, |money| money.amount_minor)
}
