//! Cart entries and what the catalogue says about a variant when a shopper adds it.

use serde::{Deserialize, Serialize};

use crate::catalog::{FormAnswers, Product, Sku, SubscriptionPlan, Variant};
use crate::enums::ProductType;
use crate::gift_cards::GiftCardRecipient;

/// How many units of a variant can still be sold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stock {
    /// The variant is marked unlimited, or it is digital: there is nothing to run out of.
    Unlimited,
    Limited(u32),
}

impl Stock {
    /// The stock of a catalogue variant; a digital product is never sold out (000 s4).
    pub fn of(product: &Product, variant: &Variant) -> Self {
        if variant.unlimited || product.product_type == ProductType::Digital {
            Self::Unlimited
        } else {
            Self::Limited(variant.qty_in_stock)
        }
    }

    /// The most a cart may hold, which is the stock or the line limit, whichever is lower.
    pub fn cap(self) -> u32 {
        match self {
            Self::Unlimited => MAX_LINE_QUANTITY,
            Self::Limited(quantity) => quantity.min(MAX_LINE_QUANTITY),
        }
    }
}

/// The most units of one variant a cart line may hold.
///
/// The specification caps only the quantity *display* (at 100, shown "100+"); a limit on
/// the line itself keeps every total far from overflow: 9,999 units at the highest price of
/// 100,000,000 cents is about 10^12, well inside an i64.
pub const MAX_LINE_QUANTITY: u32 = 9_999;

/// A variant as the catalogue offers it at the moment it is added to a cart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Purchasable {
    pub product_id: String,
    pub product_name: String,
    pub product_type: ProductType,
    pub sku: Sku,
    pub unit_price_cents: i64,
    pub stock: Stock,
    /// Weight of one unit in thousandths of the store's weight unit (lbs or kg), so that
    /// shipping by weight stays in integers.
    pub weight_thousandths: u32,
    /// Set when the product is sold as a subscription: the cart then checks it out alone.
    pub subscription_plan: Option<SubscriptionPlan>,
}

impl Purchasable {
    /// A variant that weighs nothing and is no subscription, as services, digital goods and
    /// gift cards are; set `weight_thousandths` or `subscription_plan` on the result for others.
    pub fn new(
        product_id: impl Into<String>,
        product_name: impl Into<String>,
        product_type: ProductType,
        sku: Sku,
        unit_price_cents: i64,
        stock: Stock,
    ) -> Self {
        Self {
            product_id: product_id.into(),
            product_name: product_name.into(),
            product_type,
            sku,
            unit_price_cents,
            stock,
            weight_thousandths: 0,
            subscription_plan: None,
        }
    }

    /// The purchasable form of a catalogue variant, priced at what a shopper pays today.
    pub fn from_variant(
        product_id: impl Into<String>,
        product_name: impl Into<String>,
        product: &Product,
        variant: &Variant,
        weight_thousandths: u32,
    ) -> Self {
        Self {
            product_id: product_id.into(),
            product_name: product_name.into(),
            product_type: product.product_type,
            sku: variant.sku.clone(),
            unit_price_cents: variant.effective_price(),
            stock: Stock::of(product, variant),
            weight_thousandths,
            subscription_plan: product.subscription_plan,
        }
    }
}

/// One line of a cart: a variant, the shopper's answers to its product's form, and how many
/// of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CartEntry {
    pub product_id: String,
    pub product_name: String,
    /// Stored by the type's numeric code (the enum serialises as its code).
    pub product_type: ProductType,
    pub sku: Sku,
    pub unit_price_cents: i64,
    pub quantity: u32,
    pub weight_thousandths: u32,
    /// The plan of a subscription product, as the catalogue offered it when it was added.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subscription_plan: Option<SubscriptionPlan>,
    /// The answers to the product's form; none when the product asked for nothing (and in
    /// carts stored before product forms), so the cart offers to edit only real forms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answers: Option<FormAnswers>,
    /// Who the cards of a gift card line are for; every unit of the line goes to them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gift_card_recipient: Option<GiftCardRecipient>,
    /// The day the cards of a gift card line are mailed to their recipient; none mails them
    /// when the order is placed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gift_card_send_on: Option<crate::gift_cards::GiftCardSendDate>,
}

impl CartEntry {
    pub fn product_type(&self) -> ProductType {
        self.product_type
    }

    /// Whether this line must be shipped: physical goods are; services, digital goods and
    /// gift cards (sent by email) are not.
    pub fn requires_shipping(&self) -> bool {
        self.product_type() == ProductType::Physical
    }

    /// Whether this line is bought as a subscription.
    pub fn is_subscription(&self) -> bool {
        self.subscription_plan.is_some()
    }

    pub fn is_digital(&self) -> bool {
        self.product_type() == ProductType::Digital
    }

    /// Unit price times quantity, or none when that overflows: a price can come from a
    /// stored cart or a catalogue that never passed the price limit, so the product is
    /// checked rather than trusted.
    pub fn checked_line_total_cents(&self) -> Option<i64> {
        self.unit_price_cents.checked_mul(i64::from(self.quantity))
    }

    /// Unit price times quantity for display, held at the i64 bounds where it would
    /// overflow; such a cart is refused by every operation and kept out of checkout (see
    /// [`super::CartState::checked_subtotal_cents`]).
    pub fn line_total_cents(&self) -> i64 {
        self.unit_price_cents
            .saturating_mul(i64::from(self.quantity))
    }
}
