//! The review service: making a request for an order, opening it from its link, and
//! submitting one review per purchase with the rules of 000 s5 and s8.

use std::sync::Arc;

use super::model::{
    Review, ReviewRequest, ReviewRequestToken, ReviewTextError, ReviewableItem, StarRating,
};
use super::store::{AddReviewError, ReviewStore};
use super::texts;
use crate::cart::Timestamp;
use crate::catalog::Sku;
use crate::checkout::Order;
use crate::owners::tables::{TablePage, TableQuery};
use crate::ports::RepositoryError;

/// How long a review request link stays valid: 60 days (the spec does not say).
pub const REVIEW_REQUEST_LIFETIME_SECONDS: i64 = 60 * 24 * 60 * 60;

/// Why a review request cannot be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenReviewRequestError {
    #[error("no review request has this token")]
    Unknown,
    #[error("the review request has expired")]
    Expired,
    /// Every product of the order has been reviewed already.
    #[error("there are no products to review")]
    NothingToReview,
    #[error(transparent)]
    Repository(#[from] RepositoryError),
}

impl OpenReviewRequestError {
    /// The text the reviewer sees (000 s8).
    pub fn message(&self) -> &'static str {
        match self {
            Self::Unknown | Self::Repository(_) => texts::SOMETHING_WENT_WRONG,
            Self::Expired => texts::REQUEST_EXPIRED,
            Self::NothingToReview => texts::NO_PRODUCTS_TO_REVIEW,
        }
    }
}

/// Why a review was refused.
#[derive(Debug, thiserror::Error)]
pub enum SubmitReviewError {
    #[error("a star rating is required")]
    MissingRating,
    #[error("this purchase has already been reviewed")]
    AlreadyReviewed,
    #[error("the review request has expired")]
    Expired,
    #[error("no review request has this token")]
    UnknownRequest,
    #[error("the product is not part of this request")]
    NotInRequest,
    #[error(transparent)]
    Invalid(#[from] ReviewTextError),
    #[error(transparent)]
    Repository(#[from] RepositoryError),
}

impl SubmitReviewError {
    /// The text the reviewer sees (000 s5, s8); failures that are not the reviewer's doing
    /// read 'Something went wrong', with 'Try submitting your review again' beside it.
    pub fn message(&self) -> &'static str {
        match self {
            Self::MissingRating => texts::SELECT_A_STAR_RATING,
            Self::AlreadyReviewed => texts::ALREADY_REVIEWED,
            Self::Expired => texts::REQUEST_EXPIRED,
            Self::UnknownRequest | Self::NotInRequest | Self::Invalid(_) | Self::Repository(_) => {
                texts::SOMETHING_WENT_WRONG
            }
        }
    }

    /// Whether submitting again may work, so the page offers 'Try submitting your review again'.
    pub fn can_retry(&self) -> bool {
        matches!(self, Self::Repository(_) | Self::Invalid(_))
    }
}

/// What the owner does to a review.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReviewModeration {
    Approve,
    Hide,
    /// Sets the owner's reply; a blank one removes it.
    Reply(String),
}

/// Why the owner's change to a review was refused.
#[derive(Debug, thiserror::Error)]
pub enum ModerateReviewError {
    #[error("No review has this id.")]
    UnknownReview,
    #[error(transparent)]
    Invalid(#[from] ReviewTextError),
    #[error(transparent)]
    Repository(#[from] RepositoryError),
}

/// What a reviewer sends for one product.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubmittedReview {
    pub sku: Sku,
    /// 0 when no star was chosen.
    pub stars: u8,
    pub title: String,
    pub body: String,
}

#[derive(Clone)]
pub struct ReviewService {
    store: Arc<dyn ReviewStore>,
}

impl ReviewService {
    pub fn new(store: Arc<dyn ReviewStore>) -> Self {
        Self { store }
    }

    /// Makes and stores the request to review `order`'s products, one item per SKU.
    pub async fn request_for_order(
        &self,
        order: &Order,
        token: ReviewRequestToken,
        author_name: &str,
        now: Timestamp,
    ) -> Result<ReviewRequest, SubmitReviewError> {
        let author_name = author_name.trim();
        if author_name.chars().count() > Review::MAX_AUTHOR {
            return Err(ReviewTextError::AuthorTooLong.into());
        }
        let request = ReviewRequest::for_order(
            order,
            token,
            author_name,
            now,
            now.plus_seconds(REVIEW_REQUEST_LIFETIME_SECONDS),
            |_| true,
        );
        self.store.save_request(&request).await?;
        Ok(request)
    }

