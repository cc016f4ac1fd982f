//! Add-to-cart and place-order latency (p50, p99) and throughput on SQLite and PostgreSQL,
//! through the core's `CartService` over each database's commerce store: the same calls the
//! HTTP handlers make, without HTTP. Run with `cargo xtask bench --commerce` (or `cargo bench
//! -p vitrine-sql --bench commerce`); PostgreSQL is measured when `VITRINE_BENCH_POSTGRES_URL`
//! names a database the benchmark may fill with a fresh schema.

use std::sync::Arc;
use std::time::{Duration, Instant};

use sqlx::{AssertSqlSafe, Connection, PgConnection};
use vitrine_core::cart::{CartToken, StoreRules, Timestamp};
use vitrine_core::catalog::{Product, Sku, Variant};
use vitrine_core::checkout::{CartService, IdempotencyKey};
use vitrine_core::enums::ProductType;
use vitrine_core::ports::conformance::fixture_site;
use vitrine_core::site::{ItemId, Site};
use vitrine_sql::Database;

/// Buyers measured one after another, for latency.
const SEQUENTIAL: usize = 500;
/// Buyers at once, and how many each, for throughput.
const WORKERS: usize = 8;
const PER_WORKER: usize = 100;

const NOW: Timestamp = Timestamp(1_700_000_000_000);

/// The fixture site with its tote as an unlimited service, so every buyer can buy it and no
/// shipping has to be chosen.
fn bench_site() -> Site {
    let mut site = fixture_site("Bench shop");
    for item in &mut site.items {
        if item.product.is_some() {
            item.product = Some(
                Product::new(
                    ProductType::Service,
                    vec![Variant {
                        sku: Sku::parse("TOTE-1").unwrap(),
                        price: 2_500,
                        sale_price: 0,
                        on_sale: false,
                        qty_in_stock: 0,
                        unlimited: true,
                        option_values: vec![],
                    }],
                )
                .unwrap(),
            );
        }
    }
    site
}

struct Timings {
    add: Vec<Duration>,
    place: Vec<Duration>,
}

async fn buy(service: &CartService, n: usize, timings: &mut Timings) {
    let token = CartToken::parse(format!("bench-cart-{n:08}")).unwrap();
    let item = ItemId::parse("tote").unwrap();
    let sku = Sku::parse("TOTE-1").unwrap();
    let started = Instant::now();
    service
        .add_item(&token, &item, &sku, 1, NOW)
        .await
        .expect("add to cart");
    timings.add.push(started.elapsed());
    let key = IdempotencyKey::parse(format!("bench-key-{n:08}")).unwrap();
    let started = Instant::now();
    service
        .place_order(
            &token,
            key,
            format!("bench-order-{n}"),
            "bench@example.com",
            NOW,
        )
        .await
        .expect("place order");
    timings.place.push(started.elapsed());
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index]
}

fn report(label: &str, mut samples: Vec<Duration>, throughput: f64) {
    samples.sort();
    println!(
        "| {label} | {:.2} ms | {:.2} ms | {throughput:.0} /s |",
        percentile(&samples, 0.50).as_secs_f64() * 1000.0,
        percentile(&samples, 0.99).as_secs_f64() * 1000.0,
    );
}

async fn measure(name: &str, database: Database) {
    database.migrate().await.expect("migrations");
    database
        .repository()
        .replace_site(&bench_site())
        .await
        .expect("the bench site");
    let service = Arc::new(CartService::new(
        database.repository(),
        database.commerce_store(),
        StoreRules::default(),
    ));
    // Latency: one buyer at a time.
    let mut timings = Timings {
        add: Vec::new(),
        place: Vec::new(),
    };
    for n in 0..SEQUENTIAL {
        buy(&service, n, &mut timings).await;
    }
    // Throughput: WORKERS buyers at once; each op type's rate over the whole run.
    let started = Instant::now();
    let mut tasks = Vec::new();
    for worker in 0..WORKERS {
        let service = service.clone();
        tasks.push(tokio::spawn(async move {
            let mut timings = Timings {
                add: Vec::new(),
                place: Vec::new(),
            };
            for n in 0..PER_WORKER {
                buy(&service, 1_000_000 + worker * PER_WORKER + n, &mut timings).await;
            }
            timings
        }));
    }
    let mut add_total = Duration::ZERO;
    let mut place_total = Duration::ZERO;
    for task in tasks {
        let timings = task.await.unwrap();
        add_total += timings.add.iter().sum::<Duration>();
        place_total += timings.place.iter().sum::<Duration>();
    }
    let elapsed = started.elapsed().as_secs_f64();
    let buyers = (WORKERS * PER_WORKER) as f64;
    // Each op's share of the wall time, so the two rates add up to the buyers' rate.
    let add_share = add_total.as_secs_f64() / (add_total + place_total).as_secs_f64();
    println!(
        "\n{name}: {SEQUENTIAL} sequential buyers; {WORKERS} concurrent workers x {PER_WORKER}"
    );
    println!("| operation | p50 | p99 | throughput ({WORKERS} workers) |\n|---|---|---|---|");
    report("add to cart", timings.add, buyers / (elapsed * add_share));
    report(
        "place order",
        timings.place,
        buyers / (elapsed * (1.0 - add_share)),
    );
    println!(
        "| whole purchase (add + place) | | | {:.0} /s |",
        buyers / elapsed
    );
    database.close().await;
}

#[tokio::main(flavor = "multi_thread")]
async fn main() {
    let directory = tempfile::tempdir().unwrap();
    let url = vitrine_sql::sqlite_url_for_data_dir(directory.path());
    measure(
        "SQLite (file, WAL)",
        Database::connect(&url).await.expect("SQLite"),
    )
    .await;
    match std::env::var("VITRINE_BENCH_POSTGRES_URL") {
        Ok(server_url) => {
            // A schema of its own, dropped afterwards; the name comes from a UUID, so
            // splicing it into SQL is safe.
            let schema = format!("vitrine_bench_{}", uuid::Uuid::new_v4().simple());
            let mut admin = PgConnection::connect(&server_url)
                .await
                .expect("PostgreSQL");
            sqlx::query(AssertSqlSafe(format!("CREATE SCHEMA {schema}")))
                .execute(&mut admin)
                .await
                .unwrap();
            let separator = if server_url.contains('?') { '&' } else { '?' };
            let url = format!("{server_url}{separator}options=-c%20search_path%3D{schema}");
            let database = Database::connect(&url).await.expect("PostgreSQL");
            measure("PostgreSQL", database).await;
            sqlx::query(AssertSqlSafe(format!("DROP SCHEMA {schema} CASCADE")))
                .execute(&mut admin)
                .await
                .unwrap();
        }
        Err(_) => println!("\nPostgreSQL: skipped (set VITRINE_BENCH_POSTGRES_URL)"),
    }
}
