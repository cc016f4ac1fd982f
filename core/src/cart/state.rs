//! The cart's stored state and the operations a shopper performs on it: add an item,
//! change a quantity, remove a line, apply or remove a coupon, choose shipping.

use serde::{Deserialize, Serialize};

use super::coupon::{AppliedCoupon, Coupon, CouponUsage, InvalidCouponReason};
use super::entry::{CartEntry, MAX_LINE_QUANTITY, Purchasable, Stock};
use super::ids::{CouponCode, Timestamp};
use super::line::LineId;
use super::shipping::{ShippingLocation, ShippingOption};
use super::warning::CartWarning;
use crate::catalog::{FormAnswers, MAX_PRICE_CENTS, Sku};
use crate::enums::ProductType;
use crate::gift_cards::GiftCardRecipient;

/// The most distinct lines a cart holds. The specification sets no limit; one keeps totals
/// bounded and a runaway script from growing a cart without end.
pub const MAX_CART_LINES: usize = 100;

/// The largest subtotal a cart may reach: every line full at the highest product price
/// (000 s9). Any cart built from the catalogue stays within it, and below it every discount
/// and tax percentage is computed without overflow (10^14 cents times 10,000 basis points
/// is far inside an i64).
pub const MAX_CART_TOTAL_CENTS: i64 =
    MAX_CART_LINES as i64 * MAX_LINE_QUANTITY as i64 * MAX_PRICE_CENTS;

/// Why a subscription product and other items cannot share a cart (our text).
pub const SUBSCRIPTION_ALONE: &str =
    "A subscription is bought on its own. Check out or remove the other items in your cart first.";

/// Why a cart operation did nothing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CartError {
    #[error("SKU {} is sold out", .0.as_str())]
    OutOfStock(Sku),
    #[error("a quantity must be at least 1")]
    ZeroQuantity,
    #[error("SKU {} is not in the cart", .0.as_str())]
    NotInCart(Sku),
    /// The line named is not (or no longer) in the cart: its answers may have changed.
    #[error("line {0} is not in the cart")]
    LineNotInCart(LineId),
    /// A SKU was given for a variant the cart holds with different answers on several lines.
    #[error("SKU {} is on several lines; name the line", .0.as_str())]
    AmbiguousLine(Sku),
    #[error("a cart holds at most {MAX_CART_LINES} different items")]
    TooManyLines,
    /// The change would take a line total or the subtotal past [`MAX_CART_TOTAL_CENTS`]
    /// (or out of an i64 altogether); the cart is left as it was.
    #[error("a cart may total at most {MAX_CART_TOTAL_CENTS} cents")]
    TotalTooLarge,
    #[error("this cart has been purchased and can no longer change")]
    AlreadyPurchased,
    #[error("coupon {0} is already applied")]
    CouponAlreadyApplied(CouponCode),
    #[error("coupon {code} does not apply: {}", reason.message())]
    CouponNotApplicable {
        code: CouponCode,
        reason: InvalidCouponReason,
    },
    #[error("coupon {0} is not applied")]
    CouponNotApplied(CouponCode),
    #[error("shipping option {0} is not offered")]
    UnknownShippingOption(String),
    /// A subscription checks out on its own: its order starts the subscription, and its
    /// payments repeat while other items' do not.
    #[error("a subscription and other items cannot share a cart")]
    SubscriptionNotAlone,
}

/// What is stored of a cart: everything a shopper chose. Totals, flags and the valid and
/// invalid coupon lists are derived from it by [`CartState::price`], so they can never
/// disagree with the entries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CartState {
    pub id: String,
    pub website_id: String,
    /// Set when the cart has been purchased; empty until then.
    #[serde(default)]
    pub order_id: String,
    pub created: Timestamp,
    #[serde(default)]
    pub is_purchased: bool,
    #[serde(default)]
    pub entries: Vec<CartEntry>,
    #[serde(default)]
    pub coupons: Vec<AppliedCoupon>,
    /// The id of the chosen shipping option.
    #[serde(default)]
    pub selected_shipping_option: Option<String>,
    #[serde(default)]
    pub shipping_location: Option<ShippingLocation>,
    /// While checkout holds the items, the instant the hold ends (the shopper's countdown).
    #[serde(default)]
    pub reserved_until: Option<Timestamp>,
}

impl CartState {
    /// A new, empty cart with the defaults of 000 s3.
    pub fn new(id: impl Into<String>, website_id: impl Into<String>, created: Timestamp) -> Self {
        Self {
            id: id.into(),
            website_id: website_id.into(),
            order_id: String::new(),
            created,
            is_purchased: false,
            entries: Vec::new(),
            coupons: Vec::new(),
            selected_shipping_option: None,
            shipping_location: None,
            reserved_until: None,
        }
    }

