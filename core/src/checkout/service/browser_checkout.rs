//! Checkout paid in the browser, with the payment provider's own card fields (see
//! `browser_payment.rs`): the form without a card places the order as "payment pending" after
//! holding its stock and opening the provider's intent for the rest due under the attempt's
//! idempotency key; the browser confirms that intent (showing the bank's page when the card
//! asks for one) and comes back to the return address, where [`CartService::resume_browser_payment`]
//! asks the provider, never the browser, what became of it. The provider's webhook settles the
//! same order by the same key, whichever comes first.

use crate::cart::{CartToken, Timestamp};
use crate::checkout::browser_payment::{IntentReport, IntentRequest, IntentState, OpenIntent};
use crate::checkout::card_testing::Payer;
use crate::checkout::details::CheckoutForm;
use crate::checkout::order::{IdempotencyKey, Order};
use crate::checkout::payment_events::PaymentStatus;
use crate::ports::RepositoryError;

use super::browser_retry::{BROWSER_PAYMENT_CANCELLED, DeclinedAttempt, check_intent_of};
use super::guarded::is_failed_payment;
use super::orders::{ToPay, charge_description};
use super::{CartService, CheckoutError};

/// What the browser does next after the checkout form was taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BrowserCheckout {
    /// Nothing is left to pay by card (a gift card paid it all), or this checkout was settled
    /// before: the order stands, and its page is next.
    Placed(Order),
    /// The order waits as payment pending until the browser confirms `intent` and the
    /// provider says how that went.
    Confirm { order: Order, intent: OpenIntent },
}

/// An order after the shopper came back from paying in the browser.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResumedPayment {
    pub order: Order,
    /// Why the payment failed, in the shopper's words, when it did just now: the order
    /// failed, or (while it is still pending) the card was declined and another may be tried.
    pub failure: Option<String>,
    /// Whether this return settled the order (rather than the webhook or an earlier return),
    /// so that what follows a purchase happens once.
    pub settled_now: bool,
}

/// Why coming back from paying found nothing to resume.
#[derive(Debug, thiserror::Error)]
pub enum ResumePaymentError {
    /// No such order, or the intent named is not the one this order opened (a forged or
    /// mixed-up return address): nothing is changed.
    #[error("no order {0} waits for this payment")]
    UnknownPayment(String),
    #[error(transparent)]
    Repository(#[from] RepositoryError),
}

impl CartService {
    /// Takes the checkout form (without a card) of the cart under `token` for a payment in
    /// the browser: refused at once for a payer that failed to pay too often lately. The
    /// same `key` again answers the same order and the same intent, so a double click or a
    /// reload confirms one payment.
    pub async fn open_browser_payment(
        &self,
        payer: &Payer,
        token: &CartToken,
        key: IdempotencyKey,
        order_id: String,
        form: &CheckoutForm,
        now: Timestamp,
    ) -> Result<BrowserCheckout, CheckoutError> {
        self.admit_payer(payer, now).await?;
        if let Some(placed) = self.store.order_by_key(&key).await? {
            return self.reopen(placed).await;
        }
        let result = self
            .open_once(token, key.clone(), order_id, form, now)
            .await;
        match result {
            Ok(next) => Ok(next),
            // A second submit that lost the race to the first: the first one's order.
            Err(error) => match self.store.order_by_key(&key).await? {
                Some(placed) => self.reopen(placed).await,
                None => {
                    if is_failed_payment(&error) {
                        self.card_testing.record_failure(payer, now).await;
                    }
                    Err(error)
                }
            },
        }
    }

    async fn open_once(
        &self,
        token: &CartToken,
        key: IdempotencyKey,
        order_id: String,
        form: &CheckoutForm,
        now: Timestamp,
    ) -> Result<BrowserCheckout, CheckoutError> {
        // The provider's own fields take the card in the browser: nothing to check before.
        let (mut order, mut follow_up) = match self
            .prepare_to_pay(token, key, order_id, form, now, |_| Ok(()))
            .await?
        {
            ToPay::Placed(placed) => return Ok(BrowserCheckout::Placed(placed)),
            ToPay::Due {
                order, follow_up, ..
            } => (order, follow_up),
        };
        order.payment_status = PaymentStatus::Pending;
        // The shopper may abandon the payment: the confirmation and the gift cards' mails
        // go out once it succeeds.
        follow_up.confirmation_waits_for_payment = follow_up.confirmation;
        follow_up.gift_card_mails_wait_for_payment = true;
        // Opened before the order is placed: an intent the browser never confirms charges
        // nothing, while an order placed without one could never be paid.
        let intent = self.payments.open_intent(&intent_request(&order)?).await?;
        // The order waits on this intent until it is paid or cancelled: a declined card
        // leaves it payable with another.
        follow_up.browser_intent = Some(intent.id.clone());
        let placed = self
            .store
            .place_order_with_follow_up(&order, &self.coupon_limits(&order), &follow_up)
            .await?;
        Ok(BrowserCheckout::Confirm {
            order: placed,
            intent,
        })
    }

    /// The next step for an order this checkout placed before: its intent again while its
    /// payment is pending (the provider answers the same intent for the same key), the order
    /// itself once it is settled.
    async fn reopen(&self, order: Order) -> Result<BrowserCheckout, CheckoutError> {
        if order.payment_status != PaymentStatus::Pending {
            return Ok(BrowserCheckout::Placed(order));
        }
        let intent = self.payments.open_intent(&intent_request(&order)?).await?;
        Ok(BrowserCheckout::Confirm { order, intent })
    }

