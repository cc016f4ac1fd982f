//! The conformance suites of the analytics store and the consent receipt store: every adapter
//! runs the same assertions through `analytics_store_conformance!` and
//! `consent_receipt_store_conformance!`.

use super::{AnalyticsStore, DailyViews, PAGE_VIEW, StoredHit};
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

const DAY: i64 = 86_400_000;

fn hit(kind: &str, visitor: &str, cookieless: bool, at: i64) -> StoredHit {
    StoredHit {
        kind: kind.to_owned(),
        visitor_key: Some(visitor.to_owned()),
        cookieless,
        page_path: Some("/".to_owned()),
        data: "{\"pagePath\":\"/\"}".to_owned(),
        recorded_at_ms: at,
    }
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
        store.daily_page_views().await.unwrap(),
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
    assert_eq!(store.daily_page_views().await.unwrap(), vec![]);
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
