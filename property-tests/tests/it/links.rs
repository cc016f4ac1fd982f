//! The link classifier never panics, and every kind it reports obeys its length limit and
//! shape.

use proptest::prelude::*;
use vitrine_core::links::{LinkKind, classify, is_well_formed, limits};

/// A link that starts like one of the kinds, followed by arbitrary text of any length up to
/// well past the largest limit, or plain arbitrary text.
fn link() -> impl Strategy<Value = String> {
    let prefix = prop::sample::select(vec![
        "#",
        "tel:",
        "TEL:",
        "sms:",
        "mailto:",
        "javascript:",
        "ftp://",
        "ftp:",
        "http://",
        "HTTPS://",
        "https:",
        "/",
        "//",
        "/s/",
        "",
    ]);
    let body = prop_oneof![
        3 => "[0-9+\\-]{0,60}",
        2 => "[a-z0-9.@/?#-]{0,120}",
        1 => "[a-z@.]{990,1010}",
        1 => ".{0,300}",
    ];
    (prefix, body).prop_map(|(prefix, body)| format!("{prefix}{body}"))
}

proptest! {
    #[test]
    fn classified_links_obey_their_limits(link in link()) {
        let length = link.chars().count();
        let lower = link.to_ascii_lowercase();
        match classify(&link) {
            LinkKind::Anchor => prop_assert!(link.starts_with('#') && length < limits::ANCHOR),
            LinkKind::Tel => {
                prop_assert!(lower.starts_with("tel:") && length < limits::TEL);
                let number = &link[4..];
                prop_assert!(number.len() >= limits::TEL_MIN_NUMBER);
                prop_assert!(number.chars().all(|c| c.is_ascii_digit() || c == '+' || c == '-'));
            }
            LinkKind::Sms => prop_assert!(lower.starts_with("sms:") && length < limits::SMS),
            LinkKind::Mailto => {
                prop_assert!(lower.starts_with("mailto:") && length < limits::MAILTO);
                let address = link[7..].split('?').next().unwrap();
                prop_assert_eq!(address.matches('@').count(), 1);
                prop_assert!(address.split('@').nth(1).unwrap().contains('.'));
            }
            LinkKind::Javascript => prop_assert!(lower.starts_with("javascript:") && length < limits::JAVASCRIPT),
            LinkKind::Ftp => prop_assert!(lower.starts_with("ftp://") && length < limits::FTP && is_well_formed(&link)),
            LinkKind::InternalPath => {
                prop_assert!(link.starts_with('/') && !link.starts_with("//") && length < limits::INTERNAL_PATH);
            }
            LinkKind::Web => prop_assert!(is_well_formed(&link) && lower.starts_with("http")),
            LinkKind::Unrecognised => {}
        }
    }

    #[test]
    fn well_formed_links_have_a_scheme_with_slashes(link in link()) {
        if is_well_formed(&link) {
            let lower = link.to_ascii_lowercase();
            prop_assert!(["http://", "https://", "ftp://"].iter().any(|s| lower.starts_with(s)));
            prop_assert!(!link.chars().any(char::is_whitespace));
        }
    }
}