    /// The request behind a link, with only the products still waiting for a review.
    pub async fn open(
        &self,
        token: &ReviewRequestToken,
        now: Timestamp,
    ) -> Result<(ReviewRequest, Vec<ReviewableItem>), OpenReviewRequestError> {
        let request = self
            .store
            .request(token)
            .await?
            .ok_or(OpenReviewRequestError::Unknown)?;
        if request.is_expired(now) {
            return Err(OpenReviewRequestError::Expired);
        }
        let reviewed = self.store.reviewed_skus(&request.order_id).await?;
        let pending: Vec<ReviewableItem> = request
            .items
            .iter()
            .filter(|item| !reviewed.contains(&item.sku))
            .cloned()
            .collect();
        if pending.is_empty() {
            return Err(OpenReviewRequestError::NothingToReview);
        }
        Ok((request, pending))
    }

    /// Stores one review of one product of the request. The rating is checked first, so a
    /// reviewer who forgot the stars hears about that before anything else.
    pub async fn submit(
        &self,
        token: &ReviewRequestToken,
        review: SubmittedReview,
        id: String,
        now: Timestamp,
    ) -> Result<Review, SubmitReviewError> {
        let rating = StarRating::new(review.stars).ok_or(SubmitReviewError::MissingRating)?;
        let title = review.title.trim();
        let body = review.body.trim();
        if title.chars().count() > Review::MAX_TITLE {
            return Err(ReviewTextError::TitleTooLong.into());
        }
        if body.chars().count() > Review::MAX_BODY {
            return Err(ReviewTextError::BodyTooLong.into());
        }
        let request = self
            .store
            .request(token)
            .await?
            .ok_or(SubmitReviewError::UnknownRequest)?;
        if request.is_expired(now) {
            return Err(SubmitReviewError::Expired);
        }
        let item = request
            .items
            .iter()
            .find(|item| item.sku == review.sku)
            .ok_or(SubmitReviewError::NotInRequest)?;
        let stored = Review {
            id,
            order_id: request.order_id.clone(),
            sku: item.sku.clone(),
            product_name: item.product_name.clone(),
            rating,
            title: title.to_owned(),
            body: body.to_owned(),
            author_name: request.author_name.clone(),
            created: now,
            hidden: false,
            reply: None,
        };
        match self.store.add_review(&stored).await {
            Ok(()) => Ok(stored),
            Err(AddReviewError::AlreadyReviewed) => Err(SubmitReviewError::AlreadyReviewed),
            Err(AddReviewError::Repository(error)) => Err(error.into()),
        }
    }

    /// The owner's table of reviews, hidden ones included.
    pub async fn owner_page(
        &self,
        query: &TableQuery,
    ) -> Result<TablePage<Review>, RepositoryError> {
        self.store.review_page(query).await
    }

    /// The owner approves, hides or answers a review. Reviews are published as they arrive
    /// (as most storefronts do by default); hiding takes one off the product pages and out of
    /// their rating summary, approving puts it back. A blank reply removes the reply.
    pub async fn moderate(
        &self,
        id: &str,
        moderation: ReviewModeration,
    ) -> Result<(), ModerateReviewError> {
        let found = match moderation {
            ReviewModeration::Approve => self.store.set_hidden(id, false).await?,
            ReviewModeration::Hide => self.store.set_hidden(id, true).await?,
            ReviewModeration::Reply(text) => {
                let text = text.trim();
                if text.chars().count() > Review::MAX_REPLY {
                    return Err(ReviewTextError::ReplyTooLong.into());
                }
                let reply = (!text.is_empty()).then_some(text);
                self.store.set_reply(id, reply).await?
            }
        };
        if found {
            Ok(())
        } else {
            Err(ModerateReviewError::UnknownReview)
        }
    }

