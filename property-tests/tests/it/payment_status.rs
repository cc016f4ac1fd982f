//! The payment status of an order under the reports a payment provider delivers: at least
//! once and in any order. The real state machine ([`PaymentStatus::after`]) is checked against
//! a tiny model that only remembers which outcomes were reported: the status must be what the
//! model says after every step, whatever the order and the repeats.

use proptest::prelude::*;
use vitrine_core::checkout::{PaymentOutcome, PaymentStatus};

fn outcome() -> impl Strategy<Value = PaymentOutcome> {
    prop_oneof![
        4 => Just(PaymentOutcome::Succeeded),
        4 => Just(PaymentOutcome::Failed),
        2 => Just(PaymentOutcome::Refunded),
        1 => Just(PaymentOutcome::Disputed),
    ]
}

/// Which outcomes were reported, starting from a placed order: one charged while the
/// shopper waited counts as a reported success, a pending one as nothing reported yet.
#[derive(Debug, Default)]
struct Reported {
    succeeded: bool,
    failed: bool,
    refunded: bool,
    disputed: bool,
}

impl Reported {
    fn record(&mut self, outcome: PaymentOutcome) {
        match outcome {
            PaymentOutcome::Succeeded => self.succeeded = true,
            PaymentOutcome::Failed => self.failed = true,
            PaymentOutcome::Refunded => self.refunded = true,
            PaymentOutcome::Disputed => self.disputed = true,
        }
    }

    fn status(&self) -> PaymentStatus {
        if self.disputed {
            PaymentStatus::Disputed
        } else if self.refunded {
            PaymentStatus::Refunded
        } else if self.succeeded {
            PaymentStatus::Paid
        } else if self.failed {
            PaymentStatus::Failed
        } else {
            PaymentStatus::Pending
        }
    }
}

proptest! {
    #[test]
    fn the_status_is_what_was_reported_whatever_the_order_and_repeats(
        paid_at_checkout in any::<bool>(),
        (reports, reordered) in prop::collection::vec(outcome(), 0..12)
            .prop_flat_map(|reports| (Just(reports.clone()), Just(reports).prop_shuffle())),
    ) {
        let (start, mut model) = if paid_at_checkout {
            (PaymentStatus::Paid, Reported { succeeded: true, ..Reported::default() })
        } else {
            (PaymentStatus::Pending, Reported::default())
        };
        let mut status = start;
        for report in &reports {
            let before = status;
            status = status.after(*report);
            model.record(*report);
            prop_assert_eq!(status, model.status());
            prop_assert!(!before.was_paid() || status.was_paid(), "money taken is never forgotten");
            prop_assert_eq!(status.after(*report), status, "a repeated report changes nothing");
        }
        // Delivered in another order, the same reports end in the same status.
        let other = reordered.iter().fold(start, |status, report| status.after(*report));
        prop_assert_eq!(other, status);
        prop_assert_eq!(status == PaymentStatus::Pending, !paid_at_checkout && reports.is_empty());
    }
}
