//! What follows a card declined in the provider's own fields, and the end of a payment in
//! the browser that never came. The provider's intent outlives a decline (Stripe puts it back
//! to "requires a payment method"), so the order stays payment pending and its payer may
//! confirm the same intent again with another card; each declined attempt counts against
//! the payer as any failed payment does (`card_testing.rs`), and a payer over the limit has
//! the intent cancelled, which fails the order. A cancelled intent is the one final failure:
//! the order fails once, its stock and cart come back and its held confirmation is dropped.
//!
//! Who counts what: the shopper's own requests (the island telling of a decline, the return
//! address) count the visitor and the client address; the provider's report of the decline
//! counts the order's cart, since it sees every attempt, even those a script makes with the
//! intent's client secret without this shop's page. Each part is so counted once per decline.
//!
//! Donations follow the same rules (`browser_donation_retry.rs`), with the same window.
//!
//! Orders whose payer never finishes wait at most [`ABANDONED_BROWSER_PAYMENT_SECONDS`]:
//! [`CartService::cancel_abandoned_browser_payments`] cancels their intents, or settles one
//! that succeeded meanwhile as paid. Every step is asked of the provider and recorded under
//! one report id per answer, so several servers running it at once, or one running it again
//! after a crash, change each order once.

use crate::cart::Timestamp;
use crate::checkout::browser_payment::{IntentReport, IntentState};
use crate::checkout::card_testing::{AdmitError, Payer, TOO_MANY_FAILED_PAYMENTS};
use crate::checkout::order::Order;
use crate::checkout::payment::{Payment, PaymentError};
use crate::checkout::payment_events::PaymentStatus;
use crate::ports::RepositoryError;

use super::CartService;
use super::browser_checkout::{ResumePaymentError, repository_error};

/// How long an order paid in the browser may wait for its payer before its intent is
/// cancelled and its stock comes back: thirty minutes, three times the default cart hold,
/// so that a bank's verification and a few cards tried one after another fit in it.
pub const ABANDONED_BROWSER_PAYMENT_SECONDS: i64 = 30 * 60;

/// How many abandoned payments one run of the clean-up ends at most; the next run takes the
/// rest, so one run never holds the provider's rate limit for long.
pub(crate) const ABANDONED_BATCH: u32 = 50;

/// What a shopper reads when their payment was cancelled, because it waited too long or
/// was cancelled at the provider (our text).
pub const BROWSER_PAYMENT_CANCELLED: &str = "This payment was cancelled and nothing was charged. Your cart is kept: check out again to pay.";

/// Where an order paid in the browser stands after its payer's card was declined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeclinedAttempt {
    /// The intent still waits for a card: the payer may try another. `message` says why the
    /// last one failed, in the shopper's words.
    TryAgain { order: Order, message: String },
    /// The order no longer waits (it was paid, or it failed: the payer failed too often,
    /// or the intent was cancelled); `failure` says why it failed, when it did.
    Ended {
        order: Order,
        failure: Option<String>,
    },
    /// The provider reports no failed attempt: nothing changed.
    Open(Order),
}

impl CartService {
    /// The shopper's browser tells that a card was declined for order `order_id`'s intent
    /// `intent_id`: the provider is asked (never the browser), the decline counts against
    /// the payer's visitor and address, and a payer over the limit has the intent cancelled
    /// and the order failed.
    pub async fn decline_in_browser(
        &self,
        payer: &Payer,
        order_id: &str,
        intent_id: &str,
        now: Timestamp,
    ) -> Result<DeclinedAttempt, ResumePaymentError> {
        let order = self.waiting_order(order_id).await?;
        if order.payment_status != PaymentStatus::Pending {
            return Ok(DeclinedAttempt::Ended {
                order,
                failure: None,
            });
        }
        let report = match self.payments.intent_report(intent_id).await {
            Ok(report) => report,
            Err(error) => {
                tracing::warn!(order = order.id, %error, "a declined payment could not be checked; the order stays pending");
                return Ok(DeclinedAttempt::Open(order));
            }
        };
        check_intent_of(&order, intent_id, &report)?;
        match report.state {
            IntentState::Failed { message } => {
                self.after_decline(payer, order, intent_id, message, now)
                    .await
            }
            _ => {
                let settled = self.settle_from_report(&order, report, now).await?;
                Ok(match settled.payment_status {
                    PaymentStatus::Pending => DeclinedAttempt::Open(settled),
                    PaymentStatus::Failed => DeclinedAttempt::Ended {
                        order: settled,
                        failure: Some(BROWSER_PAYMENT_CANCELLED.to_owned()),
                    },
                    _ => DeclinedAttempt::Ended {
                        order: settled,
                        failure: None,
                    },
                })
            }
        }
    }

