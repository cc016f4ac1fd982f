//! Analytics ingest throughput (not a test): census rows written in batches of one transaction
//! each, as the census buffer flushes them, against one transaction per row, on SQLite and, when
//! `VITRINE_TEST_POSTGRES_URL` is set, on PostgreSQL. Prints rows per second and the ratio.
//!
//! `cargo bench -p vitrine-sql --bench analytics_ingest` (also run by `cargo xtask bench`).

use std::time::Instant;

use vitrine_core::analytics::{AnalyticsStore, BatchPolicy, PAGE_VIEW, StoredHit};
use vitrine_sql::Database;

mod support {
    pub mod postgres;
}

/// Rows written in the batched run, and in the slower per-row run.
const BATCHED_ROWS: usize = 100_000;
const SINGLE_ROWS: usize = 5_000;

fn row(i: usize) -> StoredHit {
    StoredHit {
        kind: PAGE_VIEW.to_owned(),
        visitor_key: Some(format!("{:032x}", i % 5_000)),
        cookieless: i.is_multiple_of(3),
        page_path: Some(format!("/shop/item-{}", i % 40)),
        data: format!(
            r#"{{"pagePath":"/shop/item-{}","websiteId":"bench"}}"#,
            i % 40
        ),
        recorded_at_ms: 1_772_000_000_000 + i as i64,
        subject: i.is_multiple_of(7).then(|| "news.example".to_owned()),
        metric_value: None,
        campaign: None,
        device: None,
    }
}

/// Rows per second writing `rows` rows in batches of `batch` rows.
async fn rate(store: &dyn AnalyticsStore, rows: usize, batch: usize) -> f64 {
    let all: Vec<StoredHit> = (0..rows).map(row).collect();
    let started = Instant::now();
    for chunk in all.chunks(batch) {
        store
            .record_batch(chunk)
            .await
            .expect("the batch is written");
    }
    rows as f64 / started.elapsed().as_secs_f64()
}

async fn measure(name: &str, database: &Database) {
    database.migrate().await.expect("migrations apply");
    let store = database.analytics_store();
    let batch = BatchPolicy::default().flush_rows;
    let batched = rate(&*store, BATCHED_ROWS, batch).await;
    let single = rate(&*store, SINGLE_ROWS, 1).await;
    println!(
        "{name:<10} batched ({batch} rows per transaction): {batched:>9.0} rows/s   one transaction per row: {single:>7.0} rows/s   ratio {:.1}x",
        batched / single
    );
}

#[tokio::main]
async fn main() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite:{}", dir.path().join("bench.db").display());
    let sqlite = Database::connect(&url).await.expect("SQLite opens");
    measure("SQLite", &sqlite).await;
    sqlite.close().await;

    let Ok(server) = std::env::var("VITRINE_TEST_POSTGRES_URL") else {
        println!("PostgreSQL skipped: set VITRINE_TEST_POSTGRES_URL to measure it");
        return;
    };
    let postgres = support::postgres::open(&server, "bench").await;
    measure("PostgreSQL", &postgres.database).await;
    postgres.drop().await;
}
