//! The renewal service: charges what is due exactly once per attempt, runs dunning, and
//! carries out what shoppers and owners ask of a subscription (cancel, pause, resume, a new
//! card). The scheduler inside `vitrine serve` and `vitrine billing run` both call it; the
//! claim rows of the [`RenewalStore`] keep two of them from charging the same attempt.

use std::sync::Arc;

use super::billing_mails::{BillingMailKind, billing_mail};
use super::dunning::{BillingEvent, BillingStep, TransitionError};
use super::order::IdempotencyKey;
use super::payment::{CardDetails, PaymentError};
use super::recurring::{RecurringPayments, RenewalCharge, SaveCardRequest};
use super::renewal_store::{
    ClaimOutcome, RenewalClaim, RenewalOutcome, RenewalRecord, RenewalStore, SubscriptionChange,
};
use super::subscription::{Subscription, SubscriptionStatus};
use super::subscription_link::SubscriptionLinks;
use crate::cart::Timestamp;
use crate::ports::RepositoryError;

/// How long a runner holds a claimed attempt before another may take it over: longer than
/// the gateway takes with its own retries (about a minute for Stripe), so a slow charge is
/// never asked for twice at once.
pub const DEFAULT_LEASE_MS: i64 = 5 * 60 * 1000;

/// Why the shopper's reason for a declined renewal without a card reads as it does.
const NO_SAVED_CARD: &str = "no card is saved for this subscription";

/// What renewing one subscription did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RenewalResult {
    /// Charged; the subscription moved to its next period (or ended).
    Paid { payment_id: String },
    /// Declined; dunning goes on (or the subscription is now past due).
    Declined { status: SubscriptionStatus },
    /// The grace period of a past-due subscription ended.
    Cancelled,
    /// Nothing was due, another runner holds it, or the subscription changed meanwhile.
    Skipped,
    /// The gateway could not be reached or did not answer; the attempt's lease runs out and
    /// a later run asks again under the same key.
    Unsettled { reason: String },
}

/// What one run did, counted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RenewalRunReport {
    pub paid: u32,
    pub declined: u32,
    pub cancelled: u32,
    pub skipped: u32,
    pub unsettled: u32,
}

impl RenewalRunReport {
    pub fn add(&mut self, result: &RenewalResult) {
        match result {
            RenewalResult::Paid { .. } => self.paid += 1,
            RenewalResult::Declined { .. } => self.declined += 1,
            RenewalResult::Cancelled => self.cancelled += 1,
            RenewalResult::Skipped => self.skipped += 1,
            RenewalResult::Unsettled { .. } => self.unsettled += 1,
        }
    }
}

/// Why a shopper's or owner's request about a subscription was not carried out.
#[derive(Debug, thiserror::Error)]
pub enum SubscriptionActionError {
    #[error("there is no subscription {0}")]
    Unknown(String),
    #[error(transparent)]
    NotAllowed(#[from] TransitionError),
    /// The new card was refused; the message is safe to show the shopper.
    #[error("the card could not be saved: {0}")]
    Card(PaymentError),
    #[error(transparent)]
    Repository(#[from] RepositoryError),
}

/// What a shopper may do to their own subscription from the account page or its signed
/// link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubscriptionAction {
    Pause,
    Resume,
    Cancel,
}

impl SubscriptionAction {
    /// The action a form's path names: `pause`, `resume` or `cancel`.
    pub fn parse(word: &str) -> Option<Self> {
        match word {
            "pause" => Some(Self::Pause),
            "resume" => Some(Self::Resume),
            "cancel" => Some(Self::Cancel),
            _ => None,
        }
    }
}

/// Charges renewals and changes subscriptions.
#[derive(Clone)]
pub struct RenewalService {
    store: Arc<dyn RenewalStore>,
    payments: Arc<dyn RecurringPayments>,
    links: SubscriptionLinks,
    lease_ms: i64,
}

/// A signed-in site user as the holder of subscriptions: their account's id, its confirmed
/// address (empty when it is not confirmed) and when its hold of that address started (none:
/// since the beginning; the hold of an address another account held before starts where
/// that account's ended).
#[derive(Debug, Clone, Copy)]
pub struct SubscriptionHolder<'a> {
    pub account: &'a str,
    pub email: &'a str,
    pub held_since: Option<Timestamp>,
}

