//! The mixed visitor workload, briefly, against a real `vitrine serve` on the embedded SQLite
//! database and on PostgreSQL: every page view, analytics hit, add to cart, checkout and form
//! submission must succeed. The long run with figures is the `mixed_load` benchmark.

#[allow(dead_code)]
#[path = "../forms_at_scale/server.rs"]
mod server;
#[allow(dead_code)]
#[path = "../forms_at_scale/services.rs"]
mod services;
mod workload;

use std::time::Duration;

use server::{NO_LIMITS, Server, run};
use services::Schema;
use workload::Kind;

/// Long enough for every kind to run many times, short enough for CI.
const RUN: Duration = Duration::from_secs(8);
const VISITORS: usize = 8;

async fn check(server: &Server) {
    let before = workload::resident_kib(server.pid());
    let mut report = workload::run(&server.address, VISITORS, RUN).await;
    let table = report.table();
    let after = workload::resident_kib(server.pid());
    eprintln!("{table}\nresident memory before and after, KiB: {before:?} {after:?}");
    assert_eq!(
        report.error_count(),
        0,
        "{}\n{}",
        report.error_samples(),
        server.log()
    );
    for kind in [
        Kind::PageView,
        Kind::AnalyticsHit,
        Kind::AddToCart,
        Kind::Checkout,
        Kind::FormSubmission,
    ] {
        assert!(
            report.count(kind) > 0,
            "{} never ran:\n{table}",
            kind.name()
        );
    }
    assert!(!server.log().contains("panicked"), "{}", server.log());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mixed_workload_on_sqlite_meets_no_error() {
    let data = tempfile::tempdir().unwrap();
    let server = Server::start(data.path(), &["--form-limits", NO_LIMITS]);
    check(&server).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mixed_workload_on_postgres_meets_no_error() {
    let Some(schema) = Schema::fresh().await else {
        return;
    };
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
    let server = Server::start(
        data.path(),
        &["--database-url", &schema.url, "--form-limits", NO_LIMITS],
    );
    check(&server).await;
}
