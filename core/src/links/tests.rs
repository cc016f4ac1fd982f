//! Data-driven checks of the link classifier.

use expect_test::{Expect, expect};

use super::*;

fn check(links: &[&str], expect: Expect) {
    let table: String = links
        .iter()
        .map(|link| format!("{:<14} {link}\n", format!("{:?}", classify(link))))
        .collect();
    expect.assert_eq(&table);
}

#[test]
fn classifies_each_kind() {
    check(
        &[
            "#top",
            "tel:+1-555-0100",
            "TEL:5550",
            "sms:+15550100",
            "mailto:ada@example.com",
            "mailto:ada@example.com?subject=Hi",
            "javascript:void(0)",
            "ftp://files.example.com/a.zip",
            "https://example.com/shop?x=1",
            "HTTP://example.com",
            "/blog/first-post",
            "/s/price-list.pdf",
        ],
        expect![[r#"
            Anchor         #top
            Tel            tel:+1-555-0100
            Tel            TEL:5550
            Sms            sms:+15550100
            Mailto         mailto:ada@example.com
            Mailto         mailto:ada@example.com?subject=Hi
            Javascript     javascript:void(0)
            Ftp            ftp://files.example.com/a.zip
            Web            https://example.com/shop?x=1
            Web            HTTP://example.com
            InternalPath   /blog/first-post
            InternalPath   /s/price-list.pdf
        "#]],
    );
}

#[test]
fn rejects_links_that_break_their_rule() {
    check(
        &[
            "tel:555",
            "tel:555 0100",
            "tel:(555)0100",
            "mailto:ada.example.com",
            "mailto:ada@example",
            "mailto:a@b@example.com",
            "ftp:files.example.com",
            "http:example.com",
            "https://",
            "//example.com/x",
            "# top",
            "example.com",
            "",
        ],
        expect![[r#"
            Unrecognised   tel:555
            Unrecognised   tel:555 0100
            Unrecognised   tel:(555)0100
            Unrecognised   mailto:ada.example.com
            Unrecognised   mailto:ada@example
            Unrecognised   mailto:a@b@example.com
            Unrecognised   ftp:files.example.com
            Unrecognised   http:example.com
            Unrecognised   https://
            Unrecognised   //example.com/x
            Unrecognised   # top
            Unrecognised   example.com
            Unrecognised   
        "#]],
    );
}

#[test]
fn length_limits_are_strict_upper_bounds() {
    let at_limit =
        |prefix: &str, limit: usize| format!("{prefix}{}", "1".repeat(limit - prefix.len()));
    let cases = [
        ("#", limits::ANCHOR, LinkKind::Anchor),
        ("tel:", limits::TEL, LinkKind::Tel),
        ("sms:", limits::SMS, LinkKind::Sms),
        ("javascript:", limits::JAVASCRIPT, LinkKind::Javascript),
        ("ftp://h/", limits::FTP, LinkKind::Ftp),
        ("/", limits::INTERNAL_PATH, LinkKind::InternalPath),
    ];
    for (prefix, limit, kind) in cases {
        let longest = at_limit(prefix, limit - 1);
        assert_eq!(
            classify(&longest),
            kind,
            "{prefix} at {} characters",
            limit - 1
        );
        assert_eq!(
            classify(&at_limit(prefix, limit)),
            LinkKind::Unrecognised,
            "{prefix} at {limit}"
        );
    }
    let mail = |len: usize| {
        format!(
            "mailto:{}@example.com",
            "a".repeat(len - "mailto:@example.com".len())
        )
    };
    assert_eq!(classify(&mail(limits::MAILTO - 1)), LinkKind::Mailto);
    assert_eq!(classify(&mail(limits::MAILTO)), LinkKind::Unrecognised);
}

#[test]
fn only_http_https_and_ftp_with_slashes_are_well_formed() {
    assert!(is_well_formed("https://example.com"));
    assert!(is_well_formed("http://example.com/a?b#c"));
    assert!(is_well_formed("FTP://files.example.com"));
    assert!(!is_well_formed("https:example.com"));
    assert!(!is_well_formed("mailto:ada@example.com"));
    assert!(!is_well_formed("//example.com"));
    assert!(!is_well_formed("https:///path"));
    assert!(!is_well_formed("https://exa mple.com"));
    assert!(!is_well_formed("gopher://example.com"));
}
