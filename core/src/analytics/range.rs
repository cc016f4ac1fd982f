//! The span of days an analytics report covers, as the owner picks it on the dashboard (today,
//! the last 7 or 30 days, or two dates of their own), and the span just before it that the
//! dashboard compares with. Days are UTC day numbers since the Unix epoch, both ends included.

use serde::Serialize;

use super::report_text::iso_date;

/// The longest custom range: a year and a day, so a leap year fits whole.
pub const MAX_RANGE_DAYS: i64 = 366;

/// Days `first..=last`, both UTC day numbers since the Unix epoch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DayRange {
    first: i64,
    last: i64,
}

/// The ranges the dashboard offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RangePreset {
    Today,
    Last7Days,
    Last30Days,
}

impl RangePreset {
    pub const ALL: [Self; 3] = [Self::Today, Self::Last7Days, Self::Last30Days];

    /// The preset's name in the dashboard's address (`?range=7d`).
    pub const fn wire(self) -> &'static str {
        match self {
            Self::Today => "today",
            Self::Last7Days => "7d",
            Self::Last30Days => "30d",
        }
    }

    pub const fn label(self) -> &'static str {
        match self {
            Self::Today => "Today",
            Self::Last7Days => "Last 7 days",
            Self::Last30Days => "Last 30 days",
        }
    }

    pub fn from_wire(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|preset| preset.wire() == text)
    }

    const fn days(self) -> i64 {
        match self {
            Self::Today => 1,
            Self::Last7Days => 7,
            Self::Last30Days => 30,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DayRangeError {
    #[error("{0:?} is not a range: use today, 7d, 30d or custom.")]
    UnknownPreset(String),
    #[error("{0:?} is not a date: write it as YYYY-MM-DD.")]
    NotADate(String),
    #[error("The range ends before it starts.")]
    Reversed,
    #[error("A range may cover at most {MAX_RANGE_DAYS} days.")]
    TooLong,
}

impl DayRange {
    /// Every day there is: what `vitrine analytics report` reads without a range.
    pub const ALL: Self = Self {
        first: i64::MIN,
        last: i64::MAX,
    };

    /// The preset's days ending with `today` (the day number of now, UTC).
    pub const fn preset(preset: RangePreset, today: i64) -> Self {
        Self {
            first: today - (preset.days() - 1),
            last: today,
        }
    }

    /// Days `first..=last` as the owner chose them.
    pub fn custom(first: i64, last: i64) -> Result<Self, DayRangeError> {
        if last < first {
            return Err(DayRangeError::Reversed);
        }
        if last - first + 1 > MAX_RANGE_DAYS {
            return Err(DayRangeError::TooLong);
        }
        Ok(Self { first, last })
    }

    /// A custom range from two ISO dates (`YYYY-MM-DD`).
    pub fn from_dates(first: &str, last: &str) -> Result<Self, DayRangeError> {
        Self::custom(parse_iso_date(first)?, parse_iso_date(last)?)
    }

    pub const fn first(self) -> i64 {
        self.first
    }

    pub const fn last(self) -> i64 {
        self.last
    }

    /// How many days the range covers.
    pub const fn day_count(self) -> i64 {
        self.last.saturating_sub(self.first).saturating_add(1)
    }

    pub const fn contains(self, day: i64) -> bool {
        self.first <= day && day <= self.last
    }

    /// The range of the same length that ends the day before this one starts, which the
    /// dashboard compares with; `None` for [`DayRange::ALL`], which has no before.
    pub fn previous(self) -> Option<Self> {
        let last = self.first.checked_sub(1)?;
        let first = last.checked_sub(self.last.checked_sub(self.first)?)?;
        Some(Self { first, last })
    }

    /// Every day of the range, oldest first, so a chart shows the days without views too.
    pub fn days(self) -> impl Iterator<Item = i64> {
        self.first..=self.last
    }

    /// The range as the owner reads it: one date, or the first and last dates.
    pub fn describe(self) -> String {
        if self == Self::ALL {
            "All days".to_owned()
        } else if self.first == self.last {
            iso_date(self.first)
        } else {
            format!("{} to {}", iso_date(self.first), iso_date(self.last))
        }
    }
}

/// The range a request asks for: `range` is a preset's name (the last 7 days when absent), or
/// `custom` with the ISO dates `from` and `to`.
pub fn chosen_range(
    range: Option<&str>,
    from: Option<&str>,
    to: Option<&str>,
    today: i64,
) -> Result<DayRange, DayRangeError> {
    match range.unwrap_or(RangePreset::Last7Days.wire()) {
        "custom" => DayRange::from_dates(from.unwrap_or_default(), to.unwrap_or_default()),
        name => RangePreset::from_wire(name)
            .map(|preset| DayRange::preset(preset, today))
            .ok_or_else(|| DayRangeError::UnknownPreset(name.to_owned())),
    }
}

/// The day number of an ISO date (`YYYY-MM-DD`), the inverse of [`iso_date`] (H. Hinnant's
/// `days_from_civil`). The day must exist in its month.
pub fn parse_iso_date(text: &str) -> Result<i64, DayRangeError> {
    let bad = || DayRangeError::NotADate(text.to_owned());
    let mut parts = text.split('-');
    let (Some(year), Some(month), Some(day), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(bad());
    };
    if year.len() != 4 || month.len() != 2 || day.len() != 2 {
        return Err(bad());
    }
    let number = |part: &str| -> Result<i64, DayRangeError> {
        if part.bytes().all(|b| b.is_ascii_digit()) {
            part.parse().map_err(|_| bad())
        } else {
            Err(bad())
        }
    };
    let (y, m, d) = (number(year)?, number(month)?, number(day)?);
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let month_days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return Err(bad()),
    };
    if d < 1 || d > month_days {
        return Err(bad());
    }
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Ok(era * 146_097 + doe - 719_468)
}

/// The change from `previous` to `current` in percent, `None` when there was nothing before
/// (a change from zero has no percentage).
pub fn percent_change(current: u64, previous: u64) -> Option<f64> {
    (previous > 0).then(|| (current as f64 - previous as f64) * 100.0 / previous as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_end_today_and_compare_with_the_days_just_before() {
        let today = parse_iso_date("2026-11-26").unwrap();
        let week = DayRange::preset(RangePreset::Last7Days, today);
        assert_eq!(week.describe(), "2026-11-20 to 2026-11-26");
        assert_eq!(week.day_count(), 7);
        assert_eq!(
            week.previous().unwrap().describe(),
            "2026-11-13 to 2026-11-19"
        );
        let day = DayRange::preset(RangePreset::Today, today);
        assert_eq!(day.describe(), "2026-11-26");
        assert_eq!(day.previous().unwrap().describe(), "2026-11-25");
        let month = DayRange::preset(RangePreset::Last30Days, today);
        assert_eq!(month.previous().unwrap().day_count(), 30);
        assert_eq!(DayRange::ALL.previous(), None);
        assert_eq!(DayRange::ALL.describe(), "All days");
    }

    #[test]
    fn custom_ranges_are_checked() {
        assert_eq!(
            DayRange::from_dates("2026-02-01", "2026-01-31"),
            Err(DayRangeError::Reversed)
        );
        assert_eq!(
            DayRange::from_dates("2024-01-01", "2024-12-31").map(DayRange::day_count),
            Ok(366)
        );
        assert_eq!(
            DayRange::from_dates("2024-01-01", "2025-01-01"),
            Err(DayRangeError::TooLong)
        );
        for bad in [
            "2026-02-29",
            "2026-13-01",
            "26-01-01",
            "2026-1-01",
            "+026-01-01",
            "",
        ] {
            assert_eq!(
                parse_iso_date(bad),
                Err(DayRangeError::NotADate(bad.to_owned())),
                "{bad}"
            );
        }
        assert_eq!(parse_iso_date("1970-01-01"), Ok(0));
        assert_eq!(
            parse_iso_date("2024-02-29").map(iso_date).as_deref(),
            Ok("2024-02-29")
        );
        assert_eq!(RangePreset::from_wire("30d"), Some(RangePreset::Last30Days));
        assert_eq!(RangePreset::from_wire("year"), None);
    }

    #[test]
    fn a_request_names_a_preset_or_two_dates() {
        let today = parse_iso_date("2026-11-26").unwrap();
        assert_eq!(
            chosen_range(None, None, None, today),
            Ok(DayRange::preset(RangePreset::Last7Days, today))
        );
        assert_eq!(
            chosen_range(
                Some("custom"),
                Some("2026-11-01"),
                Some("2026-11-03"),
                today
            )
            .map(DayRange::day_count),
            Ok(3)
        );
        assert_eq!(
            chosen_range(Some("custom"), None, Some("2026-11-03"), today),
            Err(DayRangeError::NotADate(String::new()))
        );
        assert_eq!(
            chosen_range(Some("year"), None, None, today),
            Err(DayRangeError::UnknownPreset("year".into()))
        );
    }

    #[test]
    fn a_change_from_nothing_has_no_percentage() {
        assert_eq!(percent_change(5, 0), None);
        assert_eq!(percent_change(150, 100), Some(50.0));
        assert_eq!(percent_change(0, 4), Some(-100.0));
    }
}
