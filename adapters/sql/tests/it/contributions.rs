//! The contribution store on both databases: the core's conformance suite, including two
//! submits of one donation form arriving at once, each test on a fresh database.

use std::sync::Arc;

use async_trait::async_trait;
use vitrine_core::checkout::{
    Contribution, ContributionStore, IdempotencyKey, RecordContributionError,
};
use vitrine_core::ports::RepositoryError;

/// A contribution store with what must outlive it (the test database).
pub struct ContributionStoreUnderTest<Guard> {
    store: Arc<dyn ContributionStore>,
    _guard: Guard,
}

#[async_trait]
impl<Guard: Send + Sync> ContributionStore for ContributionStoreUnderTest<Guard> {
    async fn record(
        &self,
        contribution: &Contribution,
    ) -> Result<Contribution, RecordContributionError> {
        self.store.record(contribution).await
    }

    async fn contribution(&self, id: &str) -> Result<Option<Contribution>, RepositoryError> {
        self.store.contribution(id).await
    }

    async fn contribution_by_key(
        &self,
        key: &IdempotencyKey,
    ) -> Result<Option<Contribution>, RepositoryError> {
        self.store.contribution_by_key(key).await
    }
}

crate::ledger::ledger_through_store!(ContributionStoreUnderTest);

mod sqlite {
    use super::ContributionStoreUnderTest;

    async fn fresh() -> ContributionStoreUnderTest<impl Send + Sync + 'static> {
        let store = crate::sqlite::fresh().await;
        ContributionStoreUnderTest {
            store: store.database.contribution_store(),
            _guard: store,
        }
    }

    vitrine_core::contribution_store_conformance!(fresh().await);
}

mod postgres {
    use super::ContributionStoreUnderTest;

    async fn fresh() -> Option<ContributionStoreUnderTest<impl Send + Sync + 'static>> {
        let store = crate::postgres::fresh().await?;
        Some(ContributionStoreUnderTest {
            store: store.database.contribution_store(),
            _guard: store,
        })
    }

    vitrine_core::contribution_store_conformance!(match fresh().await {
        Some(store) => store,
        None => return,
    });
}
