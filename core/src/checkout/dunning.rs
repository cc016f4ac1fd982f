//! The subscription's state machine: what a paid or declined renewal, a pause, a resume, a
//! cancellation and a new card do to a [`Subscription`], and when its next step falls due.
//!
//! Dunning follows the schedule: a declined renewal is retried 1, 3 and 5 days after
//! the period fell due; when the last retry is declined too the subscription is `PastDue`, and
//! it is cancelled [`PAST_DUE_GRACE_DAYS`] days later unless the shopper updates the card
//! first (which retries at once). Every date is counted from the period's due date, so a
//! renewal run that comes late does not push the schedule back.

use super::subscription::{Subscription, SubscriptionStatus};
use crate::cart::Timestamp;

/// Days after the due date at which a declined renewal is tried again.
pub const RETRY_AFTER_DAYS: [i64; 3] = [1, 3, 5];

/// Days a `PastDue` subscription waits for a new card after its last retry before it is
/// cancelled. Not given by the issue: a week is what a shopper who missed the mails needs to
/// notice, and short enough that an owner does not deliver for long without payment.
pub const PAST_DUE_GRACE_DAYS: i64 = 7;

/// Declined attempts after which a period's renewal is no longer retried: the first charge
/// and the three retries.
pub const ATTEMPTS_PER_PERIOD: u32 = 1 + RETRY_AFTER_DAYS.len() as u32;

const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// What is due next for a subscription, and when.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BillingStep {
    /// Charge the renewal of billing cycle `period`, try number `attempt` (0 first).
    Charge { period: u32, attempt: u32 },
    /// Cancel: the grace period of a `PastDue` subscription is over.
    Cancel,
}

/// Something that happens to a subscription.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BillingEvent {
    /// The renewal of the current period was paid.
    Charged,
    /// The renewal of the current period was declined at `at`.
    Declined { at: Timestamp },
    /// The shopper paused it.
    Pause,
    /// The shopper resumed it at `at`; periods that fell due while paused are skipped.
    Resume { at: Timestamp },
    /// Cancelled by the shopper or the owner, or when dunning gave up.
    Cancel,
    /// The shopper saved a new card at `at`; a renewal in dunning is retried at once.
    CardUpdated {
        at: Timestamp,
        payment_method: String,
    },
}

/// Why an event does not apply to a subscription in its status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum TransitionError {
    #[error("this subscription is {0}; it cannot change any more")]
    Final(&'static str),
    #[error("this subscription is {status}, so it cannot be {action}")]
    NotAllowed {
        status: &'static str,
        action: &'static str,
    },
}

impl Subscription {
    /// The next step and when it falls due; none for a paused or final subscription.
    pub fn next_step(&self) -> Option<(Timestamp, BillingStep)> {
        match self.status {
            SubscriptionStatus::Active => {
                let due = self.retry_at.or(self.next_billing)?;
                let step = BillingStep::Charge {
                    period: self.current_period(),
                    attempt: self.failed_attempts,
                };
                Some((due, step))
            }
            SubscriptionStatus::PastDue => Some((self.retry_at?, BillingStep::Cancel)),
            SubscriptionStatus::Paused
            | SubscriptionStatus::Cancelled
            | SubscriptionStatus::Ended => None,
        }
    }

