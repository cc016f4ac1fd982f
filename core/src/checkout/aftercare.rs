//! Orders after checkout: refunds (whole or in part, by amount or by units), cancellation
//! before fulfilment, and fulfilment with a tracking link. This file holds the rules, with no
//! I/O: what an order may still have refunded, which units go back to stock, and which
//! changes an order's state allows. The service that asks the payment gateway and the store
//! is `aftercare_service.rs`; the store port is `aftercare_store.rs`.
//!
//! Decisions (the specification shows none of this):
//! - Only the part of an order the payment gateway charged is refunded through it; a part a
//!   gift card paid stays on that card's code, which the shopper keeps.
//! - A refund by units without an amount refunds those units at the price they were bought
//!   for, at most what is left to refund (a coupon may have made the order cheaper than its
//!   lines).
//! - Every sum is checked: an amount that would overflow is refused, never wrapped.

use crate::cart::Timestamp;
use crate::catalog::Sku;

use super::order::Order;
use super::payment_events::PaymentStatus;

/// The longest tracking link taken, as browsers and mail clients show addresses whole.
pub const MAX_TRACKING_URL_LEN: usize = 2048;

/// A carrier's tracking page: an `http` or `https` address without spaces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrackingUrl(String);

/// Why a tracking link was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "a tracking link is an http:// or https:// address of at most {MAX_TRACKING_URL_LEN} characters without spaces"
)]
pub struct InvalidTrackingUrl;

impl TrackingUrl {
    pub fn parse(text: &str) -> Result<Self, InvalidTrackingUrl> {
        let text = text.trim();
        let rest = text
            .strip_prefix("https://")
            .or_else(|| text.strip_prefix("http://"))
            .ok_or(InvalidTrackingUrl)?;
        let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
        let fits = text.len() <= MAX_TRACKING_URL_LEN
            && !host.is_empty()
            && !text.chars().any(|c| c.is_whitespace() || c.is_control());
        fits.then(|| Self(text.to_owned()))
            .ok_or(InvalidTrackingUrl)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Units of a SKU to refund (`SKU:QTY` on the command line).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RefundLine {
    pub sku: Sku,
    pub quantity: u32,
}

/// Why a `SKU:QTY` text was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not SKU:QUANTITY with a quantity of at least 1")]
pub struct InvalidRefundLine(pub String);

impl RefundLine {
    pub fn parse(text: &str) -> Result<Self, InvalidRefundLine> {
        let refused = || InvalidRefundLine(text.to_owned());
        let (sku, quantity) = text.rsplit_once(':').ok_or_else(refused)?;
        let sku = Sku::parse(sku.trim()).map_err(|_| refused())?;
        let quantity: u32 = quantity.trim().parse().map_err(|_| refused())?;
        if quantity == 0 {
            return Err(refused());
        }
        Ok(Self { sku, quantity })
    }
}

/// What the owner asks to refund: an amount, units, or both (units with their own amount).
/// Neither refunds everything that is left.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RefundRequest {
    pub amount_cents: Option<i64>,
    pub lines: Vec<RefundLine>,
}

impl RefundRequest {
    /// Everything left to refund, with every unit not yet refunded back to stock.
    pub fn everything() -> Self {
        Self::default()
    }
}

/// Where a refund stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefundState {
    /// Recorded and sent to the payment gateway; its answer is not recorded yet. It counts
    /// against what may be refunded, so two refunds asked at once cannot both pass.
    Requested,
    /// The gateway gave the money back; its units are back in stock.
    Refunded,
    /// The gateway refused; it counts for nothing.
    Failed,
}

impl RefundState {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Requested => "requested",
            Self::Refunded => "refunded",
            Self::Failed => "failed",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        [Self::Requested, Self::Refunded, Self::Failed]
            .into_iter()
            .find(|state| state.as_str() == text)
    }
}