    /// Units of a variant over all its lines.
    pub fn quantity_of(&self, sku: &Sku) -> u32 {
        self.entries
            .iter()
            .filter(|entry| &entry.sku == sku)
            .map(|entry| entry.quantity)
            .sum()
    }

    /// The sum of the line totals, each product and each addition checked, and refused
    /// above [`MAX_CART_TOTAL_CENTS`]. A negative line (a price no catalogue allows) counts
    /// as what it is, so it cannot hide another line's excess.
    pub fn checked_subtotal_cents(&self) -> Result<i64, CartError> {
        let mut subtotal: i64 = 0;
        for entry in &self.entries {
            let line = entry
                .checked_line_total_cents()
                .ok_or(CartError::TotalTooLarge)?;
            subtotal = subtotal.checked_add(line).ok_or(CartError::TotalTooLarge)?;
            if line > MAX_CART_TOTAL_CENTS || subtotal > MAX_CART_TOTAL_CENTS {
                return Err(CartError::TotalTooLarge);
            }
        }
        Ok(subtotal)
    }

    /// Keeps `entries` when the lines they replace would break the total limit.
    fn refuse_past_total_limit(&mut self, entries: Vec<CartEntry>) -> Result<(), CartError> {
        self.checked_subtotal_cents().map(drop).inspect_err(|_| {
            self.entries = entries;
        })
    }

    pub(super) fn ensure_open(&self) -> Result<(), CartError> {
        if self.is_purchased {
            Err(CartError::AlreadyPurchased)
        } else {
            Ok(())
        }
    }

    /// Adds `quantity` units of a variant whose product asks for nothing.
    pub fn add_item(
        &mut self,
        item: &Purchasable,
        quantity: u32,
    ) -> Result<Vec<CartWarning>, CartError> {
        self.add_item_with_answers(item, quantity, None)
    }

    /// Adds `quantity` units of a variant with the shopper's answers to its product's form
    /// (none when the product asks for nothing). Units with the same answers join one line;
    /// other answers make another line, since each is a different thing to make. When stock,
    /// which all lines of the variant share, is short the cart keeps what is available and
    /// says so in a warning; a sold-out variant is refused outright.
    pub fn add_item_with_answers(
        &mut self,
        item: &Purchasable,
        quantity: u32,
        answers: Option<FormAnswers>,
    ) -> Result<Vec<CartWarning>, CartError> {
        self.ensure_open()?;
        if quantity == 0 {
            return Err(CartError::ZeroQuantity);
        }
        let with_others = self.entries.iter().any(|entry| entry.sku != item.sku);
        let subscription =
            item.subscription_plan.is_some() || self.entries.iter().any(CartEntry::is_subscription);
        if with_others && subscription {
            return Err(CartError::SubscriptionNotAlone);
        }
        let line = self
            .entries
            .iter()
            .position(|entry| entry.sku == item.sku && entry.answers_same_as(answers.as_ref()));
        let in_line = line.map_or(0, |index| self.entries[index].quantity);
        let others = self.quantity_of(&item.sku) - in_line;
        let cap = line_cap(item.stock, others);
        if cap == 0 {
            return Err(CartError::OutOfStock(item.sku.clone()));
        }
        let wanted = in_line.saturating_add(quantity);
        let kept = wanted.min(cap);
        let before = self.entries.clone();
        match line {
            Some(index) => {
                let entry = &mut self.entries[index];
                // The line takes today's price: a cart shows what checkout will charge.
                entry.unit_price_cents = item.unit_price_cents;
                entry.quantity = kept;
                entry.answers = answers;
            }
            None => {
                if self.entries.len() >= MAX_CART_LINES {
                    return Err(CartError::TooManyLines);
                }
                self.entries.push(CartEntry {
                    product_id: item.product_id.clone(),
                    product_name: item.product_name.clone(),
                    product_type: item.product_type,
                    sku: item.sku.clone(),
                    unit_price_cents: item.unit_price_cents,
                    quantity: kept,
                    weight_thousandths: item.weight_thousandths,
                    subscription_plan: item.subscription_plan,
                    answers,
                    gift_card_recipient: None,
                    gift_card_send_on: None,
                });
            }
        }
        self.refuse_past_total_limit(before)?;
        // The warning speaks of the variant: what the cart holds of it on all lines.
        Ok(reduced_warning(&item.sku, others + wanted, others + kept))
    }

