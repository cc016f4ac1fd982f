//! The census flush task: every flush interval, the rows that are due go from the HTTP
//! adapter's bounded buffer to the database, one transaction per batch, so a burst of page
//! views never waits on the database.

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use vitrine_core::analytics::AnalyticsStore;
use vitrine_http::CensusLog;

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// Flushes `census` into `store` for ever; spawn it next to the server.
pub async fn flush_forever(census: Arc<CensusLog>, store: Arc<dyn AnalyticsStore>) {
    let period = Duration::from_millis(
        u64::try_from(census.flush_interval_ms())
            .unwrap_or(1000)
            .max(10),
    );
    let mut ticker = tokio::time::interval(period);
    loop {
        ticker.tick().await;
        flush(&census, store.as_ref(), now_ms()).await;
    }
}

/// Writes what is due at `now_ms` (everything, with `i64::MAX`, at shutdown).
pub async fn flush(census: &CensusLog, store: &dyn AnalyticsStore, now_ms: i64) {
    if let Err(error) = census.flush_due(store, now_ms).await {
        tracing::error!(%error, "writing census rows failed; the batch was dropped");
    }
}
