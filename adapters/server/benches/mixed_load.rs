//! The mixed visitor load benchmark: the release `vitrine serve` on the embedded SQLite
//! database, then on PostgreSQL (when `VITRINE_TEST_POSTGRES_URL` is set), each under the
//! workload of the `mixed_load` test for minutes: per kind, the rate, p50, p99 and errors, and
//! the server's resident memory sampled through the run. Run it with
//! `cargo xtask bench --load` (or `cargo bench -p vitrine --bench mixed_load -- --seconds N
//! --visitors N`); BENCHMARKS.md has the figures.

#[allow(dead_code)]
#[path = "../tests/forms_at_scale/server.rs"]
mod server;
#[allow(dead_code)]
#[path = "../tests/forms_at_scale/services.rs"]
mod services;
#[allow(dead_code)]
#[path = "../tests/mixed_load/workload.rs"]
mod workload;

use std::time::Duration;

use server::{NO_LIMITS, Server, run};
use services::Schema;

struct Options {
    seconds: u64,
    visitors: usize,
}

impl Options {
    /// `--seconds N` (default 300) and `--visitors N` (default 16); cargo's own `--bench`
    /// flag is ignored.
    fn parse() -> Self {
        let mut options = Self {
            seconds: 300,
            visitors: 16,
        };
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            let mut number = || {
                args.next()
                    .and_then(|value| value.parse().ok())
                    .unwrap_or_else(|| panic!("{arg} needs a number"))
            };
            match arg.as_str() {
                "--seconds" => options.seconds = number(),
                "--visitors" => options.visitors = number() as usize,
                _ => {}
            }
        }
        options
    }
}

/// Runs the workload against `server`, sampling its memory every few seconds meanwhile.
async fn measure(name: &str, server: &Server, options: &Options) {
    let pid = server.pid();
    let duration = Duration::from_secs(options.seconds);
    let sampler = tokio::spawn(async move {
        let mut samples = Vec::new();
        let interval = (duration / 10).max(Duration::from_secs(1));
        for _ in 0..=10 {
            samples.push(workload::resident_kib(pid).unwrap_or(0) / 1024);
            tokio::time::sleep(interval).await;
        }
        samples
    });
    let mut report = workload::run(&server.address, options.visitors, duration).await;
    let memory = sampler.await.unwrap();
    println!(
        "\n### {name}: {} visitors for {} s\n\n{}",
        options.visitors,
        options.seconds,
        report.table()
    );
    println!("Resident memory (MiB), sampled every tenth of the run: {memory:?}\n");
    if report.error_count() > 0 {
        println!("Errors:\n{}", report.error_samples());
    }
}

#[tokio::main]
async fn main() {
    let options = Options::parse();
    let data = tempfile::tempdir().unwrap();
    let sqlite = Server::start(data.path(), &["--form-limits", NO_LIMITS]);
    measure("SQLite", &sqlite, &options).await;
    drop(sqlite);

    if std::env::var_os("VITRINE_TEST_POSTGRES_URL").is_none() {
        println!("PostgreSQL skipped: set VITRINE_TEST_POSTGRES_URL to measure it too.");
        return;
    }
    let schema = Schema::fresh().await.expect("the PostgreSQL server");
    let data = tempfile::tempdir().unwrap();
    let data_dir = data.path().to_str().unwrap().to_owned();
    run(&[
        "import",
        "--demo",
        "--database-url",
        &schema.url,
        "--data-dir",
        &data_dir,
    ]);
    let postgres = Server::start(
        data.path(),
        &["--database-url", &schema.url, "--form-limits", NO_LIMITS],
    );
    measure("PostgreSQL", &postgres, &options).await;
}
