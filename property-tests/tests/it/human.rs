//! Human-readable sizes never go down as sizes grow, and relative times never go back as
//! time passes.

use std::time::Duration;

use proptest::prelude::*;
use vitrine_core::human::{FILE_SIZE_UNITS, file_size, relative_time_for};

/// The unit index and the number in hundredths, from a text like "1.5 KB".
fn parse_size(shown: &str) -> (usize, u128) {
    let (number, unit) = shown.split_once(' ').expect("number and unit");
    let unit = FILE_SIZE_UNITS
        .iter()
        .position(|u| *u == unit)
        .expect("known unit");
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    let fraction = format!("{fraction:0<2}");
    (
        unit,
        whole.parse::<u128>().unwrap() * 100 + fraction.parse::<u128>().unwrap(),
    )
}

/// Sizes spread over every unit rather than clustered at small values.
fn size() -> impl Strategy<Value = u128> {
    (0u32..90, any::<u64>())
        .prop_map(|(shift, noise)| (1u128 << shift) + u128::from(noise) % (1u128 << shift))
}

/// The order of relative-time phrases, with the count inside each.
fn time_rank(shown: &str) -> (u8, u64) {
    let count = shown
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    let rank = match shown {
        "just now" => 0,
        s if s.ends_with("seconds ago") => 1,
        "about a minute ago" => 2,
        s if s.ends_with("minutes ago") => 3,
        "about an hour ago" => 4,
        s if s.ends_with("hours ago") => 5,
        "1 day ago" => 6,
        s if s.ends_with("days ago") => 7,
        other => panic!("unexpected phrase {other:?}"),
    };
    (rank, count)
}

proptest! {
    #[test]
    fn file_size_is_monotonic(a in size(), b in size()) {
        let (small, large) = (a.min(b), a.max(b));
        let (small_unit, small_number) = parse_size(&file_size(small));
        let (large_unit, large_number) = parse_size(&file_size(large));
        prop_assert!(small_unit <= large_unit);
        if small_unit == large_unit {
            prop_assert!(small_number <= large_number, "{} vs {}", file_size(small), file_size(large));
        }
    }

    #[test]
    fn file_size_is_within_half_a_hundredth(bytes in size()) {
        let (unit, hundredths) = parse_size(&file_size(bytes));
        let divisor = 1024u128.pow(unit as u32);
        // |hundredths / 100 - bytes / divisor| <= 1/200, kept in integers.
        let shown = hundredths * divisor;
        let exact = bytes * 100;
        prop_assert!(shown.abs_diff(exact) * 2 <= divisor, "{} for {}", file_size(bytes), bytes);
        prop_assert!(unit == FILE_SIZE_UNITS.len() - 1 || bytes < divisor * 1024);
    }

    #[test]
    fn relative_time_never_goes_back(a in 0u64..10_000_000, b in 0u64..10_000_000) {
        let (earlier, later) = (a.min(b), a.max(b));
        let first = time_rank(&relative_time_for(Duration::from_secs(earlier)));
        let second = time_rank(&relative_time_for(Duration::from_secs(later)));
        prop_assert!(first <= second, "{:?} then {:?}", first, second);
    }
}