impl SubscriptionHolder<'_> {
    /// Whether `subscription` is this holder's: it belongs to their account, or no account
    /// holds it yet and it was bought with their address (compared without case) after their
    /// hold of the address started. One that another account holds is not theirs, even when
    /// bought with their address, nor one bought while the address was somebody else's.
    pub fn holds(&self, subscription: &Subscription) -> bool {
        match subscription.account.as_deref() {
            Some(account) => account == self.account,
            None => {
                !self.email.is_empty()
                    && subscription.email.eq_ignore_ascii_case(self.email)
                    && self
                        .held_since
                        .is_none_or(|since| since < subscription.started)
            }
        }
    }
}

impl RenewalService {
    pub fn new(
        store: Arc<dyn RenewalStore>,
        payments: Arc<dyn RecurringPayments>,
        links: SubscriptionLinks,
    ) -> Self {
        Self {
            store,
            payments,
            links,
            lease_ms: DEFAULT_LEASE_MS,
        }
    }

    /// Holds claimed attempts for `lease_ms` (tests and `--lease-seconds`).
    pub fn with_lease_ms(mut self, lease_ms: i64) -> Self {
        self.lease_ms = lease_ms.max(1);
        self
    }

    pub fn links(&self) -> &SubscriptionLinks {
        &self.links
    }

    /// Up to `limit` subscriptions with a step due at `now`, for [`Self::renew`].
    pub async fn due(
        &self,
        now: Timestamp,
        limit: u32,
    ) -> Result<Vec<Subscription>, RepositoryError> {
        self.store.due_subscriptions(now, limit).await
    }

    /// Renews every subscription due at `now`, one after the other, in batches of `batch`
    /// until none is due; the server's runner does the same with several at once.
    pub async fn run_due(
        &self,
        now: Timestamp,
        batch: u32,
    ) -> Result<RenewalRunReport, RepositoryError> {
        let mut report = RenewalRunReport::default();
        loop {
            let due = self.due(now, batch).await?;
            let mut progressed = false;
            for subscription in &due {
                let result = self.renew(subscription, now).await?;
                progressed |= !matches!(
                    result,
                    RenewalResult::Skipped | RenewalResult::Unsettled { .. }
                );
                report.add(&result);
            }
            // What is left is held by another runner or waits for its gateway: a later run
            // takes it, rather than this one spinning on it.
            if !progressed || (due.len() as u32) < batch {
                return Ok(report);
            }
        }
    }

