-- Orders after checkout: refunds (whole or in part) and fulfilment or cancellation.
-- An order without a row here is open: placed, not yet sent or cancelled.
CREATE TABLE order_fulfilment (
    order_id TEXT PRIMARY KEY REFERENCES orders (id),
    status TEXT NOT NULL CHECK (status IN ('fulfilled', 'cancelled')),
    tracking_url TEXT NOT NULL DEFAULT '',
    changed_at INTEGER NOT NULL
);

-- Each refund is written as requested before the payment provider is asked, so two refunds
-- asked at once can never give back more than was paid; its id is the provider's
-- idempotency key. A failed refund counts for nothing.
CREATE TABLE order_refunds (
    id TEXT PRIMARY KEY,
    order_id TEXT NOT NULL REFERENCES orders (id),
    sequence INTEGER NOT NULL CHECK (sequence >= 1),
    amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
    -- The units going back to stock, as JSON [{"sku": ..., "quantity": ...}].
    lines TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('requested', 'refunded', 'failed')),
    gateway_refund_id TEXT NOT NULL DEFAULT '',
    reason TEXT NOT NULL DEFAULT '',
    requested_at INTEGER NOT NULL,
    UNIQUE (order_id, sequence)
);