/// One refund of an order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderRefund {
    /// `{order id}-refund-{sequence}`: also the payment gateway's idempotency key, so a
    /// refund asked again after a crash is made once.
    pub id: String,
    pub order_id: String,
    /// 1 for the order's first refund, then 2, ...
    pub sequence: u32,
    pub amount_cents: i64,
    /// Units going back to stock once the refund is made.
    pub lines: Vec<RefundLine>,
    pub state: RefundState,
    /// The gateway's id of the refund, once made.
    pub gateway_refund_id: String,
    /// Why the gateway refused, for a failed one.
    pub reason: String,
    pub requested: Timestamp,
}

impl OrderRefund {
    pub fn id_for(order_id: &str, sequence: u32) -> String {
        format!("{order_id}-refund-{sequence}")
    }

    /// The refund `plan` of the order `order_id`, recorded as requested at `now` as the
    /// order's `sequence`th.
    pub fn requested(order_id: &str, sequence: u32, plan: RefundPlan, now: Timestamp) -> Self {
        Self {
            id: Self::id_for(order_id, sequence),
            order_id: order_id.to_owned(),
            sequence,
            amount_cents: plan.amount_cents,
            lines: plan.lines,
            state: RefundState::Requested,
            gateway_refund_id: String::new(),
            reason: String::new(),
            requested: now,
        }
    }
}

/// Where an order stands after checkout.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Fulfilment {
    /// Placed, not yet sent or cancelled.
    #[default]
    Open,
    Fulfilled {
        tracking_url: TrackingUrl,
        at: Timestamp,
    },
    Cancelled {
        at: Timestamp,
    },
}

impl Fulfilment {
    pub fn word(&self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::Fulfilled { .. } => "fulfilled",
            Self::Cancelled { .. } => "cancelled",
        }
    }
}

/// An order's state after checkout: its fulfilment and its refunds, oldest first.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Aftercare {
    pub fulfilment: Fulfilment,
    pub refunds: Vec<OrderRefund>,
}

/// Why a refund was not made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RefundError {
    #[error("no order {0}")]
    UnknownOrder(String),
    /// The payment provider has not said yet whether the order was paid.
    #[error("the order's payment is still pending")]
    PaymentPending,
    /// Nothing the gateway charged is left to give back.
    #[error("nothing is left to refund on this order")]
    NothingToRefund,
    #[error("a refund is more than 0")]
    AmountNotPositive,
    #[error("at most {refundable} (minor units) is left to refund")]
    AmountTooLarge { refundable: i64 },
    #[error("the order has no line with SKU {}", .0.as_str())]
    UnknownLine(Sku),
    #[error("at most {refundable} units of {} are left to refund", .sku.as_str())]
    TooManyUnits { sku: Sku, refundable: u32 },
    #[error("the amounts overflow")]
    Overflow,
}

/// A refund the rules allow, ready to record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefundPlan {
    pub amount_cents: i64,
    pub lines: Vec<RefundLine>,
}

/// What the payment gateway charged for `order`: its rest after a gift card, once paid.
pub fn charged_cents(order: &Order) -> i64 {
    if order.payment_id.is_empty() {
        return 0;
    }
    order.rest_due_cents().max(0)
}

impl Aftercare {
    /// Refunds that count: asked for or made, not failed.
    fn counting(&self) -> impl Iterator<Item = &OrderRefund> {
        self.refunds
            .iter()
            .filter(|refund| refund.state != RefundState::Failed)
    }

    /// The sequence number of the order's next refund.
    pub fn next_sequence(&self) -> u32 {
        u32::try_from(self.refunds.len() + 1).unwrap_or(u32::MAX)
    }

    /// The sum of the refunds that count.
    pub fn refunded_cents(&self) -> Result<i64, RefundError> {
        self.counting().try_fold(0_i64, |sum, refund| {
            sum.checked_add(refund.amount_cents)
                .ok_or(RefundError::Overflow)
        })
    }

    /// What is left to refund of what the gateway charged for `order`.
    pub fn refundable_cents(&self, order: &Order) -> Result<i64, RefundError> {
        charged_cents(order)
            .checked_sub(self.refunded_cents()?)
            .ok_or(RefundError::Overflow)
            .map(|left| left.max(0))
    }

