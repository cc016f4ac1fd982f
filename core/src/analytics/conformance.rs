//! The conformance suites of the analytics store and the consent receipt store: every adapter
//! runs the same assertions through `analytics_store_conformance!` and
//! `consent_receipt_store_conformance!`.

use super::{
    AnalyticsStore, DailyTotal, DailyViews, DayRange, FormConversion, KeyCount, PAGE_VIEW,
    Percentile, ReportKey, StoredHit, kinds,
};
use crate::consent::{
    ConsentChoice, ConsentReceipt, ConsentReceiptStore, ConsentSource, ReceiptId,
    RecordReceiptError,
};

#[macro_export]
macro_rules! analytics_store_conformance {
    ($make:expr) => {
        $crate::analytics_store_conformance!(@tests $make;
            batches_are_counted_per_day,
            other_kinds_are_not_page_views,
            top_lists_count_page_paths_and_subjects,
            percentiles_are_nearest_rank_per_metric,
            the_report_reads_every_figure,
            exposures_count_visitors_and_their_later_conversions,
            ranges_bound_every_figure,
            the_dashboard_compares_with_the_range_before,
            campaigns_and_devices_are_counted_per_page_view,
            the_report_reads_products_sign_ups_errors_and_plugin_failures,
            percentiles_equal_the_raw_nearest_rank_over_every_range,
            a_batch_of_thousands_is_written_whole,
            figures_add_up_over_batches,
            a_visitor_in_concurrent_batches_is_counted_once,
        );
    };
    (@tests $make:expr; $($name:ident),* $(,)?) => {
        $(
            #[tokio::test]
            async fn $name() {
                let store = $make;
                $crate::analytics::conformance::$name(&store).await;
            }
        )*
    };
}

#[macro_export]
macro_rules! consent_receipt_store_conformance {
    ($make:expr) => {
        $crate::consent_receipt_store_conformance!(@tests $make;
            receipts_are_kept_in_time_order_and_once,
            the_owners_receipt_table_is_paged_and_searched,
        );
    };
    (@tests $make:expr; $($name:ident),* $(,)?) => {
        $(
            #[tokio::test]
            async fn $name() {
                let store = $make;
                $crate::analytics::conformance::$name(&store).await;
            }
        )*
    };
}

mod figures;
pub use figures::*;

const DAY: i64 = 86_400_000;

fn hit(kind: &str, visitor: &str, cookieless: bool, at: i64) -> StoredHit {
    StoredHit {
        kind: kind.to_owned(),
        visitor_key: Some(visitor.to_owned()),
        cookieless,
        page_path: Some("/".to_owned()),
        data: "{\"pagePath\":\"/\"}".to_owned(),
        recorded_at_ms: at,
        subject: None,
        metric_value: None,
        campaign: None,
        device: None,
    }
}

fn about(kind: &str, path: &str, subject: Option<&str>, value: Option<f64>) -> StoredHit {
    StoredHit {
        page_path: Some(path.to_owned()),
        subject: subject.map(str::to_owned),
        metric_value: value,
        campaign: None,
        device: None,
        ..hit(kind, "v", false, DAY)
    }
}

pub async fn top_lists_count_page_paths_and_subjects(store: &impl AnalyticsStore) {
    store
        .record_batch(&[
            about(PAGE_VIEW, "/shop", Some("news.example"), None),
            about(PAGE_VIEW, "/shop", None, None),
            about(PAGE_VIEW, "/about", Some("news.example"), None),
            about(PAGE_VIEW, "/", Some("blog.example"), None),
            about("button-click", "/", Some("Shop now"), None),
        ])
        .await
        .unwrap();
    let pages = store
        .top(PAGE_VIEW, ReportKey::PagePath, 2, DayRange::ALL)
        .await
        .unwrap();
    assert_eq!(
        pages,
        vec![
            KeyCount {
                key: "/shop".into(),
                count: 2
            },
            KeyCount {
                key: "/".into(),
                count: 1
            },
        ]
    );
    let referrers = store
        .top(PAGE_VIEW, ReportKey::Subject, 10, DayRange::ALL)
        .await
        .unwrap();
    assert_eq!(
        referrers,
        vec![
            KeyCount {
                key: "news.example".into(),
                count: 2
            },
            KeyCount {
                key: "blog.example".into(),
                count: 1
            },
        ]
    );
    assert_eq!(
        store
            .top("nothing", ReportKey::Subject, 10, DayRange::ALL)
            .await
            .unwrap(),
        vec![]
    );
}

