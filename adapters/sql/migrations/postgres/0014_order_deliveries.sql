-- Deliveries about orders (the shopper's order confirmation and review request mails) share
-- the outbox with those about form submissions: a row names either a submission or an order.
ALTER TABLE form_deliveries ALTER COLUMN submission_id DROP NOT NULL;
-- The order a shopper's mail is about, written in the order's own transaction.
ALTER TABLE form_deliveries ADD COLUMN order_id TEXT;
-- For a review request's mail: the request made with the order.
ALTER TABLE form_deliveries ADD COLUMN review_token TEXT;
ALTER TABLE form_deliveries ADD CONSTRAINT form_deliveries_one_subject
    CHECK ((submission_id IS NULL) <> (order_id IS NULL));

-- One mail of each kind per order, whatever happens to the code that enqueues it.
CREATE UNIQUE INDEX form_deliveries_per_order ON form_deliveries (order_id, kind)
    WHERE order_id IS NOT NULL;
