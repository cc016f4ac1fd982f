//! What a payment provider reports about a charge after the checkout that asked for it (its
//! webhooks), the payment status of an order those reports move, and the port that records
//! each report once and applies it to its order in the same step.
//!
//! A provider delivers a report at least once and in no promised order, so an order's status
//! depends only on which outcomes were reported, never on their order or on how often each
//! arrived, with one exception: money once taken is never forgotten (a late failure of an
//! earlier attempt does not undo a success), a refund outranks a success, and a dispute
//! outranks everything, since the owner must answer it. The exception is a success reported
//! after the order failed: failing it gave back everything placing it took (its units, its
//! cart, its gift card balance and coupon uses), so it can no longer be paid, and the charge
//! goes back to the payer instead ([`Reconciliation::Refunding`]).

use std::sync::Arc;

use async_trait::async_trait;

use super::payment::{Payment, PaymentGateway};
use super::store::CommerceStore;
use crate::cart::Timestamp;
use crate::ports::RepositoryError;

/// Where an order's payment stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum PaymentStatus {
    /// The charge was made (or nothing was due).
    #[default]
    Paid,
    /// Whether the charge was made is not known yet: the provider did not answer in time.
    /// A retry of the same checkout (same idempotency key) or the provider's report settles
    /// it; nothing else may.
    Pending,
    /// The provider reported that the charge failed; nothing was taken.
    Failed,
    /// The charge was given back.
    Refunded,
    /// The card holder disputed the charge with their bank.
    Disputed,
}

/// What a provider reported about a charge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PaymentOutcome {
    Succeeded,
    /// The charge can no longer be made: a charge the server asked for was declined, or an
    /// intent the browser confirms was cancelled.
    Failed,
    /// One attempt at a charge failed (a card declined, a bank's verification failed) and
    /// nothing was taken. Final for a charge the server asked for; an intent the payer
    /// confirms in their browser stays payable with another card
    /// ([`PaymentStatus::after_in_browser`]).
    Declined,
    Refunded,
    Disputed,
}

impl PaymentOutcome {
    /// How the store records a report of it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Succeeded => "succeeded",
            Self::Failed => "failed",
            Self::Declined => "declined",
            Self::Refunded => "refunded",
            Self::Disputed => "disputed",
        }
    }
}

impl PaymentStatus {
    /// How the store writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Paid => "paid",
            Self::Pending => "pending",
            Self::Failed => "failed",
            Self::Refunded => "refunded",
            Self::Disputed => "disputed",
        }
    }

    /// The status the store wrote as `text`.
    pub fn parse(text: &str) -> Option<Self> {
        Some(match text {
            "paid" => Self::Paid,
            "pending" => Self::Pending,
            "failed" => Self::Failed,
            "refunded" => Self::Refunded,
            "disputed" => Self::Disputed,
            _ => return None,
        })
    }

    /// The status after the provider reported `outcome`. Each status ranks what was
    /// reported: disputed over refunded over paid over failed over pending, and a report
    /// moves the status only up that ranking, so reports repeat harmlessly and, but for one
    /// case, commute. That case: a failed order stays failed when a success or a refund is
    /// reported after its failure, since failing it gave back what placing it took; the
    /// store gives such a charge back ([`Reconciliation::Refunding`]), and the refund's own
    /// report then changes nothing. Only a dispute still moves it, for the owner to answer.
    pub fn after(self, outcome: PaymentOutcome) -> Self {
        if self == Self::Failed
            && matches!(
                outcome,
                PaymentOutcome::Succeeded | PaymentOutcome::Refunded
            )
        {
            return self;
        }
        let reported = match outcome {
            PaymentOutcome::Succeeded => Self::Paid,
            PaymentOutcome::Failed | PaymentOutcome::Declined => Self::Failed,
            PaymentOutcome::Refunded => Self::Refunded,
            PaymentOutcome::Disputed => Self::Disputed,
        };
        if reported.rank() > self.rank() {
            reported
        } else {
            self
        }
    }

    /// The status after the provider reported `outcome` about an intent the payer confirms
    /// in their browser: as [`Self::after`], except that a declined attempt changes nothing,
    /// since the intent can be confirmed again with another card; only its cancellation
    /// ([`PaymentOutcome::Failed`]) fails a pending order, and a success reported after the
    /// cancellation is given back, as after any failure.
    pub fn after_in_browser(self, outcome: PaymentOutcome) -> Self {
        if outcome == PaymentOutcome::Declined {
            self
        } else {
            self.after(outcome)
        }
    }

    fn rank(self) -> u8 {
        match self {
            Self::Pending => 0,
            Self::Failed => 1,
            Self::Paid => 2,
            Self::Refunded => 3,
            Self::Disputed => 4,
        }
    }

    /// Whether money was taken for the order (and may since have been given back or
    /// disputed): only then is the order fulfilled.
    pub fn was_paid(self) -> bool {
        matches!(self, Self::Paid | Self::Refunded | Self::Disputed)
    }
}

