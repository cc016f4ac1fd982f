-- Deliveries about orders (the shopper's order confirmation and review request mails) share
-- the outbox with those about form submissions: a row names either a submission or an order.
-- SQLite cannot drop a NOT NULL constraint, so the table is built again with its rows.
CREATE TABLE form_deliveries_new (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    submission_id BIGINT,
    -- The order a shopper's mail is about, written in the order's own transaction.
    order_id TEXT,
    -- For a review request's mail: the request made with the order.
    review_token TEXT,
    kind TEXT NOT NULL,
    attempts BIGINT NOT NULL DEFAULT 0,
    next_attempt_ms BIGINT NOT NULL,
    delivered_ms BIGINT,
    failed BOOLEAN NOT NULL DEFAULT FALSE,
    last_error TEXT,
    created_at BIGINT NOT NULL,
    CHECK ((submission_id IS NULL) <> (order_id IS NULL))
);

INSERT INTO form_deliveries_new
    (id, submission_id, kind, attempts, next_attempt_ms, delivered_ms, failed, last_error,
     created_at)
SELECT id, submission_id, kind, attempts, next_attempt_ms, delivered_ms, failed, last_error,
    created_at
FROM form_deliveries;

DROP TABLE form_deliveries;
ALTER TABLE form_deliveries_new RENAME TO form_deliveries;

CREATE INDEX form_deliveries_due ON form_deliveries (next_attempt_ms)
    WHERE delivered_ms IS NULL AND failed = FALSE;

-- One mail of each kind per order, whatever happens to the code that enqueues it.
CREATE UNIQUE INDEX form_deliveries_per_order ON form_deliveries (order_id, kind)
    WHERE order_id IS NOT NULL;
