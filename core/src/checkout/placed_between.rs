//! A span of time orders were placed (and donations made) in: what an account may see and
//! erase of the orders and donations kept under an address it held for that span, and no
//! more (a later holder of the address has its own span).

use crate::cart::Timestamp;

/// Orders placed (or donations made) after `after` (none: since the beginning) and up to
/// `until` included (none: until now and on).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlacedBetween {
    pub after: Option<Timestamp>,
    pub until: Option<Timestamp>,
}

impl PlacedBetween {
    /// Every order, whenever placed.
    pub const ALWAYS: Self = Self {
        after: None,
        until: None,
    };

    pub fn contains(&self, placed: Timestamp) -> bool {
        self.after.is_none_or(|after| after < placed)
            && self.until.is_none_or(|until| placed <= until)
    }

    /// The bounds as a database compares them: `created > after AND created <= until`,
    /// an open end being the farthest instant.
    pub fn millis(&self) -> (i64, i64) {
        (
            self.after.map_or(i64::MIN, Timestamp::millis),
            self.until.map_or(i64::MAX, Timestamp::millis),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_span_leaves_out_its_start_and_keeps_its_end() {
        let span = PlacedBetween {
            after: Some(Timestamp(10)),
            until: Some(Timestamp(20)),
        };
        assert!(!span.contains(Timestamp(10)));
        assert!(span.contains(Timestamp(11)));
        assert!(span.contains(Timestamp(20)));
        assert!(!span.contains(Timestamp(21)));
        assert!(PlacedBetween::ALWAYS.contains(Timestamp(i64::MIN)));
        assert!(PlacedBetween::ALWAYS.contains(Timestamp(0)));
        assert_eq!(PlacedBetween::ALWAYS.millis(), (i64::MIN, i64::MAX));
    }
}
