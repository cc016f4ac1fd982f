-- Product reviews: requests sent after an order (by the token in their link) and one review
-- per purchase, a purchase being an order and a SKU.
CREATE TABLE review_requests (
    token TEXT PRIMARY KEY,
    order_id TEXT NOT NULL,
    author_name TEXT NOT NULL,
    -- The products the buyer may review, as JSON [{sku, productName}].
    items TEXT NOT NULL,
    created INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);

CREATE TABLE product_reviews (
    id TEXT PRIMARY KEY,
    order_id TEXT NOT NULL,
    sku TEXT NOT NULL,
    product_name TEXT NOT NULL,
    rating INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
    title TEXT NOT NULL,
    body TEXT NOT NULL,
    author_name TEXT NOT NULL,
    created INTEGER NOT NULL,
    -- One review per purchase, even when two arrive at once.
    UNIQUE (order_id, sku)
);

CREATE INDEX product_reviews_by_sku ON product_reviews (sku, created);
