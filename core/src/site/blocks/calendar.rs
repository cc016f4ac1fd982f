//! The calendar block (type 26): a month grid of a collection's dated items (an events
//! collection's events, or any list's items by their publication date), with the months before
//! and after reachable by links that need no script.

use serde::{Deserialize, Serialize};
use time::{Date, Month, OffsetDateTime};

use crate::site::CollectionId;

/// The most months one calendar block spans, counted from the month it opens on.
pub const MAX_CALENDAR_MONTHS: usize = 24;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CalendarBlock {
    /// The collection whose items the calendar shows.
    pub collection: CollectionId,
    pub title: Option<String>,
    /// The month the calendar opens on; without one, the current month (see
    /// [`calendar_months`]).
    pub opening_month: Option<YearMonth>,
}

/// A month of a year, written `2027-05`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct YearMonth {
    year: i32,
    month: Month,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("expected a month such as 2027-05, found '{0}'")]
pub struct YearMonthError(String);

impl YearMonth {
    pub fn new(year: i32, month: Month) -> Self {
        Self { year, month }
    }

    pub fn parse(text: &str) -> Result<Self, YearMonthError> {
        let refuse = || YearMonthError(text.to_owned());
        let (year, month) = text.split_once('-').ok_or_else(refuse)?;
        if year.len() != 4 || month.len() != 2 {
            return Err(refuse());
        }
        let year: i32 = year.parse().map_err(|_| refuse())?;
        let month: u8 = month.parse().map_err(|_| refuse())?;
        let month = Month::try_from(month).map_err(|_| refuse())?;
        Ok(Self { year, month })
    }

    /// The month of a moment in milliseconds since the Unix epoch, in UTC.
    pub fn of_millis(millis: i64) -> Option<Self> {
        let moment =
            OffsetDateTime::from_unix_timestamp_nanos(i128::from(millis) * 1_000_000).ok()?;
        Some(Self::new(moment.year(), moment.month()))
    }

    pub fn year(self) -> i32 {
        self.year
    }

    pub fn month(self) -> Month {
        self.month
    }

    pub fn next(self) -> Self {
        match self.month {
            Month::December => Self::new(self.year + 1, Month::January),
            month => Self::new(self.year, month.next()),
        }
    }

    pub fn previous(self) -> Self {
        match self.month {
            Month::January => Self::new(self.year - 1, Month::December),
            month => Self::new(self.year, month.previous()),
        }
    }

    /// Months since January of year 0, so spans are differences.
    fn index(self) -> i64 {
        i64::from(self.year) * 12 + i64::from(u8::from(self.month)) - 1
    }

    fn from_index(index: i64) -> Self {
        let year = i32::try_from(index.div_euclid(12)).unwrap_or(i32::MAX);
        // rem_euclid(12) + 1 is 1 to 12, always a month.
        let month = Month::try_from(u8::try_from(index.rem_euclid(12) + 1).unwrap_or(1))
            .unwrap_or(Month::January);
        Self::new(year, month)
    }

    fn first_day(self) -> Date {
        // Day 1 exists in every month of every year `time` represents.
        Date::from_calendar_date(self.year, self.month, 1).unwrap_or(Date::MIN)
    }
}

impl std::fmt::Display for YearMonth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:04}-{:02}", self.year, u8::from(self.month))
    }
}

impl TryFrom<String> for YearMonth {
    type Error = YearMonthError;
    fn try_from(text: String) -> Result<Self, Self::Error> {
        Self::parse(&text)
    }
}

impl From<YearMonth> for String {
    fn from(month: YearMonth) -> Self {
        month.to_string()
    }
}

/// One month of the grid: weeks from Monday to Sunday, a day outside the month being `None`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CalendarMonth<T> {
    pub month: YearMonth,
    pub weeks: Vec<[Option<CalendarDay<T>>; 7]>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CalendarDay<T> {
    pub day: u8,
    /// The things dated on this day, in the order given.
    pub entries: Vec<T>,
}