    /// Takes the next step of `subscription` if it is due at `now`.
    pub async fn renew(
        &self,
        subscription: &Subscription,
        now: Timestamp,
    ) -> Result<RenewalResult, RepositoryError> {
        let Some((when, step)) = subscription.next_step() else {
            return Ok(RenewalResult::Skipped);
        };
        if when > now {
            return Ok(RenewalResult::Skipped);
        }
        let (period, attempt) = match step {
            BillingStep::Cancel => return self.end_dunning(subscription, now).await,
            BillingStep::Charge { period, attempt } => (period, attempt),
        };
        let claim = RenewalClaim {
            subscription_id: subscription.id.clone(),
            period,
            attempt,
        };
        let outcome = match self.store.claim_renewal(&claim, now, self.lease_ms).await? {
            ClaimOutcome::Busy => return Ok(RenewalResult::Skipped),
            // Settled by a runner whose change of the subscription lost to another change
            // (a new card, say): the outcome is applied to the subscription as it is now.
            ClaimOutcome::Settled(outcome) => {
                let Some(current) = self.store.find_subscription(&subscription.id).await? else {
                    return Ok(RenewalResult::Skipped);
                };
                // Only while the subscription still waits for this very attempt: a caller
                // holding an old copy must not move it on a second time.
                let waiting = matches!(
                    current.next_step(),
                    Some((_, BillingStep::Charge { period: p, attempt: a }))
                        if p == period && a == attempt
                );
                if !waiting {
                    return Ok(RenewalResult::Skipped);
                }
                let changed = self.apply(&current, &outcome, now)?;
                let mails = [self.mail_for(&outcome, &changed, now)];
                let change = SubscriptionChange {
                    before: &current,
                    after: &changed,
                    mails: &mails,
                };
                self.store.change_subscription(change, now).await?;
                return Ok(RenewalResult::Skipped);
            }
            ClaimOutcome::Claimed => match self.charge(subscription, &claim).await? {
                Ok(outcome) => outcome,
                Err(error) => {
                    tracing::warn!(
                        subscription = subscription.id,
                        period,
                        attempt,
                        %error,
                        "a renewal's charge has no answer yet; a later run asks again under the same key"
                    );
                    return Ok(RenewalResult::Unsettled {
                        reason: error.to_string(),
                    });
                }
            },
        };
        let after = self.apply(subscription, &outcome, now)?;
        let mails = [self.mail_for(&outcome, &after, now)];
        let change = SubscriptionChange {
            before: subscription,
            after: &after,
            mails: &mails,
        };
        let applied = self
            .store
            .settle_renewal(&claim, &outcome, change, now)
            .await?;
        if !applied {
            tracing::warn!(
                subscription = subscription.id,
                period,
                attempt,
                "a renewal was settled, but the subscription changed meanwhile; the next run applies it"
            );
        }
        Ok(match outcome {
            RenewalOutcome::Paid { payment_id } => RenewalResult::Paid { payment_id },
            RenewalOutcome::Declined { .. } => RenewalResult::Declined {
                status: after.status,
            },
        })
    }

    /// Asks the gateway for the claimed attempt: a decision (paid or declined), or the
    /// gateway's failure when it gave none.
    async fn charge(
        &self,
        subscription: &Subscription,
        claim: &RenewalClaim,
    ) -> Result<Result<RenewalOutcome, PaymentError>, RepositoryError> {
        let Some(payment_method) = &subscription.payment_method else {
            return Ok(Ok(RenewalOutcome::Declined {
                reason: NO_SAVED_CARD.to_owned(),
            }));
        };
        let charge = RenewalCharge {
            key: claim.key()?,
            payment_method: payment_method.clone(),
            amount_minor: subscription.price_cents,
            currency: subscription.currency,
            email: subscription.email.clone(),
            description: format!(
                "{} × {}, renewal {}",
                subscription.quantity, subscription.product_name, claim.period
            ),
        };
        Ok(match self.payments.charge_saved(&charge).await {
            Ok(payment) => Ok(RenewalOutcome::Paid {
                payment_id: payment.id,
            }),
            Err(PaymentError::Declined { message }) => {
                Ok(RenewalOutcome::Declined { reason: message })
            }
            Err(error) => Err(error),
        })
    }

    fn apply(
        &self,
        subscription: &Subscription,
        outcome: &RenewalOutcome,
        now: Timestamp,
    ) -> Result<Subscription, RepositoryError> {
        let event = match outcome {
            RenewalOutcome::Paid { .. } => BillingEvent::Charged,
            RenewalOutcome::Declined { .. } => BillingEvent::Declined { at: now },
        };
        subscription
            .after(&event)
            .map_err(|error| RepositoryError::Rejected(error.to_string()))
    }

    fn mail_for(
        &self,
        outcome: &RenewalOutcome,
        after: &Subscription,
        now: Timestamp,
    ) -> crate::forms::Mail {
        let kind = match (outcome, after.status) {
            (RenewalOutcome::Paid { .. }, _) => BillingMailKind::RenewalPaid,
            (RenewalOutcome::Declined { .. }, SubscriptionStatus::PastDue) => {
                BillingMailKind::PastDue
            }
            (RenewalOutcome::Declined { .. }, _) => BillingMailKind::RenewalDeclined,
        };
        billing_mail(kind, after, &self.links, now)
    }

