//! The payment ledger: which charge paid for an order or a contribution, and which charges
//! were given back.
//!
//! A charge is asked for with an idempotency key, and a payment provider answers a repeated
//! key with the first charge again, even after that charge was refunded. So a checkout that
//! refunded its charge must never place an order on that charge when the shopper submits the
//! same form again. Two rules make that hold whatever the order of retries and failures:
//!
//! - a charge is claimed once, either by the order (or contribution) it paid for, inside the
//!   transaction that places it, or for a refund, before the refund is asked for; whichever
//!   claim comes second is refused;
//! - each refunded charge burns its attempt: the next submit of the same form charges under
//!   the next attempt's key ([`IdempotencyKey::attempt`]), so the provider makes a new charge
//!   instead of replaying the refunded one.

use std::collections::HashMap;
use std::sync::Mutex;

use async_trait::async_trait;

use super::order::IdempotencyKey;
use super::payment::{Payment, PaymentGateway};
use crate::cart::Timestamp;
use crate::ports::RepositoryError;

/// What a shopper or donor reads when the charge meant for their order or contribution was
/// given back before it could be placed (our text; the specification shows none).
pub const PAYMENT_REFUNDED_MESSAGE: &str = "Your payment was refunded because your order could not be completed. Nothing was charged. Please try again.";

/// What claimed a charge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PaymentUse {
    Order,
    Contribution,
    Refund,
}

impl PaymentUse {
    /// How the store writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Order => "order",
            Self::Contribution => "contribution",
            Self::Refund => "refund",
        }
    }
}

/// The answer to a claim for a refund.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefundClaim {
    /// Nothing had claimed the charge: it may be given back now, and its attempt is burnt.
    Claimed,
    /// An order or a contribution placed meanwhile (a second submit of the same form) holds
    /// the charge, or it was claimed for a refund already: it must not be given back again.
    AlreadyClaimed,
}

/// A refund the payment provider did not make: the shopper was charged for nothing, and the
/// owner must give the money back by hand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailedRefund {
    pub payment_id: String,
    pub idempotency_key: String,
    /// What the provider (or the network) said.
    pub reason: String,
    pub claimed: Timestamp,
}

/// Where claims on charges are kept. Stores that place orders or record contributions are
/// ledgers too, since the claim of an order is written in the order's own transaction.
#[async_trait]
pub trait PaymentLedger: Send + Sync {
    /// How many charges made under `key` were claimed for a refund: the next charge is
    /// attempt one more than that.
    async fn refunded_attempts(&self, key: &IdempotencyKey) -> Result<u32, RepositoryError>;

    /// Claims the charge `payment_id`, made under `key`, for a refund.
    async fn claim_for_refund(
        &self,
        payment_id: &str,
        key: &IdempotencyKey,
        now: Timestamp,
    ) -> Result<RefundClaim, RepositoryError>;

    /// Records that the refund of a charge claimed for one failed, and why.
    async fn record_refund_failure(
        &self,
        payment_id: &str,
        reason: &str,
    ) -> Result<(), RepositoryError>;

    /// Every refund that failed, oldest first: what the owner must settle by hand.
    async fn failed_refunds(&self) -> Result<Vec<FailedRefund>, RepositoryError>;
}

#[derive(Debug, Clone)]
struct Claim {
    key: IdempotencyKey,
    used_for: PaymentUse,
    claimed: Timestamp,
    refund_failure: Option<String>,
}

/// The in-memory ledger. The in-memory stores share one, so an order and a refund claim the
/// same charges; each store calls [`Self::claim`] while it holds its own lock.
#[derive(Debug, Default)]
pub struct MemoryPaymentLedger {
    claims: Mutex<HashMap<String, Claim>>,
}

impl MemoryPaymentLedger {
    pub fn new() -> Self {
        Self::default()
    }

