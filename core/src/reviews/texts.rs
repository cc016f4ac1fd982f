//! The review texts of spec 000 s5 and s8, verbatim.

pub const SELECT_A_STAR_RATING: &str = "Please select a star rating";
pub const ALREADY_REVIEWED: &str = "You have already reviewed this purchase";
pub const REQUEST_EXPIRED: &str = "Your review request has expired";
pub const NO_PRODUCTS_TO_REVIEW: &str = "There are no products to review";
pub const THANKS_FOR_FEEDBACK: &str = "Thanks for your feedback";
pub const SOMETHING_WENT_WRONG: &str = "Something went wrong";
pub const TRY_AGAIN: &str = "Try submitting your review again";
