//! The renewal store port: subscriptions as renewals and the shopper's links change them, and
//! one claim row per renewal attempt, so that two servers (or a server restarted after a
//! crash) never charge one period twice.
//!
//! A renewal is charged only by whoever claimed its attempt. A claim is a lease: when its
//! holder dies before settling, the lease runs out and the next run claims it again and asks
//! the gateway with the same idempotency key, which answers the first charge if there was
//! one. So a crash loses no charge and makes none twice.

use async_trait::async_trait;

use super::order::IdempotencyKey;
use super::subscription::Subscription;
use crate::cart::Timestamp;
use crate::forms::Mail;
use crate::ports::RepositoryError;

/// One attempt at one period's renewal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenewalClaim {
    pub subscription_id: String,
    /// The billing cycle charged: 1 for the first renewal.
    pub period: u32,
    /// 0 for the charge on the due date, then one more for each dunning retry.
    pub attempt: u32,
}

impl RenewalClaim {
    /// The gateway's idempotency key: subscription and period, and the attempt after the
    /// first. A retry needs a key of its own because a payment provider answers a key it saw
    /// with its first answer, which for a retry is the decline.
    pub fn key(&self) -> Result<IdempotencyKey, RepositoryError> {
        let mut key = format!("renewal-{}-p{}", self.subscription_id, self.period);
        if self.attempt > 0 {
            key.push_str(&format!("-a{}", self.attempt));
        }
        IdempotencyKey::parse(key).map_err(|_| RepositoryError::Corrupt {
            what: "a subscription id".into(),
            reason: self.subscription_id.clone(),
        })
    }
}

/// What claiming an attempt found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClaimOutcome {
    /// This caller holds the attempt until the lease ends and must charge and settle it.
    Claimed,
    /// Another runner holds an unexpired lease on it.
    Busy,
    /// It was settled before: nothing to charge.
    Settled(RenewalOutcome),
}

/// How an attempt ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RenewalOutcome {
    Paid { payment_id: String },
    Declined { reason: String },
}

/// A claimed attempt as stored, for the owner's list and for tests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenewalRecord {
    pub claim: RenewalClaim,
    pub claimed: Timestamp,
    /// None while it is being charged (or its runner died).
    pub outcome: Option<RenewalOutcome>,
}

/// A change of a subscription together with what it writes beside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubscriptionChange<'a> {
    /// The subscription as the caller read it: the change applies only if it is still so.
    pub before: &'a Subscription,
    pub after: &'a Subscription,
    /// Mails enqueued in the delivery outbox in the same transaction.
    pub mails: &'a [Mail],
}

/// Where subscriptions and their renewal claims live.
#[async_trait]
pub trait RenewalStore: Send + Sync {
    /// The subscription with this id as it stands now.
    async fn find_subscription(&self, id: &str) -> Result<Option<Subscription>, RepositoryError>;

    /// Up to `limit` subscriptions whose next step ([`Subscription::next_step`]) is due at
    /// `now`, the longest due first.
    async fn due_subscriptions(
        &self,
        now: Timestamp,
        limit: u32,
    ) -> Result<Vec<Subscription>, RepositoryError>;

    /// The newest `limit` subscriptions, for the owner.
    async fn list_subscriptions(&self, limit: u32) -> Result<Vec<Subscription>, RepositoryError>;

    /// The subscriptions bought with `email` (compared without case), newest first.
    async fn subscriptions_by_email(
        &self,
        email: &str,
    ) -> Result<Vec<Subscription>, RepositoryError>;

    /// The subscriptions that belong to the site-user account `account`, newest first.
    async fn subscriptions_of_account(
        &self,
        account: &str,
    ) -> Result<Vec<Subscription>, RepositoryError>;

    /// Claims `claim` until `now + lease_ms`: a new attempt, or one whose holder's lease ran
    /// out without settling it.
    async fn claim_renewal(
        &self,
        claim: &RenewalClaim,
        now: Timestamp,
        lease_ms: i64,
    ) -> Result<ClaimOutcome, RepositoryError>;

    /// Records how a claimed attempt ended and applies `change` in the same transaction.
    /// False when the attempt was settled before (nothing changes) or when the subscription
    /// no longer reads as `change.before` (the outcome is recorded, the change is not).
    async fn settle_renewal(
        &self,
        claim: &RenewalClaim,
        outcome: &RenewalOutcome,
        change: SubscriptionChange<'_>,
        now: Timestamp,
    ) -> Result<bool, RepositoryError>;

    /// Applies `change` (a cancellation, a pause, a new card) only if the subscription still
    /// reads as `change.before`; false otherwise, and nothing changes.
    async fn change_subscription(
        &self,
        change: SubscriptionChange<'_>,
        now: Timestamp,
    ) -> Result<bool, RepositoryError>;

    /// Every attempt claimed for a subscription, in the order of period and attempt.
    async fn renewal_records(
        &self,
        subscription_id: &str,
    ) -> Result<Vec<RenewalRecord>, RepositoryError>;
}

/// Whether `stored` still reads as `before` in what a change depends on.
pub fn unchanged(stored: &Subscription, before: &Subscription) -> bool {
    stored.status == before.status
        && stored.payments_made == before.payments_made
        && stored.skipped_periods == before.skipped_periods
        && stored.failed_attempts == before.failed_attempts
        && stored.payment_method == before.payment_method
}
