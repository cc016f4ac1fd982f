//! Conformance of the figures added to the dashboard with issue 18: campaigns and device
//! classes per page view, top products, newsletter sign-ups, script errors by fingerprint and
//! site version, plugin failures; and percentiles read through an adapter's roll-ups, which
//! must equal the nearest rank of the raw values over every range, page and rank.

use super::{DAY, about, hit, on_day};
use crate::analytics::{
    AnalyticsStore, DailyTotal, DailyViews, DayRange, ErrorGroup, KeyCount, PAGE_VIEW, Percentile,
    ReportKey, StoredHit, kinds, nearest_rank,
};
use crate::forms::conformance::join_all;

fn view(campaign: Option<&str>, device: Option<&str>, day: i64) -> StoredHit {
    on_day(
        StoredHit {
            campaign: campaign.map(str::to_owned),
            device: device.map(str::to_owned),
            ..hit(PAGE_VIEW, "v", false, 0)
        },
        day,
    )
}

fn counts(pairs: &[(&str, u64)]) -> Vec<KeyCount> {
    pairs
        .iter()
        .map(|(key, count)| KeyCount {
            key: (*key).to_owned(),
            count: *count,
        })
        .collect()
}

pub async fn campaigns_and_devices_are_counted_per_page_view(store: &impl AnalyticsStore) {
    let spring = Some("newsletter / email / spring");
    let ads = Some("ads / cpc / (none)");
    store
        .record_batch(&[
            view(spring, Some("mobile"), 10),
            view(spring, Some("desktop"), 10),
            view(ads, Some("mobile"), 11),
            view(None, Some("mobile"), 11),
            view(None, None, 11),
            view(ads, Some("tablet"), 12),
            // Another kind with the same columns is not a page view.
            StoredHit {
                campaign: spring.map(str::to_owned),
                device: Some("tablet".into()),
                ..on_day(hit(kinds::BUTTON_CLICK, "v", false, 0), 10)
            },
        ])
        .await
        .unwrap();
    let range = DayRange::custom(10, 11).unwrap();
    let top = |key| store.top(PAGE_VIEW, key, 10, range);
    assert_eq!(
        top(ReportKey::Campaign).await.unwrap(),
        counts(&[
            ("newsletter / email / spring", 2),
            ("ads / cpc / (none)", 1)
        ])
    );
    assert_eq!(
        top(ReportKey::Device).await.unwrap(),
        counts(&[("mobile", 3), ("desktop", 1)])
    );
    assert_eq!(
        store
            .top(PAGE_VIEW, ReportKey::Device, 1, DayRange::ALL)
            .await
            .unwrap(),
        counts(&[("mobile", 3)])
    );
}

pub async fn the_report_reads_products_sign_ups_errors_and_plugin_failures(
    store: &impl AnalyticsStore,
) {
    let error = |fingerprint: &str, version: u64, message: &str| {
        let data = serde_json::json!({
            "fingerprint": fingerprint,
            "siteVersion": version,
            "data": { "message": message },
        });
        about(
            kinds::JS_ERROR,
            "/",
            crate::analytics::subject_of(kinds::JS_ERROR, &data).as_deref(),
            None,
        )
    };
    let mut rows = vec![
        about(kinds::ORDER_ITEM, "/", Some("Ceramic mug"), None),
        about(kinds::ORDER_ITEM, "/", Some("Ceramic mug"), None),
        about(kinds::ORDER_ITEM, "/", Some("Linen apron"), None),
        on_day(hit(kinds::NEWSLETTER_SIGNUP, "a", false, 0), 1),
        on_day(hit(kinds::NEWSLETTER_SIGNUP, "b", true, 0), 1),
        on_day(hit(kinds::NEWSLETTER_SIGNUP, "c", false, 0), 3),
        error("00aa", 4, "cart is undefined"),
        error("00aa", 4, "cart is undefined"),
        error("00aa", 5, "cart is undefined"),
        error("11bb", 5, "gallery is not defined"),
        about(kinds::PLUGIN_FAILURE, "/", Some("tour-dates"), None),
    ];
    // Outside the range: not counted.
    rows.push(on_day(
        about(kinds::ORDER_ITEM, "/", Some("Linen apron"), None),
        9,
    ));
    store.record_batch(&rows).await.unwrap();
    let range = DayRange::custom(1, 3).unwrap();
    let report = crate::analytics::build_report(store, &Default::default(), range)
        .await
        .unwrap();
    assert_eq!(
        report.top_products,
        counts(&[("Ceramic mug", 2), ("Linen apron", 1)])
    );
    assert_eq!(
        report.newsletter_signups,
        vec![
            DailyTotal {
                day: 1,
                count: 2,
                sum: 0.0
            },
            DailyTotal {
                day: 3,
                count: 1,
                sum: 0.0
            },
        ]
    );
    let group = |fingerprint: &str, version, message: &str, count| ErrorGroup {
        fingerprint: Some(fingerprint.to_owned()),
        site_version: Some(version),
        message: message.to_owned(),
        count,
    };
    assert_eq!(
        report.errors,
        vec![
            group("00aa", 4, "cart is undefined", 2),
            group("00aa", 5, "cart is undefined", 1),
            group("11bb", 5, "gallery is not defined", 1),
        ]
    );
    assert_eq!(report.plugin_failures, counts(&[("tour-dates", 1)]));
}

