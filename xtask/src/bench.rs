//! `cargo xtask bench`: the benchmarks of BENCHMARKS.md, run against the release build.
//!
//! The measuring lives in `web/scripts/bench.mjs` (load test, JavaScript weight, Lighthouse),
//! `web/scripts/bench-analytics-latency.mjs` (page latency under a burst of hits),
//! `web/scripts/bench-pages.mjs` (cached pages against nginx, `--pages`) and
//! `web/e2e/bench/bridge-round-trip.bench.ts` (the native bridge's round trip, `--bridge`);
//! this command installs what it needs and passes its options through.

use anyhow::Result;

use crate::process::run;
use crate::web::{self, NPM_ENV};
use crate::workspace;

/// Runs the benchmark script; `args` go to it, e.g. `--out bench.md` or `--skip-lighthouse`.
pub fn run_benchmarks(args: &[String]) -> Result<()> {
    // The commerce benchmark (add to cart, place order on SQLite and PostgreSQL) is a Rust
    // bench of its own; `--commerce` runs it instead of the page benchmarks.
    if args.iter().any(|arg| arg == "--commerce") {
        return run(
            &workspace::root(),
            "cargo",
            &["bench", "-p", "vitrine-sql", "--bench", "commerce"],
            &[],
        );
    }
    // The owner dashboard's queries over a year of generated traffic on SQLite and
    // PostgreSQL: `--dashboard`, with the bench's own `--views N` (10 million by default)
    // after it.
    if let Some(at) = args.iter().position(|arg| arg == "--dashboard") {
        let mut bench = vec!["bench", "-p", "vitrine-sql", "--bench", "dashboard", "--"];
        bench.extend(args[at + 1..].iter().map(String::as_str));
        return run(&workspace::root(), "cargo", &bench, &[]);
    }
    // The mixed visitor load (page views, analytics hits, adds to cart, checkouts, form
    // submissions) against the release server on SQLite and PostgreSQL: `--load`, with the
    // bench's own `--seconds N`, `--visitors N`, `--rate N` and `--sample-seconds N` after it.
    if let Some(at) = args.iter().position(|arg| arg == "--load") {
        let mut bench = vec!["bench", "-p", "vitrine", "--bench", "mixed_load", "--"];
        bench.extend(args[at + 1..].iter().map(String::as_str));
        return run(&workspace::root(), "cargo", &bench, &[]);
    }
    // Subscription renewals charged per second by `vitrine billing run` against the fake of
    // Stripe's API at 50 ms a call, at several concurrencies: `--renewals`, with the bench's
    // own `--subscriptions N` and `--concurrency A,B` after it.
    if let Some(at) = args.iter().position(|arg| arg == "--renewals") {
        let mut bench = vec!["bench", "-p", "vitrine", "--bench", "renewals", "--"];
        bench.extend(args[at + 1..].iter().map(String::as_str));
        return run(&workspace::root(), "cargo", &bench, &[]);
    }
    // Stripe webhook events processed per second by the release server, at several
    // concurrencies: `--webhooks`, with the bench's own `--orders N` and `--concurrency A,B`
    // after it.
    if let Some(at) = args.iter().position(|arg| arg == "--webhooks") {
        let mut bench = vec!["bench", "-p", "vitrine", "--bench", "webhooks", "--"];
        bench.extend(args[at + 1..].iter().map(String::as_str));
        return run(&workspace::root(), "cargo", &bench, &[]);
    }
    // The native bridge's round trip in Chromium with the simulated app (the shell's own
    // bootstrap and handler), p50 and p99: `--bridge`, against the debug server the browser
    // tests use, since the server only serves the page.
    if args.iter().any(|arg| arg == "--bridge") {
        return bridge_round_trip();
    }
    // The image pipeline against vipsthumbnail on the same large JPEGs: `--images`.
    if args.iter().any(|arg| arg == "--images") {
        return crate::bench_images::run_image_benchmark();
    }
    web::install()?;
    // The release server embeds the example plugins the demo's about page uses.
    crate::plugins::build()?;
    // Cached pages against nginx serving the same bytes, with wrk: `--pages`, with the
    // script's own options after it. It needs nginx and wrk from the system, so it stays out
    // of `cargo xtask test`.
    if let Some(at) = args.iter().position(|arg| arg == "--pages") {
        let mut script = vec!["scripts/bench-pages.mjs"];
        // The documented `--pages -- --out pages.md` keeps its separator; node's argument
        // parser would read it as a positional argument and stop.
        script.extend(
            args[at + 1..]
                .iter()
                .map(String::as_str)
                .filter(|arg| *arg != "--"),
        );
        return run(&workspace::root().join("web"), "node", &script, NPM_ENV);
    }
    let mut script = vec!["run", "bench", "--"];
    script.extend(args.iter().map(String::as_str));
    run(&workspace::root().join("web"), "npm", &script, NPM_ENV)?;
    // Analytics ingest, batched against one transaction per row (PostgreSQL too when
    // VITRINE_TEST_POSTGRES_URL is set).
    run(
        &workspace::root(),
        "cargo",
        &["bench", "-p", "vitrine-sql", "--bench", "analytics_ingest"],
        &[],
    )?;
    // Home page latency with and without a concurrent burst of page views, on the release
    // server the page benchmarks built.
    run(
        &workspace::root().join("web"),
        "node",
        &["scripts/bench-analytics-latency.mjs"],
        NPM_ENV,
    )
}

fn bridge_round_trip() -> Result<()> {
    web::install()?;
    web::build()?;
    let binary = web::build_debug_server()?;
    web::run_against_server(&binary, "bench:bridge")
}