    /// The newest reviews and the rating summary of a product's variants.
    pub async fn product_reviews(
        &self,
        skus: &[Sku],
        limit: u32,
    ) -> Result<super::ProductReviews, RepositoryError> {
        let summary = self.store.summary_for(skus).await?;
        let newest = if summary.count() == 0 {
            Vec::new()
        } else {
            self.store.reviews_for(skus, limit).await?
        };
        Ok(super::ProductReviews { summary, newest })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reviews::InMemoryReviewStore;
    use crate::reviews::conformance::{fixture_order, fixture_token};

    const NOW: Timestamp = Timestamp(1_700_000_000_000);

    async fn service_with_request() -> (ReviewService, ReviewRequestToken) {
        let service = ReviewService::new(Arc::new(InMemoryReviewStore::new()));
        let token = fixture_token(1);
        service
            .request_for_order(&fixture_order("order-1"), token.clone(), "Ada", NOW)
            .await
            .unwrap();
        (service, token)
    }

    fn review(sku: &str, stars: u8) -> SubmittedReview {
        SubmittedReview {
            sku: Sku::parse(sku).unwrap(),
            stars,
            title: " Lovely ".into(),
            body: "Holds tea well.".into(),
        }
    }

    #[tokio::test]
    async fn a_review_without_stars_asks_for_a_rating() {
        let (service, token) = service_with_request().await;
        let error = service
            .submit(&token, review("MUG-1", 0), "r1".into(), NOW)
            .await
            .unwrap_err();
        assert_eq!(error.message(), "Please select a star rating");
    }

    #[tokio::test]
    async fn one_review_per_purchase() {
        let (service, token) = service_with_request().await;
        let stored = service
            .submit(&token, review("MUG-1", 4), "r1".into(), NOW)
            .await
            .unwrap();
        assert_eq!(stored.title, "Lovely");
        assert_eq!(stored.author_name, "Ada");
        let error = service
            .submit(&token, review("MUG-1", 5), "r2".into(), NOW)
            .await
            .unwrap_err();
        assert_eq!(error.message(), "You have already reviewed this purchase");
    }

    #[tokio::test]
    async fn an_expired_request_says_so() {
        let (service, token) = service_with_request().await;
        let later = NOW.plus_seconds(REVIEW_REQUEST_LIFETIME_SECONDS);
        let error = service.open(&token, later).await.unwrap_err();
        assert_eq!(error.message(), "Your review request has expired");
        let error = service
            .submit(&token, review("MUG-1", 4), "r1".into(), later)
            .await
            .unwrap_err();
        assert_eq!(error.message(), "Your review request has expired");
    }

    #[tokio::test]
    async fn a_fully_reviewed_order_has_nothing_left() {
        let (service, token) = service_with_request().await;
        let (_, pending) = service.open(&token, NOW).await.unwrap();
        assert_eq!(pending.len(), 2);
        for (n, item) in pending.iter().enumerate() {
            service
                .submit(&token, review(item.sku.as_str(), 5), format!("r{n}"), NOW)
                .await
                .unwrap();
        }
        let error = service.open(&token, NOW).await.unwrap_err();
        assert_eq!(error.message(), "There are no products to review");
    }

    #[tokio::test]
    async fn a_product_not_in_the_request_is_refused() {
        let (service, token) = service_with_request().await;
        let error = service
            .submit(&token, review("OTHER", 3), "r1".into(), NOW)
            .await
            .unwrap_err();
        assert!(matches!(error, SubmitReviewError::NotInRequest));
        assert_eq!(error.message(), "Something went wrong");
    }

    #[tokio::test]
    async fn the_owner_hides_approves_and_answers_a_review() {
        let (service, token) = service_with_request().await;
        let stored = service
            .submit(&token, review("MUG-1", 5), "r1".into(), NOW)
            .await
            .unwrap();
        let skus = [stored.sku.clone()];
        service
            .moderate("r1", ReviewModeration::Hide)
            .await
            .unwrap();
        assert_eq!(
            service
                .product_reviews(&skus, 5)
                .await
                .unwrap()
                .summary
                .count(),
            0
        );
        service
            .moderate("r1", ReviewModeration::Approve)
            .await
            .unwrap();
        service
            .moderate("r1", ReviewModeration::Reply("  Thank you!  ".into()))
            .await
            .unwrap();
        let shown = service.product_reviews(&skus, 5).await.unwrap();
        assert_eq!(shown.newest[0].reply.as_deref(), Some("Thank you!"));
        service
            .moderate("r1", ReviewModeration::Reply("   ".into()))
            .await
            .unwrap();
        let shown = service.product_reviews(&skus, 5).await.unwrap();
        assert_eq!(
            shown.newest[0].reply, None,
            "a blank reply removes the reply"
        );
        assert!(matches!(
            service
                .moderate(
                    "r1",
                    ReviewModeration::Reply("x".repeat(Review::MAX_REPLY + 1))
                )
                .await,
            Err(ModerateReviewError::Invalid(ReviewTextError::ReplyTooLong))
        ));
        assert!(matches!(
            service.moderate("nope", ReviewModeration::Hide).await,
            Err(ModerateReviewError::UnknownReview)
        ));
    }
}