    /// The subscription after `event`, or why the event does not apply.
    pub fn after(&self, event: &BillingEvent) -> Result<Self, TransitionError> {
        use SubscriptionStatus as S;
        if self.status.is_final() {
            return Err(TransitionError::Final(self.status.as_str()));
        }
        let refuse = |action| TransitionError::NotAllowed {
            status: self.status.as_str(),
            action,
        };
        let mut next = self.clone();
        match event {
            BillingEvent::Charged => {
                if self.status != S::Active {
                    return Err(refuse("charged"));
                }
                next.payments_made = self.payments_made.saturating_add(1);
                next.failed_attempts = 0;
                next.retry_at = None;
                next.next_billing = next.due_after(next.payments_made);
                if next.next_billing.is_none() {
                    next.status = S::Ended;
                }
            }
            BillingEvent::Declined { at } => {
                if self.status != S::Active {
                    return Err(refuse("declined"));
                }
                let due = self.next_billing.unwrap_or(*at);
                next.failed_attempts = self.failed_attempts.saturating_add(1);
                match RETRY_AFTER_DAYS.get(self.failed_attempts as usize) {
                    Some(days) => next.retry_at = Some(later(due.millis() + days * DAY_MS, *at)),
                    None => {
                        next.status = S::PastDue;
                        let last = RETRY_AFTER_DAYS[RETRY_AFTER_DAYS.len() - 1];
                        let cancel = due.millis() + (last + PAST_DUE_GRACE_DAYS) * DAY_MS;
                        next.retry_at = Some(later(cancel, *at));
                    }
                }
            }
            BillingEvent::Pause => {
                if self.status != S::Active || self.failed_attempts > 0 {
                    return Err(refuse("paused while a payment is due"));
                }
                next.status = S::Paused;
            }
            BillingEvent::Resume { at } => {
                if self.status != S::Paused {
                    return Err(refuse("resumed"));
                }
                next.status = S::Active;
                // Periods that fell due while paused are skipped: the shopper is charged
                // from the next billing date on, on the subscription's own calendar.
                while let Some(due) = next.next_billing
                    && due < *at
                {
                    next.skipped_periods = next.skipped_periods.saturating_add(1);
                    next.next_billing = next.due_after(next.payments_made);
                }
                if next.next_billing.is_none() {
                    next.status = S::Ended;
                }
            }
            BillingEvent::Cancel => {
                next.status = S::Cancelled;
                next.retry_at = None;
            }
            BillingEvent::CardUpdated { at, payment_method } => {
                next.payment_method = Some(payment_method.clone());
                if self.status == S::PastDue || self.failed_attempts > 0 {
                    next.status = S::Active;
                    next.retry_at = Some(*at);
                }
            }
        }
        Ok(next)
    }

    /// Whether a shopper or owner may still cancel it.
    pub fn can_cancel(&self) -> bool {
        !self.status.is_final()
    }
}

