//! The renewal run's throughput: `vitrine billing run` (the debug or release build cargo
//! benches with) on a SQLite data directory with `--subscriptions` renewals due, charging
//! through the fake of Stripe's API at 50 ms a call, with bounded concurrency. Prints
//! renewals charged per second for each concurrency, as a Markdown table for BENCHMARKS.md.
//!
//! Options: `--subscriptions N` (default 400), `--concurrency A,B,...` (default 1,8,32).

#[path = "support/args.rs"]
mod args;
#[path = "../tests/billing/seed.rs"]
mod seed;

use std::time::{Duration, Instant};

use vitrine_services::stripe_fake::FakeStripe;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let subscriptions: usize =
        args::option("--subscriptions").map_or(400, |n| n.parse().expect("a count"));
    let levels = args::concurrency_levels("1,8,32");
    println!("| concurrency | renewals | seconds | renewals charged per second |");
    println!("|---|---|---|---|");
    for concurrency in levels {
        let fake = FakeStripe::start().await;
        let data_dir = tempfile::tempdir().expect("a temporary directory");
        seed::seed(data_dir.path(), &fake, subscriptions).await;
        fake.slow_down(Duration::from_millis(50));
        let started = Instant::now();
        let output = seed::billing_run(data_dir.path(), &fake, concurrency as u32)
            .output()
            .expect("vitrine billing run starts");
        let seconds = started.elapsed().as_secs_f64();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let charged = fake
            .payment_intents()
            .iter()
            .filter(|intent| intent.status == "succeeded")
            .count();
        assert_eq!(charged, subscriptions, "every renewal due was charged once");
        println!(
            "| {concurrency} | {charged} | {seconds:.2} | {:.1} |",
            charged as f64 / seconds
        );
    }
}
