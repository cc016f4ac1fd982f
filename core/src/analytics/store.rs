//! The analytics store port: census rows written in batches (one transaction per batch), and
//! the daily page-view figures the owner's report reads. An in-memory implementation sits
//! beside it; the SQL adapters pass the same conformance suite.

use std::sync::Mutex;

use async_trait::async_trait;
use serde::Serialize;

use crate::ports::RepositoryError;

use super::range::DayRange;
use super::report::{KeyCount, Percentile, ReportKey, nearest_rank};

/// The kind of row a page view is stored as.
pub const PAGE_VIEW: &str = "page-view";

/// One census row as stored. `visitor_key` is the visitor cookie's id, or the cookieless daily
/// hash when `cookieless`; `data` is the JSON the browser sent. `subject` and `metric_value`
/// are what the owner's report groups and measures by (see [`super::report::subject_of`]);
/// `campaign` and `device` what a page view is counted under besides (see
/// [`super::segments`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StoredHit {
    pub kind: String,
    pub visitor_key: Option<String>,
    pub cookieless: bool,
    pub page_path: Option<String>,
    pub data: String,
    pub recorded_at_ms: i64,
    pub subject: Option<String>,
    pub metric_value: Option<f64>,
    pub campaign: Option<String>,
    pub device: Option<String>,
}

/// One line of [`AnalyticsStore::exposure_counts`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExposureCount {
    pub subject: String,
    pub visitors: u64,
    pub cookieless_visitors: u64,
    pub converted: u64,
}

/// Page views of one UTC day. Visitors counted by cookieless hash are estimates (one hash per
/// visitor per day), which `cookieless_views` lets the report say.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DailyViews {
    /// Days since the Unix epoch.
    pub day: i64,
    pub views: u64,
    pub visitors: u64,
    pub cookieless_views: u64,
}

/// Rows of one kind on one UTC day, and the sum of their metric values (an order's total in
/// the currency's minor unit, for revenue).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DailyTotal {
    pub day: i64,
    pub count: u64,
    pub sum: f64,
}

#[async_trait]
pub trait AnalyticsStore: Send + Sync {
    /// Writes every row or none.
    async fn record_batch(&self, rows: &[StoredHit]) -> Result<(), RepositoryError>;

    /// Page views per day of `range`, oldest day first; days without views are left out.
    async fn daily_page_views(&self, range: DayRange) -> Result<Vec<DailyViews>, RepositoryError>;

    /// Rows of `kind` per day of `range` with the sum of their metric values, oldest day
    /// first; days without rows are left out.
    async fn daily_totals(
        &self,
        kind: &str,
        range: DayRange,
    ) -> Result<Vec<DailyTotal>, RepositoryError>;

    /// The `limit` most frequent page paths (`ReportKey::PagePath`), subjects
    /// (`ReportKey::Subject`), campaigns or device classes among rows of `kind` recorded on a day of `range`, most frequent
    /// first, ties by key; rows without the key are not counted.
    async fn top(
        &self,
        kind: &str,
        key: ReportKey,
        limit: u32,
        range: DayRange,
    ) -> Result<Vec<KeyCount>, RepositoryError>;

    /// Per exposure subject (`experiment=variant`): the distinct visitors exposed, how many of
    /// them by the cookieless daily key, and how many of them converted (a row of a
    /// [`kinds::CONVERSIONS`](super::kinds::CONVERSIONS) kind with the same visitor key at or
    /// after one of their exposures). In subject order.
    async fn exposure_counts(&self) -> Result<Vec<ExposureCount>, RepositoryError>;

    /// The nearest-rank percentile (`per_mille`, 750 for p75) of the metric values of rows of
    /// `kind` about `subject` recorded on a day of `range` (and on page `page` when given),
    /// with the number of samples; `None` without samples.
    async fn percentile(
        &self,
        kind: &str,
        subject: &str,
        page: Option<&str>,
        per_mille: u32,
        range: DayRange,
    ) -> Result<Option<Percentile>, RepositoryError>;
}

/// An [`AnalyticsStore`] in memory.
#[derive(Debug, Default)]
pub struct MemoryAnalyticsStore {
    rows: Mutex<Vec<StoredHit>>,
}

impl MemoryAnalyticsStore {
    pub fn new() -> Self {
        Self::default()
    }
}

/// The rows of `kind` recorded on a day of `range`.
fn in_range<'a>(
    rows: &'a [StoredHit],
    kind: &'a str,
    range: DayRange,
) -> impl Iterator<Item = &'a StoredHit> {
    rows.iter().filter(move |row| {
        row.kind == kind && range.contains(super::day_number(row.recorded_at_ms))
    })
}

fn poisoned() -> RepositoryError {
    RepositoryError::Unavailable("a writer panicked".into())
}

#[async_trait]
impl AnalyticsStore for MemoryAnalyticsStore {
    async fn record_batch(&self, rows: &[StoredHit]) -> Result<(), RepositoryError> {
        self.rows
            .lock()
            .map_err(|_| poisoned())?
            .extend_from_slice(rows);
        Ok(())
    }