    /// Units of `sku` the refunds that count send back to stock.
    pub fn refunded_units(&self, sku: &Sku) -> u32 {
        self.counting()
            .flat_map(|refund| &refund.lines)
            .filter(|line| &line.sku == sku)
            .fold(0_u32, |sum, line| sum.saturating_add(line.quantity))
    }

    /// Every unit of `order` not refunded yet, by SKU: what a full refund or a
    /// cancellation sends back to stock.
    pub fn units_left(&self, order: &Order) -> Vec<RefundLine> {
        order
            .units_by_sku()
            .into_iter()
            .filter_map(|(sku, ordered)| {
                let left = ordered.saturating_sub(self.refunded_units(&sku));
                (left > 0).then_some(RefundLine {
                    sku,
                    quantity: left,
                })
            })
            .collect()
    }

    /// The refund `request` asks of `order`, or why the rules refuse it.
    pub fn plan_refund(
        &self,
        order: &Order,
        request: &RefundRequest,
    ) -> Result<RefundPlan, RefundError> {
        if order.payment_status == PaymentStatus::Pending {
            return Err(RefundError::PaymentPending);
        }
        let paid = matches!(
            order.payment_status,
            PaymentStatus::Paid | PaymentStatus::Disputed
        );
        let refundable = if paid {
            self.refundable_cents(order)?
        } else {
            0
        };
        if refundable == 0 {
            return Err(RefundError::NothingToRefund);
        }
        let lines = if request.lines.is_empty() && request.amount_cents.is_none() {
            self.units_left(order)
        } else {
            self.check_lines(order, &request.lines)?
        };
        let amount = match request.amount_cents {
            Some(amount) => amount,
            None if request.lines.is_empty() => refundable,
            None => lines_value(order, &lines)?.min(refundable),
        };
        if amount <= 0 {
            return Err(RefundError::AmountNotPositive);
        }
        if amount > refundable {
            return Err(RefundError::AmountTooLarge { refundable });
        }
        Ok(RefundPlan {
            amount_cents: amount,
            lines,
        })
    }

    /// The requested units merged by SKU, each within what is left of it.
    fn check_lines(
        &self,
        order: &Order,
        requested: &[RefundLine],
    ) -> Result<Vec<RefundLine>, RefundError> {
        let ordered = order.units_by_sku();
        let mut merged: Vec<RefundLine> = Vec::new();
        for line in requested {
            match merged.iter_mut().find(|kept| kept.sku == line.sku) {
                Some(kept) => {
                    kept.quantity = kept
                        .quantity
                        .checked_add(line.quantity)
                        .ok_or(RefundError::Overflow)?;
                }
                None => merged.push(line.clone()),
            }
        }
        for line in &merged {
            let bought = ordered
                .iter()
                .find(|(sku, _)| sku == &line.sku)
                .map(|(_, quantity)| *quantity)
                .ok_or_else(|| RefundError::UnknownLine(line.sku.clone()))?;
            let left = bought.saturating_sub(self.refunded_units(&line.sku));
            if line.quantity > left {
                return Err(RefundError::TooManyUnits {
                    sku: line.sku.clone(),
                    refundable: left,
                });
            }
        }
        Ok(merged)
    }
}

/// What `lines` cost in `order`: each unit at the price of the order's first line of its SKU.
fn lines_value(order: &Order, lines: &[RefundLine]) -> Result<i64, RefundError> {
    lines.iter().try_fold(0_i64, |sum, line| {
        let unit = order
            .lines
            .iter()
            .find(|ordered| ordered.sku == line.sku)
            .map(|ordered| ordered.unit_price_cents)
            .ok_or_else(|| RefundError::UnknownLine(line.sku.clone()))?;
        unit.checked_mul(i64::from(line.quantity))
            .and_then(|value| sum.checked_add(value))
            .ok_or(RefundError::Overflow)
    })
}

/// Why an order could not be cancelled or fulfilled.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChangeOrderError {
    #[error("no order {0}")]
    UnknownOrder(String),
    #[error("the order was sent already")]
    AlreadyFulfilled,
    #[error("the order was cancelled")]
    Cancelled,
    /// The payment provider has not said yet whether the order was paid.
    #[error("the order's payment is still pending")]
    PaymentPending,
    /// The payment failed: there is nothing to send.
    #[error("the order's payment failed")]
    PaymentFailed,
}