/// The months a calendar shows, earliest first, and the month it opens on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CalendarGrid<T> {
    pub months: Vec<CalendarMonth<T>>,
    /// One of `months`: the one a visitor sees first.
    pub opening: YearMonth,
}

/// The months a calendar shows and the one it opens on. It opens on the owner's opening month
/// when set, else on `current` (the month the page is rendered in, from the clock port), else on
/// the first dated entry's month. The grid runs from the opening month (or, without an owner's
/// choice, the first dated entry's month when earlier, so past events stay reachable) to the
/// last dated entry's month or the opening month, whichever is later; at most
/// [`MAX_CALENDAR_MONTHS`], taken around the opening month when the span is longer. Entries are
/// dated in milliseconds since the Unix epoch, in UTC.
pub fn calendar_months<T: Clone>(
    dated: &[(i64, T)],
    chosen: Option<YearMonth>,
    current: Option<YearMonth>,
) -> CalendarGrid<T> {
    let months_of = dated
        .iter()
        .filter_map(|(millis, _)| YearMonth::of_millis(*millis));
    let earliest = months_of.clone().min();
    let opening = chosen
        .or(current)
        .or(earliest)
        .unwrap_or_else(|| YearMonth::new(1970, Month::January));
    let first = match (chosen, earliest) {
        (None, Some(earliest)) => earliest.min(opening),
        _ => opening,
    };
    let last = months_of.max().unwrap_or(opening).max(opening);
    let span = last.index() - first.index() + 1;
    let most = MAX_CALENDAR_MONTHS as i64;
    // Around the opening month: half the window before it, where the span allows.
    let start = if span > most {
        (opening.index() - most / 2).clamp(first.index(), last.index() - most + 1)
    } else {
        first.index()
    };
    let months = (start..=last.index())
        .take(MAX_CALENDAR_MONTHS)
        .map(|index| month_grid(YearMonth::from_index(index), dated))
        .collect();
    CalendarGrid { months, opening }
}

