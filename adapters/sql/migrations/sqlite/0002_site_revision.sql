-- A counter bumped by every site replacement, so page caches can tell when they are stale.
CREATE TABLE site_revision (
    singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
    revision INTEGER NOT NULL
);
