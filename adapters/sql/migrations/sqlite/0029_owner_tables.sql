-- The owner's tables (issue 18 §3): a review the owner hid stays stored but leaves the
-- product pages, and may carry the owner's public reply.
ALTER TABLE product_reviews ADD COLUMN hidden BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE product_reviews ADD COLUMN reply TEXT;

-- An order the owner marked fulfilled, with the link where the shopper can follow the
-- parcel. Its own table, so the orders' columns (and every statement reading them) stay.
CREATE TABLE order_fulfilments (
    order_id TEXT PRIMARY KEY REFERENCES orders (id),
    fulfilled_at INTEGER NOT NULL,
    tracking_url TEXT
);

-- The owner's table of orders lists the newest first.
CREATE INDEX orders_by_created ON orders (created, id);