    async fn daily_page_views(&self, range: DayRange) -> Result<Vec<DailyViews>, RepositoryError> {
        use std::collections::{BTreeMap, BTreeSet};
        let rows = self.rows.lock().map_err(|_| poisoned())?;
        let mut days: BTreeMap<i64, (u64, BTreeSet<&str>, u64)> = BTreeMap::new();
        for row in in_range(&rows, PAGE_VIEW, range) {
            let entry = days
                .entry(super::day_number(row.recorded_at_ms))
                .or_default();
            entry.0 += 1;
            if let Some(key) = &row.visitor_key {
                entry.1.insert(key);
            }
            entry.2 += u64::from(row.cookieless);
        }
        Ok(days
            .into_iter()
            .map(|(day, (views, visitors, cookieless_views))| DailyViews {
                day,
                views,
                visitors: visitors.len() as u64,
                cookieless_views,
            })
            .collect())
    }

    async fn daily_totals(
        &self,
        kind: &str,
        range: DayRange,
    ) -> Result<Vec<DailyTotal>, RepositoryError> {
        use std::collections::BTreeMap;
        let rows = self.rows.lock().map_err(|_| poisoned())?;
        let mut days: BTreeMap<i64, (u64, f64)> = BTreeMap::new();
        for row in in_range(&rows, kind, range) {
            let entry = days
                .entry(super::day_number(row.recorded_at_ms))
                .or_default();
            entry.0 += 1;
            entry.1 += row.metric_value.unwrap_or(0.0);
        }
        Ok(days
            .into_iter()
            .map(|(day, (count, sum))| DailyTotal { day, count, sum })
            .collect())
    }

    async fn exposure_counts(&self) -> Result<Vec<ExposureCount>, RepositoryError> {
        use std::collections::{BTreeMap, BTreeSet};
        let rows = self.rows.lock().map_err(|_| poisoned())?;
        let mut subjects: BTreeMap<&str, (BTreeSet<&str>, BTreeSet<&str>, BTreeSet<&str>)> =
            BTreeMap::new();
        let exposures = rows
            .iter()
            .filter(|row| row.kind == super::kinds::EXPERIMENT_EXPOSURE);
        for exposure in exposures {
            let (Some(subject), Some(visitor)) = (&exposure.subject, &exposure.visitor_key) else {
                continue;
            };
            let entry = subjects.entry(subject).or_default();
            entry.0.insert(visitor);
            if exposure.cookieless {
                entry.1.insert(visitor);
            }
            let converted = rows.iter().any(|row| {
                super::kinds::CONVERSIONS.contains(&row.kind.as_str())
                    && row.visitor_key.as_deref() == Some(visitor.as_str())
                    && row.recorded_at_ms >= exposure.recorded_at_ms
            });
            if converted {
                entry.2.insert(visitor);
            }
        }
        Ok(subjects
            .into_iter()
            .map(
                |(subject, (visitors, cookieless, converted))| ExposureCount {
                    subject: subject.to_owned(),
                    visitors: visitors.len() as u64,
                    cookieless_visitors: cookieless.len() as u64,
                    converted: converted.len() as u64,
                },
            )
            .collect())
    }

    async fn top(
        &self,
        kind: &str,
        key: ReportKey,
        limit: u32,
        range: DayRange,
    ) -> Result<Vec<KeyCount>, RepositoryError> {
        use std::collections::BTreeMap;
        let rows = self.rows.lock().map_err(|_| poisoned())?;
        let mut counts: BTreeMap<&str, u64> = BTreeMap::new();
        for row in in_range(&rows, kind, range) {
            let value = match key {
                ReportKey::PagePath => row.page_path.as_deref(),
                ReportKey::Subject => row.subject.as_deref(),
                ReportKey::Campaign => row.campaign.as_deref(),
                ReportKey::Device => row.device.as_deref(),
            };
            if let Some(value) = value {
                *counts.entry(value).or_default() += 1;
            }
        }
        let mut counts: Vec<KeyCount> = counts
            .into_iter()
            .map(|(key, count)| KeyCount {
                key: key.to_owned(),
                count,
            })
            .collect();
        counts.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.key.cmp(&b.key)));
        counts.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
        Ok(counts)
    }

    async fn percentile(
        &self,
        kind: &str,
        subject: &str,
        page: Option<&str>,
        per_mille: u32,
        range: DayRange,
    ) -> Result<Option<Percentile>, RepositoryError> {
        let rows = self.rows.lock().map_err(|_| poisoned())?;
        let mut values: Vec<f64> = in_range(&rows, kind, range)
            .filter(|row| row.subject.as_deref() == Some(subject))
            .filter(|row| page.is_none() || row.page_path.as_deref() == page)
            .filter_map(|row| row.metric_value)
            .collect();
        values.sort_by(f64::total_cmp);
        let samples = values.len() as u64;
        Ok(nearest_rank(samples, per_mille).map(|rank| Percentile {
            value: values[usize::try_from(rank).unwrap_or(0)],
            samples,
        }))
    }
}