/// One report of a payment provider, as the webhook adapter read it from the provider's
/// own format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentEvent {
    /// The provider's id of the report; the same on every delivery of it.
    pub id: String,
    /// The provider's id of the charge (a Stripe PaymentIntent).
    pub payment_id: String,
    /// The idempotency key the charge was asked for with, when the report carries it: how
    /// a charge whose answer never arrived finds its pending order.
    pub payment_key: Option<String>,
    pub outcome: PaymentOutcome,
}

/// What recording a report did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reconciliation {
    /// The report was recorded before; nothing changed again.
    Duplicate,
    /// The report was recorded and the order's payment status is now `status` (perhaps
    /// the same as before).
    Applied {
        order_id: String,
        status: PaymentStatus,
    },
    /// The report of a declined attempt was recorded, and order `order_id` still waits on
    /// its intent `payment_id`, which its payer may confirm again with another card: the
    /// attempt counts against the order's cart (see [`CardTestingGuard`]).
    ///
    /// [`CardTestingGuard`]: super::card_testing::CardTestingGuard
    Declined {
        order_id: String,
        payment_id: String,
    },
    /// The report was recorded, and no order was paid with the charge (a donation's, or
    /// a charge made outside this shop).
    NoOrder,
    /// The report of a success was recorded for order `order_id`, which had failed before
    /// and gave back what placing it took: the order stays failed, and its `payment` was
    /// claimed for a refund in the same step, which the caller now asks the provider for
    /// ([`super::refund_claimed`]). Only the first report of the charge answers this, so the
    /// money goes back once.
    Refunding { order_id: String, payment: Payment },
}

/// Where payment reports are recorded, each once, and applied to the order they concern
/// in the same transaction: a report delivered twice, even at the same moment, changes its
/// order once.
#[async_trait]
pub trait PaymentEventLog: Send + Sync {
    /// Records `event` unless its id was recorded before ([`Reconciliation::Duplicate`]),
    /// and moves the payment status of the order paid with `event.payment_id` (or, for an
    /// order still pending without a charge id, asked for under `event.payment_key`) with
    /// [`PaymentStatus::after`]. A pending order that a success settles gets the charge's
    /// id and claims the charge in the payment ledger, as an order placed on it would; a
    /// failed one claims it for a refund instead ([`Reconciliation::Refunding`]). A pending
    /// order that fails, or whose charge went back before it was paid, gives back what
    /// placing it took ([`super::payment_fails_order`]).
    async fn reconcile_payment(
        &self,
        event: &PaymentEvent,
        now: Timestamp,
    ) -> Result<Reconciliation, RepositoryError>;
}

/// A report as the provider sent it, once its signature checked out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProviderReport {
    /// A report about a charge, to reconcile.
    Payment(PaymentEvent),
    /// A report of a kind the shop does not act on: acknowledged, so the provider does not
    /// send it again, and otherwise ignored.
    Ignored { id: String, kind: String },
}

/// Why a report was refused. The provider is told only that it was refused; the reason is
/// for the log.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReportRefusal {
    /// No signature, or none that any of the shop's secrets made over this body.
    #[error("the report's signature does not match")]
    BadSignature,
    /// Signed too long ago (or in the future): a captured report sent again.
    #[error("the report was signed too far from now")]
    Stale,
    /// Signed, but not a report the provider's format allows.
    #[error("the report cannot be read: {0}")]
    Malformed(String),
}

