//! The delivery service: takes due entries from the outbox, sends each through its channel,
//! and records the outcome, retrying failures with exponential backoff. A worker in the
//! composition root calls [`DeliveryService::run_due`] in a loop; the visitor's request never
//! waits for it.

use std::sync::Arc;

use super::channels::{
    Mailer, SendError, SiteLinks, SubmissionNotice, WebhookSender, confirmation_mail, owner_mail,
    stored_values,
};
use super::outbox::{DeliveryKind, DeliveryOutbox, DeliverySubject, DueDelivery, Subscriber};
use super::submission::StoredSubmission;
use crate::cart::Timestamp;
use crate::checkout::mails::{order_confirmation_mail, review_request_mail};
use crate::ports::RepositoryError;

/// When failed deliveries are tried again: after `first_delay_ms`, then twice as long each
/// time up to `max_delay_ms`, for `max_attempts` attempts in all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    pub first_delay_ms: i64,
    pub max_delay_ms: i64,
    pub max_attempts: u32,
    /// How long a claimed delivery is kept from other workers while it is being sent.
    pub lease_ms: i64,
}

impl Default for RetryPolicy {
    /// 30 s, 1 min, 2 min, ... capped at 1 h, 15 attempts: about 9 hours of retries, enough
    /// to ride out a mail server's or a webhook receiver's outage of an afternoon.
    fn default() -> Self {
        Self {
            first_delay_ms: 30_000,
            max_delay_ms: 3_600_000,
            max_attempts: 15,
            lease_ms: 120_000,
        }
    }
}

impl RetryPolicy {
    /// The wait after the `attempts`-th failed attempt (1 for the first).
    pub fn delay_after(&self, attempts: u32) -> i64 {
        let doublings = attempts.saturating_sub(1).min(40);
        self.first_delay_ms
            .saturating_mul(1_i64 << doublings)
            .min(self.max_delay_ms)
    }
}

/// Where deliveries go; a channel left out is not enqueued.
#[derive(Clone, Default)]
pub struct DeliveryChannels {
    pub mailer: Option<Arc<dyn Mailer>>,
    /// The owner's address for [`DeliveryKind::OwnerEmail`].
    pub owner_email: Option<String>,
    pub webhook: Option<Arc<dyn WebhookSender>>,
}

impl DeliveryChannels {
    /// The owner deliveries every stored submission gets.
    pub fn owner_deliveries(&self) -> Vec<DeliveryKind> {
        let mut kinds = Vec::new();
        if self.mailer.is_some() && self.owner_email.is_some() {
            kinds.push(DeliveryKind::OwnerEmail);
        }
        if self.webhook.is_some() {
            kinds.push(DeliveryKind::Webhook);
        }
        kinds
    }
}

/// What one round did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DeliveryRound {
    pub delivered: usize,
    pub retried: usize,
    pub given_up: usize,
}

impl DeliveryRound {
    pub fn handled(&self) -> usize {
        self.delivered + self.retried + self.given_up
    }
}

/// Sends what the outbox holds.
pub struct DeliveryService {
    outbox: Arc<dyn DeliveryOutbox>,
    channels: DeliveryChannels,
    links: SiteLinks,
    policy: RetryPolicy,
}

/// Deliveries sent per round at most, so a round of a long backlog ends and reports.
const ROUND: usize = 32;

impl DeliveryService {
    pub fn new(
        outbox: Arc<dyn DeliveryOutbox>,
        channels: DeliveryChannels,
        links: SiteLinks,
        policy: RetryPolicy,
    ) -> Self {
        Self {
            outbox,
            channels,
            links,
            policy,
        }
    }

    /// Sends the deliveries due at `now_ms`, one after another.
    ///
    /// Each is claimed just before it is sent, so its lease ([`RetryPolicy::lease_ms`], 2
    /// minutes) always outlasts its send (the adapters give up after 30 seconds): claiming a
    /// batch up front would let slow sends outlive the lease of the last ones, and another
    /// server would send those again.
    pub async fn run_due(&self, now_ms: i64) -> Result<DeliveryRound, RepositoryError> {
        self.run_due_by(&|| now_ms).await
    }

