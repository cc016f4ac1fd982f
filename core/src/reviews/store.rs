//! The review store port: review requests by token and reviews by purchase.

use async_trait::async_trait;

use super::model::{RatingSummary, Review, ReviewRequest, ReviewRequestToken};
use crate::catalog::Sku;
use crate::owners::tables::{TablePage, TableQuery};
use crate::ports::RepositoryError;

/// Why a review was not stored.
#[derive(Debug, thiserror::Error)]
pub enum AddReviewError {
    /// The purchase (order and SKU) already has a review.
    #[error("this purchase has already been reviewed")]
    AlreadyReviewed,
    #[error(transparent)]
    Repository(#[from] RepositoryError),
}

#[async_trait]
pub trait ReviewStore: Send + Sync {
    /// Stores a request; a token already stored is replaced.
    async fn save_request(&self, request: &ReviewRequest) -> Result<(), RepositoryError>;

    async fn request(
        &self,
        token: &ReviewRequestToken,
    ) -> Result<Option<ReviewRequest>, RepositoryError>;

    /// Stores a review; one per purchase, so a second review of the same order and SKU is
    /// `AlreadyReviewed`, even when two arrive at once.
    async fn add_review(&self, review: &Review) -> Result<(), AddReviewError>;

    /// The SKUs of `order_id` that already have a review.
    async fn reviewed_skus(&self, order_id: &str) -> Result<Vec<Sku>, RepositoryError>;

    /// The newest reviews of any of `skus` (a product's variants) that are not hidden, newest
    /// first.
    async fn reviews_for(&self, skus: &[Sku], limit: u32) -> Result<Vec<Review>, RepositoryError>;

    /// The count and star total of the reviews of any of `skus` that are not hidden.
    async fn summary_for(&self, skus: &[Sku]) -> Result<RatingSummary, RepositoryError>;

    /// The owner's table: the page `query` asks for of every review, hidden ones too, whose
    /// product name, SKU, author, title or text contains its search, newest first (ties by
    /// id, later first), with how many match in all.
    async fn review_page(&self, query: &TableQuery) -> Result<TablePage<Review>, RepositoryError>;

    /// Hides a review from the product pages or shows it again; false when no review has
    /// the id.
    async fn set_hidden(&self, id: &str, hidden: bool) -> Result<bool, RepositoryError>;

    /// Sets the owner's reply to a review, or removes it with `None`; false when no review
    /// has the id.
    async fn set_reply(&self, id: &str, reply: Option<&str>) -> Result<bool, RepositoryError>;
}
