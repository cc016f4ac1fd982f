-- The orders placed as payment pending while their payer confirms the provider's intent in
-- the browser, each with that intent, until the order's payment is settled: a declined card
-- leaves such an order payable with another card, and an order left waiting too long is
-- found here so that its intent is cancelled and its stock comes back.
CREATE TABLE waiting_browser_payments (
    order_id TEXT PRIMARY KEY REFERENCES orders (id),
    intent_id TEXT NOT NULL,
    opened BIGINT NOT NULL
);
CREATE INDEX waiting_browser_payments_by_opened ON waiting_browser_payments (opened);
