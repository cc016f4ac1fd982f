//! Unit tests of the popup display rules and record.

use super::*;
use crate::site::PopupOverlaySettings;

fn settings() -> PopupOverlaySettings {
    PopupOverlaySettings {
        style: "full".to_owned(),
        version: 3,
        show_until_signup: true,
        display_frequency: 7,
        enable_mobile: false,
        content: crate::site::PopupContent::default(),
    }
}

fn page(now_ms: i64) -> PageSituation {
    PageSituation {
        not_found: false,
        lock_screen: false,
        screenshot: false,
        mobile: false,
        banner_pending: false,
        now_ms,
    }
}

#[test]
fn page_rules_hide_it() {
    let s = settings();
    let hidden =
        |p: PageSituation, reason| assert_eq!(decide(&s, None, &p), PopupDecision::Hide(reason));
    hidden(
        PageSituation {
            not_found: true,
            ..page(0)
        },
        PopupHideReason::NotFoundPage,
    );
    hidden(
        PageSituation {
            lock_screen: true,
            ..page(0)
        },
        PopupHideReason::LockScreen,
    );
    hidden(
        PageSituation {
            screenshot: true,
            ..page(0)
        },
        PopupHideReason::Screenshot,
    );
    hidden(
        PageSituation {
            mobile: true,
            ..page(0)
        },
        PopupHideReason::MobileDisabled,
    );
    hidden(
        PageSituation {
            banner_pending: true,
            ..page(0)
        },
        PopupHideReason::BannerPending,
    );
    let none = PopupOverlaySettings {
        style: "none".into(),
        ..settings()
    };
    assert_eq!(
        decide(&none, None, &page(0)),
        PopupDecision::Hide(PopupHideReason::StyleNone)
    );
    assert_eq!(decide(&s, None, &page(0)), PopupDecision::Show);
}

#[test]
fn it_returns_display_frequency_days_after_closing() {
    let s = settings();
    let record = PopupRecord::default().closed(3, 1_000);
    let at = |now| decide(&s, Some(&record), &page(now));
    assert_eq!(
        at(1_000 + 7 * DAY_MS - 1),
        PopupDecision::Hide(PopupHideReason::RecentlyClosed)
    );
    assert_eq!(at(1_000 + 7 * DAY_MS), PopupDecision::Show);
    let never = PopupOverlaySettings {
        display_frequency: -1,
        ..settings()
    };
    assert_eq!(
        decide(&never, Some(&record), &page(i64::MAX)),
        PopupDecision::Hide(PopupHideReason::NeverAgain)
    );
}

#[test]
fn submission_suppresses_it_until_a_new_version() {
    let s = settings();
    let record = PopupRecord::submitted(3, 0);
    assert_eq!(
        decide(&s, Some(&record), &page(100 * DAY_MS)),
        PopupDecision::Hide(PopupHideReason::Submitted)
    );
    let newer = PopupOverlaySettings {
        version: 4,
        ..settings()
    };
    assert_eq!(decide(&newer, Some(&record), &page(1)), PopupDecision::Show);
    let not_until_signup = PopupOverlaySettings {
        show_until_signup: false,
        ..settings()
    };
    assert_eq!(
        decide(&not_until_signup, Some(&record), &page(7 * DAY_MS)),
        PopupDecision::Show
    );
}

#[test]
fn record_uses_the_spec_keys_and_tolerates_junk() {
    let record = PopupRecord::submitted(2, 5);
    assert_eq!(
        record.to_json(),
        r#"{"date-closed":5,"version":2,"submitted":true}"#
    );
    assert_eq!(PopupRecord::parse(&record.to_json()), Some(record));
    assert_eq!(PopupRecord::parse("not json"), None);
    assert_eq!(POPUP_RECORD_KEY, "squarespace-popup-overlay");
}
