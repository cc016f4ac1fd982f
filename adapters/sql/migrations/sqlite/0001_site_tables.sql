-- The imported site: one website row, its collections, their items and the media files.
-- Structured parts (bodies, SEO, products, settings) are JSON text; everything a query
-- filters or sorts on is a real column.

CREATE TABLE website (
    -- Exactly one site is stored; the check keeps a second row out.
    singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
    id TEXT NOT NULL,
    record TEXT NOT NULL,
    settings TEXT NOT NULL,
    navigation TEXT NOT NULL
);

CREATE TABLE collections (
    id TEXT PRIMARY KEY,
    -- The position in the imported bundle, which is the order collections are listed in.
    ordinal INTEGER NOT NULL UNIQUE,
    collection_type INTEGER NOT NULL,
    title TEXT NOT NULL,
    slug TEXT NOT NULL,
    description TEXT NOT NULL,
    permission_type TEXT NOT NULL,
    body TEXT NOT NULL,
    seo TEXT NOT NULL,
    enabled BOOLEAN NOT NULL
);

CREATE INDEX collections_by_slug ON collections (slug);

CREATE TABLE items (
    id TEXT PRIMARY KEY,
    ordinal INTEGER NOT NULL UNIQUE,
    collection_id TEXT NOT NULL REFERENCES collections (id),
    slug TEXT NOT NULL,
    title TEXT NOT NULL,
    record_type INTEGER NOT NULL,
    status INTEGER NOT NULL,
    published_on INTEGER NOT NULL,
    position INTEGER NOT NULL,
    excerpt TEXT NOT NULL,
    body TEXT NOT NULL,
    author TEXT,
    tags TEXT NOT NULL,
    categories TEXT NOT NULL,
    image TEXT,
    seo TEXT NOT NULL,
    product TEXT
);

CREATE INDEX items_in_listing_order ON items (collection_id, status, position, published_on DESC);
CREATE INDEX items_by_slug ON items (collection_id, slug);

CREATE TABLE media (
    path TEXT PRIMARY KEY,
    content_type TEXT NOT NULL,
    bytes BLOB NOT NULL
);
