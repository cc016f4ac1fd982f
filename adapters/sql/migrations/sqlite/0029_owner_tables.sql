-- The owner's tables (issue 18 §3): a review the owner hid stays stored but leaves the
-- product pages, and may carry the owner's public reply.
ALTER TABLE product_reviews ADD COLUMN hidden BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE product_reviews ADD COLUMN reply TEXT;

-- The owner's table of orders lists the newest first.
CREATE INDEX orders_by_created ON orders (created, id);
