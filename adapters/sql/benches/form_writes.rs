//! Durable form submissions per second and their latency, group commit against one
//! transaction per submission, on SQLite and PostgreSQL, in one run:
//!
//! ```sh
//! VITRINE_TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test \
//!     cargo bench -p vitrine-sql --bench form_writes
//! ```
//!
//! Each of `CLIENTS` tasks saves submissions under fresh keys, one after the other, for
//! `SECONDS`; a save counts when its commit has returned (SQLite syncs every commit). The two
//! ways take turns for `ROUNDS` rounds, so a burst of other work on the machine hits both, and
//! the round with the median rate of each is reported. Without the PostgreSQL variable only
//! SQLite is measured. Figures go to BENCHMARKS.md by hand.

use std::sync::Arc;
use std::time::{Duration, Instant};

use sqlx::{AssertSqlSafe, Connection, PgConnection};
use vitrine_core::forms::submission::{KEY_BYTES, fingerprint};
use vitrine_core::forms::{
    FieldValue, FormStore, NewSubmission, SaveOutcome, SubmissionKey, SubmittedValues,
};
use vitrine_sql::{SubmissionWrites, connect, sqlite_url_for_data_dir};

const CLIENTS: usize = 64;
const SECONDS: u64 = 5;
const ROUNDS: u8 = 3;
const WARM_UP: Duration = Duration::from_secs(1);

struct Figures {
    saved: usize,
    failed: usize,
    per_second: f64,
    p50: Duration,
    p99: Duration,
}

fn submission(client: usize, n: usize) -> NewSubmission {
    NewSubmission {
        form_id: "contact".into(),
        collection_id: Some("contact".into()),
        object_name: String::new(),
        is_overlay_form: false,
        values: SubmittedValues(vec![
            (
                "name".into(),
                FieldValue::List(vec!["Ada".into(), "Lovelace".into()]),
            ),
            ("email".into(), FieldValue::Single("ada@example.com".into())),
            (
                "message".into(),
                FieldValue::Single(format!(
                    "client {client}, message {n}: hello from the bench"
                )),
            ),
        ]),
        spam: false,
        subscription: None,
        created_at: 1_700_000_000,
        follow_up: Default::default(),
    }
}

fn key(run: u8, client: usize, n: usize) -> SubmissionKey {
    let mut bytes = [run; KEY_BYTES];
    bytes[1..9].copy_from_slice(&(client as u64).to_le_bytes());
    bytes[9..17].copy_from_slice(&(n as u64).to_le_bytes());
    SubmissionKey::from_random(bytes)
}

async fn measure(store: Arc<dyn FormStore>, run: u8) -> Figures {
    let start = Instant::now();
    let measure_from = start + WARM_UP;
    let stop = measure_from + Duration::from_secs(SECONDS);
    let tasks: Vec<_> = (0..CLIENTS)
        .map(|client| {
            let store = store.clone();
            tokio::spawn(async move {
                let (mut latencies, mut failed) = (Vec::new(), 0);
                let mut n = 0;
                while Instant::now() < stop {
                    let new = submission(client, n);
                    let print = fingerprint(&new.form_id, &new.object_name, &new.values);
                    let began = Instant::now();
                    let outcome = store.save(&key(run, client, n), &print, &new, 0).await;
                    let took = began.elapsed();
                    if began >= measure_from && Instant::now() <= stop {
                        match outcome {
                            Ok(SaveOutcome::Stored { .. }) => latencies.push(took),
                            _ => failed += 1,
                        }
                    }
                    n += 1;
                }
                (latencies, failed)
            })
        })
        .collect();
    let (mut latencies, mut failed) = (Vec::new(), 0);
    for task in tasks {
        let (mine, my_failures) = task.await.unwrap();
        latencies.extend(mine);
        failed += my_failures;
    }
    latencies.sort_unstable();
    let at = |quantile: f64| {
        latencies
            .get(((latencies.len() as f64 * quantile) as usize).min(latencies.len().max(1) - 1))
            .copied()
            .unwrap_or_default()
    };
    Figures {
        saved: latencies.len(),
        failed,
        per_second: latencies.len() as f64 / SECONDS as f64,
        p50: at(0.50),
        p99: at(0.99),
    }
}

fn row(database: &str, writes: &str, figures: &Figures) {
    println!(
        "| {database} | {writes} | {:.0} | {:.1} ms | {:.1} ms | {} | {} |",
        figures.per_second,
        figures.p50.as_secs_f64() * 1000.0,
        figures.p99.as_secs_f64() * 1000.0,
        figures.saved,
        figures.failed
    );
}

/// The round with the median rate.
fn median(mut rounds: Vec<Figures>) -> Figures {
    rounds.sort_by(|a, b| a.per_second.total_cmp(&b.per_second));
    rounds.swap_remove(rounds.len() / 2)
}

async fn compare(database: &str, url: &str) {
    let db = connect(url).await.expect("the database opens");
    db.migrate().await.expect("migrations apply");
    let (mut naive, mut grouped) = (Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        let one = measure(
            db.form_store_with(SubmissionWrites::PerSubmission),
            2 * round,
        )
        .await;
        let many = measure(
            db.form_store_with(SubmissionWrites::default()),
            2 * round + 1,
        )
        .await;
        eprintln!(
            "{database} round {}: {:.0}/s one per transaction, {:.0}/s group commit",
            round + 1,
            one.per_second,
            many.per_second
        );
        naive.push(one);
        grouped.push(many);
    }
    let (naive, grouped) = (median(naive), median(grouped));
    row(database, "one transaction per submission", &naive);
    row(database, "group commit", &grouped);
    println!(
        "| {database} | speed-up | {:.1}x | | | | |",
        grouped.per_second / naive.per_second.max(1.0)
    );
    db.close().await;
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        println!(
            "{CLIENTS} clients, {SECONDS} s each after {} s warm-up, median of {ROUNDS} rounds\n",
            WARM_UP.as_secs()
        );
        println!("| database | writes | submissions/s | p50 | p99 | saved | failed |");
        println!("|---|---|---:|---:|---:|---:|---:|");
        let directory = tempfile::tempdir().unwrap();
        compare("SQLite", &sqlite_url_for_data_dir(directory.path())).await;
        match std::env::var("VITRINE_TEST_POSTGRES_URL") {
            Ok(server_url) if !server_url.trim().is_empty() => {
                // A schema of the bench's own, dropped afterwards.
                let schema = format!("vitrine_bench_{}", std::process::id());
                let mut admin = PgConnection::connect(&server_url).await.unwrap();
                sqlx::query(AssertSqlSafe(format!("CREATE SCHEMA {schema}")))
                    .execute(&mut admin)
                    .await
                    .unwrap();
                let separator = if server_url.contains('?') { '&' } else { '?' };
                let url = format!("{server_url}{separator}options=-c%20search_path%3D{schema}");
                compare("PostgreSQL", &url).await;
                sqlx::query(AssertSqlSafe(format!("DROP SCHEMA {schema} CASCADE")))
                    .execute(&mut admin)
                    .await
                    .unwrap();
            }
            _ => eprintln!("PostgreSQL skipped: VITRINE_TEST_POSTGRES_URL is not set"),
        }
    });
}
