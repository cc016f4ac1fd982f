//! The analytics store and the consent receipt store on SQL. A batch of census rows is one
//! transaction, which is what makes batched ingest fast; both backends share the statements
//! and, through a macro, the method bodies.

use std::fmt;

use sqlx::{PgPool, SqlitePool};
use vitrine_core::consent::{ConsentChoice, ConsentSource};

/// The analytics and consent receipt stores of a SQLite database.
#[derive(Clone)]
pub struct SqliteAnalyticsStore {
    pool: SqlitePool,
}

/// The analytics and consent receipt stores of a PostgreSQL database.
#[derive(Clone)]
pub struct PostgresAnalyticsStore {
    pool: PgPool,
}

impl SqliteAnalyticsStore {
    pub(crate) fn new(pool: SqlitePool) -> Self {
        Self { pool }
    }
}

impl PostgresAnalyticsStore {
    pub(crate) fn new(pool: PgPool) -> Self {
        Self { pool }
    }
}

impl fmt::Debug for SqliteAnalyticsStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SqliteAnalyticsStore")
            .finish_non_exhaustive()
    }
}

impl fmt::Debug for PostgresAnalyticsStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PostgresAnalyticsStore")
            .finish_non_exhaustive()
    }
}

pub(crate) fn parse_choice(text: &str) -> Option<ConsentChoice> {
    match text {
        "accepted" => Some(ConsentChoice::Accepted),
        "declined" => Some(ConsentChoice::Declined),
        _ => None,
    }
}

pub(crate) fn parse_source(text: &str) -> Option<ConsentSource> {
    match text {
        "banner" => Some(ConsentSource::Banner),
        "gpc" => Some(ConsentSource::Gpc),
        _ => None,
    }
}

fn count(value: i64) -> u64 {
    u64::try_from(value).unwrap_or(0)
}

/// The bucket holding the value of 0-based `rank` among `buckets` (bucket and count, lowest
/// first), the next bucket with values (whose lower bound ends it), and the rank's place
/// within the bucket.
fn bucket_of_rank(buckets: &[(i64, i64)], rank: u64) -> Option<(i64, Option<i64>, u64)> {
    let mut below = 0;
    for (at, (bucket, n)) in buckets.iter().enumerate() {
        let n = count(*n);
        if rank < below + n {
            let next = buckets.get(at + 1).map(|(next, _)| *next);
            return Some((*bucket, next, rank - below));
        }
        below += n;
    }
    None
}