/// `millis`, or `now` when that is later: a step is never scheduled in the past.
fn later(millis: i64, now: Timestamp) -> Timestamp {
    Timestamp(millis.max(now.millis()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{BillingPeriod, BillingUnit, Sku, SubscriptionPlan};
    use crate::money::Currency;

    const DAY: i64 = DAY_MS;
    // 2026-01-31T10:00:00Z and the first renewal's date, the last day of February.
    const STARTED: Timestamp = Timestamp(1_769_853_600_000);
    const DUE: Timestamp = Timestamp(1_772_272_800_000);

    fn subscription(cycles: Option<u32>) -> Subscription {
        let mut subscription = Subscription {
            id: "order-1-subscription".into(),
            order_id: "order-1".into(),
            email: "clay@example.com".into(),
            account: None,
            sku: Sku::parse("CLUB").unwrap(),
            product_name: "Clay Club".into(),
            quantity: 1,
            price_cents: 2500,
            currency: Currency::Eur,
            plan: SubscriptionPlan {
                num_billing_cycles: cycles,
                billing_period: BillingPeriod {
                    value: 1,
                    unit: BillingUnit::Month,
                },
            },
            status: SubscriptionStatus::Active,
            started: STARTED,
            payments_made: 1,
            next_billing: None,
            skipped_periods: 0,
            payment_method: Some("pm_1".into()),
            failed_attempts: 0,
            retry_at: None,
        };
        subscription.next_billing = subscription.due_after(1);
        subscription
    }

    fn at(days: i64) -> Timestamp {
        Timestamp(DUE.millis() + days * DAY)
    }

    #[test]
    fn a_paid_renewal_moves_to_the_next_period_and_the_last_one_ends_the_plan() {
        let first = subscription(Some(3));
        assert_eq!(
            first.next_step(),
            Some((
                DUE,
                BillingStep::Charge {
                    period: 1,
                    attempt: 0
                }
            ))
        );
        let second = first.after(&BillingEvent::Charged).unwrap();
        assert_eq!(second.payments_made, 2);
        assert_eq!(second.status, SubscriptionStatus::Active);
        assert!(second.next_billing.unwrap() > DUE);
        let done = second.after(&BillingEvent::Charged).unwrap();
        assert_eq!(done.status, SubscriptionStatus::Ended);
        assert_eq!(done.next_step(), None);
        assert_eq!(
            done.after(&BillingEvent::Cancel),
            Err(TransitionError::Final("ended"))
        );
    }

    #[test]
    fn declines_retry_after_one_three_and_five_days_then_past_due_then_cancel() {
        let mut current = subscription(None);
        let mut retries = Vec::new();
        for attempt in 0..3 {
            current = current
                .after(&BillingEvent::Declined { at: at(0) })
                .unwrap();
            assert_eq!(current.status, SubscriptionStatus::Active, "{attempt}");
            let (when, step) = current.next_step().unwrap();
            assert_eq!(
                step,
                BillingStep::Charge {
                    period: 1,
                    attempt: attempt + 1
                }
            );
            retries.push(when);
        }
        assert_eq!(retries, vec![at(1), at(3), at(5)]);
        let past_due = current
            .after(&BillingEvent::Declined { at: at(5) })
            .unwrap();
        assert_eq!(past_due.status, SubscriptionStatus::PastDue);
        assert_eq!(past_due.next_step(), Some((at(12), BillingStep::Cancel)));
        assert!(past_due.after(&BillingEvent::Charged).is_err());
        let cancelled = past_due.after(&BillingEvent::Cancel).unwrap();
        assert_eq!(cancelled.status, SubscriptionStatus::Cancelled);
        assert_eq!(cancelled.next_step(), None);
    }

    #[test]
    fn a_new_card_retries_at_once_and_a_late_run_never_schedules_in_the_past() {
        let declined = subscription(None)
            .after(&BillingEvent::Declined { at: at(4) })
            .unwrap();
        // The run came four days late: the first retry is due now, not three days ago.
        assert_eq!(declined.retry_at, Some(at(4)));
        let mut past_due = declined;
        for _ in 0..3 {
            past_due = past_due
                .after(&BillingEvent::Declined { at: at(5) })
                .unwrap();
        }
        assert_eq!(past_due.status, SubscriptionStatus::PastDue);
        let updated = past_due
            .after(&BillingEvent::CardUpdated {
                at: at(8),
                payment_method: "pm_2".into(),
            })
            .unwrap();
        assert_eq!(updated.status, SubscriptionStatus::Active);
        assert_eq!(updated.payment_method.as_deref(), Some("pm_2"));
        assert_eq!(
            updated.next_step(),
            Some((
                at(8),
                BillingStep::Charge {
                    period: 1,
                    attempt: 4
                }
            ))
        );
        let paid = updated.after(&BillingEvent::Charged).unwrap();
        assert_eq!((paid.failed_attempts, paid.retry_at), (0, None));
    }

    #[test]
    fn a_pause_skips_the_periods_due_meanwhile() {
        let paused = subscription(None).after(&BillingEvent::Pause).unwrap();
        assert_eq!(paused.next_step(), None);
        assert!(paused.after(&BillingEvent::Charged).is_err());
        // Resumed 40 days after the first renewal's date: February's and March's periods
        // are skipped, April's is the next one charged.
        let resumed = paused.after(&BillingEvent::Resume { at: at(40) }).unwrap();
        assert_eq!(resumed.status, SubscriptionStatus::Active);
        assert_eq!(resumed.skipped_periods, 2);
        assert_eq!(resumed.payments_made, 1);
        let (due, step) = resumed.next_step().unwrap();
        assert!(due >= at(40));
        assert_eq!(
            step,
            BillingStep::Charge {
                period: 3,
                attempt: 0
            }
        );
        let declined = subscription(None)
            .after(&BillingEvent::Declined { at: at(0) })
            .unwrap();
        assert!(matches!(
            declined.after(&BillingEvent::Pause),
            Err(TransitionError::NotAllowed { .. })
        ));
    }
}
