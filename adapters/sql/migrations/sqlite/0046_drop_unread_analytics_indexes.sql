-- Since migration 0045 the dashboard's counts and top lists read the daily roll-ups, so the
-- indexes that served them from the raw rows serve no query any more, while each still cost
-- every census row written an insert into its B-tree. Two stay: `(visitor_key, kind,
-- recorded_at)` finds an exposed visitor's conversions for the experiments' figures, and
-- `(kind, subject, day, metric_value, page_path)` serves the one bucket a percentile sorts and
-- the exposures by kind and subject.
DROP INDEX analytics_events_kind_day;
DROP INDEX analytics_events_kind_subject;
DROP INDEX analytics_events_kind_page_path;
DROP INDEX analytics_events_kind_day_page_path;
DROP INDEX analytics_events_kind_day_subject;
DROP INDEX analytics_events_kind_day_visitor;
DROP INDEX analytics_events_kind_day_campaign;
DROP INDEX analytics_events_kind_day_device;
