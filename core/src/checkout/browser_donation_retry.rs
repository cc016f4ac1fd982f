//! What follows a card declined in the provider's own fields for a donation, and the end of a
//! donation in the browser that never came, by the rules orders follow
//! (`service/browser_retry.rs`): the provider keeps the intent after a decline, so the
//! contribution stays pending and the donor may confirm the same intent with another card;
//! each declined attempt the donor's browser tells of counts against their visitor and address
//! (`card_testing.rs`), and a donor over the limit has the intent cancelled, which fails the
//! contribution. A cancelled intent is the one final failure.
//!
//! Contributions whose donor never finishes wait at most
//! [`ABANDONED_BROWSER_PAYMENT_SECONDS`], as orders do:
//! [`DonationService::cancel_abandoned_browser_donations`] cancels their intents, or settles
//! one that succeeded meanwhile as paid (its receipt goes out). Every step is asked of the
//! provider, and a contribution moves off pending by one guarded update, so several servers
//! running it at once, or one running it again after a crash, change each contribution once.

use super::browser_donation::{ResumeDonationError, ResumedDonation, check_intent_of};
use super::browser_payment::IntentState;
use super::card_testing::{AdmitError, Payer, TOO_MANY_FAILED_PAYMENTS};
use super::contribution::{Contribution, DonationService};
use super::contribution_payment::ContributionPayment;
use super::service::{ABANDONED_BATCH, ABANDONED_BROWSER_PAYMENT_SECONDS};
use crate::cart::Timestamp;
use crate::ports::RepositoryError;

/// Where a contribution paid in the browser stands after its donor's card was declined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeclinedDonation {
    /// The intent still waits for a card: the donor may try another. `message` says why the
    /// last one failed, in the donor's words.
    TryAgain {
        contribution: Contribution,
        message: String,
    },
    /// The contribution no longer waits: it was paid meanwhile (`settled_now` tells whether
    /// this call paid it, so its `Donate` fires once), or it failed (the donor failed too
    /// often, or the intent was cancelled).
    Ended(ResumedDonation),
    /// The provider reports no failed attempt, or could not be asked: nothing changed.
    Open(Contribution),
}

impl DonationService {
    /// The donor's browser tells that a card was declined for contribution `id`'s intent
    /// `intent_id`: the provider is asked (never the browser), the decline counts against
    /// the donor's visitor and address, and a donor over the limit has the intent cancelled
    /// and the contribution failed.
    pub async fn decline_in_browser(
        &self,
        payer: &Payer,
        id: &str,
        intent_id: &str,
        now: Timestamp,
    ) -> Result<DeclinedDonation, ResumeDonationError> {
        let contribution = self
            .store
            .contribution(id)
            .await?
            .ok_or_else(|| ResumeDonationError::UnknownContribution(id.to_owned()))?;
        if contribution.payment.is_settled() {
            return Ok(DeclinedDonation::Ended(ResumedDonation {
                contribution,
                settled_now: false,
            }));
        }
        let report = match self.payments.intent_report(intent_id).await {
            Ok(report) => report,
            Err(error) => {
                tracing::warn!(contribution = contribution.id, %error, "a declined donation could not be checked; it stays pending");
                return Ok(DeclinedDonation::Open(contribution));
            }
        };
        check_intent_of(&contribution, intent_id, &report)?;
        let IntentState::Failed { message } = &report.state else {
            let resumed = self
                .settle_state(contribution, intent_id, &report.state, None, now)
                .await?;
            return Ok(if resumed.contribution.payment.is_settled() {
                DeclinedDonation::Ended(resumed)
            } else {
                DeclinedDonation::Open(resumed.contribution)
            });
        };
        match self.card_testing.count_decline(payer, now).await {
            Ok(()) => Ok(DeclinedDonation::TryAgain {
                contribution,
                message: message.clone(),
            }),
            Err(AdmitError::Refused(refused)) => {
                tracing::warn!(
                    contribution = contribution.id,
                    part = refused.part.as_str(),
                    "a donor failed too often; their intent is cancelled"
                );
                self.end_browser_donation(
                    contribution,
                    intent_id,
                    Some(TOO_MANY_FAILED_PAYMENTS),
                    now,
                )
                .await
                .map(DeclinedDonation::Ended)
            }
            Err(AdmitError::Repository(error)) => Err(error.into()),
        }
    }

