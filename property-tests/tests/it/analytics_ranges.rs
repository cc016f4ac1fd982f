//! The dashboard's range arithmetic: presets end today, the previous range is as long and
//! ends the day before, ISO dates round-trip, and the analytics store's ranged figures agree
//! with a tiny model that filters the same rows by day (model-based over random rows and
//! ranges), so a range and the one before it always add up to the two together.

use std::collections::BTreeMap;

use proptest::prelude::*;
use vitrine_core::analytics::{
    AnalyticsStore, DayRange, DayRangeError, MAX_RANGE_DAYS, MemoryAnalyticsStore, PAGE_VIEW,
    RangePreset, ReportKey, StoredHit, iso_date, kinds, parse_iso_date,
};

const DAY_MS: i64 = 86_400_000;

fn preset() -> impl Strategy<Value = RangePreset> {
    prop_oneof![
        Just(RangePreset::Today),
        Just(RangePreset::Last7Days),
        Just(RangePreset::Last30Days),
    ]
}

#[derive(Debug, Clone)]
struct Row {
    order: bool,
    day: i64,
    page: usize,
    cents: u16,
}

fn row() -> impl Strategy<Value = Row> {
    (prop::bool::weighted(0.2), 0i64..40, 0usize..3, 1u16..10_000).prop_map(
        |(order, day, page, cents)| Row {
            order,
            day,
            page,
            cents,
        },
    )
}

const PAGES: [&str; 3] = ["/", "/shop", "/about"];

fn stored(row: &Row, at: usize) -> StoredHit {
    StoredHit {
        kind: if row.order { kinds::ORDER } else { PAGE_VIEW }.to_owned(),
        visitor_key: Some(format!("v{}", at % 5)),
        cookieless: false,
        page_path: Some(PAGES[row.page].to_owned()),
        data: "{}".to_owned(),
        recorded_at_ms: row.day * DAY_MS + (at as i64 % 1000),
        subject: None,
        metric_value: row.order.then_some(f64::from(row.cents)),
        campaign: None,
        device: None,
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
}

proptest! {
    #[test]
    fn presets_end_today_and_the_previous_range_is_as_long_and_just_before(
        preset in preset(),
        today in -1_000_000i64..1_000_000,
    ) {
        let range = DayRange::preset(preset, today);
        prop_assert_eq!(range.last(), today);
        let previous = range.previous().unwrap();
        prop_assert_eq!(previous.day_count(), range.day_count());
        prop_assert_eq!(previous.last() + 1, range.first());
        prop_assert!(!previous.contains(range.first()) && !range.contains(previous.last()));
        prop_assert_eq!(range.days().count() as i64, range.day_count());
    }

    #[test]
    fn a_custom_range_is_valid_exactly_when_ordered_and_short_enough(
        first in -100_000i64..100_000,
        length in -5i64..800,
    ) {
        let last = first + length - 1;
        let expected = if length < 1 {
            Err(DayRangeError::Reversed)
        } else if length > MAX_RANGE_DAYS {
            Err(DayRangeError::TooLong)
        } else {
            Ok(length)
        };
        prop_assert_eq!(DayRange::custom(first, last).map(DayRange::day_count), expected);
    }

    #[test]
    fn iso_dates_round_trip(day in -719_000i64..2_900_000) {
        prop_assert_eq!(parse_iso_date(&iso_date(day)), Ok(day));
    }

    #[test]
    fn ranged_figures_agree_with_the_model_and_add_up(
        rows in prop::collection::vec(row(), 0..120),
        first in 0i64..40,
        length in 1i64..20,
    ) {
        let range = DayRange::custom(first, first + length - 1).unwrap();
        let previous = range.previous().unwrap();
        let both = DayRange::custom(previous.first(), range.last()).unwrap();
        let store = MemoryAnalyticsStore::new();
        let hits: Vec<StoredHit> = rows.iter().enumerate().map(|(at, row)| stored(row, at)).collect();
        runtime().block_on(async {
            store.record_batch(&hits).await.unwrap();
            // The model: page views per day and per page, orders and revenue per day.
            let in_range = |row: &&Row, range: DayRange| range.contains(row.day);
            let mut views: BTreeMap<i64, u64> = BTreeMap::new();
            let mut pages: BTreeMap<&str, u64> = BTreeMap::new();
            let mut revenue = 0.0;
            for row in rows.iter().filter(|row| in_range(row, range)) {
                if row.order {
                    revenue += f64::from(row.cents);
                } else {
                    *views.entry(row.day).or_default() += 1;
                    *pages.entry(PAGES[row.page]).or_default() += 1;
                }
            }
            let daily: BTreeMap<i64, u64> = store
                .daily_page_views(range)
                .await
                .unwrap()
                .into_iter()
                .map(|day| (day.day, day.views))
                .collect();
            prop_assert_eq!(&daily, &views);
            let top: BTreeMap<String, u64> = store
                .top(PAGE_VIEW, ReportKey::PagePath, 10, range)
                .await
                .unwrap()
                .into_iter()
                .map(|count| (count.key, count.count))
                .collect();
            let model_top: BTreeMap<String, u64> =
                pages.into_iter().map(|(page, n)| (page.to_owned(), n)).collect();
            prop_assert_eq!(top, model_top);
            let sum: f64 = store
                .daily_totals(kinds::ORDER, range)
                .await
                .unwrap()
                .iter()
                .map(|day| day.sum)
                .sum();
            prop_assert_eq!(sum, revenue);
            let total = |days: Vec<vitrine_core::analytics::DailyViews>| {
                days.iter().map(|day| day.views).sum::<u64>()
            };
            prop_assert_eq!(
                total(store.daily_page_views(range).await.unwrap())
                    + total(store.daily_page_views(previous).await.unwrap()),
                total(store.daily_page_views(both).await.unwrap())
            );
            Ok(())
        })?;
    }
}
