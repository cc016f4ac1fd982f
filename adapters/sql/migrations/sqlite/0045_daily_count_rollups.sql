-- Issue 18: the dashboard's per-day figures and top lists on a year of traffic. Read from the
-- raw rows, a 30-day chart of a busy site counts hundreds of thousands of rows each time the
-- owner opens it; these roll-ups hold a few rows per kind, day and key, and every analytics
-- batch adds to them in its own transaction (see `vitrine_core::analytics::day_counts`), so
-- they always equal the raw rows, today's included.

-- One row per kind of census row, what is counted, day and label: `rows` (every row; label
-- ''), `cookieless` (those counted without cookies), `visitors` (distinct visitors of page
-- views), or a key's value (`page_path`, `subject`, `campaign`, `device`). `value_sum` sums
-- the metric values of the rows counted (an order's total, for revenue).
CREATE TABLE analytics_day_counts (
    kind TEXT NOT NULL,
    counted TEXT NOT NULL,
    day BIGINT NOT NULL,
    label TEXT NOT NULL,
    n BIGINT NOT NULL,
    value_sum DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (kind, counted, day, label)
) WITHOUT ROWID;

-- The visitors of each day's page views, so a visitor seen again that day is not counted
-- again in `visitors`. Both tables are kept in their primary key's order (`WITHOUT ROWID`):
-- every read and write seeks it.
CREATE TABLE analytics_day_visitors (
    day BIGINT NOT NULL,
    visitor_key TEXT NOT NULL,
    PRIMARY KEY (day, visitor_key)
) WITHOUT ROWID;

INSERT INTO analytics_day_counts (kind, counted, day, label, n, value_sum)
SELECT kind, counted, day, label, COUNT(*), COALESCE(SUM(metric_value), 0) FROM (
    SELECT kind, 'rows' AS counted, day, '' AS label, metric_value FROM analytics_events
    UNION ALL SELECT kind, 'cookieless', day, '', metric_value FROM analytics_events
        WHERE cookieless
    UNION ALL SELECT kind, 'page_path', day, page_path, metric_value FROM analytics_events
        WHERE page_path IS NOT NULL
    UNION ALL SELECT kind, 'subject', day, subject, metric_value FROM analytics_events
        WHERE subject IS NOT NULL
    UNION ALL SELECT kind, 'campaign', day, campaign, metric_value FROM analytics_events
        WHERE campaign IS NOT NULL
    UNION ALL SELECT kind, 'device', day, device, metric_value FROM analytics_events
        WHERE device IS NOT NULL
) AS counted_rows
GROUP BY kind, counted, day, label;

INSERT INTO analytics_day_visitors (day, visitor_key)
SELECT DISTINCT day, visitor_key FROM analytics_events
WHERE kind = 'page-view' AND visitor_key IS NOT NULL;

INSERT INTO analytics_day_counts (kind, counted, day, label, n, value_sum)
SELECT 'page-view', 'visitors', day, '', COUNT(*), 0 FROM analytics_day_visitors GROUP BY day;
