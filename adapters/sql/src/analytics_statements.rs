//! The SQL of the analytics and consent receipt stores, one text for both dialects.

use crate::table_pages::matching_any;

pub(crate) const INSERT_EVENT: &str = "INSERT INTO analytics_events \
     (kind, visitor_key, cookieless, page_path, data, recorded_at, day, subject, metric_value) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)";

/// The most frequent page paths of a kind on the days `$3..=$4`; ties by path so the order
/// is stable. Every range query reads the `(kind, day, ...)` indexes of migration 0030.
pub(crate) const TOP_PAGE_PATHS: &str = "SELECT page_path, COUNT(*) AS n FROM analytics_events \
     WHERE kind = $1 AND day BETWEEN $3 AND $4 AND page_path IS NOT NULL GROUP BY page_path \
     ORDER BY n DESC, page_path LIMIT $2";

/// The most frequent subjects of a kind on the days `$3..=$4`.
pub(crate) const TOP_SUBJECTS: &str = "SELECT subject, COUNT(*) AS n FROM analytics_events \
     WHERE kind = $1 AND day BETWEEN $3 AND $4 AND subject IS NOT NULL GROUP BY subject \
     ORDER BY n DESC, subject LIMIT $2";

/// How many values a metric has on the days `$3..=$4` (on page `$5` when given); with
/// [`NTH_METRIC_VALUE`] the nearest-rank percentile, in SQL both databases run (SQLite has no
/// percentile function).
pub(crate) const COUNT_METRIC_VALUES: &str = "SELECT COUNT(*) FROM analytics_events \
     WHERE kind = $1 AND subject = $2 AND day BETWEEN $3 AND $4 \
     AND ($5 IS NULL OR page_path = $5) AND metric_value IS NOT NULL";

pub(crate) const NTH_METRIC_VALUE: &str = "SELECT metric_value FROM analytics_events \
     WHERE kind = $1 AND subject = $2 AND day BETWEEN $3 AND $4 \
     AND ($5 IS NULL OR page_path = $5) AND metric_value IS NOT NULL \
     ORDER BY metric_value LIMIT 1 OFFSET $6";

/// Per exposure subject: distinct visitors, those of them counted without cookies, and those
/// of them with a conversion row ($2 or $3) at or after one of their exposures.
pub(crate) const EXPOSURE_COUNTS: &str = "SELECT e.subject, COUNT(DISTINCT e.visitor_key), \
     COUNT(DISTINCT CASE WHEN e.cookieless THEN e.visitor_key END), \
     COUNT(DISTINCT c.visitor_key) \
     FROM analytics_events e LEFT JOIN analytics_events c \
     ON c.visitor_key = e.visitor_key AND c.kind IN ($2, $3) AND c.recorded_at >= e.recorded_at \
     WHERE e.kind = $1 AND e.subject IS NOT NULL AND e.visitor_key IS NOT NULL \
     GROUP BY e.subject ORDER BY e.subject";

pub(crate) const DAILY_PAGE_VIEWS: &str = "SELECT day, COUNT(*), COUNT(DISTINCT visitor_key), \
     CAST(SUM(CASE WHEN cookieless THEN 1 ELSE 0 END) AS BIGINT) \
     FROM analytics_events WHERE kind = $1 AND day BETWEEN $2 AND $3 GROUP BY day ORDER BY day";

/// Rows of a kind per day of `$2..=$3` and their metric values summed (revenue of orders).
pub(crate) const DAILY_TOTALS: &str = "SELECT day, COUNT(*), \
     CAST(COALESCE(SUM(metric_value), 0) AS DOUBLE PRECISION) \
     FROM analytics_events WHERE kind = $1 AND day BETWEEN $2 AND $3 GROUP BY day ORDER BY day";

pub(crate) const INSERT_RECEIPT: &str = "INSERT INTO consent_receipts \
     (id, banner_version, choice, source, recorded_at) VALUES ($1, $2, $3, $4, $5)";

pub(crate) const SELECT_RECEIPTS: &str = "SELECT id, banner_version, choice, source, recorded_at \
     FROM consent_receipts ORDER BY recorded_at, id";

/// The owner's search over consent receipts: `$1` is a `LIKE` pattern escaped with a
/// backslash (or null for all), matched without case (`ILIKE` on PostgreSQL) against the id,
/// the choice and the source.
macro_rules! receipts_matching {
    ($like:literal) => {
        matching_any!("consent_receipts", $like, "id", "choice", "source")
    };
}

macro_rules! page_receipts {
    ($like:literal) => {
        concat!(
            "SELECT id, banner_version, choice, source, recorded_at",
            receipts_matching!($like),
            " ORDER BY recorded_at DESC, id DESC LIMIT $2 OFFSET $3"
        )
    };
}

/// A page of the receipts matching `$1`, newest first: `$2` rows from row `$3`.
pub(crate) const SQLITE_PAGE_RECEIPTS: &str = page_receipts!("LIKE");
pub(crate) const POSTGRES_PAGE_RECEIPTS: &str = page_receipts!("ILIKE");

/// How many receipts match `$1`.
pub(crate) const SQLITE_COUNT_RECEIPTS: &str =
    concat!("SELECT COUNT(*)", receipts_matching!("LIKE"));
pub(crate) const POSTGRES_COUNT_RECEIPTS: &str =
    concat!("SELECT COUNT(*)", receipts_matching!("ILIKE"));
