//! The form store on both databases: the core's conformance suite, each test on a fresh
//! database.

use std::sync::Arc;

use async_trait::async_trait;
use vitrine_core::forms::{
    FormStore, NewSubmission, SaveOutcome, StoredSubmission, SubmissionKey, SubmissionKeyStore,
    SubmissionStore,
};
use vitrine_core::ports::RepositoryError;

/// A form store with what must outlive it (the test database).
pub struct FormStoreUnderTest<Guard> {
    store: Arc<dyn FormStore>,
    _guard: Guard,
}

#[async_trait]
impl<Guard: Send + Sync> SubmissionKeyStore for FormStoreUnderTest<Guard> {
    async fn issue(&self, key: &SubmissionKey, expires_at: i64) -> Result<(), RepositoryError> {
        self.store.issue(key, expires_at).await
    }
}

#[async_trait]
impl<Guard: Send + Sync> SubmissionStore for FormStoreUnderTest<Guard> {
    async fn save(
        &self,
        key: &SubmissionKey,
        fingerprint: &str,
        submission: &NewSubmission,
        now: i64,
    ) -> Result<SaveOutcome, RepositoryError> {
        self.store.save(key, fingerprint, submission, now).await
    }

    async fn list(&self) -> Result<Vec<StoredSubmission>, RepositoryError> {
        self.store.list().await
    }
}

mod sqlite {
    use super::FormStoreUnderTest;

    async fn fresh() -> FormStoreUnderTest<impl Send + Sync> {
        let store = crate::sqlite::fresh().await;
        FormStoreUnderTest {
            store: store.database.form_store(),
            _guard: store,
        }
    }

    vitrine_core::form_store_conformance!(fresh().await);
}

mod postgres {
    use super::FormStoreUnderTest;

    async fn fresh() -> Option<FormStoreUnderTest<impl Send + Sync>> {
        let store = crate::postgres::fresh().await?;
        Some(FormStoreUnderTest {
            store: store.database.form_store(),
            _guard: store,
        })
    }

    vitrine_core::form_store_conformance!(match fresh().await {
        Some(store) => store,
        None => return,
    });
}
