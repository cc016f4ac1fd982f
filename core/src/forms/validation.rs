//! The validation rules of spec 000 s5, run by the server on every submission and mirrored
//! by the island through vectors generated from these functions.

use std::collections::BTreeMap;

use super::messages;
use super::model::{FieldDefinition, FieldKind};
use super::values::FieldValue;

/// Field id to message: the `data.errors` of a 400 answer.
pub type FieldErrors = BTreeMap<String, String>;

/// The email rule of 000 s5: 3 to 256 characters made of a local part, an at sign, a
/// domain, a dot and a final part of 2 to 4 letters or digits.
///
/// The local part may hold letters, digits and the printable symbols addresses use
/// (`.!#$%&'*+/=?^_\`{|}~-`); the domain letters, digits, dots and hyphens. An empty value is
/// not checked here: whether it is allowed depends on the field being required.
pub fn is_valid_email(email: &str) -> bool {
    let length = email.chars().count();
    if !(3..=256).contains(&length) {
        return false;
    }
    let Some((local, domain)) = email.split_once('@') else {
        return false;
    };
    let Some((host, top)) = domain.rsplit_once('.') else {
        return false;
    };
    let local_ok = !local.is_empty()
        && local
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || ".!#$%&'*+/=?^_`{|}~-".contains(c));
    let host_ok = !host.is_empty()
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-');
    let top_ok = (2..=4).contains(&top.len()) && top.chars().all(|c| c.is_ascii_alphanumeric());
    local_ok && host_ok && top_ok
}

/// The US zip rule of 000 s5: exactly five digits.
pub fn is_valid_us_zip(zip: &str) -> bool {
    zip.len() == 5 && zip.bytes().all(|b| b.is_ascii_digit())
}

/// Whether an address's country part names the United States, so its zip must be a US zip.
///
/// The specification states the zip rule without saying when it applies; applying it to
/// every address would refuse every other country's postcodes, so it applies only when the
/// country part names the United States; an empty country is not checked.
pub fn names_united_states(country: &str) -> bool {
    let normalized: String = country
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase();
    matches!(
        normalized.as_str(),
        "us" | "usa" | "unitedstates" | "unitedstatesofamerica"
    )
}

/// The length a browser counts for `maxlength` and for the counter: UTF-16 code units, so a
/// character outside the Basic Multilingual Plane counts twice on both sides alike.
pub fn text_length(text: &str) -> usize {
    text.encode_utf16().count()
}

/// Whether a text area's content is over its limit (000 s5); no limit means never.
pub fn exceeds_max_length(text: &str, max_length: Option<u32>) -> bool {
    max_length.is_some_and(|max| max > 0 && text_length(text) > max as usize)
}

/// The counter text of a text area, `count / max`, or `None` when there is no counter
/// (a data-max-length of 0 or not a number).
pub fn counter_text(text: &str, data_max_length: &str) -> Option<(String, bool)> {
    let max: u32 = data_max_length.trim().parse().ok().filter(|max| *max > 0)?;
    let count = text_length(text);
    Some((format!("{count} / {max}"), count > max as usize))
}