    /// Counts a declined attempt against the shopper (`payer`'s visitor and address) and
    /// lets them try again, unless they are over the limit: then the intent is cancelled.
    pub(super) async fn after_decline(
        &self,
        payer: &Payer,
        order: Order,
        intent_id: &str,
        message: String,
        now: Timestamp,
    ) -> Result<DeclinedAttempt, ResumePaymentError> {
        match self.card_testing.count_decline(payer, now).await {
            Ok(()) => Ok(DeclinedAttempt::TryAgain { order, message }),
            Err(AdmitError::Refused(refused)) => {
                tracing::warn!(
                    order = order.id,
                    part = refused.part.as_str(),
                    "a payer failed too often; their intent is cancelled"
                );
                let ended = self.end_browser_payment(&order, intent_id, now).await?;
                let failure = (ended.payment_status == PaymentStatus::Failed)
                    .then(|| TOO_MANY_FAILED_PAYMENTS.to_owned());
                Ok(DeclinedAttempt::Ended {
                    order: ended,
                    failure,
                })
            }
            Err(AdmitError::Repository(error)) => Err(error.into()),
        }
    }

    /// The provider reported a declined attempt at order `order_id`'s intent `intent_id`
    /// (its webhook): the attempt counts against the order's cart, and an order whose cart
    /// failed too often has its intent cancelled.
    pub async fn count_declined_attempt(
        &self,
        order_id: &str,
        intent_id: &str,
        now: Timestamp,
    ) -> Result<(), RepositoryError> {
        let Some(order) = self.store.order(order_id).await? else {
            return Ok(());
        };
        let cart = Payer {
            cart: Some(order.cart_token.as_str().to_owned()),
            ..Payer::default()
        };
        self.card_testing.record_failure(&cart, now).await;
        match self.card_testing.admit(&cart, now).await {
            Ok(()) => Ok(()),
            Err(AdmitError::Refused(_)) => {
                tracing::warn!(
                    order = order.id,
                    "a cart failed to pay too often; its intent is cancelled"
                );
                self.end_browser_payment(&order, intent_id, now)
                    .await
                    .map(|_| ())
                    .map_err(|error| match error {
                        ResumePaymentError::Repository(error) => error,
                        other => RepositoryError::Unavailable(other.to_string()),
                    })
            }
            Err(AdmitError::Repository(error)) => Err(error),
        }
    }

    /// Ends the payments in the browser that waited longer than
    /// [`ABANDONED_BROWSER_PAYMENT_SECONDS`] at `now`: each intent is cancelled (its order
    /// fails and its stock comes back), or settles its order as paid when it succeeded
    /// meanwhile. Answers how many orders it looked at; one that cannot be ended now (the
    /// provider is away) is left for the next run.
    pub async fn cancel_abandoned_browser_payments(
        &self,
        now: Timestamp,
    ) -> Result<usize, RepositoryError> {
        let opened_before = Timestamp(now.millis() - ABANDONED_BROWSER_PAYMENT_SECONDS * 1000);
        let waiting = self
            .store
            .browser_payments_opened_before(opened_before, ABANDONED_BATCH)
            .await?;
        for payment in &waiting {
            let Some(order) = self.store.order(&payment.order_id).await? else {
                continue;
            };
            match self
                .end_browser_payment(&order, &payment.intent_id, now)
                .await
            {
                Ok(ended) => tracing::info!(
                    order = ended.id,
                    status = ended.payment_status.as_str(),
                    "ended a payment in the browser its payer abandoned"
                ),
                Err(error) => {
                    tracing::warn!(order = order.id, %error, "an abandoned payment could not be ended; trying again later");
                }
            }
        }
        Ok(waiting.len())
    }

