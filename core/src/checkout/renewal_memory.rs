//! The renewal store port on the in-memory commerce store, over the subscriptions its orders
//! started: one lock stands for the SQL stores' transactions.

use std::collections::BTreeMap;

use async_trait::async_trait;

use super::memory::InMemoryCommerceStore;
use super::renewal_store::{
    ClaimOutcome, RenewalClaim, RenewalOutcome, RenewalRecord, RenewalStore, SubscriptionChange,
    unchanged,
};
use super::subscription::Subscription;
use crate::cart::Timestamp;
use crate::forms::Mail;
use crate::ports::RepositoryError;

/// One attempt as held in memory.
#[derive(Debug, Clone)]
struct Attempt {
    claimed: Timestamp,
    lease_until: Timestamp,
    outcome: Option<RenewalOutcome>,
}

/// The claims by subscription, period and attempt, and the mails renewals enqueued.
#[derive(Debug, Default)]
pub(super) struct RenewalLedger {
    attempts: BTreeMap<(String, u32, u32), Attempt>,
    mails: Vec<Mail>,
}

impl InMemoryCommerceStore {
    /// The mails renewals and subscription changes enqueued, oldest first.
    pub fn renewal_mails(&self) -> Vec<Mail> {
        self.lock().renewals.mails.clone()
    }
}

fn claim_key(claim: &RenewalClaim) -> (String, u32, u32) {
    (claim.subscription_id.clone(), claim.period, claim.attempt)
}

/// Replaces the stored subscription with `change.after` when it still reads as
/// `change.before`, enqueuing the change's mails; answers whether it did.
fn apply(
    subscriptions: &mut [Subscription],
    mails: &mut Vec<Mail>,
    change: &SubscriptionChange<'_>,
) -> bool {
    let Some(stored) = subscriptions
        .iter_mut()
        .find(|stored| stored.id == change.before.id)
    else {
        return false;
    };
    if !unchanged(stored, change.before) {
        return false;
    }
    // The account is claimed apart from renewals (`claim_subscription`): a change read
    // before a claim must not undo it.
    let account = stored.account.take();
    *stored = Subscription {
        account,
        ..change.after.clone()
    };
    mails.extend(change.mails.iter().cloned());
    true
}

#[async_trait]
impl RenewalStore for InMemoryCommerceStore {
    async fn find_subscription(&self, id: &str) -> Result<Option<Subscription>, RepositoryError> {
        super::store::CommerceStore::subscription(self, id).await
    }

    async fn due_subscriptions(
        &self,
        now: Timestamp,
        limit: u32,
    ) -> Result<Vec<Subscription>, RepositoryError> {
        let mut due: Vec<(Timestamp, Subscription)> = self
            .lock()
            .subscriptions
            .iter()
            .filter_map(|subscription| {
                let (when, _) = subscription.next_step()?;
                (when <= now).then(|| (when, subscription.clone()))
            })
            .collect();
        due.sort_by(|a, b| (a.0, &a.1.id).cmp(&(b.0, &b.1.id)));
        Ok(due
            .into_iter()
            .take(limit as usize)
            .map(|(_, subscription)| subscription)
            .collect())
    }

    async fn list_subscriptions(&self, limit: u32) -> Result<Vec<Subscription>, RepositoryError> {
        let mut all = self.lock().subscriptions.clone();
        all.sort_by(|a, b| (b.started, &b.id).cmp(&(a.started, &a.id)));
        all.truncate(limit as usize);
        Ok(all)
    }

    async fn subscriptions_by_email(
        &self,
        email: &str,
    ) -> Result<Vec<Subscription>, RepositoryError> {
        super::store::CommerceStore::subscriptions_by_email(self, email).await
    }

    async fn subscriptions_of_account(
        &self,
        account: &str,
    ) -> Result<Vec<Subscription>, RepositoryError> {
        super::store::CommerceStore::subscriptions_of_account(self, account).await
    }

    async fn claim_renewal(
        &self,
        claim: &RenewalClaim,
        now: Timestamp,
        lease_ms: i64,
    ) -> Result<ClaimOutcome, RepositoryError> {
        let mut inner = self.lock();
        let lease_until = Timestamp(now.millis().saturating_add(lease_ms));
        let attempts = &mut inner.renewals.attempts;
        match attempts.get_mut(&claim_key(claim)) {
            Some(Attempt {
                outcome: Some(outcome),
                ..
            }) => Ok(ClaimOutcome::Settled(outcome.clone())),
            Some(attempt) if attempt.lease_until > now => Ok(ClaimOutcome::Busy),
            Some(attempt) => {
                attempt.lease_until = lease_until;
                Ok(ClaimOutcome::Claimed)
            }
            None => {
                attempts.insert(
                    claim_key(claim),
                    Attempt {
                        claimed: now,
                        lease_until,
                        outcome: None,
                    },
                );
                Ok(ClaimOutcome::Claimed)
            }
        }
    }

    async fn settle_renewal(
        &self,
        claim: &RenewalClaim,
        outcome: &RenewalOutcome,
        change: SubscriptionChange<'_>,
        _now: Timestamp,
    ) -> Result<bool, RepositoryError> {
        let mut inner = self.lock();
        let inner = &mut *inner;
        let Some(attempt) = inner.renewals.attempts.get_mut(&claim_key(claim)) else {
            return Err(RepositoryError::Rejected(format!(
                "renewal {} was never claimed",
                claim.key()?.as_str()
            )));
        };
        if attempt.outcome.is_some() {
            return Ok(false);
        }
        attempt.outcome = Some(outcome.clone());
        Ok(apply(
            &mut inner.subscriptions,
            &mut inner.renewals.mails,
            &change,
        ))
    }

    async fn change_subscription(
        &self,
        change: SubscriptionChange<'_>,
        _now: Timestamp,
    ) -> Result<bool, RepositoryError> {
        let mut inner = self.lock();
        let inner = &mut *inner;
        Ok(apply(
            &mut inner.subscriptions,
            &mut inner.renewals.mails,
            &change,
        ))
    }

    async fn renewal_records(
        &self,
        subscription_id: &str,
    ) -> Result<Vec<RenewalRecord>, RepositoryError> {
        Ok(self
            .lock()
            .renewals
            .attempts
            .iter()
            .filter(|((id, _, _), _)| id == subscription_id)
            .map(|((id, period, attempt), stored)| RenewalRecord {
                claim: RenewalClaim {
                    subscription_id: id.clone(),
                    period: *period,
                    attempt: *attempt,
                },
                claimed: stored.claimed,
                outcome: stored.outcome.clone(),
            })
            .collect())
    }
}
