//! Subscriptions: what an order of a subscription product starts. The first payment is the
//! order's; the record keeps the plan, when the subscription started, when the next payment
//! falls due, how many are left, the saved payment method renewals are charged to, and where
//! its dunning stands. How a subscription moves between its states is `dunning.rs`; who
//! charges the renewals is `renewal.rs`.

use serde::{Deserialize, Serialize};

use super::order::Order;
use crate::cart::Timestamp;
use crate::catalog::{Sku, SubscriptionPlan};
use crate::money::Currency;

/// Where a subscription stands; the transitions between them are in `dunning.rs`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SubscriptionStatus {
    /// Paid for its current period, or retrying a declined renewal (dunning).
    Active,
    /// Every retry of a renewal was declined: no more charges are tried until the shopper
    /// updates the card, and the subscription is cancelled when the grace period ends.
    PastDue,
    /// Paused by the shopper: the periods falling due meanwhile are skipped, not charged.
    Paused,
    /// Cancelled by the shopper, the owner, or at the end of dunning. Final.
    Cancelled,
    /// Every payment of a fixed plan was made. Final.
    Ended,
}

impl SubscriptionStatus {
    pub const ALL: [Self; 5] = [
        Self::Active,
        Self::PastDue,
        Self::Paused,
        Self::Cancelled,
        Self::Ended,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Active => "active",
            Self::PastDue => "past_due",
            Self::Paused => "paused",
            Self::Cancelled => "cancelled",
            Self::Ended => "ended",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|status| status.as_str() == text)
    }

    /// Whether no transition leaves this status.
    pub fn is_final(self) -> bool {
        matches!(self, Self::Cancelled | Self::Ended)
    }

    /// Whether a subscription in this status keeps open the paid member areas it bought.
    /// Past due keeps them: the shopper is still being asked to pay (dunning) and may yet
    /// update the card. Paused closes them until it is resumed, since the periods falling due
    /// meanwhile are not paid for; cancelled and ended close them for good, unless a new
    /// subscription opens them again.
    pub fn keeps_membership(self) -> bool {
        matches!(self, Self::Active | Self::PastDue)
    }
}

/// A subscription started by an order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subscription {
    /// The order's id with `-subscription` after it: as hard to guess as the order's id,
    /// which the confirmation page's address depends on.
    pub id: String,
    pub order_id: String,
    pub email: String,
    /// The site-user account the subscription belongs to, once one is known: the buyer who
    /// was signed in, or else the confirmed account of `email` (at the payment, or when the
    /// address is confirmed later). Recorded once; what it opens follows the account, not
    /// its address, so changing the account's address keeps it.
    pub account: Option<String>,
    pub sku: Sku,
    pub product_name: String,
    pub quantity: u32,
    /// What one period costs before shipping and tax: the line's unit price times its
    /// quantity, as the first payment charged it.
    pub price_cents: i64,
    pub currency: Currency,
    pub plan: SubscriptionPlan,
    pub status: SubscriptionStatus,
    /// When the subscription started: the order's time, and the anchor of every billing date.
    pub started: Timestamp,
    /// Payments taken so far; the order's payment is the first.
    pub payments_made: u32,
    /// When the next payment falls due; none when the plan's payments are all made.
    pub next_billing: Option<Timestamp>,
    /// Periods skipped while paused: the next payment is billing cycle
    /// `payments_made + skipped_periods`, counted from `started`.
    pub skipped_periods: u32,
    /// The gateway's token of the card saved at checkout (or updated since), which renewals
    /// are charged to without the shopper; none when nothing was saved.
    pub payment_method: Option<String>,
    /// Declined attempts at the current period's renewal; 0 outside dunning.
    pub failed_attempts: u32,
    /// During dunning: when the next retry is due (`Active`), or when the subscription is
    /// cancelled unless the card is updated first (`PastDue`).
    pub retry_at: Option<Timestamp>,
}

impl Subscription {
    /// The subscription `order` starts, when one of its lines was bought as a subscription.
    /// An order holds at most one such line: the cart lets a subscription check out only
    /// on its own.
    pub fn start(order: &Order) -> Option<Self> {
        let line = order
            .lines
            .iter()
            .find(|line| line.subscription_plan.is_some())?;
        let plan = line.subscription_plan?;
        let mut subscription = Self {
            id: format!("{}-subscription", order.id),
            order_id: order.id.clone(),
            email: order.email.clone(),
            account: None,
            sku: line.sku.clone(),
            product_name: line.product_name.clone(),
            quantity: line.quantity,
            price_cents: line.unit_price_cents * i64::from(line.quantity),
            currency: order.currency,
            // A count of 0 means the same as none: until cancelled.
            plan: SubscriptionPlan {
                num_billing_cycles: plan.num_billing_cycles.filter(|&cycles| cycles > 0),
                ..plan
            },
            status: SubscriptionStatus::Active,
            started: order.created,
            payments_made: 1,
            next_billing: None,
            skipped_periods: 0,
            payment_method: None,
            failed_attempts: 0,
            retry_at: None,
        };
        subscription.next_billing = subscription.due_after(subscription.payments_made);
        Some(subscription)
    }

    /// Payments still to come; none for a plan that runs until cancelled.
    pub fn payments_left(&self) -> Option<u32> {
        match self.plan.num_billing_cycles.unwrap_or(0) {
            0 => None,
            cycles => Some(cycles.saturating_sub(self.payments_made)),
        }
    }

    /// When payment number `made + 1` falls due, after `made` payments; none when the plan
    /// has no more.
    pub(super) fn due_after(&self, made: u32) -> Option<Timestamp> {
        let more = match self.plan.num_billing_cycles.unwrap_or(0) {
            0 => true,
            cycles => made < cycles,
        };
        let cycle = made.checked_add(self.skipped_periods)?;
        more.then(|| self.plan.billing_period.billing_date(self.started, cycle))
            .flatten()
    }

