//! The reviews section of a product page: the average with its count, then the newest
//! reviews, each with its stars, title, text, reviewer and the owner's reply.

use askama::Template;
use vitrine_core::reviews::ProductReviews;

use super::dates::{display_date, instant_iso};

/// How many reviews a product page lists; the average covers all of them.
pub(crate) const REVIEWS_SHOWN: u32 = 5;

#[derive(Debug, Template)]
#[template(path = "partials/reviews.html", whitespace = "minimize")]
pub(crate) struct ReviewsSection {
    /// "4.3", when there are reviews.
    pub(crate) average: Option<String>,
    pub(crate) count_label: String,
    pub(crate) reviews: Vec<ReviewView>,
}

#[derive(Debug)]
pub(crate) struct ReviewView {
    /// "4 out of 5 stars".
    pub(crate) stars_label: String,
    /// "★★★★☆", hidden from screen readers, which read the label.
    pub(crate) stars: String,
    pub(crate) title: String,
    pub(crate) body: String,
    pub(crate) author: String,
    /// When the review was written: the exact instant (for the browser's relative time) and
    /// the date as read without JavaScript.
    pub(crate) date: Option<(String, String)>,
    /// The owner's public answer, if any.
    pub(crate) reply: Option<String>,
}

impl askama::filters::HtmlSafe for ReviewsSection {}

impl ReviewsSection {
    pub(crate) fn new(reviews: &ProductReviews) -> Self {
        let count = reviews.summary.count();
        Self {
            average: (count > 0).then(|| reviews.summary.average_text()),
            count_label: match count {
                1 => "1 review".to_owned(),
                n => format!("{n} reviews"),
            },
            reviews: reviews
                .newest
                .iter()
                .map(|review| {
                    let stars = review.rating.stars();
                    ReviewView {
                        stars_label: format!("{stars} out of 5 stars"),
                        stars: "★".repeat(usize::from(stars)) + &"☆".repeat(usize::from(5 - stars)),
                        title: review.title.clone(),
                        body: review.body.clone(),
                        author: if review.author_name.is_empty() {
                            "A verified buyer".to_owned()
                        } else {
                            review.author_name.clone()
                        },
                        date: display_date(review.created.millis()).and_then(|date| {
                            Some((instant_iso(review.created.millis())?, date.text))
                        }),
                        reply: review.reply.clone(),
                    }
                })
                .collect(),
        }
    }
}