    async fn end_dunning(
        &self,
        subscription: &Subscription,
        now: Timestamp,
    ) -> Result<RenewalResult, RepositoryError> {
        let after = subscription
            .after(&BillingEvent::Cancel)
            .map_err(|error| RepositoryError::Rejected(error.to_string()))?;
        let mails = [billing_mail(
            BillingMailKind::Cancelled,
            &after,
            &self.links,
            now,
        )];
        let change = SubscriptionChange {
            before: subscription,
            after: &after,
            mails: &mails,
        };
        Ok(if self.store.change_subscription(change, now).await? {
            RenewalResult::Cancelled
        } else {
            RenewalResult::Skipped
        })
    }

    pub async fn subscription(&self, id: &str) -> Result<Option<Subscription>, RepositoryError> {
        self.store.find_subscription(id).await
    }

    pub async fn list(&self, limit: u32) -> Result<Vec<Subscription>, RepositoryError> {
        self.store.list_subscriptions(limit).await
    }

    /// The subscriptions `holder` manages from the account page, newest first: those that
    /// belong to its account, whatever address they were bought with, and those bought with
    /// its address that no account holds yet.
    pub async fn of_holder(
        &self,
        holder: &SubscriptionHolder<'_>,
    ) -> Result<Vec<Subscription>, RepositoryError> {
        let mut found = self.store.subscriptions_of_account(holder.account).await?;
        for subscription in self.store.subscriptions_by_email(holder.email).await? {
            if holder.holds(&subscription) && !found.iter().any(|s| s.id == subscription.id) {
                found.push(subscription);
            }
        }
        found.sort_by(|a, b| (b.started, &b.id).cmp(&(a.started, &a.id)));
        Ok(found)
    }

    /// `action` on subscription `id` for `holder` (a signed-in site user), through the same
    /// transitions as the signed link's page. A subscription `holder` does not hold answers
    /// `Unknown`, as one that does not exist does, so an account reveals nothing of other
    /// people's subscriptions.
    pub async fn act_for(
        &self,
        holder: &SubscriptionHolder<'_>,
        id: &str,
        action: SubscriptionAction,
        now: Timestamp,
    ) -> Result<Subscription, SubscriptionActionError> {
        let owned = self
            .subscription(id)
            .await?
            .is_some_and(|found| holder.holds(&found));
        if !owned {
            return Err(SubscriptionActionError::Unknown(id.to_owned()));
        }
        match action {
            SubscriptionAction::Pause => self.pause(id, now).await,
            SubscriptionAction::Resume => self.resume(id, now).await,
            SubscriptionAction::Cancel => self.cancel(id, now).await,
        }
    }

    pub async fn records(&self, id: &str) -> Result<Vec<RenewalRecord>, RepositoryError> {
        self.store.renewal_records(id).await
    }

    /// Cancels subscription `id` (the shopper from a link or the account page, the owner
    /// from the command line); the shopper gets a mail.
    pub async fn cancel(
        &self,
        id: &str,
        now: Timestamp,
    ) -> Result<Subscription, SubscriptionActionError> {
        self.change(id, now, |_| {
            Ok((BillingEvent::Cancel, BillingMailKind::Cancelled))
        })
        .await
    }

    pub async fn pause(
        &self,
        id: &str,
        now: Timestamp,
    ) -> Result<Subscription, SubscriptionActionError> {
        self.change(id, now, |_| {
            Ok((BillingEvent::Pause, BillingMailKind::Paused))
        })
        .await
    }

    pub async fn resume(
        &self,
        id: &str,
        now: Timestamp,
    ) -> Result<Subscription, SubscriptionActionError> {
        self.change(id, now, |_| {
            Ok((BillingEvent::Resume { at: now }, BillingMailKind::Resumed))
        })
        .await
    }

