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
    /// The month the calendar opens on; without one, the month of its first item.
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

/// The months a calendar shows: from the opening month (or the first dated entry's) to the
/// last dated entry's, at least one and at most [`MAX_CALENDAR_MONTHS`]. Entries are dated in
/// milliseconds since the Unix epoch, in UTC.
pub fn calendar_months<T: Clone>(
    dated: &[(i64, T)],
    opening: Option<YearMonth>,
) -> Vec<CalendarMonth<T>> {
    let months_of = dated
        .iter()
        .filter_map(|(millis, _)| YearMonth::of_millis(*millis));
    let first = opening
        .or_else(|| months_of.clone().min())
        .unwrap_or_else(|| YearMonth::new(1970, Month::January));
    let last = months_of.max().unwrap_or(first).max(first);
    let mut months = Vec::new();
    let mut month = first;
    while month <= last && months.len() < MAX_CALENDAR_MONTHS {
        months.push(month_grid(month, dated));
        month = month.next();
    }
    months
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
    while cells.len() % 7 != 0 {
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
        let months = calendar_months(&[(MARKET, "market"), (FAIR, "fair")], None);
        let names: Vec<String> = months.iter().map(|m| m.month.to_string()).collect();
        assert_eq!(names, ["2027-05", "2027-06", "2027-07"]);
        let may = &months[0];
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
        let months = calendar_months(&[(MARKET, "market")], opening);
        assert_eq!(months.len(), MAX_CALENDAR_MONTHS);
        assert_eq!(months[0].month.to_string(), "2024-01");
        let empty = calendar_months::<&str>(&[], opening);
        assert_eq!(empty.len(), 1);
    }
}
