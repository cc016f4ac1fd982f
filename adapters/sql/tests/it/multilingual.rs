//! The multilingual store on both databases: the core's conformance suite, and the revision
//! a saved choice moves on so other servers' page caches render again.

use std::sync::Arc;

use async_trait::async_trait;
use vitrine_core::languages::{MultilingualChoice, MultilingualStore};
use vitrine_core::ports::{RepositoryError, SiteRepository};

/// A multilingual store with what must outlive it (the test database).
pub struct MultilingualUnderTest<Guard> {
    store: Arc<dyn MultilingualStore>,
    repository: Arc<dyn SiteRepository>,
    _guard: Guard,
}

#[async_trait]
impl<Guard: Send + Sync> MultilingualStore for MultilingualUnderTest<Guard> {
    async fn choice(&self) -> Result<Option<MultilingualChoice>, RepositoryError> {
        self.store.choice().await
    }

    async fn save_choice(&self, choice: &MultilingualChoice) -> Result<(), RepositoryError> {
        self.store.save_choice(choice).await
    }
}

async fn a_saved_choice_moves_the_site_revision_on<Guard: Send + Sync>(
    under_test: MultilingualUnderTest<Guard>,
) {
    let before = under_test.repository.revision().await.unwrap();
    under_test
        .save_choice(&vitrine_core::languages::conformance::choice(
            &["fr-FR"],
            false,
        ))
        .await
        .unwrap();
    assert!(under_test.repository.revision().await.unwrap() > before);
}

mod sqlite {
    use super::MultilingualUnderTest;

    async fn fresh() -> MultilingualUnderTest<impl Send + Sync> {
        let store = crate::sqlite::fresh().await;
        MultilingualUnderTest {
            store: store.database.multilingual_store(),
            repository: store.database.repository(),
            _guard: store,
        }
    }

    vitrine_core::multilingual_store_conformance!(fresh().await);

    #[tokio::test]
    async fn a_saved_choice_moves_the_site_revision_on() {
        super::a_saved_choice_moves_the_site_revision_on(fresh().await).await;
    }
}

mod postgres {
    use super::MultilingualUnderTest;

    async fn fresh() -> Option<MultilingualUnderTest<impl Send + Sync>> {
        let store = crate::postgres::fresh().await?;
        Some(MultilingualUnderTest {
            store: store.database.multilingual_store(),
            repository: store.database.repository(),
            _guard: store,
        })
    }

    vitrine_core::multilingual_store_conformance!(match fresh().await {
        Some(store) => store,
        None => return,
    });

    #[tokio::test]
    async fn a_saved_choice_moves_the_site_revision_on() {
        if let Some(store) = fresh().await {
            super::a_saved_choice_moves_the_site_revision_on(store).await;
        }
    }
}
