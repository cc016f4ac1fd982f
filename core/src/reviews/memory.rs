//! The in-memory review store, for tests and the core's own checks.

use std::collections::BTreeMap;
use std::sync::Mutex;

use async_trait::async_trait;

use super::model::{RatingSummary, Review, ReviewRequest, ReviewRequestToken};
use super::store::{AddReviewError, ReviewStore};
use crate::catalog::Sku;
use crate::owners::tables::{TablePage, TableQuery};
use crate::ports::RepositoryError;

#[derive(Default)]
pub struct InMemoryReviewStore {
    requests: Mutex<BTreeMap<ReviewRequestToken, ReviewRequest>>,
    /// In the order they were added.
    reviews: Mutex<Vec<Review>>,
}

impl InMemoryReviewStore {
    pub fn new() -> Self {
        Self::default()
    }
}

fn poisoned() -> RepositoryError {
    RepositoryError::Unavailable("the in-memory review store's lock was poisoned".into())
}

#[async_trait]
impl ReviewStore for InMemoryReviewStore {
    async fn save_request(&self, request: &ReviewRequest) -> Result<(), RepositoryError> {
        self.requests
            .lock()
            .map_err(|_| poisoned())?
            .insert(request.token.clone(), request.clone());
        Ok(())
    }

    async fn request(
        &self,
        token: &ReviewRequestToken,
    ) -> Result<Option<ReviewRequest>, RepositoryError> {
        Ok(self
            .requests
            .lock()
            .map_err(|_| poisoned())?
            .get(token)
            .cloned())
    }

    async fn add_review(&self, review: &Review) -> Result<(), AddReviewError> {
        let mut reviews = self.reviews.lock().map_err(|_| poisoned())?;
        if reviews
            .iter()
            .any(|other| other.order_id == review.order_id && other.sku == review.sku)
        {
            return Err(AddReviewError::AlreadyReviewed);
        }
        reviews.push(review.clone());
        Ok(())
    }

    async fn reviewed_skus(&self, order_id: &str) -> Result<Vec<Sku>, RepositoryError> {
        Ok(self
            .reviews
            .lock()
            .map_err(|_| poisoned())?
            .iter()
            .filter(|review| review.order_id == order_id)
            .map(|review| review.sku.clone())
            .collect())
    }

    async fn reviews_for(&self, skus: &[Sku], limit: u32) -> Result<Vec<Review>, RepositoryError> {
        let reviews = self.reviews.lock().map_err(|_| poisoned())?;
        let mut found: Vec<Review> = reviews
            .iter()
            .filter(|review| !review.hidden && skus.contains(&review.sku))
            .cloned()
            .collect();
        // Newest first; among equal times, the later-added first, as SQL orders by id.
        found.reverse();
        found.sort_by_key(|review| std::cmp::Reverse(review.created));
        found.truncate(limit as usize);
        Ok(found)
    }

    async fn summary_for(&self, skus: &[Sku]) -> Result<RatingSummary, RepositoryError> {
        let reviews = self.reviews.lock().map_err(|_| poisoned())?;
        Ok(RatingSummary::of(
            reviews
                .iter()
                .filter(|review| !review.hidden && skus.contains(&review.sku))
                .map(|review| &review.rating),
        ))
    }

    async fn review_page(&self, query: &TableQuery) -> Result<TablePage<Review>, RepositoryError> {
        let reviews = self.reviews.lock().map_err(|_| poisoned())?;
        let mut matching: Vec<Review> = reviews
            .iter()
            .filter(|review| {
                query.matches(&[
                    &review.product_name,
                    review.sku.as_str(),
                    &review.author_name,
                    &review.title,
                    &review.body,
                ])
            })
            .cloned()
            .collect();
        matching.sort_by(|a, b| (b.created, &b.id).cmp(&(a.created, &a.id)));
        Ok(query.cut(matching))
    }

    async fn set_hidden(&self, id: &str, hidden: bool) -> Result<bool, RepositoryError> {
        let mut reviews = self.reviews.lock().map_err(|_| poisoned())?;
        Ok(reviews
            .iter_mut()
            .find(|review| review.id == id)
            .map(|review| review.hidden = hidden)
            .is_some())
    }

    async fn set_reply(&self, id: &str, reply: Option<&str>) -> Result<bool, RepositoryError> {
        let mut reviews = self.reviews.lock().map_err(|_| poisoned())?;
        Ok(reviews
            .iter_mut()
            .find(|review| review.id == id)
            .map(|review| review.reply = reply.map(str::to_owned))
            .is_some())
    }
}
