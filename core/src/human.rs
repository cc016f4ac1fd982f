//! Human-readable sizes and times (001 §9): file sizes in base 1024 from Bytes to YB, and
//! relative times such as "5 minutes ago". The clock is not read here; callers pass both
//! instants.

use std::time::{Duration, SystemTime};

/// The units of [`file_size`], each 1024 times the one before.
pub const FILE_SIZE_UNITS: [&str; 9] = ["Bytes", "KB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"];

/// A size for people to read: the largest unit in which the size is at least 1, with up to
/// two decimals and no trailing zeros, such as "0 Bytes", "1023 Bytes", "1.5 KB" or
/// "2.25 GB". Sizes of 1024 YB and more stay in YB. Rounding is half up on the exact value,
/// so 1,048,575 bytes shows "1024 KB" rather than jumping to "1 MB".
pub fn file_size(bytes: impl Into<u128>) -> String {
    let bytes: u128 = bytes.into();
    let mut unit = 0;
    let mut divisor: u128 = 1;
    while unit + 1 < FILE_SIZE_UNITS.len() && bytes / divisor >= 1024 {
        divisor *= 1024;
        unit += 1;
    }
    // Hundredths of the unit, rounded half up. Whole units and the remainder are scaled
    // separately so that sizes near u128::MAX cannot overflow.
    let remainder_hundredths = (bytes % divisor * 100 + divisor / 2) / divisor;
    let hundredths = bytes / divisor * 100 + remainder_hundredths;
    let (whole, fraction) = (hundredths / 100, hundredths % 100);
    let number = match fraction {
        0 => whole.to_string(),
        f if f % 10 == 0 => format!("{whole}.{}", f / 10),
        f => format!("{whole}.{f:02}"),
    };
    format!("{number} {}", FILE_SIZE_UNITS[unit])
}

/// How long ago `then` was, seen at `now`, in the buckets of 001 §9.
///
/// Our wording and bounds (the specification names the buckets, not their edges):
///
/// | elapsed            | shown                  |
/// |--------------------|------------------------|
/// | under 5 s, or future | "just now"           |
/// | 5 s to 59 s        | "N seconds ago"        |
/// | 60 s to 119 s      | "about a minute ago"   |
/// | 2 to 59 minutes    | "N minutes ago"        |
/// | 60 to 119 minutes  | "about an hour ago"    |
/// | 2 to 23 hours      | "N hours ago"          |
/// | 24 to 47 hours     | "1 day ago"            |
/// | 48 hours and more  | "N days ago"           |
///
/// "Just now" lasts 5 seconds because the display refreshes every 5000 ms (001 §9): a new
/// comment reads "just now" until the first refresh. Counts are rounded down, so the numbers
/// never overstate the time. A `then` after `now` (a skewed clock) reads "just now".
pub fn relative_time(now: SystemTime, then: SystemTime) -> String {
    relative_time_for(now.duration_since(then).unwrap_or_default())
}

/// [`relative_time`] for an elapsed duration.
pub fn relative_time_for(elapsed: Duration) -> String {
    relative_time_bucket(elapsed).to_string()
}

/// The buckets of 001 §9 with the count each carries; [`relative_time_for`] writes them in
/// English, the web client through `Intl.RelativeTimeFormat` in the visitor's language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RelativeTime {
    JustNow,
    Seconds(u64),
    AboutAMinute,
    Minutes(u64),
    AboutAnHour,
    Hours(u64),
    OneDay,
    Days(u64),
}

impl RelativeTime {
    /// The bucket's name, as the web client's vectors spell it.
    pub fn name(self) -> &'static str {
        match self {
            Self::JustNow => "justNow",
            Self::Seconds(_) => "seconds",
            Self::AboutAMinute => "aboutAMinute",
            Self::Minutes(_) => "minutes",
            Self::AboutAnHour => "aboutAnHour",
            Self::Hours(_) => "hours",
            Self::OneDay => "oneDay",
            Self::Days(_) => "days",
        }
    }

    /// The number shown, where the bucket has one.
    pub fn count(self) -> Option<u64> {
        match self {
            Self::Seconds(n) | Self::Minutes(n) | Self::Hours(n) | Self::Days(n) => Some(n),
            Self::OneDay => Some(1),
            Self::JustNow | Self::AboutAMinute | Self::AboutAnHour => None,
        }
    }
}

