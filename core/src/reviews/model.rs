//! Review values: star ratings, request tokens, requests, reviews and rating summaries.

use serde::{Deserialize, Serialize};

use crate::cart::Timestamp;
use crate::catalog::Sku;
use crate::checkout::{Order, OrderLine};

/// One to five stars. A review without one is refused ('Please select a star rating').
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct StarRating(u8);

impl StarRating {
    pub const MAX: u8 = 5;

    /// A rating of 1 to 5; 0 (no star chosen) and anything above 5 is none.
    pub fn new(stars: u8) -> Option<Self> {
        (1..=Self::MAX).contains(&stars).then_some(Self(stars))
    }

    pub fn stars(self) -> u8 {
        self.0
    }
}

impl TryFrom<u8> for StarRating {
    type Error = &'static str;
    fn try_from(stars: u8) -> Result<Self, Self::Error> {
        Self::new(stars).ok_or("a star rating is 1 to 5")
    }
}

impl From<StarRating> for u8 {
    fn from(rating: StarRating) -> u8 {
        rating.0
    }
}

/// Why a review request token or a review text was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReviewTextError {
    #[error("a review request token is 16 to 64 letters, digits, '-' or '_'")]
    Token,
    #[error("a review title has at most {max} characters", max = Review::MAX_TITLE)]
    TitleTooLong,
    #[error("a review has at most {max} characters", max = Review::MAX_BODY)]
    BodyTooLong,
    #[error("a reviewer name has at most {max} characters", max = Review::MAX_AUTHOR)]
    AuthorTooLong,
    #[error("A reply has at most {max} characters.", max = Review::MAX_REPLY)]
    ReplyTooLong,
}

/// The secret in a review request link; made by the caller (the core has no randomness).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ReviewRequestToken(String);

impl ReviewRequestToken {
    pub fn parse(value: impl Into<String>) -> Result<Self, ReviewTextError> {
        let value = value.into();
        let shape_ok = (16..=64).contains(&value.len())
            && value
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        shape_ok
            .then_some(Self(value))
            .ok_or(ReviewTextError::Token)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A product of an order that the buyer may review.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReviewableItem {
    pub sku: Sku,
    pub product_name: String,
}

/// A request to review the products of one order, valid until `expires_at`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewRequest {
    pub token: ReviewRequestToken,
    pub order_id: String,
    /// The name reviews are shown under (the buyer's first name, or empty for anonymous).
    pub author_name: String,
    pub items: Vec<ReviewableItem>,
    pub created: Timestamp,
    pub expires_at: Timestamp,
}

impl ReviewRequest {
    /// The request to review the products of `order`'s lines that `reviewable` accepts, one
    /// item per SKU in the order of the lines.
    pub fn for_order(
        order: &Order,
        token: ReviewRequestToken,
        author_name: impl Into<String>,
        created: Timestamp,
        expires_at: Timestamp,
        reviewable: impl Fn(&OrderLine) -> bool,
    ) -> Self {
        let mut items: Vec<ReviewableItem> = Vec::new();
        for line in order.lines.iter().filter(|line| reviewable(line)) {
            if !items.iter().any(|item| item.sku == line.sku) {
                items.push(ReviewableItem {
                    sku: line.sku.clone(),
                    product_name: line.product_name.clone(),
                });
            }
        }
        Self {
            token,
            order_id: order.id.clone(),
            author_name: author_name.into(),
            items,
            created,
            expires_at,
        }
    }

    pub fn is_expired(&self, now: Timestamp) -> bool {
        now >= self.expires_at
    }
}

/// One review of one purchase: the order and SKU identify the purchase.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Review {
    /// Chosen by the caller.
    pub id: String,
    pub order_id: String,
    pub sku: Sku,
    pub product_name: String,
    pub rating: StarRating,
    pub title: String,
    pub body: String,
    pub author_name: String,
    pub created: Timestamp,
    /// Hidden by the owner: kept, but off the product pages and out of their summary.
    pub hidden: bool,
    /// The owner's public answer, shown under the review.
    pub reply: Option<String>,
}

impl Review {
    pub const MAX_TITLE: usize = 120;
    pub const MAX_BODY: usize = 5_000;
    pub const MAX_AUTHOR: usize = 80;
    pub const MAX_REPLY: usize = 2_000;
}

/// What a product page shows of its reviews: the newest few and the summary of all.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ProductReviews {
    pub summary: RatingSummary,
    pub newest: Vec<Review>,
}

/// How many reviews a product has and their star total; the average is derived.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RatingSummary {
    count: u32,
    total_stars: u32,
}

impl RatingSummary {
    pub fn new(count: u32, total_stars: u32) -> Self {
        Self { count, total_stars }
    }

    pub fn of<'a>(ratings: impl IntoIterator<Item = &'a StarRating>) -> Self {
        ratings
            .into_iter()
            .fold(Self::default(), |summary, rating| Self {
                count: summary.count + 1,
                total_stars: summary.total_stars + u32::from(rating.stars()),
            })
    }

    pub fn count(&self) -> u32 {
        self.count
    }

    pub fn total_stars(&self) -> u32 {
        self.total_stars
    }

    /// The average in tenths of a star, rounded half up (4.25 reads 4.3); 0 without reviews.
    pub fn average_tenths(&self) -> u32 {
        if self.count == 0 {
            return 0;
        }
        (self.total_stars * 20 + self.count) / (self.count * 2)
    }

    /// The average with one decimal, as pages and structured data show it: "4.3".
    pub fn average_text(&self) -> String {
        let tenths = self.average_tenths();
        format!("{}.{}", tenths / 10, tenths % 10)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratings_are_one_to_five_stars() {
        assert_eq!(StarRating::new(0), None);
        assert_eq!(StarRating::new(6), None);
        assert_eq!(StarRating::new(5).map(StarRating::stars), Some(5));
    }

    #[test]
    fn averages_round_half_up_to_tenths() {
        let ratings: Vec<StarRating> = [5, 4, 4, 4]
            .iter()
            .map(|s| StarRating::new(*s).unwrap())
            .collect();
        let summary = RatingSummary::of(&ratings);
        assert_eq!(summary.count(), 4);
        assert_eq!(summary.average_text(), "4.3");
        assert_eq!(RatingSummary::new(3, 10).average_text(), "3.3");
        assert_eq!(RatingSummary::new(3, 11).average_text(), "3.7");
        assert_eq!(RatingSummary::default().average_text(), "0.0");
    }

    #[test]
    fn tokens_have_a_safe_shape() {
        assert!(ReviewRequestToken::parse("0123456789abcdef").is_ok());
        assert!(ReviewRequestToken::parse("short").is_err());
        assert!(ReviewRequestToken::parse("0123456789abcdef/../").is_err());
    }
}