impl Aftercare {
    /// Whether `order` may be cancelled now: only before it is sent.
    pub fn check_cancel(&self, order: &Order) -> Result<(), ChangeOrderError> {
        if order.payment_status == PaymentStatus::Pending {
            return Err(ChangeOrderError::PaymentPending);
        }
        self.check_open()
    }

    /// Whether `order` may be marked sent now: paid, and neither sent nor cancelled.
    pub fn check_fulfil(&self, order: &Order) -> Result<(), ChangeOrderError> {
        match order.payment_status {
            PaymentStatus::Pending => return Err(ChangeOrderError::PaymentPending),
            PaymentStatus::Failed | PaymentStatus::Refunded => {
                return Err(ChangeOrderError::PaymentFailed);
            }
            PaymentStatus::Paid | PaymentStatus::Disputed => {}
        }
        self.check_open()
    }

    /// The units a cancellation of `order` puts back: every unit not refunded, unless its
    /// payment failed, which put them back already.
    pub fn cancel_restock(&self, order: &Order) -> Vec<RefundLine> {
        if order.payment_status == PaymentStatus::Failed {
            return Vec::new();
        }
        self.units_left(order)
    }

    fn check_open(&self) -> Result<(), ChangeOrderError> {
        match self.fulfilment {
            Fulfilment::Open => Ok(()),
            Fulfilment::Fulfilled { .. } => Err(ChangeOrderError::AlreadyFulfilled),
            Fulfilment::Cancelled { .. } => Err(ChangeOrderError::Cancelled),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reviews::conformance::fixture_order;

    fn paid(total: i64) -> Order {
        Order {
            grand_total_cents: total,
            payment_id: "ch_1".into(),
            ..fixture_order("order-1")
        }
    }

    fn line(text: &str) -> RefundLine {
        RefundLine::parse(text).unwrap()
    }

    fn refund(sequence: u32, cents: i64, lines: &[&str], state: RefundState) -> OrderRefund {
        OrderRefund {
            id: OrderRefund::id_for("order-1", sequence),
            order_id: "order-1".into(),
            sequence,
            amount_cents: cents,
            lines: lines.iter().map(|text| line(text)).collect(),
            state,
            gateway_refund_id: String::new(),
            reason: String::new(),
            requested: Timestamp(0),
        }
    }

    #[test]
    fn tracking_links_and_refund_lines_are_checked_at_the_edge() {
        assert!(TrackingUrl::parse("https://track.example/ABC123").is_ok());
        for bad in [
            "track.example/1",
            "ftp://x.example",
            "https://",
            "https://a b",
            "javascript:alert(1)",
        ] {
            assert_eq!(TrackingUrl::parse(bad), Err(InvalidTrackingUrl), "{bad}");
        }
        assert_eq!(
            line("MUG-1:2"),
            RefundLine {
                sku: Sku::parse("MUG-1").unwrap(),
                quantity: 2
            }
        );
        for bad in ["MUG-1", "MUG-1:0", "MUG-1:-1", ":2", "MUG-1:x"] {
            assert!(RefundLine::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_full_refund_gives_back_everything_left_and_restocks_every_unit_left() {
        // The fixture: 2 lines of MUG-1 (1 each) and 1 BOWL-1, 10.00 each.
        let order = paid(3_000);
        let mut care = Aftercare::default();
        care.refunds
            .push(refund(1, 1_000, &["MUG-1:1"], RefundState::Refunded));
        care.refunds.push(refund(2, 500, &[], RefundState::Failed));
        let plan = care
            .plan_refund(&order, &RefundRequest::everything())
            .unwrap();
        assert_eq!(plan.amount_cents, 2_000);
        assert_eq!(plan.lines, vec![line("MUG-1:1"), line("BOWL-1:1")]);
    }

    #[test]
    fn partial_refunds_never_pass_what_was_charged_or_bought() {
        let order = paid(3_000);
        let care = Aftercare {
            fulfilment: Fulfilment::Open,
            refunds: vec![refund(1, 2_500, &["MUG-1:2"], RefundState::Requested)],
        };
        let by_amount = |cents| RefundRequest {
            amount_cents: Some(cents),
            lines: vec![],
        };
        assert_eq!(
            care.plan_refund(&order, &by_amount(501)),
            Err(RefundError::AmountTooLarge { refundable: 500 })
        );
        assert_eq!(
            care.plan_refund(&order, &by_amount(0)),
            Err(RefundError::AmountNotPositive)
        );
        assert_eq!(
            care.plan_refund(&order, &by_amount(500))
                .unwrap()
                .amount_cents,
            500
        );
        let units = |text: &str| RefundRequest {
            amount_cents: None,
            lines: vec![line(text)],
        };
        assert_eq!(
            care.plan_refund(&order, &units("MUG-1:1")),
            Err(RefundError::TooManyUnits {
                sku: Sku::parse("MUG-1").unwrap(),
                refundable: 0
            })
        );
        assert_eq!(
            care.plan_refund(&order, &units("CUP-9:1")),
            Err(RefundError::UnknownLine(Sku::parse("CUP-9").unwrap()))
        );
        // A bowl costs 10.00, but only 5.00 is left: the refund is capped.
        assert_eq!(
            care.plan_refund(&order, &units("BOWL-1:1")).unwrap(),
            RefundPlan {
                amount_cents: 500,
                lines: vec![line("BOWL-1:1")]
            }
        );
    }

    #[test]
    fn nothing_is_refunded_of_an_unpaid_pending_or_gift_card_order() {
        let free = fixture_order("order-1");
        assert_eq!(
            Aftercare::default().plan_refund(&free, &RefundRequest::everything()),
            Err(RefundError::NothingToRefund)
        );
        let pending = Order {
            payment_status: PaymentStatus::Pending,
            ..paid(3_000)
        };
        assert_eq!(
            Aftercare::default().plan_refund(&pending, &RefundRequest::everything()),
            Err(RefundError::PaymentPending)
        );
        let failed = Order {
            payment_status: PaymentStatus::Failed,
            ..paid(3_000)
        };
        assert_eq!(
            Aftercare::default().plan_refund(&failed, &RefundRequest::everything()),
            Err(RefundError::NothingToRefund)
        );
    }

    #[test]
    fn amounts_that_would_overflow_are_refused() {
        let mut order = paid(3_000);
        order.lines[0].unit_price_cents = i64::MAX;
        let request = RefundRequest {
            amount_cents: None,
            lines: vec![line("MUG-1:2")],
        };
        assert_eq!(
            Aftercare::default().plan_refund(&order, &request),
            Err(RefundError::Overflow)
        );
    }

    #[test]
    fn an_order_is_cancelled_or_sent_once_and_never_both() {
        let order = paid(3_000);
        let open = Aftercare::default();
        assert_eq!(open.check_cancel(&order), Ok(()));
        assert_eq!(open.check_fulfil(&order), Ok(()));
        let sent = Aftercare {
            fulfilment: Fulfilment::Fulfilled {
                tracking_url: TrackingUrl::parse("https://t.example/1").unwrap(),
                at: Timestamp(1),
            },
            refunds: vec![],
        };
        assert_eq!(
            sent.check_cancel(&order),
            Err(ChangeOrderError::AlreadyFulfilled)
        );
        assert_eq!(
            sent.check_fulfil(&order),
            Err(ChangeOrderError::AlreadyFulfilled)
        );
        let cancelled = Aftercare {
            fulfilment: Fulfilment::Cancelled { at: Timestamp(1) },
            refunds: vec![],
        };
        assert_eq!(
            cancelled.check_fulfil(&order),
            Err(ChangeOrderError::Cancelled)
        );
        let pending = Order {
            payment_status: PaymentStatus::Pending,
            ..order
        };
        assert_eq!(
            open.check_fulfil(&pending),
            Err(ChangeOrderError::PaymentPending)
        );
        assert_eq!(
            open.check_cancel(&pending),
            Err(ChangeOrderError::PaymentPending)
        );
    }
}
