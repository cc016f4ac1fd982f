-- The owner's dashboard reads every figure for a range of days, so each of its queries filters
-- on (kind, day) first. These indexes cover what each query then groups or measures by, so a
-- range over a year of rows is read from the index alone: the page path of top pages and Web
-- Vitals per page, the subject of referrers, clicks, forms, errors and percentiles (with the
-- metric value they measure and revenue sums), and the visitor of daily visitors.
CREATE INDEX analytics_events_kind_day_page_path ON analytics_events (kind, day, page_path);
CREATE INDEX analytics_events_kind_day_subject ON analytics_events (kind, day, subject, metric_value);
CREATE INDEX analytics_events_kind_day_visitor ON analytics_events (kind, day, visitor_key, cookieless);