macro_rules! sql_analytics_store {
    ($store:ty) => {
        #[async_trait::async_trait]
        impl vitrine_core::analytics::AnalyticsStore for $store {
            async fn record_batch(
                &self,
                rows: &[vitrine_core::analytics::StoredHit],
            ) -> Result<(), vitrine_core::ports::RepositoryError> {
                use $crate::errors::repository_error;
                if rows.is_empty() {
                    return Ok(());
                }
                let mut transaction = self
                    .pool
                    .begin()
                    .await
                    .map_err(repository_error("starting an analytics batch"))?;
                for chunk in rows.chunks($crate::analytics_statements::ROWS_PER_INSERT) {
                    sqlx::QueryBuilder::new($crate::analytics_statements::INSERT_EVENTS)
                        .push_values(chunk, |mut values, row| {
                            values
                                .push_bind(&row.kind)
                                .push_bind(row.visitor_key.as_deref())
                                .push_bind(row.cookieless)
                                .push_bind(row.page_path.as_deref())
                                .push_bind(&row.data)
                                .push_bind(row.recorded_at_ms)
                                .push_bind(vitrine_core::analytics::day_number(row.recorded_at_ms))
                                .push_bind(row.subject.as_deref())
                                .push_bind(row.metric_value)
                                .push_bind(row.campaign.as_deref())
                                .push_bind(row.device.as_deref());
                        })
                        .build()
                        // Each length of batch is a statement of its own: preparing them once
                        // each would crowd the form store's statements out of the cache.
                        .persistent(false)
                        .execute(&mut *transaction)
                        .await
                        .map_err(repository_error("writing analytics rows"))?;
                    let valued: Vec<_> = chunk
                        .iter()
                        .filter_map(|row| Some((row, row.subject.as_deref()?, row.metric_value?)))
                        .collect();
                    if valued.is_empty() {
                        continue;
                    }
                    sqlx::QueryBuilder::new($crate::analytics_statements::COUNT_METRIC_VALUES_HEAD)
                        .push_values(valued, |mut values, (row, subject, value)| {
                            values
                                .push_bind(&row.kind)
                                .push_bind(subject)
                                .push_bind(vitrine_core::analytics::day_number(row.recorded_at_ms))
                                .push_bind(row.page_path.as_deref().unwrap_or(""))
                                .push_bind(value);
                        })
                        .push($crate::analytics_statements::COUNT_METRIC_VALUES_TAIL)
                        .build()
                        .persistent(false)
                        .execute(&mut *transaction)
                        .await
                        .map_err(repository_error("rolling up metric values"))?;
                }
                let visitors: Vec<_> = vitrine_core::analytics::page_view_visitors(rows)
                    .into_iter()
                    .collect();
                let mut new_visitors = std::collections::BTreeMap::<i64, u64>::new();
                for chunk in visitors.chunks($crate::analytics_statements::COUNTS_PER_INSERT) {
                    let days: Vec<(i64,)> =
                        sqlx::QueryBuilder::new($crate::analytics_statements::REMEMBER_VISITORS)
                            .push_values(chunk, |mut values, (day, visitor)| {
                                values.push_bind(*day).push_bind(*visitor);
                            })
                            .push($crate::analytics_statements::REMEMBER_VISITORS_TAIL)
                            .build_query_as()
                            .persistent(false)
                            .fetch_all(&mut *transaction)
                            .await
                            .map_err(repository_error("remembering the day's visitors"))?;
                    for (day,) in days {
                        *new_visitors.entry(day).or_default() += 1;
                    }
                }
                let counts = vitrine_core::analytics::day_counts(rows, &new_visitors);
                for chunk in counts.chunks($crate::analytics_statements::COUNTS_PER_INSERT) {
                    sqlx::QueryBuilder::new($crate::analytics_statements::ADD_DAY_COUNTS)
                        .push_values(chunk, |mut values, count| {
                            values
                                .push_bind(count.kind)
                                .push_bind(count.counted.name())
                                .push_bind(count.day)
                                .push_bind(count.label)
                                .push_bind(i64::try_from(count.n).unwrap_or(i64::MAX))
                                .push_bind(count.sum);
                        })
                        .push($crate::analytics_statements::ADD_DAY_COUNTS_TAIL)
                        .build()
                        .persistent(false)
                        .execute(&mut *transaction)
                        .await
                        .map_err(repository_error("adding to the day counts"))?;
                }
                transaction
                    .commit()
                    .await
                    .map_err(repository_error("committing an analytics batch"))
            }

            async fn daily_page_views(
                &self,
                range: vitrine_core::analytics::DayRange,
            ) -> Result<
                Vec<vitrine_core::analytics::DailyViews>,
                vitrine_core::ports::RepositoryError,
            > {
                let rows: Vec<(i64, i64, i64, Option<i64>)> =
                    sqlx::query_as($crate::analytics_statements::DAILY_PAGE_VIEWS)
                        .bind(vitrine_core::analytics::PAGE_VIEW)
                        .bind(range.first())
                        .bind(range.last())
                        .bind(vitrine_core::analytics::Counted::Rows.name())
                        .bind(vitrine_core::analytics::Counted::Visitors.name())
                        .bind(vitrine_core::analytics::Counted::CookielessRows.name())
                        .fetch_all(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error("reading daily page views"))?;
                Ok(rows
                    .into_iter()
                    .map(
                        |(day, views, visitors, cookieless)| vitrine_core::analytics::DailyViews {
                            day,
                            views: count(views),
                            visitors: count(visitors),
                            cookieless_views: count(cookieless.unwrap_or(0)),
                        },
                    )
                    .collect())
            }

            async fn daily_totals(
                &self,
                kind: &str,
                range: vitrine_core::analytics::DayRange,
            ) -> Result<
                Vec<vitrine_core::analytics::DailyTotal>,
                vitrine_core::ports::RepositoryError,
            > {
                let rows: Vec<(i64, i64, f64)> =
                    sqlx::query_as($crate::analytics_statements::DAILY_TOTALS)
                        .bind(kind)
                        .bind(range.first())
                        .bind(range.last())
                        .bind(vitrine_core::analytics::Counted::Rows.name())
                        .fetch_all(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error("reading daily totals"))?;
                Ok(rows
                    .into_iter()
                    .map(|(day, n, sum)| vitrine_core::analytics::DailyTotal {
                        day,
                        count: count(n),
                        sum,
                    })
                    .collect())
            }

            async fn top(
                &self,
                kind: &str,
                key: vitrine_core::analytics::ReportKey,
                limit: u32,
                range: vitrine_core::analytics::DayRange,
            ) -> Result<
                Vec<vitrine_core::analytics::KeyCount>,
                vitrine_core::ports::RepositoryError,
            > {
                let rows: Vec<(String, i64)> =
                    sqlx::query_as($crate::analytics_statements::TOP_LABELS)
                        .bind(kind)
                        .bind(i64::from(limit))
                        .bind(range.first())
                        .bind(range.last())
                        .bind(vitrine_core::analytics::Counted::Key(key).name())
                        .fetch_all(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error("reading a top list"))?;
                Ok(rows
                    .into_iter()
                    .map(|(key, n)| vitrine_core::analytics::KeyCount {
                        key,
                        count: count(n),
                    })
                    .collect())
            }

            async fn exposure_counts(
                &self,
            ) -> Result<
                Vec<vitrine_core::analytics::ExposureCount>,
                vitrine_core::ports::RepositoryError,
            > {
                let [first, second] = vitrine_core::analytics::kinds::CONVERSIONS;
                let rows: Vec<(String, i64, i64, i64)> =
                    sqlx::query_as($crate::analytics_statements::EXPOSURE_COUNTS)
                        .bind(vitrine_core::analytics::kinds::EXPERIMENT_EXPOSURE)
                        .bind(first)
                        .bind(second)
                        .fetch_all(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error("reading experiment exposures"))?;
                Ok(rows
                    .into_iter()
                    .map(|(subject, visitors, cookieless, converted)| {
                        vitrine_core::analytics::ExposureCount {
                            subject,
                            visitors: count(visitors),
                            cookieless_visitors: count(cookieless),
                            converted: count(converted),
                        }
                    })
                    .collect())
            }

            async fn percentile(
                &self,
                kind: &str,
                subject: &str,
                page: Option<&str>,
                per_mille: u32,
                range: vitrine_core::analytics::DayRange,
            ) -> Result<
                Option<vitrine_core::analytics::Percentile>,
                vitrine_core::ports::RepositoryError,
            > {
                use $crate::analytics_statements as statements;
                use $crate::errors::repository_error;
                // The roll-ups give how many values fell in each bucket; the rank's value is
                // then the right one among the raw values of its bucket alone. Two reads: a
                // batch landing between them can only add values, so the rank stays inside
                // its bucket's values (a stale count picks a slightly lower rank, never none).
                let buckets: Vec<(i64, i64)> = sqlx::query_as(statements::METRIC_BUCKET_COUNTS)
                    .bind(kind)
                    .bind(subject)
                    .bind(range.first())
                    .bind(range.last())
                    .bind(page)
                    .fetch_all(&self.pool)
                    .await
                    .map_err(repository_error("counting metric values"))?;
                let samples: u64 = buckets.iter().map(|(_, n)| count(*n)).sum();
                let Some(rank) = vitrine_core::analytics::nearest_rank(samples, per_mille) else {
                    return Ok(None);
                };
                let Some((bucket, next, offset)) = bucket_of_rank(&buckets, rank) else {
                    return Ok(None);
                };
                let statement = format!(
                    "{}{}{}",
                    statements::NTH_VALUE_IN_BUCKET,
                    statements::range_days(range),
                    statements::NTH_VALUE_ORDER
                );
                // Safe: the statement's only addition is the range's day numbers.
                let value: Option<(f64,)> = sqlx::query_as(sqlx::AssertSqlSafe(statement))
                    .bind(kind)
                    .bind(subject)
                    .bind(range.first())
                    .bind(range.last())
                    .bind(page)
                    .bind(bucket)
                    .bind(next)
                    .bind(i64::try_from(offset).unwrap_or(i64::MAX))
                    .fetch_optional(&self.pool)
                    .await
                    .map_err(repository_error("reading a metric value"))?;
                Ok(value.map(|(value,)| vitrine_core::analytics::Percentile { value, samples }))
            }
        }

        #[async_trait::async_trait]
        impl vitrine_core::consent::ConsentReceiptStore for $store {
            async fn record(
                &self,
                receipt: &vitrine_core::consent::ConsentReceipt,
            ) -> Result<(), vitrine_core::consent::RecordReceiptError> {
                use vitrine_core::consent::RecordReceiptError;
                let result = sqlx::query($crate::analytics_statements::INSERT_RECEIPT)
                    .bind(receipt.id.as_str())
                    .bind(i64::from(receipt.banner_version))
                    .bind(receipt.choice.wire())
                    .bind(receipt.source.wire())
                    .bind(receipt.recorded_at_ms)
                    .execute(&self.pool)
                    .await;
                match result {
                    Ok(_) => Ok(()),
                    Err(sqlx::Error::Database(error))
                        if matches!(error.kind(), sqlx::error::ErrorKind::UniqueViolation) =>
                    {
                        Err(RecordReceiptError::Duplicate)
                    }
                    Err(error) => Err(RecordReceiptError::Unavailable(error.to_string())),
                }
            }

            async fn all(
                &self,
            ) -> Result<
                Vec<vitrine_core::consent::ConsentReceipt>,
                vitrine_core::consent::RecordReceiptError,
            > {
                use vitrine_core::consent::RecordReceiptError;
                let rows: Vec<ReceiptRow> =
                    sqlx::query_as($crate::analytics_statements::SELECT_RECEIPTS)
                        .fetch_all(&self.pool)
                        .await
                        .map_err(|error| RecordReceiptError::Unavailable(error.to_string()))?;
                rows.into_iter().map(receipt).collect()
            }

            async fn receipt_page(
                &self,
                query: &vitrine_core::owners::tables::TableQuery,
            ) -> Result<
                vitrine_core::owners::tables::TablePage<vitrine_core::consent::ConsentReceipt>,
                vitrine_core::consent::RecordReceiptError,
            > {
                use vitrine_core::consent::RecordReceiptError;
                let (rows, total) = $crate::table_pages::fetch_table_page!(
                    &self.pool,
                    Self::PAGE_RECEIPTS,
                    Self::COUNT_RECEIPTS,
                    query,
                    ReceiptRow
                )
                .await
                .map_err(|error| RecordReceiptError::Unavailable(error.to_string()))?;
                Ok(vitrine_core::owners::tables::TablePage {
                    rows: rows.into_iter().map(receipt).collect::<Result<_, _>>()?,
                    total,
                })
            }
        }
    };
}

