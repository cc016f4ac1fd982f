//! Donations paid in the payment provider's own card fields, so the card never reaches this
//! server: the donation service opens an intent for the contribution and keeps it pending
//! ([`DonationService::open_browser_donation`]); the donor's browser confirms it with the
//! provider; the return address asks the provider what became of it and settles the
//! contribution once ([`DonationService::resume_browser_donation`]). A card declined in the
//! fields leaves the contribution pending, payable with another card
//! (`browser_donation_retry.rs`).

use super::browser_payment::{IntentReport, IntentRequest, IntentState, OpenIntent};
use super::card_testing::{AdmitError, Payer, TOO_MANY_FAILED_PAYMENTS};
use super::contribution::{Contribution, DonateError, DonationRequest, DonationService};
use super::contribution_payment::{ContributionPayment, ContributionSettlement};
use super::ledger::give_back;
use super::order::IdempotencyKey;
use super::payment::{Payment, PaymentError};
use crate::cart::Timestamp;
use crate::money::{FormatOptions, Locale, Money, format};
use crate::ports::RepositoryError;

/// What the donor's browser does next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BrowserDonation {
    /// Confirm `intent` with the provider; the contribution waits for its answer.
    Confirm {
        contribution: Contribution,
        intent: OpenIntent,
    },
    /// This attempt was settled before (a submit sent again after paying): its contribution.
    Settled(Contribution),
}

/// A contribution after the provider's answer was asked at its return address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResumedDonation {
    pub contribution: Contribution,
    /// Whether this call settled it: its `Donate` event fires now, and only now.
    pub settled_now: bool,
}

