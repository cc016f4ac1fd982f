//! Cleaned blog URL patterns are stable, use only the allowed tokens and characters, and
//! expand to addresses without tokens.

use proptest::prelude::*;
use vitrine_core::blog_url::{BlogUrlPattern, PostDate, slugify};

fn raw_pattern() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::collection::vec(
            prop_oneof![Just("%y"), Just("%m"), Just("%d"), Just("%t"), Just("%"), Just("/"), Just("-"), Just(" "),
                Just("News"), Just("é"), Just("%Q"), Just("&")],
            0..12,
        ).prop_map(|parts| parts.concat()),
        1 => ".{0,40}",
    ]
}

proptest! {
    #[test]
    fn normalizing_is_idempotent_and_clean(raw in raw_pattern()) {
        let pattern = BlogUrlPattern::normalize(&raw);
        let text = pattern.as_str();
        prop_assert_eq!(BlogUrlPattern::normalize(text), pattern.clone());
        prop_assert!(!text.is_empty() && !text.starts_with('/'));
        prop_assert!(!text.contains("//") && !text.contains("%%") && !text.contains("--"));
        prop_assert!(text.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "-_./%".contains(c)));
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            if c == '%' {
                let token = chars.next();
                prop_assert!(matches!(token, Some('y' | 'm' | 'd' | 't')), "{:?}", text);
            }
        }
    }

    #[test]
    fn expansion_leaves_no_tokens(raw in raw_pattern(), title in ".{0,30}", year in 1u16..=9999, month in 1u8..=12, day in 1u8..=28) {
        let date = PostDate::new(year, month, day).unwrap();
        let address = BlogUrlPattern::normalize(&raw).expand(date, &slugify(&title));
        prop_assert!(!address.contains('%'), "{:?}", address);
    }
}
