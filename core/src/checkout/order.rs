//! Orders: what placing an order asks of the store, what it records, and why it can fail.

use serde::{Deserialize, Serialize};

use super::details::ShippingAddress;
use super::entry::{CheckoutEntryRefusal, check_hold_caps};
use super::payment_events::PaymentStatus;
use crate::cart::{CartToken, CheckoutBlocker, CouponCode, ShoppingCart, Timestamp};
use crate::catalog::{FormAnswers, Sku, SubscriptionPlan};
use crate::gift_cards::{GiftCard, GiftCardCode, GiftCardPayment};
use crate::money::Currency;
use crate::ports::RepositoryError;

/// Why an idempotency key was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("an idempotency key has 8 to 128 letters, digits, '-' or '_'")]
pub struct InvalidIdempotencyKey;

/// The key a checkout form carries so that submitting it twice (a double click, a retried
/// request) places one order and charges once.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct IdempotencyKey(String);

impl IdempotencyKey {
    pub fn parse(value: impl Into<String>) -> Result<Self, InvalidIdempotencyKey> {
        let value = value.into();
        let shape_ok = (8..=128).contains(&value.len())
            && value
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        shape_ok.then_some(Self(value)).ok_or(InvalidIdempotencyKey)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The key of the `refunded + 1`th charge asked for under this form key: the key itself
    /// first, then `{key}-r{refunded}` once charges under it were given back, so a payment
    /// provider never answers a new submit with a charge it refunded. Longer than a form key
    /// may be, which payment providers allow (Stripe takes 255 characters).
    pub fn attempt(&self, refunded: u32) -> Self {
        match refunded {
            0 => self.clone(),
            n => Self(format!("{}-r{n}", self.0)),
        }
    }
}

/// One line of an order, priced as it was in the cart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OrderLine {
    pub sku: Sku,
    pub product_name: String,
    pub quantity: u32,
    pub unit_price_cents: i64,
    /// The plan when the line was bought as a subscription; the order then starts one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subscription_plan: Option<SubscriptionPlan>,
    /// The shopper's answers to the product's form, as they were when the order was placed.
    #[serde(default, skip_serializing_if = "FormAnswers::is_empty")]
    pub answers: FormAnswers,
}

/// A placed order, and also the request to place one: the store records exactly what it
/// was asked to, after checking stock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Order {
    /// Chosen by the caller (adapters have randomness, the core does not).
    pub id: String,
    pub idempotency_key: IdempotencyKey,
    pub cart_token: CartToken,
    pub email: String,
    pub lines: Vec<OrderLine>,
    pub coupon_codes: Vec<CouponCode>,
    pub subtotal_cents: i64,
    pub discount_cents: i64,
    pub shipping_cost_cents: i64,
    pub tax_cents: i64,
    pub grand_total_cents: i64,
    pub currency: Currency,
    pub created: Timestamp,
    /// Where the order ships; none when nothing ships.
    pub shipping_address: Option<ShippingAddress>,
    /// The payment gateway's id of the charge; empty when nothing was charged, or while
    /// the payment is pending and the gateway's answer is not known.
    pub payment_id: String,
    /// The idempotency key the charge was asked for under ([`IdempotencyKey::attempt`]);
    /// empty when nothing was charged. A pending order is found by it when the payment
    /// provider reports the charge.
    pub payment_key: String,
    /// Where the payment stands; payment providers' reports move it.
    pub payment_status: PaymentStatus,
    /// The gift cards the order issues, one per unit of each gift card line. Read back from
    /// the store, they carry their balance as it is now.
    pub gift_cards: Vec<GiftCard>,
    /// The part of the total a gift card paid; the rest ([`Order::rest_due_cents`]) is what
    /// the payment gateway charged.
    pub gift_card_payment: Option<GiftCardPayment>,
}

/// A coupon's usage limits, checked again inside the order's transaction so that two
/// shoppers cannot both take a coupon's last use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CouponLimit {
    pub code: CouponCode,
    pub total: Option<u32>,
    pub per_customer: Option<u32>,
}

