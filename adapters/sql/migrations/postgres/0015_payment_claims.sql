-- Which order or contribution a charge paid for, and which charges were claimed for a refund.
-- A charge is claimed once: by the order or contribution in the transaction that places it,
-- or for a refund before the payment provider is asked; the primary key refuses the second
-- claim, so no order is ever placed on a charge that was given back.
CREATE TABLE payment_claims (
    payment_id TEXT PRIMARY KEY,
    -- The form's idempotency key: the number of refunds under it picks the next attempt's key.
    idempotency_key TEXT NOT NULL,
    used_for TEXT NOT NULL CHECK (used_for IN ('order', 'contribution', 'refund')),
    claimed BIGINT NOT NULL,
    -- What the provider said when a refund failed; NULL otherwise.
    refund_failure TEXT
);
CREATE INDEX payment_claims_by_key ON payment_claims (idempotency_key, used_for);
CREATE INDEX payment_claims_failed ON payment_claims (claimed) WHERE refund_failure IS NOT NULL;
