-- Payment reports (Stripe's webhooks) and the payment status of orders they move.
-- An order's payment is "paid" as every order placed so far was, "pending" while the payment
-- provider's answer is not known (a time-out while paying), then whatever the reports say.
ALTER TABLE orders ADD COLUMN payment_key TEXT NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN payment_status TEXT NOT NULL DEFAULT 'paid'
    CHECK (payment_status IN ('paid', 'pending', 'failed', 'refunded', 'disputed'));
CREATE INDEX orders_by_payment_id ON orders (payment_id) WHERE payment_id <> '';
CREATE INDEX orders_pending_by_payment_key ON orders (payment_key) WHERE payment_id = '';

-- Each report once: the provider delivers at least once, so its event id is the key.
CREATE TABLE payment_events (
    event_id TEXT PRIMARY KEY,
    payment_id TEXT NOT NULL,
    outcome TEXT NOT NULL,
    received BIGINT NOT NULL
);