    /// Cancels `order`'s intent `intent_id` at the provider and records what became of it:
    /// the order fails once the intent is cancelled, or is paid when the intent succeeded
    /// first. While the provider cannot be asked the order stays pending.
    pub(super) async fn end_browser_payment(
        &self,
        order: &Order,
        intent_id: &str,
        now: Timestamp,
    ) -> Result<Order, ResumePaymentError> {
        let report = match self.payments.cancel_intent(intent_id).await {
            Ok(report) => report,
            Err(error) => {
                return Err(ResumePaymentError::Repository(
                    RepositoryError::Unavailable(format!(
                        "the provider could not cancel intent {intent_id}: {error}"
                    )),
                ));
            }
        };
        check_intent_of(order, intent_id, &report)?;
        self.settle_from_report(order, report, now).await
    }

    /// Records what the provider `report`ed about `order`'s intent: a success of the order's
    /// amount pays it, a cancellation fails it; anything else leaves it pending.
    pub(super) async fn settle_from_report(
        &self,
        order: &Order,
        report: IntentReport,
        now: Timestamp,
    ) -> Result<Order, ResumePaymentError> {
        match report.state {
            IntentState::Succeeded(payment) => {
                self.settle_success(order, &payment, report.saved_card, now)
                    .await
            }
            IntentState::Canceled => {
                let cancelled = PaymentError::Declined {
                    message: BROWSER_PAYMENT_CANCELLED.to_owned(),
                };
                self.record_answer(order, Err(&cancelled), now)
                    .await
                    .map_err(repository_error)
            }
            IntentState::Failed { .. } | IntentState::Open => Ok(order.clone()),
        }
    }

    /// Pays `order` with the intent's `payment` when it took the order's amount, keeping the
    /// card the intent saved for a subscription's renewals. Another amount settles nothing:
    /// the order stays pending for the owner.
    pub(super) async fn settle_success(
        &self,
        order: &Order,
        payment: &Payment,
        saved_card: Option<String>,
        now: Timestamp,
    ) -> Result<Order, ResumePaymentError> {
        if payment.amount_minor != order.rest_due_cents() || payment.currency != order.currency {
            tracing::error!(
                order = order.id,
                payment = payment.id,
                "a payment in the browser took another amount than the order's; the order stays pending for the owner"
            );
            return Ok(order.clone());
        }
        let paid = self
            .record_answer(order, Ok(payment), now)
            .await
            .map_err(repository_error)?;
        if let Some(token) = saved_card
            && paid.payment_status == PaymentStatus::Paid
        {
            self.keep_saved_card_for_renewals(&paid, token, now).await;
        }
        Ok(paid)
    }

    /// The order `order_id` that took a payment in the browser.
    async fn waiting_order(&self, order_id: &str) -> Result<Order, ResumePaymentError> {
        let unknown = || ResumePaymentError::UnknownPayment(order_id.to_owned());
        let order = self.store.order(order_id).await?.ok_or_else(unknown)?;
        if order.payment_key.is_empty() {
            return Err(unknown());
        }
        Ok(order)
    }
}

/// Refuses a `report` about an intent that `order` did not open (a forged or mixed-up
/// address): nothing is changed.
pub(super) fn check_intent_of(
    order: &Order,
    intent_id: &str,
    report: &IntentReport,
) -> Result<(), ResumePaymentError> {
    if report.key.as_deref() == Some(order.payment_key.as_str()) {
        return Ok(());
    }
    tracing::warn!(
        order = order.id,
        intent = intent_id,
        "a payment in the browser named an intent this order did not open"
    );
    Err(ResumePaymentError::UnknownPayment(order.id.clone()))
}