pub async fn percentiles_are_nearest_rank_per_metric(store: &impl AnalyticsStore) {
    let mut rows: Vec<StoredHit> = [400.0, 100.0, 300.0, 200.0]
        .into_iter()
        .map(|v| about(kinds::PERFORMANCE, "/", Some("LCP"), Some(v)))
        .collect();
    rows.push(about(kinds::PERFORMANCE, "/", Some("CLS"), Some(0.25)));
    rows.push(about(kinds::PERFORMANCE, "/", Some("LCP"), None));
    store.record_batch(&rows).await.unwrap();
    assert_eq!(
        store
            .percentile(kinds::PERFORMANCE, "LCP", None, 750, DayRange::ALL)
            .await
            .unwrap(),
        Some(Percentile {
            value: 300.0,
            samples: 4
        })
    );
    assert_eq!(
        store
            .percentile(kinds::PERFORMANCE, "CLS", None, 750, DayRange::ALL)
            .await
            .unwrap(),
        Some(Percentile {
            value: 0.25,
            samples: 1
        })
    );
    assert_eq!(
        store
            .percentile(kinds::PERFORMANCE, "INP", None, 750, DayRange::ALL)
            .await
            .unwrap(),
        None
    );
}

pub async fn the_report_reads_every_figure(store: &impl AnalyticsStore) {
    store
        .record_batch(&[
            about(PAGE_VIEW, "/", None, None),
            about(kinds::FORM_RENDER, "/contact", Some("contact"), None),
            about(kinds::FORM_RENDER, "/contact", Some("contact"), None),
            about(kinds::FORM_SUBMIT, "/contact", Some("contact"), None),
            about(kinds::FORM_SUBMIT, "/", Some("popup-overlay"), None),
            about(kinds::JS_ERROR, "/", Some("x is undefined"), None),
            about(kinds::PERFORMANCE, "/", Some("INP"), Some(80.0)),
        ])
        .await
        .unwrap();
    let report = super::build_report(store, &Default::default(), DayRange::ALL)
        .await
        .unwrap();
    assert_eq!(report.days.len(), 1);
    assert_eq!(
        report.top_pages,
        vec![KeyCount {
            key: "/".into(),
            count: 1
        }]
    );
    assert_eq!(
        report.form_conversion,
        vec![
            FormConversion {
                form_id: "contact".into(),
                renders: 2,
                submissions: 1,
                rate: Some(0.5)
            },
            FormConversion {
                form_id: "popup-overlay".into(),
                renders: 0,
                submissions: 1,
                rate: None
            },
        ]
    );
    assert_eq!(
        report.errors,
        vec![super::ErrorGroup {
            fingerprint: None,
            site_version: None,
            message: "x is undefined".into(),
            count: 1
        }]
    );
    let inp = report.web_vitals.iter().find(|v| v.name == "INP").unwrap();
    assert_eq!((inp.p75, inp.samples), (Some(80.0), 1));
    assert!(
        report
            .web_vitals
            .iter()
            .any(|v| v.name == "LCP" && v.p75.is_none())
    );
}

pub async fn exposures_count_visitors_and_their_later_conversions(store: &impl AnalyticsStore) {
    let exposure = |visitor: &str, cookieless: bool, variant: &str, at: i64| StoredHit {
        subject: Some(format!("home-headline={variant}")),
        ..hit(kinds::EXPERIMENT_EXPOSURE, visitor, cookieless, at)
    };
    store
        .record_batch(&[
            exposure("a", false, "control", DAY),
            exposure("a", false, "control", DAY + 5),
            exposure("b", false, "control", DAY),
            exposure("h1", true, "control", DAY),
            exposure("c", false, "warm", DAY),
            exposure("d", false, "warm", DAY),
            // a converts after seeing the control; b converted only before it; c orders, d
            // submits a form, both after the warm headline.
            hit(kinds::FORM_SUBMIT, "a", false, DAY + 10),
            hit(kinds::ORDER, "b", false, DAY - 1),
            hit(kinds::ORDER, "c", false, DAY + 1),
            hit(kinds::FORM_SUBMIT, "d", false, DAY + 2),
            hit(kinds::FORM_SUBMIT, "d", false, DAY + 3),
            hit(PAGE_VIEW, "h1", true, DAY + 1),
        ])
        .await
        .unwrap();
    let counts = store.exposure_counts().await.unwrap();
    assert_eq!(
        counts,
        vec![
            super::ExposureCount {
                subject: "home-headline=control".into(),
                visitors: 3,
                cookieless_visitors: 1,
                converted: 1,
            },
            super::ExposureCount {
                subject: "home-headline=warm".into(),
                visitors: 2,
                cookieless_visitors: 0,
                converted: 2,
            },
        ]
    );
}

