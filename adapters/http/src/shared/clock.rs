//! The wall clock, read at the edge: the core takes time as an argument, and every handler
//! reads it here, in the unit its service counts in.

use std::time::{SystemTime, UNIX_EPOCH};

use vitrine_core::cart::Timestamp;

/// Milliseconds since the Unix epoch.
pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| {
            i64::try_from(elapsed.as_millis()).unwrap_or(i64::MAX)
        })
}

/// Milliseconds since the Unix epoch, as the cart and checkout services take it.
pub(crate) fn now() -> Timestamp {
    Timestamp(now_ms())
}

/// Seconds since the Unix epoch, as the form service and the rate limits take it.
pub(crate) fn now_secs() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|elapsed| elapsed.as_secs() as i64)
        .unwrap_or_default()
}

/// The system's clock as the core's clock port, for the page service (the calendar's current
/// month, the page cache's day).
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl vitrine_core::ports::Clock for SystemClock {
    fn now(&self) -> Timestamp {
        now()
    }
}