/// Why a contribution could not be resumed.
#[derive(Debug, thiserror::Error)]
pub enum ResumeDonationError {
    /// No pending contribution of this id was paid through this intent.
    #[error("no contribution {0} paid through this intent")]
    UnknownContribution(String),
    /// The provider could not say; the donor may load the return address again.
    #[error(transparent)]
    Payment(#[from] PaymentError),
    /// The charge was claimed for a refund first; nothing was recorded.
    #[error("payment {0} was refunded before the contribution could be recorded")]
    PaymentRefunded(String),
    #[error(transparent)]
    Repository(#[from] RepositoryError),
}

impl DonationService {
    /// Checks the form (without a card), opens the provider's intent for the amount under the
    /// attempt's key, and keeps the contribution pending on it. The same key answers the
    /// same contribution and intent (after a declined card, the donor confirms it again with
    /// another); one settled already answers [`BrowserDonation::Settled`]. A form naming
    /// another amount than the pending contribution's is refused, since the intent carries
    /// the first.
    pub async fn open_browser_donation(
        &self,
        payer: &Payer,
        request: DonationRequest,
        now: Timestamp,
    ) -> Result<BrowserDonation, DonateError> {
        self.admit(payer, now).await?;
        let kept = self.store.contribution_by_key(&request.key).await?;
        if let Some(kept) = &kept
            && kept.payment.is_settled()
        {
            return Ok(BrowserDonation::Settled(kept.clone()));
        }
        let campaign = self.open_campaign(&request.donate_page_id).await?;
        let donor = request
            .form
            .check_without_card(&campaign)
            .map_err(DonateError::Invalid)?;
        if let Some(kept) = kept {
            if kept.amount_minor != donor.amount_minor {
                let mut errors = super::details::CheckoutFieldErrors::new();
                errors.insert("amount", amount_kept_message(&kept));
                return Err(DonateError::Invalid(errors));
            }
            let intent = self.payments.open_intent(&intent_request(&kept)).await?;
            return Ok(BrowserDonation::Confirm {
                contribution: kept,
                intent,
            });
        }
        let mut contribution = Contribution {
            id: request.contribution_id,
            idempotency_key: request.key,
            donate_page_id: campaign.id,
            campaign_title: campaign.title,
            amount_minor: donor.amount_minor,
            currency: campaign.currency,
            name: donor.name,
            email: donor.email,
            created: now,
            payment: ContributionPayment::Pending {
                intent_id: String::new(),
            },
        };
        let intent = self
            .payments
            .open_intent(&intent_request(&contribution))
            .await?;
        contribution.payment = ContributionPayment::Pending {
            intent_id: intent.id.clone(),
        };
        let contribution = self.store.open_pending(&contribution).await?;
        Ok(BrowserDonation::Confirm {
            contribution,
            intent,
        })
    }

    /// Asks the provider (never the browser) what became of `intent_id` and settles the
    /// contribution `id` on it, once: a success pays it and enqueues its receipt, an open
    /// intent leaves it pending. A failed attempt (the bank's verification failed) counts
    /// against the payer and, since the donor has left the card fields for this address,
    /// ends the payment: the intent is cancelled and the contribution fails with the
    /// provider's reason.
    pub async fn resume_browser_donation(
        &self,
        payer: &Payer,
        id: &str,
        intent_id: &str,
        now: Timestamp,
    ) -> Result<ResumedDonation, ResumeDonationError> {
        let contribution = self
            .store
            .contribution(id)
            .await?
            .ok_or_else(|| ResumeDonationError::UnknownContribution(id.to_owned()))?;
        let report = self.payments.intent_report(intent_id).await?;
        check_intent_of(&contribution, intent_id, &report)?;
        if let IntentState::Failed { message } = &report.state
            && !contribution.payment.is_settled()
        {
            let why = match self.card_testing.count_decline(payer, now).await {
                Ok(()) => message.clone(),
                Err(AdmitError::Refused(_)) => TOO_MANY_FAILED_PAYMENTS.to_owned(),
                Err(AdmitError::Repository(error)) => return Err(error.into()),
            };
            return self
                .end_browser_donation(contribution, intent_id, Some(&why), now)
                .await;
        }
        self.settle_state(contribution, intent_id, &report.state, None, now)
            .await
    }

    /// What the provider's webhook reported about the intent `intent_id`, opened under the
    /// idempotency key `key`: the contribution kept pending under that key is settled on the
    /// provider's word, as its return address would settle it, whichever comes first. None
    /// when no contribution was opened under `key` (an order's payment, or one made outside
    /// this shop). A declined attempt leaves it pending, as the donor may try another card;
    /// no payer is known here, so it counts against nobody.
    pub async fn settle_reported(
        &self,
        key: &str,
        intent_id: &str,
        now: Timestamp,
    ) -> Result<Option<ResumedDonation>, ResumeDonationError> {
        let Ok(key) = IdempotencyKey::parse(key) else {
            return Ok(None);
        };
        let Some(contribution) = self.store.contribution_by_key(&key).await? else {
            return Ok(None);
        };
        let report = self.payments.intent_report(intent_id).await?;
        check_intent_of(&contribution, intent_id, &report)?;
        self.settle_state(contribution, intent_id, &report.state, None, now)
            .await
            .map(Some)
    }

    /// Cancels `contribution`'s intent `intent_id` at the provider and records what became of
    /// it: the contribution fails once the intent is cancelled (with `why`, or the provider's
    /// word for a cancellation), or is paid when the intent succeeded first. While the
    /// provider cannot be asked the contribution stays pending.
    pub(super) async fn end_browser_donation(
        &self,
        contribution: Contribution,
        intent_id: &str,
        why: Option<&str>,
        now: Timestamp,
    ) -> Result<ResumedDonation, ResumeDonationError> {
        let report = self.payments.cancel_intent(intent_id).await?;
        check_intent_of(&contribution, intent_id, &report)?;
        self.settle_state(contribution, intent_id, &report.state, why, now)
            .await
    }

    /// Settles `contribution` on the provider's word that `intent_id` is in `state`, once;
    /// a cancellation fails it with `cancelled_because` when given. The store's guarded
    /// update makes only the first of several callers (the return address, the webhook, the
    /// clean-up of another server) change it.
    pub(super) async fn settle_state(
        &self,
        contribution: Contribution,
        intent_id: &str,
        state: &IntentState,
        cancelled_because: Option<&str>,
        now: Timestamp,
    ) -> Result<ResumedDonation, ResumeDonationError> {
        if let (ContributionPayment::Failed { .. }, IntentState::Succeeded(payment)) =
            (&contribution.payment, state)
        {
            self.give_back_late_charge(&contribution, payment, now)
                .await;
            return Ok(ResumedDonation {
                contribution,
                settled_now: false,
            });
        }
        let id = contribution.id.clone();
        let settlement = match (
            contribution.payment.settle(
                intent_id,
                contribution.amount_minor,
                contribution.currency,
                state,
            ),
            cancelled_because,
        ) {
            (ContributionSettlement::Failed { .. }, Some(why)) => ContributionSettlement::Failed {
                message: why.to_owned(),
            },
            (settlement, _) => settlement,
        };
        // A success for another amount leaves it pending for the owner, as an order's does.
        if matches!(
            settlement,
            ContributionSettlement::Unchanged | ContributionSettlement::Mismatch
        ) {
            return Ok(ResumedDonation {
                contribution,
                settled_now: false,
            });
        }
        let receipt = match settlement {
            ContributionSettlement::Paid(_) => {
                let paid = Contribution {
                    payment: contribution.payment.after(&settlement),
                    ..contribution
                };
                self.receipt(&paid).await?
            }
            _ => None,
        };
        let (contribution, settled_now) = self
            .store
            .settle(&id, &settlement, receipt.as_ref(), now)
            .await
            .map_err(|error| match error {
                super::contribution::RecordContributionError::PaymentRefunded(payment) => {
                    ResumeDonationError::PaymentRefunded(payment)
                }
                super::contribution::RecordContributionError::Repository(error) => error.into(),
            })?
            .ok_or_else(|| ResumeDonationError::UnknownContribution(id.clone()))?;
        if let (ContributionSettlement::Paid(payment), ContributionPayment::Failed { .. }) =
            (&settlement, &contribution.payment)
        {
            // Another caller failed it meanwhile.
            self.give_back_late_charge(&contribution, payment, now)
                .await;
        }
        Ok(ResumedDonation {
            contribution,
            settled_now,
        })
    }

    /// Gives back `payment`, a charge that succeeded for `contribution` after it had failed:
    /// the donor was told nothing was taken, and may have given again since. Claimed for
    /// the refund first, so that it goes back once however many reports arrive.
    async fn give_back_late_charge(
        &self,
        contribution: &Contribution,
        payment: &Payment,
        now: Timestamp,
    ) {
        tracing::warn!(
            contribution = contribution.id,
            payment = payment.id,
            "a payment succeeded for a contribution that had failed; it is given back"
        );
        give_back(
            &*self.store,
            &*self.payments,
            payment,
            &contribution.idempotency_key,
            now,
        )
        .await;
    }
}

/// The intent of `contribution`, under its key: always the same fields for the same
/// contribution, since a provider refuses a key repeated with other parameters.
fn intent_request(contribution: &Contribution) -> IntentRequest {
    IntentRequest {
        key: contribution.idempotency_key.clone(),
        amount_minor: contribution.amount_minor,
        currency: contribution.currency,
        email: contribution.email.clone(),
        description: super::contribution::payment_description(&contribution.campaign_title),
        save_for_renewals: false,
    }
}

/// What a donor reads who changed the amount after a declined card (our text): the intent
/// the next card confirms carries the first amount.
fn amount_kept_message(kept: &Contribution) -> String {
    let amount = format(
        Money::new(kept.amount_minor, kept.currency),
        &Locale::default(),
        FormatOptions::default(),
    );
    format!(
        "This donation was started for {amount}, the amount your first card was tried with. Choose {amount} to try another card, or reload the page to give another amount."
    )
}

/// Refuses a `report` about an intent that `contribution` did not open (a forged or mixed-up
/// address): nothing is changed.
pub(super) fn check_intent_of(
    contribution: &Contribution,
    intent_id: &str,
    report: &IntentReport,
) -> Result<(), ResumeDonationError> {
    if report.key.as_deref() == Some(contribution.idempotency_key.as_str()) {
        return Ok(());
    }
    tracing::warn!(
        contribution = contribution.id,
        intent = intent_id,
        "a donation in the browser named an intent this contribution did not open"
    );
    Err(ResumeDonationError::UnknownContribution(
        contribution.id.clone(),
    ))
}

#[cfg(test)]
pub(crate) mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::checkout::browser_payment::IntentState;
    use crate::checkout::contribution::tests::{NOW, donation_service, request};
    use crate::checkout::service::browser_checkout_tests::IntentGateway;
    use crate::checkout::{ContributionStore, InMemoryContributionStore, Payment};
    use crate::money::Currency;

    pub(crate) struct Donations {
        pub(crate) service: DonationService,
        pub(crate) store: Arc<InMemoryContributionStore>,
        pub(crate) gateway: Arc<IntentGateway>,
    }

    /// A donation service with receipts, over memory and the intent gateway's double; failed
    /// payments are counted in memory, under the default limits.
    pub(crate) async fn donations() -> Donations {
        let store = Arc::new(InMemoryContributionStore::new());
        let gateway = Arc::new(IntentGateway::default());
        let service = donation_service(store.clone(), gateway.clone())
            .await
            .with_receipts();
        Donations {
            service,
            store,
            gateway,
        }
    }

    /// A donation form of Ada's for €25 without any card.
    fn without_card(key: &str, id: &str) -> DonationRequest {
        request(key, id, "")
    }

    async fn open(donations: &Donations, key: &str, id: &str) -> (Contribution, OpenIntent) {
        let opened = donations
            .service
            .open_browser_donation(&Payer::default(), without_card(key, id), NOW)
            .await
            .unwrap();
        match opened {
            BrowserDonation::Confirm {
                contribution,
                intent,
            } => (contribution, intent),
            other => panic!("{other:?}"),
        }
    }

    fn paid(id: &str, amount_minor: i64) -> IntentState {
        IntentState::Succeeded(Payment {
            id: id.into(),
            amount_minor,
            currency: Currency::Eur,
        })
    }

    #[tokio::test]
    async fn a_donation_in_the_browser_waits_pending_and_is_paid_once_on_the_providers_word() {
        let donations = donations().await;
        let (contribution, intent) = open(&donations, "k1", "c1").await;
        let (_, asked) = donations.gateway.only_intent();
        assert_eq!(asked.amount_minor, 2_500);
        assert_eq!(asked.currency, Currency::Eur);
        assert_eq!(
            contribution.payment,
            ContributionPayment::Pending {
                intent_id: intent.id.clone()
            }
        );
        // The same attempt again opens nothing more.
        let (again, same) = open(&donations, "k1", "c2").await;
        assert_eq!(
            (again.id.as_str(), same.id.as_str()),
            ("c1", intent.id.as_str())
        );
        let payer = Payer::default();
        let open = donations
            .service
            .resume_browser_donation(&payer, "c1", &intent.id, NOW)
            .await
            .unwrap();
        assert!(!open.settled_now, "still open at the bank");
        assert!(donations.store.receipts().is_empty());
        donations
            .gateway
            .settle(&intent.id, paid(&intent.id, 2_500));
        let resumed = donations
            .service
            .resume_browser_donation(&payer, "c1", &intent.id, NOW)
            .await
            .unwrap();
        assert!(resumed.settled_now);
        assert_eq!(resumed.contribution.payment_id(), intent.id);
        let reloaded = donations
            .service
            .resume_browser_donation(&payer, "c1", &intent.id, NOW)
            .await
            .unwrap();
        assert!(!reloaded.settled_now, "the Donate event fires once");
        assert_eq!(donations.store.receipts().len(), 1, "one receipt");
        let settled = donations
            .service
            .open_browser_donation(&payer, without_card("k1", "c3"), NOW)
            .await
            .unwrap();
        assert_eq!(settled, BrowserDonation::Settled(resumed.contribution));
    }

    #[tokio::test]
    async fn a_failed_verification_fails_the_contribution_with_the_providers_words() {
        let donations = donations().await;
        let (_, intent) = open(&donations, "k1", "c1").await;
        let message = "The bank could not verify your card. Nothing was charged.";
        donations.gateway.settle(
            &intent.id,
            IntentState::Failed {
                message: message.into(),
            },
        );
        let resumed = donations
            .service
            .resume_browser_donation(&Payer::default(), "c1", &intent.id, NOW)
            .await
            .unwrap();
        assert!(resumed.settled_now);
        assert_eq!(
            resumed.contribution.payment,
            ContributionPayment::Failed {
                message: message.into()
            }
        );
        assert!(
            donations.store.receipts().is_empty(),
            "no receipt for no money"
        );
    }

    #[tokio::test]
    async fn the_webhook_settles_a_contribution_by_its_key_once_whichever_comes_first() {
        let donations = donations().await;
        let (_, intent) = open(&donations, "k1", "c1").await;
        // The key the intent was opened under, as the provider reports it.
        let key = format!("{:0>16}", "k1");
        donations
            .gateway
            .settle(&intent.id, paid(&intent.id, 2_500));
        let reported = donations
            .service
            .settle_reported(&key, &intent.id, NOW)
            .await
            .unwrap()
            .expect("the contribution of the key");
        assert!(reported.settled_now);
        assert_eq!(reported.contribution.payment_id(), intent.id);
        let again = donations
            .service
            .settle_reported(&key, &intent.id, NOW)
            .await
            .unwrap()
            .unwrap();
        assert!(!again.settled_now, "a redelivery settles nothing more");
        let returned = donations
            .service
            .resume_browser_donation(&Payer::default(), "c1", &intent.id, NOW)
            .await
            .unwrap();
        assert!(
            !returned.settled_now,
            "the late return fires no second Donate"
        );
        assert_eq!(donations.store.receipts().len(), 1, "one receipt");
        // An order's key, or one that is no key at all, names no contribution.
        for key in ["order-key-1", "no key"] {
            let none = donations
                .service
                .settle_reported(key, &intent.id, NOW)
                .await
                .unwrap();
            assert_eq!(none, None, "{key}");
        }
    }

    #[tokio::test]
    async fn another_amount_another_contribution_or_a_form_with_errors_settles_nothing() {
        let donations = donations().await;
        let (_, first) = open(&donations, "k1", "c1").await;
        let (_, second) = open(&donations, "k2", "c2").await;
        donations.gateway.settle(&first.id, paid(&first.id, 100));
        let resumed = donations
            .service
            .resume_browser_donation(&Payer::default(), "c1", &first.id, NOW)
            .await
            .unwrap();
        assert!(!resumed.settled_now, "left pending for the owner");
        let error = donations
            .service
            .resume_browser_donation(&Payer::default(), "c1", &second.id, NOW)
            .await
            .unwrap_err();
        assert!(
            matches!(error, ResumeDonationError::UnknownContribution(_)),
            "{error:?}"
        );
        let mut nameless = without_card("k3", "c3");
        nameless.form.name.clear();
        let error = donations
            .service
            .open_browser_donation(&Payer::default(), nameless, NOW)
            .await
            .unwrap_err();
        assert!(
            matches!(&error, DonateError::Invalid(errors) if errors.get("name").is_some()),
            "{error:?}"
        );
        assert_eq!(donations.store.contribution("c3").await.unwrap(), None);
    }
}
