//! The display widgets' ranged rules: a text effect's run takes between 0.2 and 1 of its set
//! duration and never less for a longer way, the marquee's segments and offsets stay inside
//! their bounds, the tooltip stays inside the viewport's margins, and the throttle's wait is
//! bounded by the run times it saw.

use proptest::prelude::*;
use vitrine_core::site::{MarqueeDirection, MarqueeProps};
use vitrine_core::widgets::{marquee, text_effect, timing, tooltip};

proptest! {
    #[test]
    fn a_run_takes_between_a_fifth_and_all_of_its_duration(
        set in 0.01f64..10.0,
        a in -5.0f64..5.0,
        b in -5.0f64..5.0,
    ) {
        let seconds = text_effect::scaled_duration_s(set, a);
        prop_assert!(seconds >= set * 0.2 - 1e-12 && seconds <= set + 1e-12);
        let (near, far) = if a.abs() <= b.abs() { (a, b) } else { (b, a) };
        prop_assert!(text_effect::scaled_duration_s(set, near) <= text_effect::scaled_duration_s(set, far));
    }

    #[test]
    fn marquee_segments_and_offsets_stay_in_bounds(
        measured in prop_oneof![Just(f64::NAN), -100.0f64..5000.0],
        region in -10.0f64..4000.0,
        speed in -2.0f64..10.0,
        right in any::<bool>(),
        elapsed in 0.0f64..1.0e7,
    ) {
        let segment = marquee::segment_width_px(measured);
        prop_assert!((250.0..=1000.0).contains(&segment));
        let item = marquee::item_width_px(measured);
        prop_assert!(item >= 250.0 && (measured.is_nan() || item >= measured));
        let copies = marquee::copies_needed(region, measured);
        prop_assert!(copies >= 2);
        prop_assert!(f64::from(copies) * item >= region.min(64.0 * item));
        let props = MarqueeProps {
            animation_speed: speed,
            animation_direction: if right { MarqueeDirection::Right } else { MarqueeDirection::Left },
            ..MarqueeProps::default()
        };
        let offset = marquee::offset_px(&props, measured, elapsed);
        prop_assert!(offset <= 0.0 && offset >= -item, "{offset} outside one copy of {item}");
    }

    #[test]
    fn the_wave_is_never_higher_than_its_intensity(
        intensity in -5.0f64..5.0,
        frequency in -5.0f64..5.0,
        x in -2000.0f64..2000.0,
    ) {
        let props = MarqueeProps { wave_intensity: intensity, wave_frequency: frequency, ..MarqueeProps::default() };
        let offset = marquee::wave_offset_px(&props, 400.0, x);
        prop_assert!(offset.abs() <= intensity.abs() * marquee::WAVE_PX_PER_INTENSITY + 1e-9);
    }

    #[test]
    fn the_tooltip_stays_inside_the_margins(
        x in -100.0f64..3000.0,
        y in -100.0f64..3000.0,
        width in 80.0f64..2560.0,
        height in 80.0f64..1600.0,
        tooltip_height in 0.0f64..300.0,
    ) {
        let (left, top) = tooltip::position((x, y), (width, height), tooltip_height);
        let tip_width = tooltip::width_px(width);
        prop_assert!(tip_width <= 250.0);
        prop_assert!(left >= 20.0 && left + tip_width <= width - 20.0 + 1e-9);
        if tooltip_height + 40.0 <= height {
            prop_assert!(top >= 20.0 && top + tooltip_height <= height - 20.0 + 1e-9);
        } else {
            prop_assert_eq!(top, 20.0);
        }
        // Never on top of the anchor when there is room beside it.
        let right_of_anchor = left >= x + 15.0 - 1e-9;
        let left_of_anchor = left + tip_width <= x - 15.0 + 1e-9;
        if x + 15.0 + tip_width <= width - 20.0 && x + 15.0 >= 20.0 {
            prop_assert!(right_of_anchor);
        } else if x - 15.0 - tip_width >= 20.0 && x + 15.0 + tip_width > width - 20.0 {
            prop_assert!(left_of_anchor);
        }
    }

    #[test]
    fn the_throttle_waits_twice_an_average_of_the_latest_runs(
        runs in proptest::collection::vec(0.0f64..1000.0, 0..60),
    ) {
        let wait = timing::throttle_wait_ms(&runs);
        let latest = &runs[runs.len().saturating_sub(22)..];
        if latest.is_empty() {
            prop_assert_eq!(wait, 0.0);
        } else {
            let low = latest.iter().copied().fold(f64::INFINITY, f64::min);
            let high = latest.iter().copied().fold(0.0, f64::max);
            prop_assert!(wait >= 2.0 * low - 1e-6 && wait <= 2.0 * high + 1e-6);
        }
    }
}
