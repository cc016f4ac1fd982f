//! The owner dashboard's queries over a year of generated traffic (not a test): each chart's
//! store query for the last 30 and the last 7 days, and the whole dashboard, on SQLite and,
//! when `VITRINE_TEST_POSTGRES_URL` is set, on PostgreSQL. Prints the p50 and p95 of each.
//!
//! `cargo bench -p vitrine-sql --bench dashboard -- --views 10000000` (the default is
//! 10 million page views over 365 days; pass fewer to run it quickly); also run by
//! `cargo xtask bench --dashboard`. `--database-url URL` times the queries on a database
//! that already holds such a year (one an earlier run wrote and kept), writing nothing.

use std::future::Future;
use std::time::{Duration, Instant};

use vitrine_core::analytics::{
    AnalyticsStore, DayRange, PAGE_VIEW, RangePreset, ReportKey, build_dashboard, kinds, sample_day,
};
use vitrine_sql::{Database, DatabaseKind};

mod support {
    pub mod postgres;
}

const DAYS: i64 = 365;
/// Each query runs this many times; the p95 is the 19th of 20.
const RUNS: usize = 20;
/// The year ends on this day (2026-11-26), so runs are comparable.
const LAST_DAY: i64 = 20_418;

/// The value after `--name` on the command line.
fn option(name: &str) -> Option<String> {
    std::env::args().skip_while(|arg| arg != name).nth(1)
}

fn views_per_day() -> u32 {
    let total: u64 = option("--views")
        .map(|views| views.parse().expect("--views is a number"))
        .unwrap_or(10_000_000);
    u32::try_from(total / DAYS as u64).expect("fewer views")
}

async fn fill(store: &dyn AnalyticsStore, views: u32) -> usize {
    let mut rows = 0;
    for day in LAST_DAY - DAYS + 1..=LAST_DAY {
        let traffic = sample_day(day, views, 1);
        rows += traffic.len();
        for batch in traffic.chunks(5_000) {
            store
                .record_batch(batch)
                .await
                .expect("the traffic is written");
        }
    }
    rows
}

async fn time<F, Fut, T>(query: F) -> (Duration, Duration)
where
    F: Fn() -> Fut,
    Fut: Future<Output = T>,
{
    let mut times = Vec::with_capacity(RUNS);
    for _ in 0..RUNS {
        let started = Instant::now();
        std::hint::black_box(query().await);
        times.push(started.elapsed());
    }
    times.sort();
    (times[RUNS / 2], times[RUNS * 95 / 100 - 1])
}

/// Writes a year of `views` page views a day into a migrated database.
async fn write_year(name: &str, database: &Database, views: u32) {
    database.migrate().await.expect("migrations apply");
    let started = Instant::now();
    let rows = fill(&*database.analytics_store(), views).await;
    println!(
        "{name}: {rows} rows ({} page views) written in {:.0} s",
        u64::from(views) * DAYS as u64,
        started.elapsed().as_secs_f64()
    );
}

/// Times the queries on a database that holds its year.
async fn measure(name: &str, database: &Database) {
    database.migrate().await.expect("migrations apply");
    let store = database.analytics_store();
    let experiments = Default::default();
    for preset in [RangePreset::Last30Days, RangePreset::Last7Days] {
        let range = DayRange::preset(preset, LAST_DAY);
        let store = &*store;
        let top = |kind: &'static str, key| move || store.top(kind, key, 10, range);
        let results = [
            (
                "views and visitors per day",
                time(|| store.daily_page_views(range)).await,
            ),
            (
                "orders and revenue per day",
                time(|| store.daily_totals(kinds::ORDER, range)).await,
            ),
            ("top pages", time(top(PAGE_VIEW, ReportKey::PagePath)).await),
            ("referrers", time(top(PAGE_VIEW, ReportKey::Subject)).await),
            (
                "button clicks",
                time(top(kinds::BUTTON_CLICK, ReportKey::Subject)).await,
            ),
            (
                "form renders",
                time(top(kinds::FORM_RENDER, ReportKey::Subject)).await,
            ),
            (
                "script errors",
                time(top(kinds::JS_ERROR, ReportKey::Subject)).await,
            ),
            ("campaigns", time(top(PAGE_VIEW, ReportKey::Campaign)).await),
            ("devices", time(top(PAGE_VIEW, ReportKey::Device)).await),
            (
                "top products",
                time(top(kinds::ORDER_ITEM, ReportKey::Subject)).await,
            ),
            (
                "newsletter sign-ups per day",
                time(|| store.daily_totals(kinds::NEWSLETTER_SIGNUP, range)).await,
            ),
            (
                "plugin failures",
                time(top(kinds::PLUGIN_FAILURE, ReportKey::Subject)).await,
            ),
            (
                "LCP p75, every page",
                time(|| store.percentile(kinds::PERFORMANCE, "LCP", None, 750, range)).await,
            ),
            (
                "LCP p75, one page",
                time(|| store.percentile(kinds::PERFORMANCE, "LCP", Some("/shop"), 750, range))
                    .await,
            ),
            (
                "whole dashboard",
                time(|| build_dashboard(store, &experiments, range)).await,
            ),
        ];
        for (query, (p50, p95)) in results {
            println!(
                "{name:<10} {:<12} {query:<28} p50 {:>8.1} ms   p95 {:>8.1} ms",
                preset.label(),
                p50.as_secs_f64() * 1000.0,
                p95.as_secs_f64() * 1000.0
            );
        }
    }
}

#[tokio::main]
async fn main() {
    if let Some(url) = option("--database-url") {
        let database = Database::connect(&url).await.expect("the database opens");
        let name = match database.kind() {
            DatabaseKind::Sqlite => "SQLite",
            DatabaseKind::Postgres => "PostgreSQL",
        };
        measure(name, &database).await;
        database.close().await;
        return;
    }
    let views = views_per_day();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite:{}", dir.path().join("bench.db").display());
    let sqlite = Database::connect(&url).await.expect("SQLite opens");
    write_year("SQLite", &sqlite, views).await;
    measure("SQLite", &sqlite).await;
    sqlite.close().await;

    let Ok(server) = std::env::var("VITRINE_TEST_POSTGRES_URL") else {
        println!("PostgreSQL skipped: set VITRINE_TEST_POSTGRES_URL to measure it");
        return;
    };
    let mut postgres = support::postgres::open(&server, "dashboard_bench").await;
    write_year("PostgreSQL", &postgres.database, views).await;
    // What autovacuum does after a bulk load, so the queries meet the tables as a running
    // server's would: with planner statistics, and pages marked all-visible for index-only
    // scans.
    postgres.vacuum_analyze().await;
    measure("PostgreSQL", &postgres.database).await;
    postgres.drop().await;
}
