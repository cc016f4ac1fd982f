//! The SQL of the analytics and consent receipt stores, one text for both dialects.

use crate::table_pages::matching_any;

/// The head of a multi-row insert of census rows; the builder appends one `VALUES` tuple of
/// these eleven columns per row.
pub(crate) const INSERT_EVENTS: &str = "INSERT INTO analytics_events \
     (kind, visitor_key, cookieless, page_path, data, recorded_at, day, subject, metric_value, \
     campaign, device) ";

/// Rows per insert statement: eleven parameters each stays far below both databases' limits
/// (32,766 parameters on SQLite, 65,535 on PostgreSQL), and a batch of the census buffer's
/// size goes in a few statements instead of one round trip per row.
pub(crate) const ROWS_PER_INSERT: usize = 500;

/// Counts a batch's metric values into their days' roll-ups (migration 0035), in the batch's
/// transaction. The builder puts one `(kind, subject, day, page path ('' for none), value)`
/// tuple per row between this head and [`COUNT_METRIC_VALUES_TAIL`]; the database itself puts
/// each value in its bucket, and values that share a bucket are added once.
pub(crate) const COUNT_METRIC_VALUES_HEAD: &str =
    "WITH valued (kind, subject, day, page_path, value) AS (";

/// The rest of [`COUNT_METRIC_VALUES_HEAD`]'s statement. `WHERE true` keeps SQLite from
/// reading `ON CONFLICT` as a join's constraint.
pub(crate) const COUNT_METRIC_VALUES_TAIL: &str = ") \
     INSERT INTO analytics_metric_days (kind, subject, day, page_path, bucket, n) \
     SELECT kind, subject, day, page_path, \
     COALESCE((SELECT MAX(b.bucket) FROM analytics_metric_buckets b \
     WHERE b.lower <= valued.value), 0) AS value_bucket, COUNT(*) \
     FROM valued WHERE true GROUP BY kind, subject, day, page_path, value_bucket \
     ON CONFLICT (kind, subject, day, page_path, bucket) \
     DO UPDATE SET n = analytics_metric_days.n + excluded.n";

/// The most frequent labels of a key's count (`$5`, a [`Counted`] name of migration 0045)
/// among the rows of a kind (`$1`) on the days `$3..=$4`, at most `$2` of them; ties by
/// label so the order is stable. It reads the roll-ups' primary key: a few rows per day and
/// label, however many rows they count.
///
/// [`Counted`]: vitrine_core::analytics::Counted
pub(crate) const TOP_LABELS: &str = "SELECT label, CAST(SUM(n) AS BIGINT) AS total \
     FROM analytics_day_counts WHERE kind = $1 AND counted = $5 AND day BETWEEN $3 AND $4 \
     GROUP BY label ORDER BY total DESC, label LIMIT $2";

/// Adds a batch's day counts to the roll-ups of migration 0045; the builder appends one
/// `(kind, counted, day, label, n, value_sum)` tuple per count.
pub(crate) const ADD_DAY_COUNTS: &str =
    "INSERT INTO analytics_day_counts (kind, counted, day, label, n, value_sum) ";

/// What follows [`ADD_DAY_COUNTS`]'s values.
pub(crate) const ADD_DAY_COUNTS_TAIL: &str = " ON CONFLICT (kind, counted, day, label) \
     DO UPDATE SET n = analytics_day_counts.n + excluded.n, \
     value_sum = analytics_day_counts.value_sum + excluded.value_sum";

/// Remembers a batch's page-view visitors per day; the builder appends one `(day, visitor
/// key)` tuple per pair, then [`REMEMBER_VISITORS_TAIL`], which returns the day of each pair
/// that was new (a pair already remembered, by this batch or another, returns nothing).
pub(crate) const REMEMBER_VISITORS: &str = "INSERT INTO analytics_day_visitors (day, visitor_key) ";

pub(crate) const REMEMBER_VISITORS_TAIL: &str =
    " ON CONFLICT (day, visitor_key) DO NOTHING RETURNING day";

/// Counts per statement when a batch's roll-ups are written: six parameters a count (or two
/// a visitor) stays far below both databases' limits.
pub(crate) const COUNTS_PER_INSERT: usize = 2_000;

/// How many values of a metric (`$1` kind, `$2` subject) fell in each bucket on the days
/// `$3..=$4` (on page `$5` when given), lowest bucket first, from the daily roll-ups.
pub(crate) const METRIC_BUCKET_COUNTS: &str = "SELECT bucket, CAST(SUM(n) AS BIGINT) \
     FROM analytics_metric_days WHERE kind = $1 AND subject = $2 AND day BETWEEN $3 AND $4 \
     AND ($5 IS NULL OR page_path = $5) GROUP BY bucket ORDER BY bucket";

