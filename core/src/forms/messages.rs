//! Every text of the form flow that a visitor reads (spec 000 s5 and s8), verbatim, in one
//! place so the server, the generated vectors and the island say the same words.

/// A text area holds more characters than its maximum length (000 s5).
pub const CHARACTER_LIMIT: &str = "You have exceeded the character limit.";
/// A captcha exists and is unsolved (000 s5).
pub const CAPTCHA_UNSOLVED: &str = "Complete CAPTCHA before submitting.";
/// The example address the email message names in place of `{email}`.
///
/// The specification leaves the value of `{email}` open; a plain example address tells the
/// visitor the expected shape without echoing what they typed.
pub const EMAIL_EXAMPLE: &str = "name@example.com";
/// Failed form validation (000 s5).
pub const FIELDS_INVALID: &str = "One or more fields is invalid, please check your entries.";
/// 401 (000 s8).
pub const UNAUTHORIZED: &str = "Unable to submit form. Please try again later.";
/// 404 (000 s8).
pub const NOT_CONFIGURED: &str = "This form has not been configured yet.";
/// 429 (000 s8).
pub const RATE_LIMITED: &str =
    "Unable to submit form. Submission rate limit exceeded. Please try again later.";
/// 500 (000 s8).
pub const SERVER_ERROR: &str = "Unable to send form. Please try again later.";
/// Any other status without `data.error` (000 s8).
pub const UNKNOWN_ERROR: &str = "Unknown error, please try again later.";
/// The key could not be fetched (000 s8).
pub const KEY_FAILURE: &str = "Could not get a form submission key, please try again later.";
/// The fields could not be read (000 s8).
pub const PARSE_FAILURE: &str = "Could not parse the form fields, please check your entries.";
/// The save call itself failed (000 s8).
pub const SAVE_FAILURE: &str = "Error processing form submission. Please reload and try again.";
/// Above a non-newsletter form with errors (000 s8).
pub const ERRORS_ABOVE_FORM: &str =
    "Your form has encountered a problem. Please scroll down to review.";
/// Below a non-newsletter form with errors (000 s8).
pub const ERRORS_BELOW_FORM: &str =
    "Your form has encountered a problem. Please scroll up to review.";
/// The button text while a submission is in flight (000 s4).
pub const SUBMITTING: &str = "Submitting…";
/// What an empty summary part shows (000 s3).
pub const NOT_AVAILABLE: &str = "N/A";

/// The email message of 000 s5 with `{email}` filled in.
pub fn email_invalid() -> String {
    format!("Email is not valid. Email addresses should follow the format {EMAIL_EXAMPLE}.")
}

/// A required field left empty.
///
/// The specification shows no text for this; the field's own title keeps the message useful
/// when it is read out of context by a screen reader's error summary.
pub fn required(title: &str) -> String {
    format!("{title} is required.")
}

/// A US zip code that is not exactly five digits.
///
/// The specification states the rule (000 s5) but not its message; this one says what to fix.
pub const ZIP_INVALID: &str = "Zip code must be exactly 5 digits.";

/// A choice that is not one of the field's options, or a value of the wrong shape: the spec's
/// parse-failure text, since the browser cannot produce it through the form's own controls.
pub const VALUE_NOT_OFFERED: &str = PARSE_FAILURE;
