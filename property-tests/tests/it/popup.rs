//! The popup rules are monotone in the days since closing, and a version increase always shows
//! the popup when the page allows it.

use proptest::prelude::*;
use vitrine_core::popup::{DAY_MS, PageSituation, PopupDecision, PopupRecord, decide};
use vitrine_core::site::PopupOverlaySettings;

prop_compose! {
    fn settings()(
        version in 1u32..20,
        show_until_signup in any::<bool>(),
        display_frequency in prop_oneof![Just(-1), 0i32..60],
    ) -> PopupOverlaySettings {
        PopupOverlaySettings {
            style: "full".to_owned(),
            version,
            show_until_signup,
            display_frequency,
            enable_mobile: true,
            content: Default::default(),
        }
    }
}

prop_compose! {
    fn record()(
        closed in proptest::option::of(0i64..1_000 * DAY_MS),
        version in 0u32..20,
        submitted in any::<bool>(),
    ) -> PopupRecord {
        PopupRecord { date_closed: closed, version, submitted }
    }
}

fn open_page(now_ms: i64) -> PageSituation {
    PageSituation {
        not_found: false,
        lock_screen: false,
        screenshot: false,
        mobile: false,
        banner_pending: false,
        now_ms,
    }
}

proptest! {
    #[test]
    fn once_shown_it_stays_shown_as_days_pass(
        settings in settings(),
        record in record(),
        now in 0i64..2_000 * DAY_MS,
        later in 0i64..2_000 * DAY_MS,
    ) {
        let earlier = decide(&settings, Some(&record), &open_page(now));
        let after = decide(&settings, Some(&record), &open_page(now + later));
        if earlier == PopupDecision::Show {
            prop_assert_eq!(after, PopupDecision::Show);
        }
    }

    #[test]
    fn a_version_increase_always_shows_it(
        settings in settings(),
        record in record(),
        now in 0i64..2_000 * DAY_MS,
    ) {
        let record = PopupRecord { version: settings.version - 1, ..record };
        prop_assert_eq!(decide(&settings, Some(&record), &open_page(now)), PopupDecision::Show);
    }

    #[test]
    fn the_stored_record_round_trips(record in record()) {
        prop_assert_eq!(PopupRecord::parse(&record.to_json()), Some(record));
    }
}