    /// The billing cycle the next payment is for: 1 for the first renewal. It names the
    /// period in a renewal's idempotency key, so it never repeats for one subscription.
    pub fn current_period(&self) -> u32 {
        self.payments_made.saturating_add(self.skipped_periods)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart::CartToken;
    use crate::catalog::{BillingPeriod, BillingUnit};
    use crate::checkout::{IdempotencyKey, OrderLine};

    // 2026-01-31T10:00:00Z
    const JANUARY_31: Timestamp = Timestamp(1_769_853_600_000);
    // 2026-02-28T10:00:00Z
    const FEBRUARY_28: Timestamp = Timestamp(1_772_272_800_000);

    fn order(plan: Option<SubscriptionPlan>) -> Order {
        Order {
            id: "order-1".into(),
            idempotency_key: IdempotencyKey::parse("subscription-key").unwrap(),
            cart_token: CartToken::parse("subscription-cart").unwrap(),
            email: "clay@example.com".into(),
            lines: vec![OrderLine {
                sku: Sku::parse("CLUB-1").unwrap(),
                product_name: "Studio Clay Club".into(),
                quantity: 2,
                unit_price_cents: 2500,
                subscription_plan: plan,
                answers: Default::default(),
            }],
            coupon_codes: vec![],
            subtotal_cents: 5000,
            discount_cents: 0,
            shipping_cost_cents: 500,
            tax_cents: 0,
            grand_total_cents: 5500,
            currency: Currency::Eur,
            created: JANUARY_31,
            shipping_address: None,
            payment_id: "test_ch_1".into(),
            payment_key: String::new(),
            payment_status: crate::checkout::PaymentStatus::Paid,
            gift_cards: Vec::new(),
            gift_card_payment: None,
        }
    }

    fn monthly(cycles: Option<u32>) -> SubscriptionPlan {
        SubscriptionPlan {
            num_billing_cycles: cycles,
            billing_period: BillingPeriod {
                value: 1,
                unit: BillingUnit::Month,
            },
        }
    }

    #[test]
    fn an_order_without_a_subscription_line_starts_none() {
        assert_eq!(Subscription::start(&order(None)), None);
    }

    #[test]
    fn an_indefinite_plan_starts_active_with_its_next_date_and_no_end() {
        let subscription = Subscription::start(&order(Some(monthly(None)))).unwrap();
        assert_eq!(subscription.id, "order-1-subscription");
        assert_eq!(subscription.status, SubscriptionStatus::Active);
        assert_eq!(subscription.started, JANUARY_31);
        assert_eq!(subscription.payments_made, 1);
        assert_eq!(subscription.next_billing, Some(FEBRUARY_28));
        assert_eq!(subscription.payments_left(), None);
        assert_eq!(subscription.price_cents, 5000);
        let zero_cycles = Subscription::start(&order(Some(monthly(Some(0))))).unwrap();
        assert_eq!(zero_cycles.payments_left(), None);
        assert_eq!(zero_cycles.next_billing, Some(FEBRUARY_28));
    }

    #[test]
    fn a_fixed_plan_counts_the_first_payment_and_a_single_payment_plan_has_no_next_date() {
        let six = Subscription::start(&order(Some(monthly(Some(6))))).unwrap();
        assert_eq!(six.payments_left(), Some(5));
        assert_eq!(six.next_billing, Some(FEBRUARY_28));
        let one = Subscription::start(&order(Some(monthly(Some(1))))).unwrap();
        assert_eq!(one.payments_left(), Some(0));
        assert_eq!(one.next_billing, None);
    }

    fn purchasable(sku: &str, plan: Option<SubscriptionPlan>) -> crate::cart::Purchasable {
        crate::cart::Purchasable {
            subscription_plan: plan,
            ..crate::cart::Purchasable::new(
                sku.to_lowercase(),
                sku,
                crate::enums::ProductType::Physical,
                Sku::parse(sku).unwrap(),
                2500,
                crate::cart::Stock::Unlimited,
            )
        }
    }

    #[test]
    fn a_subscription_shares_its_cart_with_nothing_else() {
        use crate::cart::{CartError, CartState};
        let club = purchasable("CLUB", Some(monthly(None)));
        let mug = purchasable("MUG", None);

        let mut cart = CartState::new("cart", "site", JANUARY_31);
        cart.add_item(&mug, 1).unwrap();
        assert_eq!(
            cart.add_item(&club, 1),
            Err(CartError::SubscriptionNotAlone)
        );

        let mut cart = CartState::new("cart", "site", JANUARY_31);
        cart.add_item(&club, 1).unwrap();
        assert_eq!(cart.add_item(&mug, 1), Err(CartError::SubscriptionNotAlone));
        // More of the same subscription is fine: two boxes a month.
        cart.add_item(&club, 1).unwrap();
        assert_eq!(cart.quantity_of(&club.sku), 2);
        assert!(cart.entries[0].is_subscription());
        cart.remove_item(&club.sku).unwrap();
        cart.add_item(&mug, 1).unwrap();
        assert_eq!(cart.entries.len(), 1);
    }

    #[test]
    fn statuses_read_back_from_their_text() {
        assert_eq!(
            SubscriptionStatus::parse(SubscriptionStatus::Active.as_str()),
            Some(SubscriptionStatus::Active)
        );
        for status in SubscriptionStatus::ALL {
            assert_eq!(SubscriptionStatus::parse(status.as_str()), Some(status));
        }
        assert_eq!(SubscriptionStatus::parse("on_hold"), None);
    }
}
