//! The subscription's state machine (Active, PastDue, Paused, Cancelled, Ended) under any
//! sequence of renewals paid or declined, pauses, resumes, cancellations and new cards. A
//! weighted strategy of events is applied both to the real [`Subscription`] and to a tiny
//! model that keeps only the status and the counts; they must agree after every step, events
//! the model refuses must be refused, and dunning dates never fall before the event.

use proptest::prelude::*;
use vitrine_core::cart::Timestamp;
use vitrine_core::catalog::{BillingPeriod, BillingUnit, Sku, SubscriptionPlan};
use vitrine_core::checkout::{
    ATTEMPTS_PER_PERIOD, BillingEvent, BillingStep, Subscription, SubscriptionStatus,
};
use vitrine_core::money::Currency;

const DAY_MS: i64 = 24 * 60 * 60 * 1000;
// 2026-01-31T10:00:00Z.
const STARTED: Timestamp = Timestamp(1_769_853_600_000);

#[derive(Debug, Clone)]
enum Op {
    Charged,
    Declined,
    Pause,
    Resume,
    Cancel,
    CardUpdated,
    /// Time passes by this many days before the next event.
    Wait(u8),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => Just(Op::Charged),
        6 => Just(Op::Declined),
        2 => Just(Op::Pause),
        2 => Just(Op::Resume),
        1 => Just(Op::Cancel),
        2 => Just(Op::CardUpdated),
        4 => (0u8..40).prop_map(Op::Wait),
    ]
}

/// What the model remembers.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Model {
    status: SubscriptionStatus,
    payments_made: u32,
    failed_attempts: u32,
    cycles: Option<u32>,
}

impl Model {
    /// The model after `op`, or none when the subscription must refuse it.
    fn after(&self, op: &Op) -> Option<Self> {
        use SubscriptionStatus::*;
        let mut next = self.clone();
        if self.status == Cancelled || self.status == Ended {
            return matches!(op, Op::Wait(_)).then_some(next);
        }
        match op {
            Op::Wait(_) => {}
            Op::Charged => {
                if self.status != Active {
                    return None;
                }
                next.payments_made += 1;
                next.failed_attempts = 0;
                if Some(next.payments_made) == self.cycles {
                    next.status = Ended;
                }
            }
            Op::Declined => {
                if self.status != Active {
                    return None;
                }
                next.failed_attempts += 1;
                if next.failed_attempts >= ATTEMPTS_PER_PERIOD {
                    next.status = PastDue;
                }
            }
            Op::Pause => {
                if self.status != Active || self.failed_attempts > 0 {
                    return None;
                }
                next.status = Paused;
            }
            Op::Resume => {
                if self.status != Paused {
                    return None;
                }
                next.status = Active;
            }
            Op::Cancel => next.status = Cancelled,
            Op::CardUpdated => {
                if self.status == PastDue {
                    next.status = Active;
                }
            }
        }
        Some(next)
    }
}

fn start(cycles: Option<u32>, unit: BillingUnit) -> Subscription {
    let mut subscription = Subscription {
        id: "order-1-subscription".into(),
        order_id: "order-1".into(),
        email: "a@example.com".into(),
        account: None,
        sku: Sku::parse("CLUB").unwrap(),
        product_name: "Club".into(),
        quantity: 1,
        price_cents: 900,
        currency: Currency::Eur,
        plan: SubscriptionPlan {
            num_billing_cycles: cycles,
            billing_period: BillingPeriod { value: 1, unit },
        },
        status: SubscriptionStatus::Active,
        started: STARTED,
        payments_made: 1,
        next_billing: None,
        skipped_periods: 0,
        payment_method: Some("pm".into()),
        failed_attempts: 0,
        retry_at: None,
    };
    subscription.next_billing = unit_date(&subscription, 1);
    subscription
}

fn unit_date(subscription: &Subscription, cycle: u32) -> Option<Timestamp> {
    subscription
        .plan
        .billing_period
        .billing_date(subscription.started, cycle)
}

proptest! {
    #[test]
    fn the_state_machine_agrees_with_the_model(
        cycles in prop_oneof![Just(None), (2u32..6).prop_map(Some)],
        unit in prop_oneof![Just(BillingUnit::Week), Just(BillingUnit::Month), Just(BillingUnit::Year)],
        ops in prop::collection::vec(op(), 0..40),
    ) {
        let mut real = start(cycles, unit);
        let mut model = Model {
            status: SubscriptionStatus::Active,
            payments_made: 1,
            failed_attempts: 0,
            cycles,
        };
        let mut now = STARTED;
        let mut charged_periods = vec![0];
        for op in &ops {
            let event = match op {
                Op::Wait(days) => {
                    now = Timestamp(now.millis() + i64::from(*days) * DAY_MS);
                    None
                }
                Op::Charged => Some(BillingEvent::Charged),
                Op::Declined => Some(BillingEvent::Declined { at: now }),
                Op::Pause => Some(BillingEvent::Pause),
                Op::Resume => Some(BillingEvent::Resume { at: now }),
                Op::Cancel => Some(BillingEvent::Cancel),
                Op::CardUpdated => Some(BillingEvent::CardUpdated { at: now, payment_method: "pm2".into() }),
            };
            let expected = model.after(op);
            let Some(event) = event else {
                continue;
            };
            let period = real.current_period();
            let mut applied = false;
            match (real.after(&event), expected) {
                (Ok(next), Some(next_model)) => {
                    if matches!(op, Op::Charged) {
                        // A period is paid once, and periods only move forward.
                        prop_assert!(charged_periods.iter().all(|&paid| paid < period));
                        charged_periods.push(period);
                    }
                    real = next;
                    model = next_model;
                    applied = true;
                }
                (Err(_), None) => {}
                (got, wanted) => prop_assert!(false, "{op:?}: real {got:?}, model {wanted:?}"),
            }
            prop_assert_eq!(real.status, model.status, "after {:?}", op);
            prop_assert_eq!(real.payments_made, model.payments_made);
            prop_assert_eq!(real.failed_attempts, model.failed_attempts);
            if let Some(cycles) = cycles {
                prop_assert!(real.payments_made <= cycles);
            }
            match (real.status, real.next_step()) {
                (SubscriptionStatus::Active, Some((when, BillingStep::Charge { period, attempt }))) => {
                    prop_assert_eq!(attempt, real.failed_attempts);
                    prop_assert_eq!(period, real.payments_made + real.skipped_periods);
                    // A step an event schedules never lies before the event.
                    if applied && real.failed_attempts > 0 {
                        prop_assert!(when >= now);
                    }
                }
                (SubscriptionStatus::PastDue, Some((when, BillingStep::Cancel))) => {
                    prop_assert!(!applied || when >= now);
                }
                (SubscriptionStatus::Paused | SubscriptionStatus::Cancelled | SubscriptionStatus::Ended, None) => {}
                (status, step) => prop_assert!(false, "{status:?} with next step {step:?}"),
            }
            if real.status == SubscriptionStatus::Active && real.failed_attempts == 0 {
                // The next charge is on the subscription's own calendar.
                prop_assert_eq!(real.next_billing, unit_date(&real, real.current_period()));
            }
        }
    }
}
