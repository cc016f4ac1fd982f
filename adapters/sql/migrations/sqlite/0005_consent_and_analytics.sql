-- Consent receipts (one row per decision, exported by the owner) and census rows (page views
-- and events), written in batches. The day column (days since the Unix epoch, UTC) keeps the
-- owner's daily report an index scan.
CREATE TABLE consent_receipts (
    id TEXT PRIMARY KEY,
    banner_version BIGINT NOT NULL,
    choice TEXT NOT NULL,
    source TEXT NOT NULL,
    recorded_at BIGINT NOT NULL
);

CREATE TABLE analytics_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    visitor_key TEXT,
    cookieless BOOLEAN NOT NULL,
    page_path TEXT,
    data TEXT NOT NULL,
    recorded_at BIGINT NOT NULL,
    day BIGINT NOT NULL
);

CREATE INDEX analytics_events_kind_day ON analytics_events (kind, day);