/// Values at many scales, with repeats, negatives, zeros and round numbers (which sit on the
/// bounds of any bucketing an adapter may use), spread over pages and days.
fn metric_rows(seed: u64, count: usize) -> Vec<StoredHit> {
    const SCALES: [f64; 6] = [0.001, 0.1, 1.0, 250.0, 2500.0, 1.0e6];
    const ROUND: [f64; 8] = [0.0, 0.1, 0.25, 1.0, 10.0, 200.0, 2500.0, 4000.0];
    const PAGES: [&str; 3] = ["/", "/shop", "/about"];
    let mut state = seed;
    let mut next = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        state >> 33
    };
    (0..count)
        .map(|_| {
            let pick = next();
            let value = match pick % 5 {
                0 => ROUND[(next() % 8) as usize],
                1 => -((next() % 100) as f64) / 7.0,
                _ => (next() % 10_000) as f64 / 1000.0 * SCALES[(next() % 6) as usize],
            };
            let name = if next() % 4 == 0 { "CLS" } else { "LCP" };
            let page = PAGES[(next() % 3) as usize];
            on_day(
                about(kinds::PERFORMANCE, page, Some(name), Some(value)),
                (next() % 10) as i64,
            )
        })
        .collect()
}

/// The nearest-rank percentile of `rows`, computed here from the raw values.
fn raw_percentile(
    rows: &[StoredHit],
    name: &str,
    page: Option<&str>,
    per_mille: u32,
    range: DayRange,
) -> Option<Percentile> {
    let mut values: Vec<f64> = rows
        .iter()
        .filter(|row| row.subject.as_deref() == Some(name))
        .filter(|row| page.is_none() || row.page_path.as_deref() == page)
        .filter(|row| range.contains(row.recorded_at_ms.div_euclid(DAY)))
        .filter_map(|row| row.metric_value)
        .collect();
    values.sort_by(f64::total_cmp);
    let samples = values.len() as u64;
    nearest_rank(samples, per_mille).map(|rank| Percentile {
        value: values[rank as usize],
        samples,
    })
}

pub async fn percentiles_equal_the_raw_nearest_rank_over_every_range(store: &impl AnalyticsStore) {
    let rows = metric_rows(7, 400);
    // Several batches, so an adapter keeping roll-ups adds to days it has rolled up already.
    for batch in rows.chunks(90) {
        store.record_batch(batch).await.unwrap();
    }
    for first in 0..10 {
        for last in (first..10).step_by(3) {
            let range = DayRange::custom(first, last).unwrap();
            for page in [None, Some("/shop"), Some("/nowhere")] {
                for name in ["LCP", "CLS"] {
                    for per_mille in [1, 500, 750, 950, 1000] {
                        let stored = store
                            .percentile(kinds::PERFORMANCE, name, page, per_mille, range)
                            .await
                            .unwrap();
                        assert_eq!(
                            stored,
                            raw_percentile(&rows, name, page, per_mille, range),
                            "{name} {per_mille}‰ on {page:?} over {first}..={last}"
                        );
                    }
                }
            }
        }
    }
}

