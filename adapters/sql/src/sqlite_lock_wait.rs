//! How a SQLite connection waits for another connection's write lock.
//!
//! SQLite has one writer at a time. A connection that finds the lock taken calls its busy
//! handler, sleeps as the handler says and tries again. SQLite's own handler (what
//! `busy_timeout` installs) sleeps 1, 2, 5, 10, 15, 20, 25... ms between tries. A write
//! transaction here holds the lock for a fraction of a millisecond to a few, so a waiter
//! usually wakes long after the lock came free: under the mixed visitor load those sleeps were
//! the slowest writes' time (BENCHMARKS.md). This handler tries again after 20 µs, doubling up
//! to 1 ms, and gives up after the same five seconds.

use std::ffi::{c_int, c_void};
use std::time::Duration;

use sqlx::sqlite::SqliteConnection;

/// How long a statement waits for another connection's write lock before giving up. Imports
/// write while visitors read; WAL lets readers go on, and writers queue for this long.
pub(crate) const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// The first pause, doubled on each try up to [`LONGEST_PAUSE`].
const FIRST_PAUSE: Duration = Duration::from_micros(20);
const LONGEST_PAUSE: Duration = Duration::from_millis(1);

/// The pause before try `tries + 1` (SQLite counts from 0), or `None` once the pauses so far
/// add up to [`BUSY_TIMEOUT`], when the statement fails with "database is locked".
pub(crate) fn pause_before_retry(tries: u32) -> Option<Duration> {
    // The doubling pauses reach LONGEST_PAUSE after `ramp` tries and add up to
    // FIRST_PAUSE * (2^ramp - 1) by then; every later pause is LONGEST_PAUSE.
    let ramp = (LONGEST_PAUSE.as_nanos() / FIRST_PAUSE.as_nanos()).ilog2() + 1;
    let waited = if tries < ramp {
        FIRST_PAUSE * ((1 << tries) - 1)
    } else {
        FIRST_PAUSE * ((1 << ramp) - 1) + LONGEST_PAUSE * (tries - ramp)
    };
    (waited < BUSY_TIMEOUT).then(|| (FIRST_PAUSE * (1 << tries.min(ramp))).min(LONGEST_PAUSE))
}

/// The busy handler SQLite calls on the connection's own thread (sqlx's worker for it), so
/// sleeping there holds up nothing else. Returning 0 makes the statement fail as locked.
extern "C" fn wait_for_lock(_: *mut c_void, tries: c_int) -> c_int {
    match pause_before_retry(u32::try_from(tries).unwrap_or(0)) {
        Some(pause) => {
            std::thread::sleep(pause);
            1
        }
        None => 0,
    }
}

/// Replaces the connection's busy handler (and so the `busy_timeout` sqlx set) with
/// [`wait_for_lock`]; the pool calls it for every connection it opens.
pub(crate) async fn install(connection: &mut SqliteConnection) -> Result<(), sqlx::Error> {
    let mut handle = connection.lock_handle().await?;
    let database = handle.as_raw_handle();
    // SAFETY: the handle is this connection's open database, locked for the duration of the
    // call; the handler is a plain function that keeps no pointer and takes no argument.
    let status = unsafe {
        libsqlite3_sys::sqlite3_busy_handler(
            database.as_ptr(),
            Some(wait_for_lock),
            std::ptr::null_mut(),
        )
    };
    if status == libsqlite3_sys::SQLITE_OK {
        Ok(())
    } else {
        Err(sqlx::Error::Protocol(format!(
            "SQLite refused the busy handler (code {status})"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pauses_start_short_double_and_stay_at_a_millisecond() {
        let pauses: Vec<Duration> = (0..9).map(|t| pause_before_retry(t).unwrap()).collect();
        let micros: Vec<u128> = pauses.iter().map(Duration::as_micros).collect();
        assert_eq!(micros, [20, 40, 80, 160, 320, 640, 1000, 1000, 1000]);
    }

    #[test]
    fn a_waiter_gives_up_once_its_pauses_add_up_to_the_busy_timeout() {
        let pauses: Vec<Duration> = (0..)
            .map_while(pause_before_retry)
            .take(1_000_000)
            .collect();
        let waited: Duration = pauses.iter().sum();
        assert!(waited >= BUSY_TIMEOUT, "gave up after {waited:?}");
        assert!(waited < BUSY_TIMEOUT + LONGEST_PAUSE, "waited {waited:?}");
        assert!(pause_before_retry(u32::try_from(pauses.len()).unwrap()).is_none());
        assert!(pause_before_retry(u32::MAX).is_none());
    }
}
