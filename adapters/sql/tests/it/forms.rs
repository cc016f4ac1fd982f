//! The form store on both databases: the core's conformance suite, each test on a fresh
//! database.

use std::sync::Arc;

use async_trait::async_trait;
use vitrine_core::forms::{
    FormStore, NewSubmission, SaveOutcome, StoredSubmission, SubmissionKey, SubmissionKeyStore,
    SubmissionStore,
};
use vitrine_core::owners::tables::{TablePage, TableQuery};
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

    async fn is_live(&self, key: &SubmissionKey, now: i64) -> Result<bool, RepositoryError> {
        self.store.is_live(key, now).await
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

    async fn recall(
        &self,
        key: &SubmissionKey,
        fingerprint: &str,
    ) -> Result<SaveOutcome, RepositoryError> {
        self.store.recall(key, fingerprint).await
    }

    async fn list(&self) -> Result<Vec<StoredSubmission>, RepositoryError> {
        self.store.list().await
    }

    async fn page(
        &self,
        query: &TableQuery,
    ) -> Result<TablePage<StoredSubmission>, RepositoryError> {
        self.store.page(query).await
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

    mod key_store {
        vitrine_core::key_store_conformance!(super::fresh().await);
    }

    mod per_submission {
        use super::FormStoreUnderTest;

        vitrine_core::form_store_conformance!({
            let store = crate::sqlite::fresh().await;
            FormStoreUnderTest {
                store: store
                    .database
                    .form_store_with(vitrine_sql::SubmissionWrites::PerSubmission),
                _guard: store,
            }
        });
    }
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

    mod key_store {
        vitrine_core::key_store_conformance!(match super::fresh().await {
            Some(store) => store,
            None => return,
        });
    }

    mod per_submission {
        use super::FormStoreUnderTest;

        vitrine_core::form_store_conformance!(match crate::postgres::fresh().await {
            Some(store) => FormStoreUnderTest {
                store: store
                    .database
                    .form_store_with(vitrine_sql::SubmissionWrites::PerSubmission),
                _guard: store,
            },
            None => return,
        });
    }
}
