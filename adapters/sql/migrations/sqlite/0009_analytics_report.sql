-- What the owner's report groups and measures census rows by, decided when a row is written:
-- the referring site of a page view, a button's text, a form's id, an error's message, a
-- performance record's metric name (subject); and a performance record's value (metric_value,
-- e.g. LCP in milliseconds, CLS unitless), so top lists and Web Vitals percentiles are SQL.
ALTER TABLE analytics_events ADD COLUMN subject TEXT;
ALTER TABLE analytics_events ADD COLUMN metric_value REAL;

CREATE INDEX analytics_events_kind_subject ON analytics_events (kind, subject);
CREATE INDEX analytics_events_kind_page_path ON analytics_events (kind, page_path);
