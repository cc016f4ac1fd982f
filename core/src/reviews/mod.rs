//! Product reviews: review requests sent after an order, one review per purchase with a
//! required star rating, and the rating summary product pages show (000 s2, s5, s8).

mod memory;
mod model;
mod service;
mod store;
pub mod texts;
pub mod vectors;

#[cfg(any(test, feature = "test-support"))]
pub mod conformance;

pub use memory::InMemoryReviewStore;
pub use model::{
    ProductReviews, RatingSummary, Review, ReviewRequest, ReviewRequestToken, ReviewTextError,
    ReviewableItem, StarRating,
};
pub use service::{
    ModerateReviewError, OpenReviewRequestError, REVIEW_REQUEST_LIFETIME_SECONDS, ReviewModeration,
    ReviewService, SubmitReviewError, SubmittedReview,
};
pub use store::{AddReviewError, ReviewStore};

/// Where a review request's link leads: the reviews-request page (page type 209).
pub const REVIEW_REQUEST_PATH: &str = "/commerce/review-request";

#[cfg(test)]
mod tests {
    use super::InMemoryReviewStore;

    crate::review_store_conformance!(InMemoryReviewStore::new());
}