fn month_grid<T: Clone>(month: YearMonth, dated: &[(i64, T)]) -> CalendarMonth<T> {
    let first = month.first_day();
    let length = month.month.length(month.year);
    let lead = usize::from(first.weekday().number_days_from_monday());
    let mut cells: Vec<Option<CalendarDay<T>>> = vec![None; lead];
    for day in 1..=length {
        let entries = dated
            .iter()
            .filter(|(millis, _)| {
                OffsetDateTime::from_unix_timestamp_nanos(i128::from(*millis) * 1_000_000)
                    .is_ok_and(|moment| {
                        moment.year() == month.year
                            && moment.month() == month.month
                            && moment.day() == day
                    })
            })
            .map(|(_, entry)| entry.clone())
            .collect();
        cells.push(Some(CalendarDay { day, entries }));
    }
    while !cells.len().is_multiple_of(7) {
        cells.push(None);
    }
    let weeks = cells
        .chunks(7)
        .map(|week| std::array::from_fn(|index| week[index].clone()))
        .collect();
    CalendarMonth { month, weeks }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2027-05-29T09:00:00Z and 2027-07-04T00:00:00Z.
    const FAIR: i64 = 1_811_581_200_000;
    const MARKET: i64 = 1_814_659_200_000;

    #[test]
    fn months_are_written_and_read_as_year_dash_month() {
        let may = YearMonth::parse("2027-05").unwrap();
        assert_eq!(may.to_string(), "2027-05");
        assert_eq!(may.next().to_string(), "2027-06");
        assert_eq!(
            YearMonth::parse("2027-12").unwrap().next().to_string(),
            "2028-01"
        );
        assert_eq!(
            YearMonth::parse("2027-01").unwrap().previous().to_string(),
            "2026-12"
        );
        for bad in ["2027-13", "2027-5", "May 2027", "27-05"] {
            assert_eq!(
                YearMonth::parse(bad).unwrap_err().to_string(),
                format!("expected a month such as 2027-05, found '{bad}'")
            );
        }
    }

    #[test]
    fn the_grid_runs_from_the_first_to_the_last_dated_month_monday_first() {
        let grid = calendar_months(&[(MARKET, "market"), (FAIR, "fair")], None, None);
        let names: Vec<String> = grid.months.iter().map(|m| m.month.to_string()).collect();
        assert_eq!(names, ["2027-05", "2027-06", "2027-07"]);
        assert_eq!(grid.opening.to_string(), "2027-05");
        let may = &grid.months[0];
        // 1 May 2027 is a Saturday.
        assert_eq!(may.weeks[0][5].as_ref().map(|d| d.day), Some(1));
        assert!(may.weeks[0][4].is_none());
        let fair_day = may
            .weeks
            .iter()
            .flatten()
            .flatten()
            .find(|d| d.day == 29)
            .unwrap();
        assert_eq!(fair_day.entries, ["fair"]);
        assert_eq!(may.weeks.iter().flatten().flatten().count(), 31);
    }

    #[test]
    fn an_opening_month_starts_the_grid_and_the_span_is_capped() {
        let opening = YearMonth::parse("2024-01").ok();
        let grid = calendar_months(&[(MARKET, "market")], opening, None);
        assert_eq!(grid.months.len(), MAX_CALENDAR_MONTHS);
        assert_eq!(grid.months[0].month.to_string(), "2024-01");
        assert_eq!(grid.opening.to_string(), "2024-01");
        let empty = calendar_months::<&str>(&[], opening, None);
        assert_eq!(empty.months.len(), 1);
    }

    fn names<T>(grid: &CalendarGrid<T>) -> Vec<String> {
        grid.months.iter().map(|m| m.month.to_string()).collect()
    }

    #[test]
    fn without_an_owners_choice_the_calendar_opens_on_the_current_month() {
        let november = YearMonth::parse("2026-11").ok();
        // Events ahead: from this month to the last of them.
        let ahead = calendar_months(&[(FAIR, "fair")], None, november);
        assert_eq!(ahead.opening.to_string(), "2026-11");
        assert_eq!(names(&ahead).first().unwrap(), "2026-11");
        assert_eq!(names(&ahead).last().unwrap(), "2027-05");
        // Events behind: they stay reachable before this month.
        let august = YearMonth::parse("2027-08").ok();
        let behind = calendar_months(&[(FAIR, "fair"), (MARKET, "market")], None, august);
        assert_eq!(names(&behind), ["2027-05", "2027-06", "2027-07", "2027-08"]);
        assert_eq!(behind.opening.to_string(), "2027-08");
        // No events at all: this month alone.
        let nothing = calendar_months::<&str>(&[], None, november);
        assert_eq!(names(&nothing), ["2026-11"]);
        // The owner's choice still wins.
        let chosen = calendar_months(
            &[(FAIR, "fair")],
            YearMonth::parse("2027-05").ok(),
            november,
        );
        assert_eq!(chosen.opening.to_string(), "2027-05");
        assert_eq!(names(&chosen), ["2027-05"]);
    }

    #[test]
    fn a_long_span_keeps_the_months_around_the_current_one() {
        // Events from 2020 to 2027, rendered in 2024-06: twelve months either side of it.
        let january_2020 = 1_577_836_800_000;
        let grid = calendar_months(
            &[(january_2020, "old"), (MARKET, "market")],
            None,
            YearMonth::parse("2024-06").ok(),
        );
        assert_eq!(grid.months.len(), MAX_CALENDAR_MONTHS);
        assert_eq!(names(&grid).first().unwrap(), "2023-06");
        assert_eq!(names(&grid).last().unwrap(), "2025-05");
        assert!(grid.months.iter().any(|m| m.month == grid.opening));
    }

    #[test]
    fn month_indices_go_round_the_year() {
        for text in ["2026-12", "2027-01", "0000-01", "1999-07"] {
            let month = YearMonth::parse(text).unwrap();
            assert_eq!(YearMonth::from_index(month.index()), month);
        }
        assert_eq!(
            YearMonth::from_index(YearMonth::parse("2026-12").unwrap().index() + 1).to_string(),
            "2027-01"
        );
    }
}