    /// Saves `card` at the gateway for subscription `id`; a renewal in dunning is retried
    /// with it at the next run.
    pub async fn update_card(
        &self,
        id: &str,
        card: CardDetails,
        now: Timestamp,
    ) -> Result<Subscription, SubscriptionActionError> {
        let subscription = self
            .store
            .find_subscription(id)
            .await?
            .ok_or_else(|| SubscriptionActionError::Unknown(id.to_owned()))?;
        if subscription.status.is_final() {
            return Err(TransitionError::Final(subscription.status.as_str()).into());
        }
        let key = IdempotencyKey::parse(format!("card-{id}-{}", now.millis()))
            .map_err(|_| SubscriptionActionError::Unknown(id.to_owned()))?;
        let saved = self
            .payments
            .save_card(&SaveCardRequest {
                key,
                card,
                email: subscription.email.clone(),
            })
            .await
            .map_err(SubscriptionActionError::Card)?;
        self.change(id, now, |_| {
            Ok((
                BillingEvent::CardUpdated {
                    at: now,
                    payment_method: saved.token.clone(),
                },
                BillingMailKind::CardUpdated,
            ))
        })
        .await
    }

    /// Saves the card an order of a subscription was paid with, so that its renewals can
    /// be charged; checkout calls it once the order is placed. A failure leaves the
    /// subscription without a card (its first renewal then asks the shopper for one).
    pub async fn save_checkout_card(
        &self,
        subscription_id: &str,
        order_key: &IdempotencyKey,
        card: CardDetails,
        now: Timestamp,
    ) -> Result<Subscription, SubscriptionActionError> {
        let key = IdempotencyKey::parse(format!("card-{}", order_key.as_str()))
            .map_err(|_| SubscriptionActionError::Unknown(subscription_id.to_owned()))?;
        self.keep_first_card(subscription_id, now, |subscription| {
            let request = SaveCardRequest {
                key,
                card,
                email: subscription.email.clone(),
            };
            async move {
                let saved = self.payments.save_card(&request).await;
                saved
                    .map(|saved| saved.token)
                    .map_err(SubscriptionActionError::Card)
            }
        })
        .await
    }

    /// Records `token`, a card the gateway already keeps (the provider saved it while the
    /// shopper paid the subscription's order in the browser), for the renewals of
    /// subscription `subscription_id`. A subscription that has a card keeps it, so a return
    /// and a webhook recording the same payment change it once.
    pub async fn record_checkout_card(
        &self,
        subscription_id: &str,
        token: String,
        now: Timestamp,
    ) -> Result<Subscription, SubscriptionActionError> {
        self.keep_first_card(subscription_id, now, |_| async move { Ok(token) })
            .await
    }

    /// Gives subscription `id` the card `token_for` makes it, unless it has one already.
    async fn keep_first_card<Token>(
        &self,
        id: &str,
        now: Timestamp,
        token_for: impl FnOnce(&Subscription) -> Token,
    ) -> Result<Subscription, SubscriptionActionError>
    where
        Token: std::future::Future<Output = Result<String, SubscriptionActionError>>,
    {
        let subscription = self
            .store
            .find_subscription(id)
            .await?
            .ok_or_else(|| SubscriptionActionError::Unknown(id.to_owned()))?;
        if subscription.payment_method.is_some() {
            return Ok(subscription);
        }
        let after = Subscription {
            payment_method: Some(token_for(&subscription).await?),
            ..subscription.clone()
        };
        let change = SubscriptionChange {
            before: &subscription,
            after: &after,
            mails: &[],
        };
        self.store.change_subscription(change, now).await?;
        Ok(after)
    }

    /// Reads, transitions and writes subscription `id`, again when another change won the
    /// race in between (a renewal settling, say).
    async fn change(
        &self,
        id: &str,
        now: Timestamp,
        event: impl Fn(&Subscription) -> Result<(BillingEvent, BillingMailKind), TransitionError>,
    ) -> Result<Subscription, SubscriptionActionError> {
        const TRIES: usize = 5;
        for _ in 0..TRIES {
            let before = self
                .store
                .find_subscription(id)
                .await?
                .ok_or_else(|| SubscriptionActionError::Unknown(id.to_owned()))?;
            let (event, kind) = event(&before)?;
            let after = before.after(&event)?;
            let mails = [billing_mail(kind, &after, &self.links, now)];
            let change = SubscriptionChange {
                before: &before,
                after: &after,
                mails: &mails,
            };
            if self.store.change_subscription(change, now).await? {
                return Ok(after);
            }
        }
        Err(RepositoryError::Rejected(format!(
            "subscription {id} kept changing while it was being changed"
        ))
        .into())
    }
}
