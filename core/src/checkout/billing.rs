//! Billing dates of a subscription: the instant each payment falls due, counted from the
//! instant the subscription started (its anchor), in UTC.
//!
//! Every date is computed from the anchor, never from the date before it, so a subscription
//! started on 31 January bills on 28 (or 29) February and on 31 March again, rather than
//! drifting to the 28th for good. A month or year without the anchor's day bills on its last
//! day. Weeks are exactly 7 days. The time of day is the anchor's.

use time::{Date, Duration, Month, OffsetDateTime};

use crate::cart::Timestamp;
use crate::catalog::{BillingPeriod, BillingUnit};

impl BillingPeriod {
    /// When payment number `cycle` falls due for a subscription anchored at `anchor`: cycle 0
    /// is the anchor itself (the first payment, taken at checkout), cycle 1 the next one.
    /// None when the date lies beyond the calendar this arithmetic covers (year 9999), which
    /// only absurd plans reach.
    pub fn billing_date(self, anchor: Timestamp, cycle: u32) -> Option<Timestamp> {
        let start =
            OffsetDateTime::from_unix_timestamp_nanos(i128::from(anchor.millis()) * 1_000_000)
                .ok()?;
        let steps = i64::from(self.value).checked_mul(i64::from(cycle))?;
        let due = match self.unit {
            BillingUnit::Week => start.checked_add(Duration::weeks(steps))?,
            BillingUnit::Month => add_months(start, steps)?,
            BillingUnit::Year => add_months(start, steps.checked_mul(12)?)?,
        };
        let millis = due.unix_timestamp_nanos() / 1_000_000;
        i64::try_from(millis).ok().map(Timestamp)
    }
}

/// `start` moved by whole calendar months, on the same day of the month or, when the target
/// month is shorter, on its last day.
fn add_months(start: OffsetDateTime, months: i64) -> Option<OffsetDateTime> {
    let index = i64::from(start.year()) * 12 + i64::from(u8::from(start.month())) - 1;
    let target = index.checked_add(months)?;
    let year = i32::try_from(target.div_euclid(12)).ok()?;
    let month = Month::try_from(u8::try_from(target.rem_euclid(12) + 1).ok()?).ok()?;
    let day = start.day().min(month.length(year));
    let date = Date::from_calendar_date(year, month, day).ok()?;
    Some(start.replace_date(date))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The instant of a UTC date and time written `YYYY-MM-DD HH:MM`.
    fn at(text: &str) -> Timestamp {
        let number = |range: std::ops::Range<usize>| text[range].parse::<i32>().unwrap();
        let month = Month::try_from(u8::try_from(number(5..7)).unwrap()).unwrap();
        let date = Date::from_calendar_date(number(0..4), month, number(8..10) as u8).unwrap();
        let instant = date
            .with_hms(number(11..13) as u8, number(14..16) as u8, 0)
            .unwrap()
            .assume_utc();
        Timestamp(i64::try_from(instant.unix_timestamp_nanos() / 1_000_000).unwrap())
    }

    fn every(value: u32, unit: BillingUnit) -> BillingPeriod {
        BillingPeriod { value, unit }
    }

    #[test]
    fn cycle_zero_is_the_anchor() {
        let anchor = at("2026-01-31 09:15");
        assert_eq!(
            every(1, BillingUnit::Month).billing_date(anchor, 0),
            Some(anchor)
        );
    }

    #[test]
    fn january_31_bills_on_the_last_day_of_february_then_on_the_31st_again() {
        let monthly = every(1, BillingUnit::Month);
        let anchor = at("2026-01-31 09:15");
        let dates: Vec<_> = (1..=3)
            .map(|cycle| monthly.billing_date(anchor, cycle))
            .collect();
        assert_eq!(
            dates,
            vec![
                Some(at("2026-02-28 09:15")),
                Some(at("2026-03-31 09:15")),
                Some(at("2026-04-30 09:15")),
            ]
        );
        // In a leap year February has its 29th.
        assert_eq!(
            monthly.billing_date(at("2028-01-31 00:00"), 1),
            Some(at("2028-02-29 00:00"))
        );
        assert_eq!(
            monthly.billing_date(at("2026-01-30 12:00"), 1),
            Some(at("2026-02-28 12:00"))
        );
    }

    #[test]
    fn february_29_bills_on_february_28_in_common_years_and_the_29th_in_leap_years() {
        let yearly = every(1, BillingUnit::Year);
        let anchor = at("2028-02-29 18:00");
        assert_eq!(yearly.billing_date(anchor, 1), Some(at("2029-02-28 18:00")));
        assert_eq!(yearly.billing_date(anchor, 4), Some(at("2032-02-29 18:00")));
        // 2100 is not a leap year (divisible by 100, not by 400); 2400 is.
        assert_eq!(
            every(1, BillingUnit::Month).billing_date(at("2100-01-29 00:00"), 1),
            Some(at("2100-02-28 00:00"))
        );
        assert_eq!(
            every(1, BillingUnit::Month).billing_date(at("2400-01-29 00:00"), 1),
            Some(at("2400-02-29 00:00"))
        );
    }

    #[test]
    fn months_cross_year_ends_and_multiples_count_from_the_anchor() {
        let quarterly = every(3, BillingUnit::Month);
        let anchor = at("2026-11-30 08:00");
        assert_eq!(
            quarterly.billing_date(anchor, 1),
            Some(at("2027-02-28 08:00"))
        );
        assert_eq!(
            quarterly.billing_date(anchor, 2),
            Some(at("2027-05-30 08:00"))
        );
        assert_eq!(
            every(1, BillingUnit::Month).billing_date(at("2026-12-15 08:00"), 1),
            Some(at("2027-01-15 08:00"))
        );
    }

    #[test]
    fn weeks_are_seven_days_whatever_the_month() {
        let fortnightly = every(2, BillingUnit::Week);
        let anchor = at("2026-02-20 10:00");
        assert_eq!(
            fortnightly.billing_date(anchor, 1),
            Some(at("2026-03-06 10:00"))
        );
        assert_eq!(
            fortnightly.billing_date(anchor, 3),
            Some(at("2026-04-03 10:00"))
        );
    }

    #[test]
    fn dates_past_the_calendar_are_none_rather_than_wrong() {
        let anchor = at("2026-01-01 00:00");
        assert_eq!(
            every(u32::MAX, BillingUnit::Year).billing_date(anchor, u32::MAX),
            None
        );
        assert_eq!(
            every(10_000, BillingUnit::Year).billing_date(anchor, 1),
            None
        );
    }
}