    /// Ends the donations in the browser that waited longer than
    /// [`ABANDONED_BROWSER_PAYMENT_SECONDS`] at `now`: each intent is cancelled (the
    /// contribution fails), or pays its contribution when it succeeded meanwhile. Answers how
    /// many contributions it looked at; one that cannot be ended now (the provider is away)
    /// is left for the next run.
    pub async fn cancel_abandoned_browser_donations(
        &self,
        now: Timestamp,
    ) -> Result<usize, RepositoryError> {
        let opened_before = Timestamp(now.millis() - ABANDONED_BROWSER_PAYMENT_SECONDS * 1000);
        let waiting = self
            .store
            .pending_contributions_opened_before(opened_before, ABANDONED_BATCH)
            .await?;
        for contribution in &waiting {
            let ContributionPayment::Pending { intent_id } = &contribution.payment else {
                continue;
            };
            match self
                .end_browser_donation(contribution.clone(), intent_id, None, now)
                .await
            {
                Ok(ended) => tracing::info!(
                    contribution = ended.contribution.id,
                    settled_now = ended.settled_now,
                    "ended a donation in the browser its donor abandoned"
                ),
                Err(error) => {
                    tracing::warn!(contribution = contribution.id, %error, "an abandoned donation could not be ended; trying again later");
                }
            }
        }
        Ok(waiting.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checkout::browser_donation::BrowserDonation;
    use crate::checkout::browser_donation::tests::{Donations, donations};
    use crate::checkout::browser_payment::OpenIntent;
    use crate::checkout::card_testing::FailedPaymentLimits;
    use crate::checkout::contribution::tests::{NOW, request};
    use crate::checkout::{ContributionStore, Payment, PaymentGateway};
    use crate::money::Currency;

    fn donor() -> Payer {
        Payer {
            visitor: Some("visitor-1".into()),
            address: Some("203.0.113.9".into()),
            cart: None,
        }
    }

    async fn open_at(donations: &Donations, key: &str, id: &str, at: Timestamp) -> OpenIntent {
        match donations
            .service
            .open_browser_donation(&donor(), request(key, id, ""), at)
            .await
            .unwrap()
        {
            BrowserDonation::Confirm { intent, .. } => intent,
            other => panic!("{other:?}"),
        }
    }

    /// What the provider's report about `intent_id`, the intent of the form `form_key` opened,
    /// settled.
    async fn reported(donations: &Donations, form_key: &str, intent_id: &str) -> ResumedDonation {
        let key = format!("{form_key:0>16}");
        donations
            .service
            .settle_reported(&key, intent_id, NOW)
            .await
            .unwrap()
            .expect("the form opened a contribution")
    }

    fn declined() -> IntentState {
        IntentState::Failed {
            message: "Your card was declined. Please use another card.".into(),
        }
    }

    fn paid(id: &str) -> IntentState {
        IntentState::Succeeded(Payment {
            id: id.into(),
            amount_minor: 2_500,
            currency: Currency::Eur,
        })
    }

    #[tokio::test]
    async fn a_declined_card_leaves_the_donation_payable_and_another_card_pays_it_once() {
        let donations = donations().await;
        let intent = open_at(&donations, "k1", "c1", NOW).await;
        donations.gateway.settle(&intent.id, declined());
        let declined_now = donations
            .service
            .decline_in_browser(&donor(), "c1", &intent.id, NOW)
            .await
            .unwrap();
        let DeclinedDonation::TryAgain { message, .. } = declined_now else {
            panic!("{declined_now:?}");
        };
        assert_eq!(message, "Your card was declined. Please use another card.");
        // The provider's report of the same decline changes nothing either.
        let reported = reported(&donations, "k1", &intent.id).await;
        assert!(!reported.settled_now);
        assert!(!reported.contribution.payment.is_settled());
        // The next submit of the same form answers the same intent.
        let again = open_at(&donations, "k1", "c2", NOW).await;
        assert_eq!(again.id, intent.id);
        donations.gateway.settle(&intent.id, paid(&intent.id));
        let resumed = donations
            .service
            .resume_browser_donation(&donor(), "c1", &intent.id, NOW)
            .await
            .unwrap();
        assert!(resumed.settled_now);
        assert_eq!(resumed.contribution.payment_id(), intent.id);
        assert_eq!(donations.store.receipts().len(), 1, "thanked once");
        // A late word of the decline finds it paid.
        let late = donations
            .service
            .decline_in_browser(&donor(), "c1", &intent.id, NOW)
            .await
            .unwrap();
        assert!(
            matches!(&late, DeclinedDonation::Ended(ended) if !ended.settled_now),
            "{late:?}"
        );
    }

    #[tokio::test]
    async fn a_success_reported_after_the_donation_failed_is_given_back_once() {
        let donations = donations().await;
        let intent = open_at(&donations, "k1", "c1", NOW).await;
        donations.gateway.settle(&intent.id, IntentState::Canceled);
        let failed = donations
            .service
            .resume_browser_donation(&donor(), "c1", &intent.id, NOW)
            .await
            .unwrap();
        assert!(failed.settled_now);
        // The donor was told nothing was taken; a success reported now is given back.
        donations.gateway.settle(&intent.id, paid(&intent.id));
        for _ in 0..2 {
            let reported = reported(&donations, "k1", &intent.id).await;
            assert!(!reported.settled_now);
            assert!(
                matches!(
                    reported.contribution.payment,
                    ContributionPayment::Failed { .. }
                ),
                "{:?}",
                reported.contribution.payment
            );
        }
        assert_eq!(
            donations.gateway.refunded(),
            vec![intent.id.clone()],
            "given back once however often it is reported"
        );
        assert!(donations.store.receipts().is_empty(), "no receipt for it");
    }

    #[tokio::test]
    async fn another_amount_after_a_decline_is_refused_rather_than_charged_at_the_first() {
        let donations = donations().await;
        let intent = open_at(&donations, "k1", "c1", NOW).await;
        donations.gateway.settle(&intent.id, declined());
        let mut more = request("k1", "c2", "");
        more.form.amount = "1000".into();
        let error = donations
            .service
            .open_browser_donation(&donor(), more, NOW)
            .await
            .unwrap_err();
        let super::super::DonateError::Invalid(errors) = error else {
            panic!("{error:?}");
        };
        assert_eq!(
            errors["amount"],
            "This donation was started for €25.00, the amount your first card was tried with. Choose €25.00 to try another card, or reload the page to give another amount."
        );
    }

    #[tokio::test]
    async fn a_donor_declined_too_often_has_the_intent_cancelled_and_the_contribution_failed() {
        let donations = donations().await;
        let intent = open_at(&donations, "k1", "c1", NOW).await;
        donations.gateway.settle(&intent.id, declined());
        let mut last = None;
        for _ in 0..FailedPaymentLimits::default().per_visitor.max {
            last = Some(
                donations
                    .service
                    .decline_in_browser(&donor(), "c1", &intent.id, NOW)
                    .await
                    .unwrap(),
            );
        }
        let Some(DeclinedDonation::Ended(ended)) = last else {
            panic!("{last:?}");
        };
        assert!(ended.settled_now);
        assert_eq!(
            ended.contribution.payment,
            ContributionPayment::Failed {
                message: TOO_MANY_FAILED_PAYMENTS.into()
            }
        );
        let report = donations.gateway.intent_report(&intent.id).await.unwrap();
        assert_eq!(report.state, IntentState::Canceled);
    }

    #[tokio::test]
    async fn abandoned_donations_are_cancelled_after_the_window_unless_they_succeeded_meanwhile() {
        let donations = donations().await;
        let window = ABANDONED_BROWSER_PAYMENT_SECONDS * 1000;
        let abandoned = open_at(&donations, "k1", "c1", NOW).await;
        let paid_meanwhile = open_at(&donations, "k2", "c2", NOW).await;
        let fresh = open_at(&donations, "k3", "c3", Timestamp(NOW.millis() + window)).await;
        donations
            .gateway
            .settle(&paid_meanwhile.id, paid(&paid_meanwhile.id));
        let later = Timestamp(NOW.millis() + window + 1);
        let looked_at = donations
            .service
            .cancel_abandoned_browser_donations(later)
            .await
            .unwrap();
        assert_eq!(looked_at, 2, "the fresh one waits");
        let contribution = |id: &'static str| {
            let store = donations.store.clone();
            async move { store.contribution(id).await.unwrap().unwrap().payment }
        };
        assert_eq!(
            contribution("c1").await,
            ContributionPayment::Failed {
                message: crate::checkout::browser_payment::INTENT_CANCELLED.into()
            }
        );
        assert_eq!(
            contribution("c2").await,
            ContributionPayment::Paid {
                payment_id: paid_meanwhile.id.clone()
            }
        );
        assert_eq!(
            contribution("c3").await,
            ContributionPayment::Pending {
                intent_id: fresh.id.clone()
            }
        );
        assert_eq!(
            donations.store.receipts().len(),
            1,
            "the paid one's receipt"
        );
        // A second server's run, or a restart, finds nothing left to end.
        let again = donations
            .service
            .cancel_abandoned_browser_donations(later)
            .await
            .unwrap();
        assert_eq!(again, 0);
        assert_eq!(donations.store.receipts().len(), 1);
        let _ = abandoned;
    }
}
