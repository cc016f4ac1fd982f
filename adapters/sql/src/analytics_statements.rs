//! The SQL of the analytics and consent receipt stores, one text for both dialects.

pub(crate) const INSERT_EVENT: &str = "INSERT INTO analytics_events \
     (kind, visitor_key, cookieless, page_path, data, recorded_at, day) \
     VALUES ($1, $2, $3, $4, $5, $6, $7)";

pub(crate) const DAILY_PAGE_VIEWS: &str = "SELECT day, COUNT(*), COUNT(DISTINCT visitor_key), \
     CAST(SUM(CASE WHEN cookieless THEN 1 ELSE 0 END) AS BIGINT) \
     FROM analytics_events WHERE kind = $1 GROUP BY day ORDER BY day";

pub(crate) const INSERT_RECEIPT: &str = "INSERT INTO consent_receipts \
     (id, banner_version, choice, source, recorded_at) VALUES ($1, $2, $3, $4, $5)";

pub(crate) const SELECT_RECEIPTS: &str = "SELECT id, banner_version, choice, source, recorded_at \
     FROM consent_receipts ORDER BY recorded_at, id";
