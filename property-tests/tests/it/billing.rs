//! Billing schedules of subscriptions against a tiny reference calendar: for any anchor
//! instant, billing period and cycle, the core's billing date is the anchor moved by whole
//! weeks, or by calendar months onto the anchor's day of the month (the month's last day
//! when it is shorter), at the anchor's time of day. Dates only ever move forward, and a
//! schedule never drifts: a short month does not pull later dates to an earlier day.

use proptest::prelude::*;
use vitrine_core::cart::Timestamp;
use vitrine_core::catalog::{BillingPeriod, BillingUnit};

const DAY: i64 = 86_400_000;

fn is_leap(year: i64) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a civil date, counted the slow, obvious way.
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let years: i64 = (1970..year)
        .map(|y| if is_leap(y) { 366 } else { 365 })
        .sum();
    let months: i64 = (1..month).map(|m| days_in_month(year, m)).sum();
    years + months + day - 1
}

/// The civil date of a day count since 1970-01-01, by walking years and months.
fn civil_from_days(mut days: i64) -> (i64, i64, i64) {
    let mut year = 1970;
    loop {
        let length = if is_leap(year) { 366 } else { 365 };
        if days < length {
            break;
        }
        days -= length;
        year += 1;
    }
    let mut month = 1;
    while days >= days_in_month(year, month) {
        days -= days_in_month(year, month);
        month += 1;
    }
    (year, month, days + 1)
}

/// The reference: when payment `cycle` falls due.
fn model(anchor: i64, period: BillingPeriod, cycle: u32) -> i64 {
    let steps = i64::from(period.value) * i64::from(cycle);
    let (day_count, time_of_day) = (anchor.div_euclid(DAY), anchor.rem_euclid(DAY));
    let months = match period.unit {
        BillingUnit::Week => return anchor + steps * 7 * DAY,
        BillingUnit::Month => steps,
        BillingUnit::Year => steps * 12,
    };
    let (year, month, day) = civil_from_days(day_count);
    let index = year * 12 + (month - 1) + months;
    let (year, month) = (index.div_euclid(12), index.rem_euclid(12) + 1);
    let day = day.min(days_in_month(year, month));
    days_from_civil(year, month, day) * DAY + time_of_day
}

fn period() -> impl Strategy<Value = BillingPeriod> {
    prop_oneof![
        (1u32..=52).prop_map(|value| BillingPeriod {
            value,
            unit: BillingUnit::Week
        }),
        (1u32..=24).prop_map(|value| BillingPeriod {
            value,
            unit: BillingUnit::Month
        }),
        (1u32..=5).prop_map(|value| BillingPeriod {
            value,
            unit: BillingUnit::Year
        }),
    ]
}

/// Instants from 1970 to 2199, weighted towards month ends, where the rules bite.
fn anchor() -> impl Strategy<Value = i64> {
    let month_end =
        (1970i64..2100, 1i64..=12, 0i64..4, 0..DAY).prop_map(|(year, month, back, time)| {
            let last = days_in_month(year, month);
            days_from_civil(year, month, last - back.min(last - 1)) * DAY + time
        });
    prop_oneof![
        1 => 0i64..(days_from_civil(2200, 1, 1) * DAY),
        2 => month_end,
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn billing_dates_agree_with_the_reference_calendar(
        anchor in anchor(),
        period in period(),
        cycles in 1u32..=60,
    ) {
        let mut previous = anchor;
        for cycle in 0..=cycles {
            let due = period
                .billing_date(Timestamp(anchor), cycle)
                .expect("dates before 2400 are on the calendar");
            prop_assert_eq!(due.millis(), model(anchor, period, cycle), "cycle {}", cycle);
            if cycle > 0 {
                prop_assert!(due.millis() > previous, "cycle {} moved backwards", cycle);
            }
            previous = due.millis();
        }
    }
}

#[test]
fn the_reference_calendar_knows_its_leap_years() {
    assert_eq!(civil_from_days(days_from_civil(2024, 2, 29)), (2024, 2, 29));
    assert_eq!(
        civil_from_days(days_from_civil(2100, 3, 1) - 1),
        (2100, 2, 28)
    );
    assert_eq!(
        days_from_civil(2000, 3, 1) - days_from_civil(2000, 2, 28),
        2
    );
    assert_eq!(civil_from_days(0), (1970, 1, 1));
}
