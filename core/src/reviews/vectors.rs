//! The review texts as JSON, written to `web/src/generated/review-texts.json`, so the web
//! client's copies are checked against the core's rather than re-typed unchecked.

use serde_json::{Value, json};

use super::texts::*;

pub fn review_texts() -> Value {
    json!({
        "selectAStarRating": SELECT_A_STAR_RATING,
        "alreadyReviewed": ALREADY_REVIEWED,
        "requestExpired": REQUEST_EXPIRED,
        "noProductsToReview": NO_PRODUCTS_TO_REVIEW,
        "thanksForFeedback": THANKS_FOR_FEEDBACK,
        "somethingWentWrong": SOMETHING_WENT_WRONG,
        "tryAgain": TRY_AGAIN,
    })
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::review_texts;

    /// Fails when the checked-in texts are stale; `UPDATE_REVIEW_TEXTS=1 cargo test -p
    /// vitrine-core reviews::vectors` rewrites them.
    #[test]
    fn the_checked_in_texts_are_current() {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../web/src/generated/review-texts.json");
        let expected = serde_json::to_string_pretty(&review_texts()).unwrap() + "\n";
        if std::env::var_os("UPDATE_REVIEW_TEXTS").is_some() {
            std::fs::write(&path, &expected).unwrap();
        }
        let actual = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            actual == expected,
            "web/src/generated/review-texts.json is stale; rerun with UPDATE_REVIEW_TEXTS=1"
        );
    }
}
