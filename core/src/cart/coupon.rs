//! Coupons: percentage, fixed amount and free shipping, with dates and usage limits, and
//! the reason a coupon does not apply.

use serde::{Deserialize, Serialize};

use super::ids::{CouponCode, Timestamp};

/// What a coupon takes off.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "SCREAMING_SNAKE_CASE")]
pub enum CouponKind {
    /// A share of the subtotal in basis points (1000 is 10 %), rounded half to even.
    Percentage {
        #[serde(rename = "basisPoints")]
        basis_points: i64,
    },
    /// A fixed amount off the subtotal, never more than the subtotal.
    FixedAmount {
        #[serde(rename = "amountCents")]
        amount_cents: i64,
    },
    /// The shipping cost is waived.
    FreeShipping,
}

/// Why a coupon definition was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CouponError {
    #[error("a percentage coupon takes 0.01 % to 100 % (1 to 10000 basis points), not {0}")]
    PercentageOutOfRange(i64),
    #[error("a fixed-amount coupon takes a positive amount, not {0}")]
    AmountNotPositive(i64),
    #[error("a coupon cannot end before it starts")]
    EndsBeforeStart,
}

/// A coupon the store offers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Coupon {
    pub code: CouponCode,
    pub kind: CouponKind,
    /// First instant the coupon applies (inclusive); none means from the start.
    pub starts_at: Option<Timestamp>,
    /// The instant the coupon stops applying (exclusive); none means it never expires.
    pub ends_at: Option<Timestamp>,
    /// How many orders in all may use it; none means no limit.
    pub total_usage_limit: Option<u32>,
    /// How many orders of one customer may use it; none means no limit.
    pub per_customer_limit: Option<u32>,
}

impl Coupon {
    pub fn new(
        code: CouponCode,
        kind: CouponKind,
        starts_at: Option<Timestamp>,
        ends_at: Option<Timestamp>,
    ) -> Result<Self, CouponError> {
        match kind {
            CouponKind::Percentage { basis_points } if !(1..=10_000).contains(&basis_points) => {
                return Err(CouponError::PercentageOutOfRange(basis_points));
            }
            CouponKind::FixedAmount { amount_cents } if amount_cents <= 0 => {
                return Err(CouponError::AmountNotPositive(amount_cents));
            }
            _ => {}
        }
        if let (Some(start), Some(end)) = (starts_at, ends_at)
            && end < start
        {
            return Err(CouponError::EndsBeforeStart);
        }
        Ok(Self {
            code,
            kind,
            starts_at,
            ends_at,
            total_usage_limit: None,
            per_customer_limit: None,
        })
    }

    pub fn with_limits(mut self, total: Option<u32>, per_customer: Option<u32>) -> Self {
        self.total_usage_limit = total;
        self.per_customer_limit = per_customer;
        self
    }

    /// Whether the coupon applies at `now` given how often it has been used, or why not.
    pub fn check(
        &self,
        usage: CouponUsage,
        now: Timestamp,
        requires_shipping: bool,
    ) -> Result<(), InvalidCouponReason> {
        if self.starts_at.is_some_and(|start| now < start) {
            return Err(InvalidCouponReason::NotStarted);
        }
        if self.ends_at.is_some_and(|end| now >= end) {
            return Err(InvalidCouponReason::Expired);
        }
        if self
            .total_usage_limit
            .is_some_and(|limit| usage.total >= limit)
        {
            return Err(InvalidCouponReason::UsageLimitReached);
        }
        if self
            .per_customer_limit
            .is_some_and(|limit| usage.by_customer >= limit)
        {
            return Err(InvalidCouponReason::CustomerLimitReached);
        }
        if self.kind == CouponKind::FreeShipping && !requires_shipping {
            return Err(InvalidCouponReason::NothingToShip);
        }
        Ok(())
    }
}

/// How many placed orders have used a coupon: in all, and by the shopper at hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CouponUsage {
    pub total: u32,
    pub by_customer: u32,
}

/// A coupon a shopper applied, with the usage counts read when it was applied.
///
/// The counts are a snapshot: the cart re-checks dates and limits against them every time
/// it is priced, and the order store checks the limits again, atomically, when the order is
/// placed, so a limit is never exceeded by two carts racing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AppliedCoupon {
    pub coupon: Coupon,
    pub usage: CouponUsage,
}

/// Why an applied coupon takes nothing off. The specification names no texts for these;
/// the messages are ours (see the decisions list).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum InvalidCouponReason {
    NotStarted,
    Expired,
    UsageLimitReached,
    CustomerLimitReached,
    NothingToShip,
}

impl InvalidCouponReason {
    /// The sentence shown to the shopper.
    pub const fn message(self) -> &'static str {
        match self {
            Self::NotStarted => "This coupon is not active yet.",
            Self::Expired => "This coupon has expired.",
            Self::UsageLimitReached => "This coupon has reached its usage limit.",
            Self::CustomerLimitReached => "You have already used this coupon.",
            Self::NothingToShip => {
                "This coupon gives free shipping, and nothing in your cart ships."
            }
        }
    }
}

/// An applied coupon that does not apply, with the reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InvalidCoupon {
    pub code: CouponCode,
    pub reason: InvalidCouponReason,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn coupon(kind: CouponKind) -> Coupon {
        Coupon::new(
            CouponCode::parse("save").unwrap(),
            kind,
            Some(Timestamp(1_000)),
            Some(Timestamp(2_000)),
        )
        .unwrap()
    }

    #[test]
    fn dates_are_inclusive_at_the_start_and_exclusive_at_the_end() {
        let coupon = coupon(CouponKind::FixedAmount { amount_cents: 100 });
        let usage = CouponUsage::default();
        assert_eq!(
            coupon.check(usage, Timestamp(999), true),
            Err(InvalidCouponReason::NotStarted)
        );
        assert_eq!(coupon.check(usage, Timestamp(1_000), true), Ok(()));
        assert_eq!(
            coupon.check(usage, Timestamp(2_000), true),
            Err(InvalidCouponReason::Expired)
        );
    }

    #[test]
    fn usage_limits_count_total_and_per_customer() {
        let coupon =
            coupon(CouponKind::Percentage { basis_points: 1000 }).with_limits(Some(10), Some(1));
        let now = Timestamp(1_500);
        let fresh = CouponUsage {
            total: 9,
            by_customer: 0,
        };
        assert_eq!(coupon.check(fresh, now, false), Ok(()));
        let used_up = CouponUsage {
            total: 10,
            by_customer: 0,
        };
        assert_eq!(
            coupon.check(used_up, now, false),
            Err(InvalidCouponReason::UsageLimitReached)
        );
        let mine = CouponUsage {
            total: 3,
            by_customer: 1,
        };
        assert_eq!(
            coupon.check(mine, now, false),
            Err(InvalidCouponReason::CustomerLimitReached)
        );
    }

    #[test]
    fn free_shipping_needs_something_to_ship_and_bad_definitions_are_refused() {
        let free = coupon(CouponKind::FreeShipping);
        assert_eq!(
            free.check(CouponUsage::default(), Timestamp(1_500), false),
            Err(InvalidCouponReason::NothingToShip)
        );
        let code = CouponCode::parse("x").unwrap();
        let bad = Coupon::new(
            code.clone(),
            CouponKind::Percentage { basis_points: 0 },
            None,
            None,
        );
        assert_eq!(bad, Err(CouponError::PercentageOutOfRange(0)));
        let bad = Coupon::new(
            code,
            CouponKind::FixedAmount { amount_cents: 0 },
            None,
            None,
        );
        assert_eq!(bad, Err(CouponError::AmountNotPositive(0)));
    }
}
