//! The review store on both databases: the core's conformance suite, including two reviews
//! of one purchase arriving at once, each test on a fresh database.

use std::sync::Arc;

use async_trait::async_trait;
use vitrine_core::catalog::Sku;
use vitrine_core::owners::tables::{TablePage, TableQuery};
use vitrine_core::ports::RepositoryError;
use vitrine_core::reviews::{
    AddReviewError, RatingSummary, Review, ReviewRequest, ReviewRequestToken, ReviewStore,
};

/// A review store with what must outlive it (the test database).
pub struct ReviewStoreUnderTest<Guard> {
    store: Arc<dyn ReviewStore>,
    _guard: Guard,
}

#[async_trait]
impl<Guard: Send + Sync> ReviewStore for ReviewStoreUnderTest<Guard> {
    async fn save_request(&self, request: &ReviewRequest) -> Result<(), RepositoryError> {
        self.store.save_request(request).await
    }

    async fn request(
        &self,
        token: &ReviewRequestToken,
    ) -> Result<Option<ReviewRequest>, RepositoryError> {
        self.store.request(token).await
    }

    async fn add_review(&self, review: &Review) -> Result<(), AddReviewError> {
        self.store.add_review(review).await
    }

    async fn reviewed_skus(&self, order_id: &str) -> Result<Vec<Sku>, RepositoryError> {
        self.store.reviewed_skus(order_id).await
    }

    async fn reviews_for(&self, skus: &[Sku], limit: u32) -> Result<Vec<Review>, RepositoryError> {
        self.store.reviews_for(skus, limit).await
    }

    async fn summary_for(&self, skus: &[Sku]) -> Result<RatingSummary, RepositoryError> {
        self.store.summary_for(skus).await
    }

    async fn review_page(&self, query: &TableQuery) -> Result<TablePage<Review>, RepositoryError> {
        self.store.review_page(query).await
    }

    async fn set_hidden(&self, id: &str, hidden: bool) -> Result<bool, RepositoryError> {
        self.store.set_hidden(id, hidden).await
    }

    async fn set_reply(&self, id: &str, reply: Option<&str>) -> Result<bool, RepositoryError> {
        self.store.set_reply(id, reply).await
    }
}

mod sqlite {
    use super::ReviewStoreUnderTest;

    async fn fresh() -> ReviewStoreUnderTest<impl Send + Sync> {
        let store = crate::sqlite::fresh().await;
        ReviewStoreUnderTest {
            store: store.database.review_store(),
            _guard: store,
        }
    }

    vitrine_core::review_store_conformance!(fresh().await);
}

mod postgres {
    use super::ReviewStoreUnderTest;

    async fn fresh() -> Option<ReviewStoreUnderTest<impl Send + Sync>> {
        let store = crate::postgres::fresh().await?;
        Some(ReviewStoreUnderTest {
            store: store.database.review_store(),
            _guard: store,
        })
    }

    vitrine_core::review_store_conformance!(match fresh().await {
        Some(store) => store,
        None => return,
    });
}
