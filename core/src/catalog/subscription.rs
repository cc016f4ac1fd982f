//! Subscription plans (000 s3): a billing period of a number of weeks, months or years, and a
//! number of billing cycles where 0 (or none) means the plan runs until cancelled.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BillingUnit {
    Week,
    Month,
    Year,
}

impl BillingUnit {
    fn name(self, plural: bool) -> &'static str {
        match (self, plural) {
            (Self::Week, false) => "week",
            (Self::Week, true) => "weeks",
            (Self::Month, false) => "month",
            (Self::Month, true) => "months",
            (Self::Year, false) => "year",
            (Self::Year, true) => "years",
        }
    }
}

/// How often a subscription bills: `value` units, at least 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BillingPeriod {
    pub value: u32,
    pub unit: BillingUnit,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SubscriptionPlan {
    /// 0 or none: indefinite.
    pub num_billing_cycles: Option<u32>,
    pub billing_period: BillingPeriod,
}

impl SubscriptionPlan {
    pub fn is_indefinite(&self) -> bool {
        self.num_billing_cycles.unwrap_or(0) == 0
    }

    /// "Every month, until cancelled" or "Every 2 weeks, 6 payments" (our wording).
    pub fn describe(&self) -> String {
        let period = match self.billing_period.value {
            1 => format!("Every {}", self.billing_period.unit.name(false)),
            n => format!("Every {n} {}", self.billing_period.unit.name(true)),
        };
        match self.num_billing_cycles.unwrap_or(0) {
            0 => format!("{period}, until cancelled"),
            1 => format!("{period}, 1 payment"),
            n => format!("{period}, {n} payments"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(cycles: Option<u32>, value: u32, unit: BillingUnit) -> SubscriptionPlan {
        SubscriptionPlan {
            num_billing_cycles: cycles,
            billing_period: BillingPeriod { value, unit },
        }
    }

    #[test]
    fn zero_or_no_cycles_mean_indefinite() {
        assert!(plan(None, 1, BillingUnit::Month).is_indefinite());
        assert!(plan(Some(0), 1, BillingUnit::Month).is_indefinite());
        assert!(!plan(Some(6), 1, BillingUnit::Month).is_indefinite());
    }

    #[test]
    fn plans_read_as_a_period_and_a_count() {
        assert_eq!(
            plan(None, 1, BillingUnit::Month).describe(),
            "Every month, until cancelled"
        );
        assert_eq!(
            plan(Some(6), 2, BillingUnit::Week).describe(),
            "Every 2 weeks, 6 payments"
        );
        assert_eq!(
            plan(Some(1), 1, BillingUnit::Year).describe(),
            "Every year, 1 payment"
        );
    }
}