    /// Claims `payment_id` for `used_for`; false when something claimed it before.
    pub fn claim(
        &self,
        payment_id: &str,
        key: &IdempotencyKey,
        used_for: PaymentUse,
        now: Timestamp,
    ) -> bool {
        let mut claims = self.lock();
        if claims.contains_key(payment_id) {
            return false;
        }
        claims.insert(
            payment_id.to_owned(),
            Claim {
                key: key.clone(),
                used_for,
                claimed: now,
                refund_failure: None,
            },
        );
        true
    }

    /// Whether anything claimed `payment_id`.
    pub fn is_claimed(&self, payment_id: &str) -> bool {
        self.lock().contains_key(payment_id)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Claim>> {
        // Every write is one insert or one field, so a poisoned lock still guards whole data.
        self.claims
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[async_trait]
impl PaymentLedger for MemoryPaymentLedger {
    async fn refunded_attempts(&self, key: &IdempotencyKey) -> Result<u32, RepositoryError> {
        let refunded = self
            .lock()
            .values()
            .filter(|claim| claim.used_for == PaymentUse::Refund && claim.key == *key)
            .count();
        Ok(u32::try_from(refunded).unwrap_or(u32::MAX))
    }

    async fn claim_for_refund(
        &self,
        payment_id: &str,
        key: &IdempotencyKey,
        now: Timestamp,
    ) -> Result<RefundClaim, RepositoryError> {
        Ok(if self.claim(payment_id, key, PaymentUse::Refund, now) {
            RefundClaim::Claimed
        } else {
            RefundClaim::AlreadyClaimed
        })
    }

    async fn record_refund_failure(
        &self,
        payment_id: &str,
        reason: &str,
    ) -> Result<(), RepositoryError> {
        if let Some(claim) = self.lock().get_mut(payment_id) {
            claim.refund_failure = Some(reason.to_owned());
        }
        Ok(())
    }

    async fn failed_refunds(&self) -> Result<Vec<FailedRefund>, RepositoryError> {
        let mut failed: Vec<FailedRefund> = self
            .lock()
            .iter()
            .filter_map(|(payment_id, claim)| {
                claim.refund_failure.as_ref().map(|reason| FailedRefund {
                    payment_id: payment_id.clone(),
                    idempotency_key: claim.key.as_str().to_owned(),
                    reason: reason.clone(),
                    claimed: claim.claimed,
                })
            })
            .collect();
        failed.sort_by(|a, b| (a.claimed, &a.payment_id).cmp(&(b.claimed, &b.payment_id)));
        Ok(failed)
    }
}

/// Gives back a charge that paid for nothing (its order or contribution could not be placed),
/// unless a second submit of the same form placed one on it meanwhile. The charge is claimed
/// for the refund before the provider is asked, so no later submit can place anything on it;
/// when even the claim cannot be written (the database is away) the charge is left as it is,
/// since refunding an unclaimed charge would let a retry place an order on money given back:
/// a retry of the same form then places its order on it, and otherwise the owner sees it at
/// the provider. A refund the provider refuses is recorded for the owner to settle.
pub(crate) async fn give_back(
    ledger: &dyn PaymentLedger,
    payments: &dyn PaymentGateway,
    payment: &Payment,
    key: &IdempotencyKey,
    now: Timestamp,
) {
    match ledger.claim_for_refund(&payment.id, key, now).await {
        Ok(RefundClaim::Claimed) => {}
        Ok(RefundClaim::AlreadyClaimed) => return,
        Err(error) => {
            tracing::error!(
                payment_id = payment.id,
                %error,
                "a charge that paid for nothing could not be claimed for its refund, so it is not refunded; a retry of the same form will use it"
            );
            return;
        }
    }
    refund_claimed(ledger, payments, payment).await;
}

/// Asks the provider to give back `payment`, a charge already claimed for its refund in
/// `ledger`; a refund the provider refuses is recorded there for the owner to settle by hand.
pub async fn refund_claimed(
    ledger: &dyn PaymentLedger,
    payments: &dyn PaymentGateway,
    payment: &Payment,
) {
    let Err(error) = payments.refund(payment).await else {
        return;
    };
    tracing::error!(payment_id = payment.id, %error, "a refund failed; the owner must give the money back by hand");
    if let Err(record) = ledger
        .record_refund_failure(&payment.id, &error.to_string())
        .await
    {
        tracing::error!(payment_id = payment.id, error = %record, "the failed refund could not be recorded");
    }
}

/// Lets a store that keeps a [`MemoryPaymentLedger`] answer as a ledger through it.
macro_rules! delegate_payment_ledger {
    ($store:ty, $ledger:ident) => {
        #[async_trait::async_trait]
        impl $crate::checkout::PaymentLedger for $store {
            async fn refunded_attempts(
                &self,
                key: &$crate::checkout::IdempotencyKey,
            ) -> Result<u32, $crate::ports::RepositoryError> {
                self.$ledger.refunded_attempts(key).await
            }

            async fn claim_for_refund(
                &self,
                payment_id: &str,
                key: &$crate::checkout::IdempotencyKey,
                now: $crate::cart::Timestamp,
            ) -> Result<$crate::checkout::RefundClaim, $crate::ports::RepositoryError> {
                self.$ledger.claim_for_refund(payment_id, key, now).await
            }

            async fn record_refund_failure(
                &self,
                payment_id: &str,
                reason: &str,
            ) -> Result<(), $crate::ports::RepositoryError> {
                self.$ledger.record_refund_failure(payment_id, reason).await
            }

            async fn failed_refunds(
                &self,
            ) -> Result<Vec<$crate::checkout::FailedRefund>, $crate::ports::RepositoryError> {
                self.$ledger.failed_refunds().await
            }
        }
    };
}
pub(crate) use delegate_payment_ledger;

#[cfg(test)]
mod tests {
    use super::*;

    fn key(text: &str) -> IdempotencyKey {
        IdempotencyKey::parse(text).unwrap()
    }

    #[tokio::test]
    async fn a_charge_is_claimed_once_and_refunds_count_per_key() {
        let ledger = MemoryPaymentLedger::new();
        let form = key("form-key-1");
        assert!(ledger.claim("ch_1", &form, PaymentUse::Order, Timestamp(1)));
        assert_eq!(
            ledger
                .claim_for_refund("ch_1", &form, Timestamp(2))
                .await
                .unwrap(),
            RefundClaim::AlreadyClaimed
        );
        assert_eq!(ledger.refunded_attempts(&form).await.unwrap(), 0);
        assert_eq!(
            ledger
                .claim_for_refund("ch_2", &form, Timestamp(3))
                .await
                .unwrap(),
            RefundClaim::Claimed
        );
        assert!(!ledger.claim("ch_2", &form, PaymentUse::Order, Timestamp(4)));
        assert_eq!(ledger.refunded_attempts(&form).await.unwrap(), 1);
        assert_eq!(
            ledger.refunded_attempts(&key("form-key-2")).await.unwrap(),
            0
        );
    }

    #[tokio::test]
    async fn failed_refunds_are_listed_for_the_owner() {
        let ledger = MemoryPaymentLedger::new();
        let form = key("form-key-1");
        ledger
            .claim_for_refund("ch_9", &form, Timestamp(5))
            .await
            .unwrap();
        assert!(ledger.failed_refunds().await.unwrap().is_empty());
        ledger
            .record_refund_failure("ch_9", "the provider timed out")
            .await
            .unwrap();
        assert_eq!(
            ledger.failed_refunds().await.unwrap(),
            vec![FailedRefund {
                payment_id: "ch_9".into(),
                idempotency_key: "form-key-1".into(),
                reason: "the provider timed out".into(),
                claimed: Timestamp(5),
            }]
        );
    }
}
