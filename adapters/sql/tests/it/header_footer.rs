//! The header and footer store on both databases: the core's conformance suite, and the
//! revision a replacement moves on so other servers' page caches render again.

use std::sync::Arc;

use async_trait::async_trait;
use vitrine_core::header_footer::{HeaderFooter, HeaderFooterStore};
use vitrine_core::ports::{RepositoryError, SiteRepository};

/// A header and footer store with what must outlive it (the test database).
pub struct HeaderFooterUnderTest<Guard> {
    store: Arc<dyn HeaderFooterStore>,
    repository: Arc<dyn SiteRepository>,
    _guard: Guard,
}

#[async_trait]
impl<Guard: Send + Sync> HeaderFooterStore for HeaderFooterUnderTest<Guard> {
    async fn header_footer(&self) -> Result<Option<HeaderFooter>, RepositoryError> {
        self.store.header_footer().await
    }

    async fn replace_header_footer(&self, value: &HeaderFooter) -> Result<(), RepositoryError> {
        self.store.replace_header_footer(value).await
    }
}

async fn a_replacement_moves_the_site_revision_on<Guard: Send + Sync>(
    under_test: HeaderFooterUnderTest<Guard>,
) {
    let before = under_test.repository.revision().await.unwrap();
    under_test
        .replace_header_footer(&vitrine_core::header_footer::conformance::fixture(3))
        .await
        .unwrap();
    assert!(under_test.repository.revision().await.unwrap() > before);
}

mod sqlite {
    use super::HeaderFooterUnderTest;

    async fn fresh() -> HeaderFooterUnderTest<impl Send + Sync> {
        let store = crate::sqlite::fresh().await;
        HeaderFooterUnderTest {
            store: store.database.header_footer_store(),
            repository: store.database.repository(),
            _guard: store,
        }
    }

    vitrine_core::header_footer_store_conformance!(fresh().await);

    #[tokio::test]
    async fn a_replacement_moves_the_site_revision_on() {
        super::a_replacement_moves_the_site_revision_on(fresh().await).await;
    }
}

mod postgres {
    use super::HeaderFooterUnderTest;

    async fn fresh() -> Option<HeaderFooterUnderTest<impl Send + Sync>> {
        let store = crate::postgres::fresh().await?;
        Some(HeaderFooterUnderTest {
            store: store.database.header_footer_store(),
            repository: store.database.repository(),
            _guard: store,
        })
    }

    vitrine_core::header_footer_store_conformance!(match fresh().await {
        Some(store) => store,
        None => return,
    });

    #[tokio::test]
    async fn a_replacement_moves_the_site_revision_on() {
        if let Some(store) = fresh().await {
            super::a_replacement_moves_the_site_revision_on(store).await;
        }
    }
}