/// The message for one field's value, or `None` when it is valid.
pub fn validate_field(field: &FieldDefinition, value: &FieldValue) -> Option<String> {
    if !field.kind.holds_value() {
        return None;
    }
    if value.is_blank() {
        return field.required.then(|| messages::required(&field.title));
    }
    match (&field.kind, value) {
        (FieldKind::Email, FieldValue::Single(email)) => {
            (!is_valid_email(email.trim())).then(messages::email_invalid)
        }
        (FieldKind::Textarea { max_length }, FieldValue::Single(text)) => {
            exceeds_max_length(text, *max_length).then(|| messages::CHARACTER_LIMIT.to_owned())
        }
        (FieldKind::Address, FieldValue::List(parts)) => {
            let zip = parts.get(4).map(|zip| zip.trim()).unwrap_or("");
            let country = parts.get(5).map(String::as_str).unwrap_or("");
            (names_united_states(country) && !zip.is_empty() && !is_valid_us_zip(zip))
                .then(|| messages::ZIP_INVALID.to_owned())
        }
        (
            FieldKind::Radio { options } | FieldKind::Select { options },
            FieldValue::Single(choice),
        ) => (!options.iter().any(|option| option == choice))
            .then(|| messages::VALUE_NOT_OFFERED.to_owned()),
        (FieldKind::Checkbox { options }, FieldValue::List(checked)) => checked
            .iter()
            .any(|choice| !options.contains(choice))
            .then(|| messages::VALUE_NOT_OFFERED.to_owned()),
        (FieldKind::Likert { statements }, value) => {
            let answers = value.likert_answers();
            let known = answers.as_ref().is_some_and(|answers| {
                answers
                    .keys()
                    .all(|statement| statements.iter().any(|s| s == statement))
            });
            if !known {
                Some(messages::VALUE_NOT_OFFERED.to_owned())
            } else if field.required
                && answers.is_some_and(|answers| answers.len() < statements.len())
            {
                Some(messages::required(&field.title))
            } else {
                None
            }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails_follow_the_spec_rule() {
        for good in [
            "a@b.co",
            "first.last+tag@mail.example.com",
            "x@y.info",
            "o'neil@ie.ie",
        ] {
            assert!(is_valid_email(good), "{good} should pass");
        }
        for bad in [
            "",
            "a@b",
            "@b.co",
            "a@.co",
            "a@b.c",
            "a@b.museum",
            "a b@c.de",
            "a@b@c.de",
            "a@b.c_d",
        ] {
            assert!(!is_valid_email(bad), "{bad} should fail");
        }
        let long = format!("{}@b.co", "a".repeat(252));
        assert!(!is_valid_email(&long), "257 characters is over the limit");
        assert!(is_valid_email(&format!("{}@b.co", "a".repeat(251))));
    }

    #[test]
    fn zips_are_exactly_five_digits() {
        assert!(is_valid_us_zip("02139"));
        for bad in ["2139", "021390", "0213a", "٠١٢٣٤"] {
            assert!(!is_valid_us_zip(bad), "{bad}");
        }
    }

    #[test]
    fn the_counter_needs_a_positive_maximum() {
        assert_eq!(counter_text("abc", "2"), Some(("3 / 2".into(), true)));
        assert_eq!(counter_text("ab", "2"), Some(("2 / 2".into(), false)));
        assert_eq!(counter_text("abc", "0"), None);
        assert_eq!(counter_text("abc", "ten"), None);
        assert_eq!(counter_text("😀", "1"), Some(("2 / 1".into(), true)));
    }

    fn field(kind: FieldKind, required: bool) -> FieldDefinition {
        FieldDefinition {
            id: "f".into(),
            title: "Field".into(),
            required,
            kind,
        }
    }

    #[test]
    fn empty_is_fine_unless_required() {
        let email = field(FieldKind::Email, false);
        assert_eq!(
            validate_field(&email, &FieldValue::Single(String::new())),
            None
        );
        let required = field(FieldKind::Email, true);
        assert_eq!(
            validate_field(&required, &FieldValue::Single(" ".into())).as_deref(),
            Some("Field is required.")
        );
        assert_eq!(
            validate_field(&email, &FieldValue::Single("nope".into())).as_deref(),
            Some("Email is not valid. Email addresses should follow the format name@example.com.")
        );
    }

    #[test]
    fn a_text_area_over_its_limit_is_invalid() {
        let textarea = field(
            FieldKind::Textarea {
                max_length: Some(3),
            },
            false,
        );
        assert_eq!(
            validate_field(&textarea, &FieldValue::Single("abcd".into())).as_deref(),
            Some("You have exceeded the character limit.")
        );
        assert_eq!(
            validate_field(&textarea, &FieldValue::Single("abc".into())),
            None
        );
    }

    #[test]
    fn us_addresses_need_a_five_digit_zip() {
        let address = field(FieldKind::Address, false);
        let parts = |zip: &str, country: &str| {
            FieldValue::List(
                ["1 Main St", "", "Boston", "MA", zip, country]
                    .map(str::to_owned)
                    .to_vec(),
            )
        };
        assert!(validate_field(&address, &parts("0213", "United States")).is_some());
        assert!(validate_field(&address, &parts("02139", "US")).is_none());
        assert!(validate_field(&address, &parts("1100-321", "Portugal")).is_none());
    }

    #[test]
    fn choices_must_be_offered() {
        let select = field(
            FieldKind::Select {
                options: vec!["a".into()],
            },
            true,
        );
        assert!(validate_field(&select, &FieldValue::Single("a".into())).is_none());
        assert!(validate_field(&select, &FieldValue::Single("z".into())).is_some());
    }
}
