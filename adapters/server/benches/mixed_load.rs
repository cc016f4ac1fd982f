//! The mixed visitor load benchmark: the release `vitrine serve` on the embedded SQLite
//! database, then on PostgreSQL (when `VITRINE_TEST_POSTGRES_URL` is set), each under the
//! workload of the `mixed_load` test for minutes: per kind, the rate, p50, p99 and errors, and
//! the server's resident memory sampled through the run. Run it with
//! `cargo xtask bench --load` (or `cargo bench -p vitrine --bench mixed_load -- --seconds N
//! --visitors N [--rate N] [--sample-seconds N]`); BENCHMARKS.md has the figures.

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
    /// Operations per second for all visitors together; none: as fast as answered.
    rate: Option<f64>,
    /// How often the server's memory is sampled (and printed as the run goes).
    sample_every: Duration,
}

impl Options {
    /// `--seconds N` (default 300), `--visitors N` (default 16), `--rate N` (operations per
    /// second; default: each visitor goes on as soon as answered) and `--sample-seconds N`
    /// (default: a tenth of the run); cargo's own `--bench` flag is ignored.
    fn parse() -> Self {
        let mut options = Self {
            seconds: 300,
            visitors: 16,
            rate: None,
            sample_every: Duration::ZERO,
        };
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            let mut number = || {
                args.next()
                    .and_then(|value| value.parse::<f64>().ok())
                    .filter(|value| *value > 0.0)
                    .unwrap_or_else(|| panic!("{arg} needs a positive number"))
            };
            match arg.as_str() {
                "--seconds" => options.seconds = number() as u64,
                "--visitors" => options.visitors = number() as usize,
                "--rate" => options.rate = Some(number()),
                "--sample-seconds" => options.sample_every = Duration::from_secs_f64(number()),
                _ => {}
            }
        }
        if options.sample_every.is_zero() {
            options.sample_every =
                (Duration::from_secs(options.seconds) / 10).max(Duration::from_secs(1));
        }
        options
    }
}

/// Runs the workload against `server`, sampling its memory meanwhile: each sample is
/// printed as it is taken (a long run can be watched), and all of them after the report.
async fn measure(name: &str, server: &Server, options: &Options) {
    let pid = server.pid();
    let duration = Duration::from_secs(options.seconds);
    let every = options.sample_every;
    let sampler = tokio::spawn(async move {
        let started = tokio::time::Instant::now();
        let mut samples = Vec::new();
        let mut ticks = tokio::time::interval(every);
        while started.elapsed() <= duration {
            ticks.tick().await;
            let mib = workload::resident_kib(pid).unwrap_or(0) / 1024;
            eprintln!("{:>6} s: {mib} MiB resident", started.elapsed().as_secs());
            samples.push(mib);
        }
        samples
    });
    let mut report =
        workload::run_paced(&server.address, options.visitors, duration, options.rate).await;
    let memory = sampler.await.unwrap();
    let pace = options.rate.map_or(String::new(), |rate| {
        format!(", paced at {rate} operations a second")
    });
    println!(
        "\n### {name}: {} visitors for {} s{pace}\n\n{}",
        options.visitors,
        options.seconds,
        report.table()
    );
    println!(
        "Resident memory (MiB), sampled every {} s: {memory:?}\n",
        every.as_secs_f64()
    );
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