/// Why no order was placed.
#[derive(Debug, thiserror::Error)]
pub enum PlaceOrderError {
    /// Stock ran out (another shopper was faster); nothing was charged or changed.
    #[error("SKU {} is out of stock", .0.as_str())]
    OutOfStock(Sku),
    #[error("the cart cannot check out yet: {0:?}")]
    NotReady(CheckoutBlocker),
    /// The cart asks for more units than one checkout may hold (a checkout form posted
    /// without entering checkout first); nothing was held, charged or changed.
    #[error("the cart asks for too many units: {}", .0.message())]
    TooManyUnits(CheckoutEntryRefusal),
    #[error("the cart does not exist")]
    UnknownCart,
    /// The cart was bought already, by an order with another idempotency key.
    #[error("the cart has already been purchased")]
    AlreadyPurchased,
    /// A coupon reached its usage limit (in all, or for this email) while the shopper was
    /// checking out; nothing was changed.
    #[error("coupon {0} has reached its usage limit")]
    CouponLimitReached(CouponCode),
    /// The gift card paying for the order no longer holds its part (another order spent it
    /// meanwhile, or no card has the code); nothing was changed.
    #[error("gift card {0:?} does not hold the amount to pay")]
    GiftCardBalanceChanged(GiftCardCode),
    /// The charge meant to pay for the order was given back meanwhile (an earlier submit of
    /// the same form could not place its order); nothing was changed. The next submit
    /// charges anew.
    #[error("payment {0} was refunded before the order could be placed")]
    PaymentRefunded(String),
    #[error(transparent)]
    Repository(#[from] RepositoryError),
}

impl Order {
    /// Units of every SKU ordered; lines of one variant with different answers take its
    /// stock together.
    pub fn units_by_sku(&self) -> Vec<(Sku, u32)> {
        crate::cart::units_by_sku(self.lines.iter().map(|line| (&line.sku, line.quantity)))
    }

    /// The order a priced cart becomes, or why the cart cannot check out.
    pub fn from_cart(
        cart: &ShoppingCart,
        id: impl Into<String>,
        idempotency_key: IdempotencyKey,
        cart_token: CartToken,
        email: impl Into<String>,
        created: Timestamp,
    ) -> Result<Self, PlaceOrderError> {
        if cart.is_purchased {
            return Err(PlaceOrderError::AlreadyPurchased);
        }
        if let Some(blocker) = cart.checkout_blocker() {
            return Err(PlaceOrderError::NotReady(blocker));
        }
        check_hold_caps(&cart.entries).map_err(PlaceOrderError::TooManyUnits)?;
        Ok(Self {
            id: id.into(),
            idempotency_key,
            cart_token,
            email: email.into(),
            lines: cart
                .entries
                .iter()
                .map(|entry| OrderLine {
                    sku: entry.sku.clone(),
                    product_name: entry.product_name.clone(),
                    quantity: entry.quantity,
                    unit_price_cents: entry.unit_price_cents,
                    subscription_plan: entry.subscription_plan,
                    answers: entry.answers.clone().unwrap_or_default(),
                })
                .collect(),
            coupon_codes: cart.valid_coupons.clone(),
            subtotal_cents: cart.subtotal_cents,
            discount_cents: cart.discount_cents,
            shipping_cost_cents: cart.shipping_cost_cents,
            tax_cents: cart.tax_cents,
            grand_total_cents: cart.grand_total_cents,
            currency: cart.subtotal_amount.currency,
            created,
            shipping_address: None,
            payment_id: String::new(),
            payment_key: String::new(),
            payment_status: PaymentStatus::Paid,
            gift_cards: Vec::new(),
            gift_card_payment: None,
        })
    }

    /// What is left to pay after the gift card: the amount the payment gateway charges.
    pub fn rest_due_cents(&self) -> i64 {
        let by_gift_card = self
            .gift_card_payment
            .as_ref()
            .map_or(0, |payment| payment.amount_cents);
        self.grand_total_cents - by_gift_card
    }
}