    /// [`Self::run_due`] with the time read from `clock` (Unix milliseconds) at each step, so
    /// a retry's backoff counts from the failure rather than from the start of the round,
    /// however long the sends before it took.
    pub async fn run_due_by(
        &self,
        clock: &(dyn Fn() -> i64 + Sync),
    ) -> Result<DeliveryRound, RepositoryError> {
        let mut round = DeliveryRound::default();
        while round.handled() < ROUND {
            let Some(delivery) = self
                .outbox
                .claim_due(clock(), self.policy.lease_ms, 1)
                .await?
                .into_iter()
                .next()
            else {
                break;
            };
            let attempts = delivery.attempts + 1;
            match self.send(&delivery, clock() / 1000).await {
                Ok(()) => {
                    self.outbox.mark_delivered(delivery.id, clock()).await?;
                    round.delivered += 1;
                }
                Err(SendError::Temporary(error)) if attempts < self.policy.max_attempts => {
                    let next = clock() + self.policy.delay_after(attempts);
                    self.outbox
                        .schedule_retry(delivery.id, attempts, next, &error)
                        .await?;
                    round.retried += 1;
                }
                Err(SendError::Temporary(error) | SendError::Permanent(error)) => {
                    self.outbox.give_up(delivery.id, attempts, &error).await?;
                    round.given_up += 1;
                }
            }
        }
        Ok(round)
    }

    async fn send(&self, delivery: &DueDelivery, now: i64) -> Result<(), SendError> {
        match &delivery.subject {
            DeliverySubject::Mail(mail) => self.mailer()?.send(mail).await,
            DeliverySubject::Submission {
                submission,
                subscriber,
            } => {
                self.send_submission(delivery, submission, subscriber.as_ref(), now)
                    .await
            }
            DeliverySubject::Order {
                order,
                review_request,
            } => {
                let mail = match delivery.kind {
                    DeliveryKind::OrderConfirmation => Some(order_confirmation_mail(
                        order,
                        &self.links,
                        Timestamp(now * 1000),
                    )),
                    DeliveryKind::ReviewRequest => review_request.as_ref().and_then(|request| {
                        review_request_mail(order, request, &self.links, Timestamp(now * 1000))
                    }),
                    other => {
                        return Err(SendError::Permanent(format!(
                            "a delivery of kind {} cannot be about an order",
                            other.as_str()
                        )));
                    }
                };
                // An expired or emptied request has nothing left to ask.
                match mail {
                    Some(mail) => self.mailer()?.send(&mail).await,
                    None => Ok(()),
                }
            }
        }
    }

    fn mailer(&self) -> Result<&Arc<dyn Mailer>, SendError> {
        self.channels
            .mailer
            .as_ref()
            .ok_or_else(|| missing("mailer"))
    }

    async fn send_submission(
        &self,
        delivery: &DueDelivery,
        submission: &StoredSubmission,
        subscriber: Option<&Subscriber>,
        now: i64,
    ) -> Result<(), SendError> {
        match delivery.kind {
            DeliveryKind::OwnerEmail => {
                let to = self
                    .channels
                    .owner_email
                    .as_deref()
                    .ok_or_else(|| missing("owner email"))?;
                let mail = owner_mail(to, submission, &self.links, subscriber);
                self.mailer()?.send(&mail).await
            }
            DeliveryKind::Webhook => {
                let webhook = self
                    .channels
                    .webhook
                    .as_ref()
                    .ok_or_else(|| missing("webhook"))?;
                let notice = SubmissionNotice {
                    delivery_id: delivery.id,
                    submission: submission.clone(),
                    values: stored_values(submission),
                    subscriber_email: subscriber.map(|s| s.email.clone()),
                    unsubscribe_url: subscriber
                        .map(|s| self.links.unsubscribe(&s.unsubscribe_token)),
                };
                webhook.send(&notice, now).await
            }
            DeliveryKind::SubscriptionConfirmation => {
                let mailer = self.mailer()?;
                let mail = subscriber
                    .filter(|subscriber| !subscriber.unsubscribed && !subscriber.confirmed)
                    // Confirmed or gone before the mail went out: nothing left to ask.
                    .and_then(|subscriber| confirmation_mail(subscriber, &self.links));
                match mail {
                    Some(mail) => mailer.send(&mail).await,
                    None => Ok(()),
                }
            }
            DeliveryKind::OrderConfirmation
            | DeliveryKind::ReviewRequest
            | DeliveryKind::SiteUserMail => Err(SendError::Permanent(format!(
                "a delivery of kind {} cannot be about a submission",
                delivery.kind.as_str()
            ))),
        }
    }
}

/// A channel removed from the configuration since the entry was written is a permanent
/// failure: retrying cannot help until the owner configures it again.
fn missing(what: &str) -> SendError {
    SendError::Permanent(format!("no {what} is configured"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_backoff_doubles_up_to_its_cap() {
        let policy = RetryPolicy::default();
        let delays: Vec<i64> = (1..=9).map(|n| policy.delay_after(n) / 1000).collect();
        assert_eq!(delays, [30, 60, 120, 240, 480, 960, 1920, 3600, 3600]);
        assert_eq!(policy.delay_after(200), 3_600_000);
    }
}
