//! The payment ledger of the stores under test: each wrapper hands it to the store it wraps.

/// Implements `PaymentLedger` for `$wrapper<Guard>` through its `store` field.
macro_rules! ledger_through_store {
    ($wrapper:ident) => {
        #[async_trait::async_trait]
        impl<Guard: Send + Sync> vitrine_core::checkout::PaymentLedger for $wrapper<Guard> {
            async fn refunded_attempts(
                &self,
                key: &vitrine_core::checkout::IdempotencyKey,
            ) -> Result<u32, vitrine_core::ports::RepositoryError> {
                self.store.refunded_attempts(key).await
            }

            async fn claim_for_refund(
                &self,
                payment_id: &str,
                key: &vitrine_core::checkout::IdempotencyKey,
                now: vitrine_core::cart::Timestamp,
            ) -> Result<vitrine_core::checkout::RefundClaim, vitrine_core::ports::RepositoryError>
            {
                self.store.claim_for_refund(payment_id, key, now).await
            }

            async fn record_refund_failure(
                &self,
                payment_id: &str,
                reason: &str,
            ) -> Result<(), vitrine_core::ports::RepositoryError> {
                self.store.record_refund_failure(payment_id, reason).await
            }

            async fn failed_refunds(
                &self,
            ) -> Result<
                Vec<vitrine_core::checkout::FailedRefund>,
                vitrine_core::ports::RepositoryError,
            > {
                self.store.failed_refunds().await
            }
        }
    };
}
pub(crate) use ledger_through_store;