/// A stored receipt's columns: id, banner version, choice, source, time.
type ReceiptRow = (String, i64, String, String, i64);

fn receipt(
    (id, version, choice, source, at): ReceiptRow,
) -> Result<vitrine_core::consent::ConsentReceipt, vitrine_core::consent::RecordReceiptError> {
    use vitrine_core::consent::{ConsentReceipt, ReceiptId, RecordReceiptError};
    let corrupt = || RecordReceiptError::Unavailable(format!("unreadable receipt {id}"));
    Ok(ConsentReceipt {
        id: ReceiptId::new(id.clone()).map_err(|_| corrupt())?,
        banner_version: u32::try_from(version).map_err(|_| corrupt())?,
        choice: parse_choice(&choice).ok_or_else(corrupt)?,
        source: parse_source(&source).ok_or_else(corrupt)?,
        recorded_at_ms: at,
    })
}

impl SqliteAnalyticsStore {
    const PAGE_RECEIPTS: &str = crate::analytics_statements::SQLITE_PAGE_RECEIPTS;
    const COUNT_RECEIPTS: &str = crate::analytics_statements::SQLITE_COUNT_RECEIPTS;
}

impl PostgresAnalyticsStore {
    const PAGE_RECEIPTS: &str = crate::analytics_statements::POSTGRES_PAGE_RECEIPTS;
    const COUNT_RECEIPTS: &str = crate::analytics_statements::POSTGRES_COUNT_RECEIPTS;
}

sql_analytics_store!(SqliteAnalyticsStore);
sql_analytics_store!(PostgresAnalyticsStore);

#[cfg(test)]
mod tests {
    use super::bucket_of_rank;

    #[test]
    fn a_rank_falls_in_the_bucket_whose_counts_reach_past_it() {
        let buckets = [(3, 2), (7, 1), (9, 4)];
        assert_eq!(bucket_of_rank(&buckets, 0), Some((3, Some(7), 0)));
        assert_eq!(bucket_of_rank(&buckets, 1), Some((3, Some(7), 1)));
        assert_eq!(bucket_of_rank(&buckets, 2), Some((7, Some(9), 0)));
        assert_eq!(bucket_of_rank(&buckets, 6), Some((9, None, 3)));
        assert_eq!(bucket_of_rank(&buckets, 7), None);
        assert_eq!(bucket_of_rank(&[], 0), None);
    }
}