    /// The shopper came back from paying order `order_id` in the browser, naming the intent
    /// `intent_id`: the provider is asked what became of it, and its answer is recorded as
    /// its webhook's would be. A failed attempt counts against the payer and, since the
    /// shopper left the card fields for this address, ends the payment: the intent is
    /// cancelled and the order fails with the provider's reason. An intent of another order, or a success for another amount,
    /// settles nothing. While the provider cannot be asked, the order stays pending.
    pub async fn resume_browser_payment(
        &self,
        payer: &Payer,
        order_id: &str,
        intent_id: &str,
        now: Timestamp,
    ) -> Result<ResumedPayment, ResumePaymentError> {
        let unknown = || ResumePaymentError::UnknownPayment(order_id.to_owned());
        let order = self.store.order(order_id).await?.ok_or_else(unknown)?;
        if order.payment_key.is_empty() {
            return Err(unknown());
        }
        let settled = ResumedPayment {
            order: order.clone(),
            failure: None,
            settled_now: false,
        };
        if order.payment_status != PaymentStatus::Pending {
            if order.payment_status == PaymentStatus::Paid {
                // The webhook paid it first: the card the intent kept is still to record.
                self.keep_card_of_intent(&order, intent_id, now).await;
            }
            return Ok(settled);
        }
        let report = match self.payments.intent_report(intent_id).await {
            Ok(report) => report,
            Err(error) => {
                tracing::warn!(order = order.id, %error, "a payment in the browser could not be checked; the order stays pending");
                return Ok(settled);
            }
        };
        check_intent_of(&order, intent_id, &report)?;
        if let IntentState::Failed { message } = report.state {
            // The bank's verification failed, or the card was declined, and the shopper has
            // left the checkout page for this address: the payment ends here, so that their
            // cart is theirs again at once rather than when the abandoned intent is cancelled.
            return match self
                .after_decline(payer, order, intent_id, message.clone(), now)
                .await?
            {
                DeclinedAttempt::TryAgain { order, .. } | DeclinedAttempt::Open(order) => {
                    let ended = self.end_browser_payment(&order, intent_id, now).await?;
                    Ok(ResumedPayment {
                        settled_now: ended.payment_status != PaymentStatus::Pending,
                        failure: (ended.payment_status == PaymentStatus::Failed).then_some(message),
                        order: ended,
                    })
                }
                DeclinedAttempt::Ended { order, failure } => Ok(ResumedPayment {
                    settled_now: order.payment_status != PaymentStatus::Pending,
                    order,
                    failure,
                }),
            };
        }
        let cancelled = report.state == IntentState::Canceled;
        let order = self.settle_from_report(&order, report, now).await?;
        Ok(ResumedPayment {
            settled_now: order.payment_status != PaymentStatus::Pending,
            failure: (cancelled && order.payment_status == PaymentStatus::Failed)
                .then(|| BROWSER_PAYMENT_CANCELLED.to_owned()),
            order,
        })
    }

    /// Records, once the provider's webhook paid order `order_id`, the card its intent kept
    /// for renewals when it is a subscription's: a shopper who closed the tab after paying
    /// never loads the return address that would record it.
    pub async fn keep_card_of_paid_order(
        &self,
        order_id: &str,
        now: Timestamp,
    ) -> Result<(), RepositoryError> {
        let Some(order) = self.store.order(order_id).await? else {
            return Ok(());
        };
        if order.payment_status == PaymentStatus::Paid && !order.payment_id.is_empty() {
            let intent = order.payment_id.clone();
            self.keep_card_of_intent(&order, &intent, now).await;
        }
        Ok(())
    }

    /// Records the card intent `intent_id` kept for the renewals of paid subscription order
    /// `order`, when it kept one; anything else leaves the subscription as it is.
    async fn keep_card_of_intent(&self, order: &Order, intent_id: &str, now: Timestamp) {
        let in_browser = self.payments.browser_card_fields().is_some();
        if !in_browser || self.renewals.is_none() || !buys_subscription(order) {
            return;
        }
        match self.payments.intent_report(intent_id).await {
            Ok(IntentReport {
                key: Some(key),
                saved_card: Some(token),
                ..
            }) if key == order.payment_key => {
                self.keep_saved_card_for_renewals(order, token, now).await;
            }
            Ok(_) => {}
            Err(error) => {
                tracing::warn!(order = order.id, %error, "the card a subscription was paid with could not be read back");
            }
        }
    }
}

fn buys_subscription(order: &Order) -> bool {
    order
        .lines
        .iter()
        .any(|line| line.subscription_plan.is_some())
}

/// The intent of `order`'s rest due, under its payment key: always the same fields for the
/// same order, since a provider refuses a key repeated with other parameters.
fn intent_request(order: &Order) -> Result<IntentRequest, CheckoutError> {
    let key =
        IdempotencyKey::parse(order.payment_key.clone()).map_err(|_| RepositoryError::Corrupt {
            what: "a pending order's payment key".into(),
            reason: order.payment_key.clone(),
        })?;
    Ok(IntentRequest {
        key,
        amount_minor: order.rest_due_cents(),
        currency: order.currency,
        email: order.email.clone(),
        description: charge_description(order),
        save_for_renewals: buys_subscription(order),
    })
}

/// `record_answer` fails only in the store.
pub(super) fn repository_error(error: CheckoutError) -> ResumePaymentError {
    match error {
        CheckoutError::Order(crate::checkout::PlaceOrderError::Repository(error)) => {
            ResumePaymentError::Repository(error)
        }
        other => ResumePaymentError::Repository(RepositoryError::Unavailable(other.to_string())),
    }
}
