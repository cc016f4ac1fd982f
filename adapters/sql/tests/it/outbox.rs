//! The delivery outbox and newsletter subscribers on both databases: the core's conformance
//! suite, each test on a fresh database, through one store that is key store, submission
//! store, outbox and subscriber list at once (as the SQL form store is).

use std::sync::Arc;

use async_trait::async_trait;
use vitrine_core::forms::{
    DeliveryKind, DeliveryOutbox, DeliveryRecord, DueDelivery, FormStore, Mail, NewSubmission,
    NewsletterSubscriptions, SaveOutcome, StoredSubmission, SubmissionKey, SubmissionKeyStore,
    SubmissionStore, Subscriber, TokenOutcome,
};
use vitrine_core::owners::tables::{TablePage, TableQuery};
use vitrine_core::ports::RepositoryError;

pub struct OutboxUnderTest<Guard> {
    forms: Arc<dyn FormStore>,
    outbox: Arc<dyn DeliveryOutbox>,
    subscriptions: Arc<dyn NewsletterSubscriptions>,
    _guard: Guard,
}

#[async_trait]
impl<Guard: Send + Sync> SubmissionKeyStore for OutboxUnderTest<Guard> {
    async fn issue(&self, key: &SubmissionKey, expires_at: i64) -> Result<(), RepositoryError> {
        self.forms.issue(key, expires_at).await
    }

    async fn is_live(&self, key: &SubmissionKey, now: i64) -> Result<bool, RepositoryError> {
        self.forms.is_live(key, now).await
    }
}

#[async_trait]
impl<Guard: Send + Sync> SubmissionStore for OutboxUnderTest<Guard> {
    async fn save(
        &self,
        key: &SubmissionKey,
        fingerprint: &str,
        submission: &NewSubmission,
        now: i64,
    ) -> Result<SaveOutcome, RepositoryError> {
        self.forms.save(key, fingerprint, submission, now).await
    }

    async fn recall(
        &self,
        key: &SubmissionKey,
        fingerprint: &str,
    ) -> Result<SaveOutcome, RepositoryError> {
        self.forms.recall(key, fingerprint).await
    }

    async fn list(&self) -> Result<Vec<StoredSubmission>, RepositoryError> {
        self.forms.list().await
    }

    async fn page(
        &self,
        query: &TableQuery,
    ) -> Result<TablePage<StoredSubmission>, RepositoryError> {
        self.forms.page(query).await
    }
}

#[async_trait]
impl<Guard: Send + Sync> DeliveryOutbox for OutboxUnderTest<Guard> {
    async fn claim_due(
        &self,
        now_ms: i64,
        lease_ms: i64,
        limit: u32,
    ) -> Result<Vec<DueDelivery>, RepositoryError> {
        self.outbox.claim_due(now_ms, lease_ms, limit).await
    }
    async fn mark_delivered(&self, id: i64, now_ms: i64) -> Result<(), RepositoryError> {
        self.outbox.mark_delivered(id, now_ms).await
    }
    async fn schedule_retry(
        &self,
        id: i64,
        attempts: u32,
        next_attempt_ms: i64,
        error: &str,
    ) -> Result<(), RepositoryError> {
        self.outbox
            .schedule_retry(id, attempts, next_attempt_ms, error)
            .await
    }
    async fn give_up(&self, id: i64, attempts: u32, error: &str) -> Result<(), RepositoryError> {
        self.outbox.give_up(id, attempts, error).await
    }
    async fn deliveries(&self) -> Result<Vec<DeliveryRecord>, RepositoryError> {
        self.outbox.deliveries().await
    }
    async fn enqueue_mail(&self, mail: &Mail, now_ms: i64) -> Result<(), RepositoryError> {
        self.outbox.enqueue_mail(mail, now_ms).await
    }
    async fn mail_of(&self, id: i64) -> Result<Option<Mail>, RepositoryError> {
        self.outbox.mail_of(id).await
    }

    async fn withdraw_mails_to(&self, email: &str) -> Result<u32, RepositoryError> {
        self.outbox.withdraw_mails_to(email).await
    }
}

#[async_trait]
impl<Guard: Send + Sync> NewsletterSubscriptions for OutboxUnderTest<Guard> {
    async fn subscriber_by_token(
        &self,
        token: &str,
    ) -> Result<Option<Subscriber>, RepositoryError> {
        self.subscriptions.subscriber_by_token(token).await
    }
    async fn subscriptions_of(&self, email: &str) -> Result<Vec<Subscriber>, RepositoryError> {
        self.subscriptions.subscriptions_of(email).await
    }
    async fn subscriber_page(
        &self,
        query: &TableQuery,
    ) -> Result<TablePage<Subscriber>, RepositoryError> {
        self.subscriptions.subscriber_page(query).await
    }

    async fn confirm(
        &self,
        confirm_token: &str,
        deliveries: &[DeliveryKind],
        now: i64,
    ) -> Result<TokenOutcome, RepositoryError> {
        self.subscriptions
            .confirm(confirm_token, deliveries, now)
            .await
    }
    async fn unsubscribe(
        &self,
        unsubscribe_token: &str,
        now: i64,
    ) -> Result<TokenOutcome, RepositoryError> {
        self.subscriptions.unsubscribe(unsubscribe_token, now).await
    }
    async fn erase_subscriptions_of(&self, email: &str) -> Result<u32, RepositoryError> {
        self.subscriptions.erase_subscriptions_of(email).await
    }
}

mod sqlite {
    use super::OutboxUnderTest;

    async fn fresh() -> OutboxUnderTest<impl Send + Sync> {
        let store = crate::sqlite::fresh().await;
        {
            let database = &store.database;
            let (forms, outbox, subscriptions) = (
                database.form_store(),
                database.delivery_outbox(),
                database.newsletter_subscriptions(),
            );
            OutboxUnderTest {
                forms,
                outbox,
                subscriptions,
                _guard: store,
            }
        }
    }

    vitrine_core::delivery_store_conformance!(fresh().await);
}

mod postgres {
    use super::OutboxUnderTest;

    async fn fresh() -> Option<OutboxUnderTest<impl Send + Sync>> {
        let store = crate::postgres::fresh().await?;
        Some({
            let database = &store.database;
            let (forms, outbox, subscriptions) = (
                database.form_store(),
                database.delivery_outbox(),
                database.newsletter_subscriptions(),
            );
            OutboxUnderTest {
                forms,
                outbox,
                subscriptions,
                _guard: store,
            }
        })
    }

    vitrine_core::delivery_store_conformance!(match fresh().await {
        Some(store) => store,
        None => return,
    });
}
