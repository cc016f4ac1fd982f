//! The clock port: "now" for the rules that depend on it while a page is made (the calendar
//! block opens on the current month). The core never reads a clock of its own; the composition
//! root passes the system's, tests a fixed one they move by hand.

use std::sync::atomic::{AtomicI64, Ordering};

use crate::cart::Timestamp;

pub trait Clock: Send + Sync {
    /// Now, in milliseconds since the Unix epoch.
    fn now(&self) -> Timestamp;
}

/// A clock that shows the time it was set to: the in-memory implementation, for tests.
#[derive(Debug, Default)]
pub struct FixedClock(AtomicI64);

impl FixedClock {
    pub fn at(now: Timestamp) -> Self {
        Self(AtomicI64::new(now.millis()))
    }

    /// Moves the clock to `now` (a test crossing midnight).
    pub fn set(&self, now: Timestamp) {
        self.0.store(now.millis(), Ordering::Relaxed);
    }
}

impl Clock for FixedClock {
    fn now(&self) -> Timestamp {
        Timestamp(self.0.load(Ordering::Relaxed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fixed_clock_shows_what_it_was_set_to() {
        let clock = FixedClock::at(Timestamp(5));
        assert_eq!(clock.now(), Timestamp(5));
        clock.set(Timestamp(86_400_000));
        assert_eq!(clock.now(), Timestamp(86_400_000));
    }
}