/// The `$8`-th smallest value (from 0) of a metric in bucket `$6` on the days `$3..=$4` (on
/// page `$5` when given): at least the bucket's lower bound and, when `$7` names the next
/// bucket with values, below its lower bound. The caller adds the condition on the days
/// ([`range_days`]) and then [`NTH_VALUE_ORDER`].
pub(crate) const NTH_VALUE_IN_BUCKET: &str = "SELECT metric_value FROM analytics_events \
     WHERE kind = $1 AND subject = $2 \
     AND ($5 IS NULL OR page_path = $5) AND metric_value IS NOT NULL \
     AND metric_value >= (SELECT lower FROM analytics_metric_buckets WHERE bucket = $6) \
     AND ($7 IS NULL OR metric_value < \
     (SELECT lower FROM analytics_metric_buckets WHERE bucket = $7))";

/// What follows [`NTH_VALUE_IN_BUCKET`] and its condition on the days.
pub(crate) const NTH_VALUE_ORDER: &str = " ORDER BY metric_value LIMIT 1 OFFSET $8";

/// The condition that a row's day is in `range` (`$3..=$4`), for a statement that reads the
/// index of migration 0035 (metric, day, value). A range of up to [`MAX_LISTED_DAYS`] lists
/// its days (`day IN (...)`), so both databases seek each day's slice of the index at the
/// bucket's values instead of reading every value of the range (on a year of 10 million page
/// views, 274,000 values for 30 days against the 23,000 of the bucket). The bounds stay, as
/// `+day`: the unary plus keeps SQLite from choosing the range over the list for the index,
/// which it otherwise does. A longer range is read by its bounds alone.
pub(crate) fn range_days(range: vitrine_core::analytics::DayRange) -> String {
    if range.day_count() > MAX_LISTED_DAYS {
        return " AND day BETWEEN $3 AND $4".to_owned();
    }
    let days: Vec<String> = range.days().map(|day| day.to_string()).collect();
    format!(
        " AND day IN ({}) AND +day BETWEEN $3 AND $4",
        days.join(", ")
    )
}

/// The longest range whose days are listed: the dashboard's longest range.
const MAX_LISTED_DAYS: i64 = vitrine_core::analytics::MAX_RANGE_DAYS;

/// Per exposure subject: distinct visitors, those of them counted without cookies, and those
/// of them with a conversion row ($2 or $3) at or after one of their exposures.
pub(crate) const EXPOSURE_COUNTS: &str = "SELECT e.subject, COUNT(DISTINCT e.visitor_key), \
     COUNT(DISTINCT CASE WHEN e.cookieless THEN e.visitor_key END), \
     COUNT(DISTINCT c.visitor_key) \
     FROM analytics_events e LEFT JOIN analytics_events c \
     ON c.visitor_key = e.visitor_key AND c.kind IN ($2, $3) AND c.recorded_at >= e.recorded_at \
     WHERE e.kind = $1 AND e.subject IS NOT NULL AND e.visitor_key IS NOT NULL \
     GROUP BY e.subject ORDER BY e.subject";

/// Page views per day of `$2..=$3` (kind `$1`): views, distinct visitors and views counted
/// without cookies, from the roll-ups (three rows a day), whose names are `$4`, `$5` and `$6`.
pub(crate) const DAILY_PAGE_VIEWS: &str = "SELECT day, \
     CAST(SUM(CASE WHEN counted = $4 THEN n ELSE 0 END) AS BIGINT), \
     CAST(SUM(CASE WHEN counted = $5 THEN n ELSE 0 END) AS BIGINT), \
     CAST(SUM(CASE WHEN counted = $6 THEN n ELSE 0 END) AS BIGINT) \
     FROM analytics_day_counts \
     WHERE kind = $1 AND counted IN ($4, $5, $6) AND day BETWEEN $2 AND $3 \
     GROUP BY day ORDER BY day";

/// Rows of a kind (`$1`) per day of `$2..=$3` and their metric values summed (revenue of
/// orders), from the roll-ups' count of every row (named `$4`).
pub(crate) const DAILY_TOTALS: &str = "SELECT day, n, value_sum FROM analytics_day_counts \
     WHERE kind = $1 AND counted = $4 AND day BETWEEN $2 AND $3 ORDER BY day";

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