/// One batch far larger than an adapter's statement (thousands of rows, page views between
/// metric values, many values sharing a day, page and bucket) is written whole: every page view
/// counted, every value in the roll-ups.
pub async fn a_batch_of_thousands_is_written_whole(store: &impl AnalyticsStore) {
    let values = metric_rows(11, 2_600);
    let rows: Vec<StoredHit> = values
        .iter()
        .flat_map(|value| {
            let day = value.recorded_at_ms / DAY;
            [on_day(hit(PAGE_VIEW, "v", false, 0), day), value.clone()]
        })
        .collect();
    store.record_batch(&rows).await.unwrap();
    let views = store.daily_page_views(DayRange::ALL).await.unwrap();
    assert_eq!(views.iter().map(|day| day.views).sum::<u64>(), 2_600);
    for name in ["LCP", "CLS"] {
        for per_mille in [1, 250, 500, 750, 950, 999, 1000] {
            assert_eq!(
                store
                    .percentile(kinds::PERFORMANCE, name, None, per_mille, DayRange::ALL)
                    .await
                    .unwrap(),
                raw_percentile(&values, name, None, per_mille, DayRange::ALL),
                "{name} {per_mille}‰"
            );
        }
    }
}

/// The per-day figures add up over batches: a visitor seen again in a later batch of the
/// same day is one visitor, and counts and sums of every batch are added together.
pub async fn figures_add_up_over_batches(store: &impl AnalyticsStore) {
    let view = |visitor: &str, cookieless, day, path: &str| StoredHit {
        page_path: Some(path.to_owned()),
        ..hit(PAGE_VIEW, visitor, cookieless, day * DAY + 5)
    };
    let order = |total, day| {
        on_day(
            about(kinds::ORDER, "/checkout", Some("order"), Some(total)),
            day,
        )
    };
    store
        .record_batch(&[
            view("a", false, 10, "/"),
            view("b", false, 10, "/"),
            view("a", false, 10, "/"),
            view("a", false, 11, "/"),
            order(1250.0, 10),
        ])
        .await
        .unwrap();
    store
        .record_batch(&[
            view("a", false, 10, "/shop"),
            view("c", false, 10, "/"),
            view("h", true, 10, "/"),
            order(750.0, 10),
        ])
        .await
        .unwrap();
    let range = DayRange::custom(10, 11).unwrap();
    assert_eq!(
        store.daily_page_views(range).await.unwrap(),
        vec![
            DailyViews {
                day: 10,
                views: 6,
                visitors: 4,
                cookieless_views: 1
            },
            DailyViews {
                day: 11,
                views: 1,
                visitors: 1,
                cookieless_views: 0
            },
        ]
    );
    assert_eq!(
        store
            .top(PAGE_VIEW, ReportKey::PagePath, 10, range)
            .await
            .unwrap(),
        counts(&[("/", 6), ("/shop", 1)])
    );
    assert_eq!(
        store.daily_totals(kinds::ORDER, range).await.unwrap(),
        vec![DailyTotal {
            day: 10,
            count: 2,
            sum: 2000.0
        }]
    );
}

/// Two batches written at once that see the same visitor on the same day count them once.
pub async fn a_visitor_in_concurrent_batches_is_counted_once(store: &impl AnalyticsStore) {
    let batch = |other: &str| {
        vec![
            hit(PAGE_VIEW, "shared", false, 20 * DAY),
            hit(PAGE_VIEW, other, false, 20 * DAY + 1),
        ]
    };
    let (first, second) = (batch("x"), batch("y"));
    for written in join_all(vec![
        store.record_batch(&first),
        store.record_batch(&second),
    ])
    .await
    {
        written.unwrap();
    }
    let views = store.daily_page_views(DayRange::ALL).await.unwrap();
    assert_eq!((views[0].views, views[0].visitors), (4, 3));
}