impl std::fmt::Display for RelativeTime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::JustNow => f.write_str("just now"),
            Self::Seconds(n) => write!(f, "{n} seconds ago"),
            Self::AboutAMinute => f.write_str("about a minute ago"),
            Self::Minutes(n) => write!(f, "{n} minutes ago"),
            Self::AboutAnHour => f.write_str("about an hour ago"),
            Self::Hours(n) => write!(f, "{n} hours ago"),
            Self::OneDay => f.write_str("1 day ago"),
            Self::Days(n) => write!(f, "{n} days ago"),
        }
    }
}

/// The bucket an elapsed duration falls in (bounds in [`relative_time`]).
pub fn relative_time_bucket(elapsed: Duration) -> RelativeTime {
    const MINUTE: u64 = 60;
    const HOUR: u64 = 60 * MINUTE;
    const DAY: u64 = 24 * HOUR;
    let seconds = elapsed.as_secs();
    match seconds {
        0..5 => RelativeTime::JustNow,
        5..MINUTE => RelativeTime::Seconds(seconds),
        MINUTE..120 => RelativeTime::AboutAMinute,
        120..HOUR => RelativeTime::Minutes(seconds / MINUTE),
        HOUR..7200 => RelativeTime::AboutAnHour,
        7200..DAY => RelativeTime::Hours(seconds / HOUR),
        DAY..172_800 => RelativeTime::OneDay,
        _ => RelativeTime::Days(seconds / DAY),
    }
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};

    use super::*;

    fn check_sizes(sizes: &[u128], expect: Expect) {
        let table: String = sizes
            .iter()
            .map(|&s| format!("{s} -> {}\n", file_size(s)))
            .collect();
        expect.assert_eq(&table);
    }

    #[test]
    fn file_sizes_in_base_1024() {
        check_sizes(
            &[
                0,
                1,
                1023,
                1024,
                1536,
                1_048_575,
                1_048_576,
                2_415_919_104,
                1 << 80,
                u128::MAX,
            ],
            expect![[r#"
                0 -> 0 Bytes
                1 -> 1 Bytes
                1023 -> 1023 Bytes
                1024 -> 1 KB
                1536 -> 1.5 KB
                1048575 -> 1024 KB
                1048576 -> 1 MB
                2415919104 -> 2.25 GB
                1208925819614629174706176 -> 1 YB
                340282366920938463463374607431768211455 -> 281474976710656 YB
            "#]],
        );
        assert_eq!(file_size(u64::MAX), "16 EB");
        assert_eq!(file_size(1_288_490_188_u64), "1.2 GB");
    }

    fn check_times(seconds: &[u64], expect: Expect) {
        let table: String = seconds
            .iter()
            .map(|&s| format!("{s} -> {}\n", relative_time_for(Duration::from_secs(s))))
            .collect();
        expect.assert_eq(&table);
    }

    #[test]
    fn relative_time_buckets() {
        check_times(
            &[
                0, 4, 5, 59, 60, 119, 120, 3599, 3600, 7199, 7200, 86_399, 86_400, 172_799,
                172_800, 400_000,
            ],
            expect![[r#"
                0 -> just now
                4 -> just now
                5 -> 5 seconds ago
                59 -> 59 seconds ago
                60 -> about a minute ago
                119 -> about a minute ago
                120 -> 2 minutes ago
                3599 -> 59 minutes ago
                3600 -> about an hour ago
                7199 -> about an hour ago
                7200 -> 2 hours ago
                86399 -> 23 hours ago
                86400 -> 1 day ago
                172799 -> 1 day ago
                172800 -> 2 days ago
                400000 -> 4 days ago
            "#]],
        );
    }

    #[test]
    fn future_instants_read_just_now() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000);
        assert_eq!(
            relative_time(now, now + Duration::from_secs(30)),
            "just now"
        );
        assert_eq!(
            relative_time(now, now - Duration::from_secs(300)),
            "5 minutes ago"
        );
    }
}