    /// Sets a line's quantity; 0 removes the line. `stock` is the variant's current stock.
    pub fn change_quantity(
        &mut self,
        line: impl Into<LineId>,
        quantity: u32,
        stock: Stock,
    ) -> Result<Vec<CartWarning>, CartError> {
        self.ensure_open()?;
        let index = self.line_index(&line.into())?;
        if quantity == 0 {
            self.entries.remove(index);
            return Ok(Vec::new());
        }
        let sku = self.entries[index].sku.clone();
        let others = self.quantity_of(&sku) - self.entries[index].quantity;
        let cap = line_cap(stock, others);
        if cap == 0 {
            return Err(CartError::OutOfStock(sku));
        }
        let kept = quantity.min(cap);
        let before = self.entries.clone();
        self.entries[index].quantity = kept;
        self.refuse_past_total_limit(before)?;
        Ok(reduced_warning(&sku, others + quantity, others + kept))
    }

    /// Says who the cards of the gift card line `sku` are for (none: the buyer).
    pub fn set_gift_card_recipient(
        &mut self,
        sku: &Sku,
        recipient: Option<GiftCardRecipient>,
    ) -> Result<(), CartError> {
        self.set_gift_card_delivery(sku, recipient, None)
    }

    /// Says who the cards of the gift card line `sku` are for (none: the buyer) and on which
    /// day they are mailed to them (none: when the order is placed).
    pub fn set_gift_card_delivery(
        &mut self,
        sku: &Sku,
        recipient: Option<GiftCardRecipient>,
        send_on: Option<crate::gift_cards::GiftCardSendDate>,
    ) -> Result<(), CartError> {
        self.ensure_open()?;
        let line = self
            .entries
            .iter_mut()
            .find(|entry| &entry.sku == sku && entry.product_type == ProductType::GiftCard)
            .ok_or_else(|| CartError::NotInCart(sku.clone()))?;
        line.gift_card_recipient = recipient;
        line.gift_card_send_on = send_on;
        Ok(())
    }

    /// Removes a line.
    pub fn remove_item(&mut self, line: impl Into<LineId>) -> Result<(), CartError> {
        self.ensure_open()?;
        let index = self.line_index(&line.into())?;
        self.entries.remove(index);
        Ok(())
    }

    /// Applies a coupon that applies now. One that does not is refused with its reason;
    /// one that stops applying later stays and is listed among the invalid coupons.
    pub fn apply_coupon(
        &mut self,
        coupon: Coupon,
        usage: CouponUsage,
        now: Timestamp,
    ) -> Result<(), CartError> {
        self.ensure_open()?;
        if self
            .coupons
            .iter()
            .any(|applied| applied.coupon.code == coupon.code)
        {
            return Err(CartError::CouponAlreadyApplied(coupon.code));
        }
        let requires_shipping = self.entries.iter().any(CartEntry::requires_shipping);
        if let Err(reason) = coupon.check(usage, now, requires_shipping) {
            return Err(CartError::CouponNotApplicable {
                code: coupon.code,
                reason,
            });
        }
        self.coupons.push(AppliedCoupon { coupon, usage });
        Ok(())
    }

    pub fn remove_coupon(&mut self, code: &CouponCode) -> Result<(), CartError> {
        self.ensure_open()?;
        let before = self.coupons.len();
        self.coupons.retain(|applied| &applied.coupon.code != code);
        if self.coupons.len() == before {
            return Err(CartError::CouponNotApplied(code.clone()));
        }
        Ok(())
    }

    /// Chooses one of the store's shipping options by id.
    pub fn select_shipping_option(
        &mut self,
        option_id: &str,
        offered: &[ShippingOption],
    ) -> Result<(), CartError> {
        self.ensure_open()?;
        if !offered.iter().any(|option| option.id == option_id) {
            return Err(CartError::UnknownShippingOption(option_id.to_owned()));
        }
        self.selected_shipping_option = Some(option_id.to_owned());
        Ok(())
    }

    pub fn set_shipping_location(&mut self, location: ShippingLocation) -> Result<(), CartError> {
        self.ensure_open()?;
        self.shipping_location = Some(location);
        Ok(())
    }

    /// Seconds left of the checkout hold at `now`, for the shopper's countdown; none when
    /// nothing is held or the hold has ended.
    pub fn reservation_seconds_left(&self, now: Timestamp) -> Option<i64> {
        let until = self.reserved_until?;
        let left_millis = until.millis().saturating_sub(now.millis());
        // Whole seconds, rounded up, so the countdown reads 1 until the very end.
        (left_millis > 0).then(|| (left_millis + 999) / 1000)
    }
}

/// The most units one line may hold when the variant's other lines hold `others`.
fn line_cap(stock: Stock, others: u32) -> u32 {
    match stock {
        Stock::Unlimited => stock.cap(),
        Stock::Limited(quantity) => Stock::Limited(quantity.saturating_sub(others)).cap(),
    }
}

fn reduced_warning(sku: &Sku, wanted: u32, kept: u32) -> Vec<CartWarning> {
    if kept < wanted {
        vec![CartWarning::quantity_reduced(sku.as_str(), kept)]
    } else {
        Vec::new()
    }
}
