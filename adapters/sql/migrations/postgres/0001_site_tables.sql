-- The imported site: one website row, its collections, their items and the media files.
-- Structured parts (bodies, SEO, products, settings) are JSONB; everything a query filters
-- or sorts on is a real column. Integers are BIGINT so that both backends read them as i64.

CREATE TABLE website (
    -- Exactly one site is stored; the check keeps a second row out.
    singleton SMALLINT PRIMARY KEY CHECK (singleton = 1),
    id TEXT NOT NULL,
    record JSONB NOT NULL,
    settings JSONB NOT NULL,
    navigation JSONB NOT NULL
);

CREATE TABLE collections (
    id TEXT PRIMARY KEY,
    -- The position in the imported bundle, which is the order collections are listed in.
    ordinal BIGINT NOT NULL UNIQUE,
    collection_type BIGINT NOT NULL,
    title TEXT NOT NULL,
    slug TEXT NOT NULL,
    description TEXT NOT NULL,
    permission_type TEXT NOT NULL,
    body JSONB NOT NULL,
    seo JSONB NOT NULL,
    enabled BOOLEAN NOT NULL
);

CREATE INDEX collections_by_slug ON collections (slug);

CREATE TABLE items (
    id TEXT PRIMARY KEY,
    ordinal BIGINT NOT NULL UNIQUE,
    collection_id TEXT NOT NULL REFERENCES collections (id),
    slug TEXT NOT NULL,
    title TEXT NOT NULL,
    record_type BIGINT NOT NULL,
    status BIGINT NOT NULL,
    published_on BIGINT NOT NULL,
    position BIGINT NOT NULL,
    excerpt TEXT NOT NULL,
    body JSONB NOT NULL,
    author TEXT,
    tags JSONB NOT NULL,
    categories JSONB NOT NULL,
    image JSONB,
    seo JSONB NOT NULL,
    product JSONB
);

CREATE INDEX items_in_listing_order ON items (collection_id, status, position, published_on DESC);
CREATE INDEX items_by_slug ON items (collection_id, slug);

CREATE TABLE media (
    path TEXT PRIMARY KEY,
    content_type TEXT NOT NULL,
    bytes BYTEA NOT NULL
);
