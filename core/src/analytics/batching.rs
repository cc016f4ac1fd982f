//! The ingest buffer's rules: a bounded buffer flushed every second or every N rows, dropping
//! (and counting) when full, so a burst of hits never slows pages nor grows memory without
//! bound. The server owns the timer and the transaction; this type owns the decisions.

use std::collections::VecDeque;

/// When to flush and how much to hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatchPolicy {
    /// The most rows held; a push beyond it is dropped.
    pub capacity: usize,
    /// Flush as soon as this many rows wait.
    pub flush_rows: usize,
    /// Flush rows that waited this long.
    pub flush_interval_ms: i64,
}

impl Default for BatchPolicy {
    fn default() -> Self {
        Self {
            capacity: 50_000,
            flush_rows: 1_000,
            flush_interval_ms: 1_000,
        }
    }
}

/// What happened to a pushed row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PushOutcome {
    Queued,
    /// Queued, and the buffer reached `flush_rows`: flush now.
    FlushNow,
    /// The buffer was full; the row was dropped and counted.
    Dropped,
}

/// A bounded buffer of rows waiting to be written.
#[derive(Debug)]
pub struct HitBuffer<T> {
    policy: BatchPolicy,
    rows: VecDeque<T>,
    oldest_ms: Option<i64>,
    dropped: u64,
}

impl<T> HitBuffer<T> {
    pub fn new(policy: BatchPolicy) -> Self {
        Self {
            policy,
            rows: VecDeque::new(),
            oldest_ms: None,
            dropped: 0,
        }
    }

    pub fn push(&mut self, row: T, now_ms: i64) -> PushOutcome {
        if self.rows.len() >= self.policy.capacity {
            self.dropped += 1;
            return PushOutcome::Dropped;
        }
        self.rows.push_back(row);
        self.oldest_ms.get_or_insert(now_ms);
        if self.rows.len() >= self.policy.flush_rows {
            PushOutcome::FlushNow
        } else {
            PushOutcome::Queued
        }
    }

    /// True when rows wait and either enough of them or the oldest waited long enough.
    pub fn flush_due(&self, now_ms: i64) -> bool {
        match self.oldest_ms {
            None => false,
            Some(oldest) => {
                self.rows.len() >= self.policy.flush_rows
                    || now_ms - oldest >= self.policy.flush_interval_ms
            }
        }
    }

    /// Takes up to `flush_rows` rows, oldest first, for one transaction.
    pub fn take_batch(&mut self, now_ms: i64) -> Vec<T> {
        let n = self.rows.len().min(self.policy.flush_rows);
        let batch: Vec<T> = self.rows.drain(..n).collect();
        self.oldest_ms = if self.rows.is_empty() {
            None
        } else {
            Some(now_ms)
        };
        batch
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Rows dropped because the buffer was full, since it was made.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }
}
