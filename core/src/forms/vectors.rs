//! Rule vectors: inputs and the answers the Rust rules give for them, written to
//! `web/src/generated/form-rule-vectors.json` so the island's TypeScript validation is tested
//! against the server's rules instead of being re-typed by hand.

use serde_json::{Value, json};

use super::messages;
use super::validation::{counter_text, exceeds_max_length, is_valid_email, is_valid_us_zip};

const EMAILS: &[&str] = &[
    "a@b.co",
    "first.last+tag@mail.example.com",
    "o'neil@ie.ie",
    "x@y.info",
    "x@y.museum",
    "x@y.c",
    "a@b",
    "@b.co",
    "a@.co",
    "a b@c.de",
    "a@b@c.de",
    "a@b.c_d",
    "ab",
    "ä@b.co",
    "a@b-c.d-e.fr",
];

const ZIPS: &[&str] = &["02139", "2139", "021390", "0213a", "", "٠١٢٣٤"];

const COUNTERS: &[(&str, &str)] = &[
    ("abc", "2"),
    ("ab", "2"),
    ("abc", "0"),
    ("abc", "ten"),
    ("", "5"),
    ("😀", "1"),
    ("abc", " 3 "),
];

/// The vectors as JSON.
pub fn rule_vectors() -> Value {
    let long_ok = format!("{}@b.co", "a".repeat(251));
    let long_bad = format!("{}@b.co", "a".repeat(252));
    let emails: Vec<Value> = EMAILS
        .iter()
        .copied()
        .chain([long_ok.as_str(), long_bad.as_str()])
        .map(|email| json!({ "input": email, "valid": is_valid_email(email) }))
        .collect();
    let zips: Vec<Value> = ZIPS
        .iter()
        .map(|zip| json!({ "input": zip, "valid": is_valid_us_zip(zip) }))
        .collect();
    let counters: Vec<Value> = COUNTERS
        .iter()
        .map(|(text, max)| {
            let counter = counter_text(text, max);
            json!({
                "text": text,
                "dataMaxLength": max,
                "counter": counter.as_ref().map(|(label, _)| label),
                "over": counter.as_ref().is_some_and(|(_, over)| *over),
                "exceeds": exceeds_max_length(text, max.trim().parse().ok()),
            })
        })
        .collect();
    json!({
        "emails": emails,
        "zips": zips,
        "counters": counters,
        "messages": {
            "emailInvalid": messages::email_invalid(),
            "characterLimit": messages::CHARACTER_LIMIT,
            "captchaUnsolved": messages::CAPTCHA_UNSOLVED,
            "fieldsInvalid": messages::FIELDS_INVALID,
            "zipInvalid": messages::ZIP_INVALID,
            "requiredExample": messages::required("Email"),
            "unauthorized": messages::UNAUTHORIZED,
            "notConfigured": messages::NOT_CONFIGURED,
            "rateLimited": messages::RATE_LIMITED,
            "serverError": messages::SERVER_ERROR,
            "unknownError": messages::UNKNOWN_ERROR,
            "keyFailure": messages::KEY_FAILURE,
            "parseFailure": messages::PARSE_FAILURE,
            "saveFailure": messages::SAVE_FAILURE,
            "errorsAbove": messages::ERRORS_ABOVE_FORM,
            "errorsBelow": messages::ERRORS_BELOW_FORM,
            "submitting": messages::SUBMITTING,
        },
    })
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::rule_vectors;

    /// Fails when the checked-in vectors are stale; `UPDATE_FORM_VECTORS=1 cargo test -p
    /// vitrine-core forms::vectors` rewrites them.
    #[test]
    fn the_checked_in_vectors_are_current() {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../web/src/generated/form-rule-vectors.json");
        let expected = serde_json::to_string_pretty(&rule_vectors()).unwrap() + "\n";
        if std::env::var_os("UPDATE_FORM_VECTORS").is_some() {
            std::fs::write(&path, &expected).unwrap();
        }
        let actual = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            actual == expected,
            "web/src/generated/form-rule-vectors.json is stale; rerun with UPDATE_FORM_VECTORS=1"
        );
    }
}
