//! The visitor cookie's format and parse round-trip, and the error reporter never exceeds its
//! limits under any sequence of errors and clock ticks (model-based).

use proptest::prelude::*;
use vitrine_core::analytics::{
    ErrorReporter, MAX_QUEUED, MAX_SENDS_PER_PAGE, SEND_DEBOUNCE_MS, VisitorCookie, VisitorId,
};

prop_compose! {
    fn visitor_cookie()(
        id in "[A-Za-z0-9-]{1,64}",
        times in proptest::array::uniform4(1u64..u64::MAX),
    ) -> VisitorCookie {
        VisitorCookie {
            id: VisitorId::new(id).unwrap(),
            first_visit_ms: times[0],
            previous_visit_ms: times[1],
            current_visit_ms: times[2],
            count: times[3],
        }
    }
}

#[derive(Debug, Clone)]
enum Step {
    Error,
    Tick(i64),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![3 => Just(Step::Error), 1 => (0i64..2_500).prop_map(Step::Tick)]
}

proptest! {
    #[test]
    fn visitor_cookie_round_trips(cookie in visitor_cookie()) {
        prop_assert_eq!(cookie.to_string().parse::<VisitorCookie>(), Ok(cookie));
    }

    #[test]
    fn junk_never_parses_into_an_invalid_cookie(text in ".{0,40}") {
        if let Ok(cookie) = text.parse::<VisitorCookie>() {
            prop_assert_eq!(cookie.to_string(), text);
            prop_assert!(cookie.count > 0 && cookie.first_visit_ms > 0);
        }
    }

    #[test]
    fn error_reporter_stays_within_its_limits(steps in proptest::collection::vec(step(), 0..200)) {
        let mut reporter = ErrorReporter::default();
        // The reference model: how many were accepted and sent, and when the last one came.
        let (mut now, mut accepted, mut sent_total, mut last) = (0i64, 0usize, 0usize, None);
        for step in steps {
            match step {
                Step::Error => {
                    if reporter.report((), now) {
                        accepted += 1;
                        last = Some(now);
                    }
                }
                Step::Tick(ms) => now += ms,
            }
            let batch = reporter.take_due(now);
            if !batch.is_empty() {
                prop_assert!(now - last.unwrap() >= SEND_DEBOUNCE_MS);
            }
            sent_total += batch.len();
            prop_assert!(reporter.queued() <= MAX_QUEUED);
            prop_assert!(sent_total + reporter.queued() <= MAX_SENDS_PER_PAGE);
            prop_assert_eq!(sent_total + reporter.queued(), accepted);
        }
    }
}
