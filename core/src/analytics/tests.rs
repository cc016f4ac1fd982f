//! Unit tests of the analytics rules.

use super::*;

#[test]
fn visitor_cookie_formats_and_validates() {
    let cookie: VisitorCookie = "abc-1|10|20|30|4".parse().unwrap();
    assert_eq!(cookie.count, 4);
    assert_eq!(cookie.to_string(), "abc-1|10|20|30|4");
    assert_eq!(
        "a|1|2|3".parse::<VisitorCookie>(),
        Err(CookieFormatError::PartCount(4))
    );
    assert_eq!(
        "a|0|2|3|4".parse::<VisitorCookie>(),
        Err(CookieFormatError::NotPositive("0".into()))
    );
    assert_eq!(
        "a|+1|2|3|4".parse::<VisitorCookie>(),
        Err(CookieFormatError::NotPositive("+1".into()))
    );
    assert_eq!(
        "a b|1|2|3|4".parse::<VisitorCookie>(),
        Err(CookieFormatError::BadId)
    );
    assert_eq!("123".parse::<VisitCookie>(), Ok(VisitCookie(123)));
    assert!("-5".parse::<VisitCookie>().is_err());
}

#[test]
fn a_new_visit_moves_the_times_and_counts() {
    let first = VisitorCookie::first(VisitorId::new("v").unwrap(), 100);
    assert_eq!(first.after_page_view(true, 500), first);
    let next = first.after_page_view(false, 500);
    assert_eq!(next.to_string(), "v|100|100|500|2");
}

#[test]
fn lifetimes_follow_the_spec() {
    assert_eq!(VISITOR_COOKIE_MAX_AGE_SECONDS, 63_072_000);
    assert_eq!(VISIT_COOKIE_MAX_AGE_SECONDS, 1800);
    assert_eq!(ANALYTICS_COOKIE_MAX_AGE_SECONDS, 33_696_000);
}

#[test]
fn exclusions_follow_000_s6() {
    use HitExclusion::*;
    let check = |disabled, page, path, role| hit_exclusion(disabled, page, path, role);
    assert_eq!(
        check(false, PageKind::Normal, "/", ViewerRole::Anonymous),
        None
    );
    assert_eq!(
        check(false, PageKind::Normal, "/", ViewerRole::Viewer),
        None
    );
    assert_eq!(
        check(true, PageKind::Normal, "/", ViewerRole::Anonymous),
        Some(CensusDisabled)
    );
    assert_eq!(
        check(false, PageKind::NotFound, "/", ViewerRole::Anonymous),
        Some(NotFoundPage)
    );
    assert_eq!(
        check(false, PageKind::LockScreen, "/", ViewerRole::Anonymous),
        Some(LockScreen)
    );
    assert_eq!(
        check(
            false,
            PageKind::MemberAccessDenied,
            "/",
            ViewerRole::Anonymous
        ),
        Some(MemberAccessDenied)
    );
    assert_eq!(
        check(
            false,
            PageKind::Normal,
            "/search?q=a",
            ViewerRole::Anonymous
        ),
        Some(SearchPage)
    );
    assert_eq!(
        check(false, PageKind::Normal, "/searching", ViewerRole::Anonymous),
        None
    );
    assert_eq!(
        check(false, PageKind::Normal, "/config/pages", ViewerRole::Viewer),
        Some(ConfigPath)
    );
    assert_eq!(
        check(false, PageKind::Normal, "/", ViewerRole::OwnerOrEditor),
        Some(OwnerOrEditor)
    );
}

#[test]
fn cookieless_hash_rotates_daily_and_hides_inputs() {
    let today = DailySalt {
        day: day_number(86_400_000 * 3 + 5),
        secret: [7; 32],
    };
    assert_eq!(today.day, 3);
    let tomorrow = DailySalt {
        day: 4,
        secret: [9; 32],
    };
    let a = cookieless_visitor_hash(&today, "10.0.0.1", "UA", "site");
    assert_eq!(a.len(), 32);
    assert_eq!(a, cookieless_visitor_hash(&today, "10.0.0.1", "UA", "site"));
    assert_ne!(
        a,
        cookieless_visitor_hash(&tomorrow, "10.0.0.1", "UA", "site")
    );
    assert_ne!(a, cookieless_visitor_hash(&today, "10.0.0.1U", "A", "site"));
    assert!(!a.contains("10.0.0.1"));
    assert!(!format!("{today:?}").contains('7'));
}