/// Checks and reads the reports a payment provider sends (its webhooks). Unix seconds, since
/// that is what providers sign.
pub trait PaymentReports: Send + Sync {
    /// Reads `body`, which the provider signed as `signature` says, at `now` in Unix seconds.
    fn read(
        &self,
        signature: &str,
        body: &[u8],
        now_seconds: i64,
    ) -> Result<ProviderReport, ReportRefusal>;
}

/// What receiving a report did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Received {
    /// A report about a charge, recorded (or recognised as a repeat).
    Reconciled(Reconciliation),
    /// A report about the payment of a contribution given in the donor's browser, which
    /// settled it now or found it settled before.
    Contribution(super::ResumedDonation),
    /// A report of a kind the shop does not act on.
    Ignored { kind: String },
}

/// Why a report was not taken.
#[derive(Debug, thiserror::Error)]
pub enum ReceiveReportError {
    /// The report is not the provider's, is too old, or cannot be read; the provider (or
    /// whoever sent it) is told so, and a genuine report is sent again by the provider.
    #[error(transparent)]
    Refused(#[from] ReportRefusal),
    /// The report could not be recorded; the provider sends it again later.
    #[error(transparent)]
    Repository(#[from] RepositoryError),
    /// The provider could not be asked about the contribution the report concerns; it
    /// sends the report again later, which settles the contribution then.
    #[error(transparent)]
    Provider(#[from] super::PaymentError),
}

/// Where a payment provider's reports arrive: checked and read by the provider's adapter,
/// then recorded once and applied to their order by the store, or to the contribution whose
/// intent they report on. A charge that succeeded for an order that had failed is given
/// back through `payments`.
pub struct PaymentReportInbox {
    reports: Arc<dyn PaymentReports>,
    store: Arc<dyn CommerceStore>,
    payments: Arc<dyn PaymentGateway>,
    contributions: Option<Arc<super::DonationService>>,
}

impl PaymentReportInbox {
    pub fn new(
        reports: Arc<dyn PaymentReports>,
        store: Arc<dyn CommerceStore>,
        payments: Arc<dyn PaymentGateway>,
    ) -> Self {
        Self {
            reports,
            store,
            payments,
            contributions: None,
        }
    }

    /// The same inbox settling the contributions given in the donor's browser through
    /// `donations`: a success or a failure that names no order settles the pending
    /// contribution opened under its key.
    pub fn with_contributions(mut self, donations: Arc<super::DonationService>) -> Self {
        self.contributions = Some(donations);
        self
    }

    /// Takes the report `body`, signed as `signature` says, at `now`.
    pub async fn receive(
        &self,
        signature: &str,
        body: &[u8],
        now: Timestamp,
    ) -> Result<Received, ReceiveReportError> {
        match self
            .reports
            .read(signature, body, now.millis().div_euclid(1000))?
        {
            ProviderReport::Ignored { id, kind } => {
                tracing::debug!(
                    event = id,
                    kind,
                    "a payment report of a kind the shop does not act on"
                );
                Ok(Received::Ignored { kind })
            }
            ProviderReport::Payment(event) => {
                let reconciled = self.store.reconcile_payment(&event, now).await?;
                match &reconciled {
                    Reconciliation::Applied { order_id, status } => tracing::info!(
                        event = event.id,
                        order = order_id,
                        status = status.as_str(),
                        "a payment report moved an order"
                    ),
                    Reconciliation::Declined { order_id, .. } => tracing::info!(
                        event = event.id,
                        order = order_id,
                        "a payment attempt in the browser was declined; the order still waits"
                    ),
                    Reconciliation::NoOrder => tracing::info!(
                        event = event.id,
                        payment = event.payment_id,
                        "a payment report names no order of this shop"
                    ),
                    Reconciliation::Refunding { order_id, payment } => {
                        tracing::warn!(
                            event = event.id,
                            order = order_id,
                            payment = payment.id,
                            "a payment succeeded for an order that had failed; it is given back"
                        );
                        super::refund_claimed(&*self.store, &*self.payments, payment).await;
                    }
                    Reconciliation::Duplicate => {
                        tracing::debug!(event = event.id, "a payment report arrived again");
                    }
                }
                // A report delivered again tries its contribution again too: settling is
                // once, and the first delivery may have failed after the log recorded it.
                if !matches!(reconciled, Reconciliation::Applied { .. })
                    && let Some(settled) = self.settle_contribution(&event, now).await?
                {
                    return Ok(Received::Contribution(settled));
                }
                Ok(Received::Reconciled(reconciled))
            }
        }
    }
}

impl PaymentReportInbox {
    /// The contribution `event` settles, when it reports a success or a failure of an
    /// intent opened for one.
    async fn settle_contribution(
        &self,
        event: &PaymentEvent,
        now: Timestamp,
    ) -> Result<Option<super::ResumedDonation>, ReceiveReportError> {
        let (Some(donations), Some(key)) = (&self.contributions, &event.payment_key) else {
            return Ok(None);
        };
        if !matches!(
            event.outcome,
            PaymentOutcome::Succeeded | PaymentOutcome::Failed
        ) {
            return Ok(None);
        }
        match donations.settle_reported(key, &event.payment_id, now).await {
            Ok(settled) => {
                if let Some(settled) = &settled {
                    tracing::info!(
                        event = event.id,
                        contribution = settled.contribution.id,
                        settled_now = settled.settled_now,
                        "a payment report reached a contribution"
                    );
                }
                Ok(settled)
            }
            Err(super::ResumeDonationError::Repository(error)) => Err(error.into()),
            Err(super::ResumeDonationError::Payment(error)) => Err(error.into()),
            // The report names an intent the contribution did not open, or its charge was
            // refunded first: nothing is settled, and the owner looks.
            Err(error) => {
                tracing::warn!(event = event.id, %error, "a payment report could not settle its contribution");
                Ok(None)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_round_trip_through_their_stored_names() {
        for status in [
            PaymentStatus::Paid,
            PaymentStatus::Pending,
            PaymentStatus::Failed,
            PaymentStatus::Refunded,
            PaymentStatus::Disputed,
        ] {
            assert_eq!(PaymentStatus::parse(status.as_str()), Some(status));
        }
        assert_eq!(PaymentStatus::parse("settled"), None);
    }

    #[test]
    fn a_late_failure_never_undoes_a_success_and_a_dispute_outranks_a_refund() {
        use PaymentOutcome as O;
        use PaymentStatus as S;
        assert_eq!(S::Pending.after(O::Succeeded).after(O::Failed), S::Paid);
        assert_eq!(S::Paid.after(O::Refunded).after(O::Succeeded), S::Refunded);
        assert_eq!(S::Paid.after(O::Disputed).after(O::Refunded), S::Disputed);
        assert!(!S::Pending.was_paid() && !S::Failed.after(O::Failed).was_paid());
    }

    #[test]
    fn a_declined_card_fails_a_server_charge_but_leaves_a_browser_intent_payable() {
        use PaymentOutcome as O;
        use PaymentStatus as S;
        assert_eq!(S::Pending.after(O::Declined), S::Failed);
        assert_eq!(S::Pending.after_in_browser(O::Declined), S::Pending);
        assert_eq!(
            S::Pending
                .after_in_browser(O::Declined)
                .after_in_browser(O::Declined)
                .after_in_browser(O::Succeeded),
            S::Paid,
            "a decline then a success pays the order"
        );
        assert_eq!(S::Pending.after_in_browser(O::Failed), S::Failed);
        assert_eq!(
            S::Failed.after_in_browser(O::Declined),
            S::Failed,
            "a cancelled intent stays failed"
        );
        assert_eq!(
            S::Paid.after_in_browser(O::Declined),
            S::Paid,
            "a late decline of an earlier attempt does not undo the success"
        );
    }

    #[test]
    fn a_failed_order_stays_failed_when_its_charge_succeeds_late_and_only_a_dispute_moves_it() {
        use PaymentOutcome as O;
        use PaymentStatus as S;
        assert_eq!(S::Pending.after(O::Failed).after(O::Succeeded), S::Failed);
        assert_eq!(
            S::Failed.after_in_browser(O::Succeeded),
            S::Failed,
            "a success reported after the cancellation is given back, not kept"
        );
        assert_eq!(
            S::Failed.after(O::Refunded),
            S::Failed,
            "the refund of a late charge leaves its order failed"
        );
        assert_eq!(S::Failed.after(O::Disputed), S::Disputed);
    }
}
