//! Migration 0045's roll-ups on both databases: a database migrated only up to 0044, holding
//! two days of generated traffic, is migrated to the latest, and every per-day figure and top
//! list it reads from the roll-ups equals what the in-memory store counts from the same rows;
//! a batch written afterwards, whose visitors were seen before the migration, still counts
//! each of them once a day.

use sqlx::AssertSqlSafe;
use vitrine_core::analytics::{
    AnalyticsStore, DayRange, MemoryAnalyticsStore, PAGE_VIEW, ReportKey, StoredHit, day_number,
    kinds, sample_day,
};
use vitrine_sql::connect;

use crate::subscription_backfill::{postgres_until, sqlite_until};

/// The last migration before the daily counts.
const BEFORE_DAY_COUNTS: i64 = 44;

const DAYS: [i64; 2] = [20_000, 20_001];

fn quoted(text: Option<&str>) -> String {
    text.map_or("NULL".to_owned(), |text| {
        format!("'{}'", text.replace('\'', "''"))
    })
}

/// The rows as one `INSERT` of literals, for a database without the store's roll-ups.
fn insert_statement(rows: &[StoredHit]) -> String {
    let tuples: Vec<String> = rows
        .iter()
        .map(|row| {
            format!(
                "('{}', {}, {}, {}, {}, {}, {}, {}, {}, {}, {})",
                row.kind,
                quoted(row.visitor_key.as_deref()),
                if row.cookieless { "TRUE" } else { "FALSE" },
                quoted(row.page_path.as_deref()),
                quoted(Some(&row.data)),
                row.recorded_at_ms,
                day_number(row.recorded_at_ms),
                quoted(row.subject.as_deref()),
                row.metric_value
                    .map_or("NULL".to_owned(), |value| format!("{value:?}")),
                quoted(row.campaign.as_deref()),
                quoted(row.device.as_deref()),
            )
        })
        .collect();
    format!(
        "INSERT INTO analytics_events (kind, visitor_key, cookieless, page_path, data, \
         recorded_at, day, subject, metric_value, campaign, device) VALUES {}",
        tuples.join(", ")
    )
}

fn earlier_traffic() -> Vec<StoredHit> {
    DAYS.iter()
        .flat_map(|&day| sample_day(day, 300, 7))
        .collect()
}

/// Every figure the roll-ups serve, from both stores, equal.
async fn assert_same_figures(store: &dyn AnalyticsStore, memory: &MemoryAnalyticsStore) {
    let range = DayRange::custom(DAYS[0], DAYS[1]).unwrap();
    assert_eq!(
        store.daily_page_views(range).await.unwrap(),
        memory.daily_page_views(range).await.unwrap()
    );
    for kind in [kinds::ORDER, kinds::NEWSLETTER_SIGNUP] {
        assert_eq!(
            store.daily_totals(kind, range).await.unwrap(),
            memory.daily_totals(kind, range).await.unwrap(),
            "{kind}"
        );
    }
    let lists = [
        (PAGE_VIEW, ReportKey::PagePath),
        (PAGE_VIEW, ReportKey::Subject),
        (PAGE_VIEW, ReportKey::Campaign),
        (PAGE_VIEW, ReportKey::Device),
        (kinds::BUTTON_CLICK, ReportKey::Subject),
        (kinds::ORDER_ITEM, ReportKey::Subject),
    ];
    for (kind, key) in lists {
        assert_eq!(
            store.top(kind, key, 10, range).await.unwrap(),
            memory.top(kind, key, 10, range).await.unwrap(),
            "{kind} {key:?}"
        );
    }
}

/// Migrates the database at `url` to the latest and compares it with the same rows in
/// memory, before and after one more batch of the same visitors.
async fn check(url: &str, earlier: &[StoredHit]) {
    let database = connect(url).await.unwrap();
    database.migrate().await.unwrap();
    let store = database.analytics_store();
    let memory = MemoryAnalyticsStore::new();
    memory.record_batch(earlier).await.unwrap();
    assert!(
        !store
            .daily_page_views(DayRange::ALL)
            .await
            .unwrap()
            .is_empty(),
        "the migration filled the roll-ups"
    );
    assert_same_figures(&*store, &memory).await;

    let again = sample_day(DAYS[1], 300, 7);
    store.record_batch(&again).await.unwrap();
    memory.record_batch(&again).await.unwrap();
    assert_same_figures(&*store, &memory).await;
    database.close().await;
}

#[tokio::test]
async fn sqlite_fills_the_day_counts_from_the_rows_already_stored() {
    let directory = tempfile::tempdir().unwrap();
    let (pool, url) = sqlite_until(directory.path(), BEFORE_DAY_COUNTS).await;
    let earlier = earlier_traffic();
    sqlx::query(AssertSqlSafe(insert_statement(&earlier)))
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    check(&url, &earlier).await;
}

#[tokio::test]
async fn postgres_fills_the_day_counts_from_the_rows_already_stored() {
    let Some((url, _schema)) = crate::postgres::empty_schema().await else {
        return;
    };
    let pool = postgres_until(&url, BEFORE_DAY_COUNTS).await;
    let earlier = earlier_traffic();
    sqlx::query(AssertSqlSafe(insert_statement(&earlier)))
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    check(&url, &earlier).await;
}