pub async fn batches_are_counted_per_day(store: &impl AnalyticsStore) {
    store
        .record_batch(&[
            hit(PAGE_VIEW, "a", false, 10 * DAY + 1),
            hit(PAGE_VIEW, "a", false, 10 * DAY + 2),
            hit(PAGE_VIEW, "h1", true, 10 * DAY + 3),
        ])
        .await
        .unwrap();
    store
        .record_batch(&[hit(PAGE_VIEW, "b", false, 11 * DAY)])
        .await
        .unwrap();
    store.record_batch(&[]).await.unwrap();
    assert_eq!(
        store.daily_page_views(DayRange::ALL).await.unwrap(),
        vec![
            DailyViews {
                day: 10,
                views: 3,
                visitors: 2,
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
}

pub async fn other_kinds_are_not_page_views(store: &impl AnalyticsStore) {
    store
        .record_batch(&[hit("button-click", "a", false, DAY)])
        .await
        .unwrap();
    assert_eq!(store.daily_page_views(DayRange::ALL).await.unwrap(), vec![]);
}

pub async fn receipts_are_kept_in_time_order_and_once(store: &impl ConsentReceiptStore) {
    let receipt = |id: &str, at: i64| ConsentReceipt {
        id: ReceiptId::new(id).unwrap(),
        banner_version: 2,
        choice: ConsentChoice::Accepted,
        source: ConsentSource::Banner,
        recorded_at_ms: at,
    };
    store.record(&receipt("late", 20)).await.unwrap();
    store.record(&receipt("early", 10)).await.unwrap();
    assert!(matches!(
        store.record(&receipt("early", 30)).await,
        Err(RecordReceiptError::Duplicate)
    ));
    let ids: Vec<String> = store
        .all()
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.id.as_str().to_owned())
        .collect();
    assert_eq!(ids, ["early", "late"]);
}

/// The owner's table of receipts: newest first, searched in the id, choice and source.
pub async fn the_owners_receipt_table_is_paged_and_searched(store: &impl ConsentReceiptStore) {
    use crate::owners::tables::{TABLE_PAGE_SIZE, TableQuery};
    for n in 1..=26i64 {
        store
            .record(&ConsentReceipt {
                id: ReceiptId::new(format!("receipt-{n:02}")).unwrap(),
                banner_version: 1,
                choice: if n % 3 == 0 {
                    ConsentChoice::Declined
                } else {
                    ConsentChoice::Accepted
                },
                source: if n == 7 {
                    ConsentSource::Gpc
                } else {
                    ConsentSource::Banner
                },
                recorded_at_ms: 1_000 * n,
            })
            .await
            .unwrap();
    }
    let first = store
        .receipt_page(&TableQuery::page(None, 1).unwrap())
        .await
        .unwrap();
    assert_eq!(first.total, 26);
    assert_eq!(first.rows.len(), TABLE_PAGE_SIZE as usize);
    assert_eq!(first.rows[0].id.as_str(), "receipt-26");
    let second = store
        .receipt_page(&TableQuery::page(None, 2).unwrap())
        .await
        .unwrap();
    assert_eq!(second.rows.len(), 1);
    assert_eq!(second.rows[0].id.as_str(), "receipt-01");
    let search = |text: &'static str| async move {
        store
            .receipt_page(&TableQuery::page(Some(text), 1).unwrap())
            .await
            .unwrap()
    };
    assert_eq!(search("DECLINED").await.total, 8);
    assert_eq!(search("gpc").await.rows[0].id.as_str(), "receipt-07");
    assert_eq!(search("receipt-1").await.total, 10);
    assert_eq!(search("%").await.total, 0);
}

fn on_day(mut row: StoredHit, day: i64) -> StoredHit {
    row.recorded_at_ms = day * DAY + 7;
    row
}

pub async fn ranges_bound_every_figure(store: &impl AnalyticsStore) {
    let order = |cents: f64| about(kinds::ORDER, "/", None, Some(cents));
    store
        .record_batch(&[
            on_day(about(PAGE_VIEW, "/old", Some("old.example"), None), 9),
            on_day(about(PAGE_VIEW, "/shop", Some("news.example"), None), 10),
            on_day(about(PAGE_VIEW, "/shop", None, None), 11),
            on_day(about(PAGE_VIEW, "/late", None, None), 12),
            on_day(order(1999.0), 10),
            on_day(order(501.0), 10),
            on_day(order(100.0), 11),
            on_day(order(7.0), 12),
            on_day(
                about(kinds::PERFORMANCE, "/shop", Some("LCP"), Some(900.0)),
                10,
            ),
            on_day(
                about(kinds::PERFORMANCE, "/", Some("LCP"), Some(3000.0)),
                10,
            ),
            on_day(
                about(kinds::PERFORMANCE, "/shop", Some("LCP"), Some(5000.0)),
                12,
            ),
        ])
        .await
        .unwrap();
    let range = DayRange::custom(10, 11).unwrap();
    let days: Vec<(i64, u64)> = store
        .daily_page_views(range)
        .await
        .unwrap()
        .into_iter()
        .map(|d| (d.day, d.views))
        .collect();
    assert_eq!(days, [(10, 1), (11, 1)]);
    assert_eq!(
        store.daily_totals(kinds::ORDER, range).await.unwrap(),
        vec![
            DailyTotal {
                day: 10,
                count: 2,
                sum: 2500.0
            },
            DailyTotal {
                day: 11,
                count: 1,
                sum: 100.0
            },
        ]
    );
    assert_eq!(
        store
            .top(PAGE_VIEW, ReportKey::PagePath, 10, range)
            .await
            .unwrap(),
        vec![KeyCount {
            key: "/shop".into(),
            count: 2
        }]
    );
    assert_eq!(
        store
            .top(PAGE_VIEW, ReportKey::Subject, 10, range)
            .await
            .unwrap(),
        vec![KeyCount {
            key: "news.example".into(),
            count: 1
        }]
    );
    let p75 = |page| store.percentile(kinds::PERFORMANCE, "LCP", page, 750, range);
    assert_eq!(
        p75(Some("/shop")).await.unwrap(),
        Some(Percentile {
            value: 900.0,
            samples: 1
        })
    );
    assert_eq!(
        p75(None).await.unwrap(),
        Some(Percentile {
            value: 3000.0,
            samples: 2
        })
    );
    assert_eq!(p75(Some("/nowhere")).await.unwrap(), None);
}

pub async fn the_dashboard_compares_with_the_range_before(store: &impl AnalyticsStore) {
    store
        .record_batch(&[
            on_day(hit(PAGE_VIEW, "a", false, 0), 20),
            on_day(hit(PAGE_VIEW, "b", true, 0), 20),
            on_day(hit(PAGE_VIEW, "a", false, 0), 22),
            on_day(hit(PAGE_VIEW, "c", false, 0), 23),
            on_day(about(kinds::ORDER, "/", None, Some(1000.0)), 23),
        ])
        .await
        .unwrap();
    let range = DayRange::custom(22, 23).unwrap();
    let dashboard = super::build_dashboard(store, &Default::default(), range)
        .await
        .unwrap();
    assert_eq!(dashboard.previous_range, DayRange::custom(20, 21).ok());
    assert_eq!(
        dashboard.totals,
        super::PeriodTotals {
            views: 2,
            visitors: 2,
            cookieless_views: 0,
            orders: 1,
            revenue_cents: 1000
        }
    );
    assert_eq!(
        dashboard.previous_totals,
        Some(super::PeriodTotals {
            views: 2,
            visitors: 2,
            cookieless_views: 1,
            orders: 0,
            revenue_cents: 0
        })
    );
    let changes = dashboard.changes.unwrap();
    assert_eq!(changes.views, Some(0.0));
    assert_eq!(changes.orders, None);
}
