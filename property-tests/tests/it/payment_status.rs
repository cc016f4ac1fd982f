//! The payment status of an order under the reports a payment provider delivers: at least
//! once and in any order. The real state machine ([`PaymentStatus::after`]) is checked against
//! a tiny model that only remembers which outcomes were reported, and whether a failure came
//! before any success or refund: the status must be what the model says after every step,
//! whatever the order and the repeats. A failure that comes first is final (failing the order
//! gave back what placing it took, so a later success is refunded, not kept); otherwise the
//! order of the reports does not matter. An intent the payer confirms in their browser
//! ([`PaymentStatus::after_in_browser`]) follows the same model, except that its declined
//! attempts report nothing: only its cancellation fails it.

use proptest::prelude::*;
use vitrine_core::checkout::{PaymentOutcome, PaymentStatus};

fn outcome() -> impl Strategy<Value = PaymentOutcome> {
    prop_oneof![
        4 => Just(PaymentOutcome::Succeeded),
        4 => Just(PaymentOutcome::Failed),
        4 => Just(PaymentOutcome::Declined),
        2 => Just(PaymentOutcome::Refunded),
        1 => Just(PaymentOutcome::Disputed),
    ]
}

/// Which outcomes were reported, starting from a placed order: one charged while the
/// shopper waited counts as a reported success, a pending one as nothing reported yet.
#[derive(Debug, Default, Clone)]
struct Reported {
    in_browser: bool,
    succeeded: bool,
    /// A failure arrived before any success or refund: the order ended unpaid.
    failed_first: bool,
    refunded: bool,
    disputed: bool,
}

impl Reported {
    fn record(&mut self, outcome: PaymentOutcome) {
        match outcome {
            PaymentOutcome::Succeeded => self.succeeded = true,
            PaymentOutcome::Failed => self.fail(),
            // The payer may try another card on the same intent.
            PaymentOutcome::Declined if self.in_browser => {}
            PaymentOutcome::Declined => self.fail(),
            PaymentOutcome::Refunded => self.refunded = true,
            PaymentOutcome::Disputed => self.disputed = true,
        }
    }

    fn fail(&mut self) {
        // A failure after a success or a refund changes nothing.
        self.failed_first |= !self.succeeded && !self.refunded;
    }

    fn status(&self) -> PaymentStatus {
        if self.disputed {
            PaymentStatus::Disputed
        } else if self.failed_first {
            PaymentStatus::Failed
        } else if self.refunded {
            PaymentStatus::Refunded
        } else if self.succeeded {
            PaymentStatus::Paid
        } else {
            PaymentStatus::Pending
        }
    }
}

proptest! {
    #[test]
    fn the_status_is_what_was_reported_whatever_the_repeats_and_a_first_failure_is_final(
        paid_at_checkout in any::<bool>(),
        in_browser in any::<bool>(),
        (reports, reordered) in prop::collection::vec(outcome(), 0..12)
            .prop_flat_map(|reports| (Just(reports.clone()), Just(reports).prop_shuffle())),
    ) {
        let after = |status: PaymentStatus, report: PaymentOutcome| {
            if in_browser { status.after_in_browser(report) } else { status.after(report) }
        };
        let (start, mut model) = if paid_at_checkout {
            (PaymentStatus::Paid, Reported { in_browser, succeeded: true, ..Reported::default() })
        } else {
            (PaymentStatus::Pending, Reported { in_browser, ..Reported::default() })
        };
        let start_model = model.clone();
        let mut status = start;
        for report in &reports {
            let before = status;
            status = after(status, *report);
            model.record(*report);
            prop_assert_eq!(status, model.status());
            prop_assert!(!before.was_paid() || status.was_paid(), "money taken is never forgotten");
            prop_assert!(
                before != PaymentStatus::Failed || status == PaymentStatus::Failed || status == PaymentStatus::Disputed,
                "an order that failed is never paid afterwards: its charge is given back"
            );
            prop_assert_eq!(after(status, *report), status, "a repeated report changes nothing");
        }
        // Delivered in another order, the same reports end where the model says for that
        // order; when neither order starts with a failure, that is the same status.
        let mut other_model = start_model;
        let other = reordered.iter().fold(start, |status, report| {
            other_model.record(*report);
            after(status, *report)
        });
        prop_assert_eq!(other, other_model.status());
        if !model.failed_first && !other_model.failed_first {
            prop_assert_eq!(other, status);
        }
        let only_declines = reports.iter().all(|report| *report == PaymentOutcome::Declined);
        let still_pending = !paid_at_checkout && (reports.is_empty() || (in_browser && only_declines));
        prop_assert_eq!(status == PaymentStatus::Pending, still_pending);
    }
}
