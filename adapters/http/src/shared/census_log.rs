//! The census log: the rows every capability records (page views, events, quick views, form
//! submissions) wait here in a bounded buffer until the server's timer writes them to the
//! analytics store in batches, beside the salt of the day for cookieless visitor keys.

use std::sync::Mutex;

use serde::Serialize;
use vitrine_core::analytics::{
    AnalyticsStore, BatchPolicy, DailySalt, HitBuffer, PushOutcome, StoredHit, bounded_hit,
    campaign_of, day_number, device_of, kept_data, metric_value_of, subject_of,
};

/// Who a counted row belongs to (the core's, shared with experiment bucketing).
pub use vitrine_core::analytics::VisitorKey;

/// One recorded census row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CensusRow {
    pub kind: &'static str,
    pub visitor: Option<VisitorKey>,
    pub page_path: Option<String>,
    pub data: serde_json::Value,
    pub recorded_at_ms: i64,
}

impl CensusRow {
    /// The row as the analytics store keeps it, every text cut to its limit.
    pub fn to_stored(&self) -> StoredHit {
        let (visitor_key, cookieless) = match &self.visitor {
            Some(VisitorKey::Cookie(key)) => (Some(key.clone()), false),
            Some(VisitorKey::Cookieless(key)) => (Some(key.clone()), true),
            None => (None, false),
        };
        bounded_hit(StoredHit {
            kind: self.kind.to_owned(),
            visitor_key,
            cookieless,
            page_path: self.page_path.clone(),
            data: kept_data(self.kind, &self.data).to_string(),
            recorded_at_ms: self.recorded_at_ms,
            subject: subject_of(self.kind, &self.data),
            metric_value: metric_value_of(self.kind, &self.data),
            campaign: campaign_of(self.kind, &self.data),
            device: device_of(self.kind, &self.data),
        })
    }
}

/// The census rows waiting to be written, the salt of the day, and the global switch.
pub struct CensusLog {
    rows: Mutex<HitBuffer<CensusRow>>,
    salt: Mutex<Option<DailySalt>>,
    pub(crate) disabled: bool,
    flush_interval_ms: i64,
}

impl Default for CensusLog {
    fn default() -> Self {
        Self::new(BatchPolicy::default(), false)
    }
}

impl CensusLog {
    /// `disabled` is the global census flag of 000 s6: no hit is recorded.
    pub fn new(policy: BatchPolicy, disabled: bool) -> Self {
        Self {
            rows: Mutex::new(HitBuffer::new(policy)),
            salt: Mutex::new(None),
            disabled,
            flush_interval_ms: policy.flush_interval_ms,
        }
    }

    /// Buffers a row unless census is disabled; a full buffer drops it (and counts the drop).
    pub(crate) fn record(&self, row: CensusRow) {
        if !self.disabled {
            self.push(row);
        }
    }

    pub(crate) fn push(&self, row: CensusRow) -> PushOutcome {
        let now = row.recorded_at_ms;
        match self.rows.lock() {
            Ok(mut rows) => rows.push(row, now),
            Err(_) => PushOutcome::Dropped,
        }
    }

    /// Takes the rows due for writing (all of a batch once it is due).
    pub fn take_due(&self, now_ms: i64) -> Vec<CensusRow> {
        match self.rows.lock() {
            Ok(mut rows) if rows.flush_due(now_ms) => rows.take_batch(now_ms),
            _ => Vec::new(),
        }
    }

    /// Writes the rows that are due, one transaction per batch, until none is due; returns how
    /// many were written. Rows of a failed batch are lost (and logged by the caller): analytics
    /// must never hold memory for a database that is down.
    pub async fn flush_due(
        &self,
        store: &dyn AnalyticsStore,
        now_ms: i64,
    ) -> Result<usize, vitrine_core::ports::RepositoryError> {
        let mut written = 0;
        loop {
            let batch: Vec<StoredHit> = self
                .take_due(now_ms)
                .iter()
                .map(CensusRow::to_stored)
                .collect();
            if batch.is_empty() {
                return Ok(written);
            }
            store.record_batch(&batch).await?;
            written += batch.len();
        }
    }

    /// The policy's flush interval, for the caller's timer.
    pub fn flush_interval_ms(&self) -> i64 {
        self.flush_interval_ms
    }

    /// Rows waiting, and rows dropped because the buffer was full.
    pub fn counts(&self) -> (usize, u64) {
        self.rows
            .lock()
            .map(|rows| (rows.len(), rows.dropped()))
            .unwrap_or_default()
    }

    /// Today's salt, made fresh (random) when the day changes; yesterday's is forgotten.
    pub(crate) fn salt(&self, now_ms: i64) -> Option<DailySalt> {
        let mut guard = self.salt.lock().ok()?;
        let day = day_number(now_ms);
        if guard.as_ref().is_none_or(|salt| salt.day != day) {
            let mut secret = [0u8; 32];
            rand::fill(&mut secret);
            *guard = Some(DailySalt { day, secret });
        }
        guard.clone()
    }
}