#[test]
fn hit_payload_reads_the_spec_fields() {
    let hit = HitPayload::parse(
        r#"{"websiteId":"w","website_locale":"en-US","pagePath":"/shop","contentSource":"c","extra":1}"#,
    )
    .unwrap();
    assert_eq!(hit.website_locale.as_deref(), Some("en-US"));
    assert_eq!(hit.content_source, Some(ContentSource::Collection));
    assert!(!hit.native_app);
    assert_eq!(
        HitPayload::parse(r#"{"pagePath":"shop"}"#),
        Err(HitPayloadError::BadPath)
    );
    assert!(matches!(
        HitPayload::parse("{"),
        Err(HitPayloadError::Malformed(_))
    ));
}

#[test]
fn buffer_flushes_by_rows_or_time_and_drops_when_full() {
    let mut buffer = HitBuffer::new(BatchPolicy {
        capacity: 3,
        flush_rows: 2,
        flush_interval_ms: 1000,
    });
    assert!(!buffer.flush_due(0));
    assert_eq!(buffer.push(1, 0), PushOutcome::Queued);
    assert!(!buffer.flush_due(999));
    assert!(buffer.flush_due(1000));
    assert_eq!(buffer.push(2, 10), PushOutcome::FlushNow);
    assert_eq!(buffer.push(3, 10), PushOutcome::FlushNow);
    assert_eq!(buffer.push(4, 10), PushOutcome::Dropped);
    assert_eq!(buffer.dropped(), 1);
    assert_eq!(buffer.take_batch(20), vec![1, 2]);
    assert_eq!(buffer.take_batch(20), vec![3]);
    assert!(buffer.is_empty() && !buffer.flush_due(5000));
}

#[test]
fn reporter_debounces_and_caps() {
    let mut reporter = ErrorReporter::default();
    for i in 0..12 {
        reporter.report(i, 0);
    }
    assert_eq!(reporter.queued(), MAX_QUEUED);
    assert!(reporter.take_due(999).is_empty());
    assert_eq!(reporter.take_due(1000).len(), 10);
    for i in 0..15 {
        reporter.report(i, 2000 + i);
    }
    assert_eq!(reporter.take_due(3100).len(), 10);
    assert!(!reporter.report(99, 5000));
    assert_eq!(reporter.sent(), MAX_SENDS_PER_PAGE);
    assert_eq!(
        truncate_stack(&"é".repeat(6000)).chars().count(),
        MAX_STACK_CHARS
    );
}

#[test]
fn error_fingerprints_group_by_message_and_top_frames() {
    let stack = "Error: boom\n    at a (x.js:1:2)\n    at b (x.js:3:4)\n    at c (x.js:5:6)\n    at d (x.js:7:8)";
    let other_tail = "Error: boom\n    at a (x.js:1:2)\n    at b (x.js:3:4)\n    at c (x.js:5:6)\n    at z (y.js:9:9)";
    let fingerprint = error_fingerprint("boom", Some(stack));
    assert_eq!(fingerprint.len(), 16);
    assert_eq!(fingerprint, error_fingerprint("boom", Some(other_tail)));
    assert_ne!(fingerprint, error_fingerprint("bang", Some(stack)));
    assert_ne!(
        fingerprint,
        error_fingerprint("boom", Some("at q (x.js:1:1)"))
    );
}

#[test]
fn a_hit_from_the_native_app_keeps_its_flag_when_stored() {
    let hit = HitPayload::parse(r#"{"pagePath":"/shop","nativeApp":true}"#).unwrap();
    assert!(hit.native_app);
    let stored = serde_json::to_value(&hit).unwrap();
    assert_eq!(stored["nativeApp"], serde_json::json!(true));
    let web = serde_json::to_value(HitPayload::parse(r#"{"pagePath":"/shop"}"#).unwrap()).unwrap();
    assert!(web.get("nativeApp").is_none());
}
