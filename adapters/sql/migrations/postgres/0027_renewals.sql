-- Recurring billing: the saved card and dunning state of each subscription, and one claim
-- row per renewal attempt, so that a crash or a second server never charges a period twice.
ALTER TABLE subscriptions ADD COLUMN skipped_periods BIGINT NOT NULL DEFAULT 0
    CHECK (skipped_periods >= 0);
-- The payment gateway's token of the saved card; NULL when none was kept.
ALTER TABLE subscriptions ADD COLUMN payment_method TEXT;
ALTER TABLE subscriptions ADD COLUMN failed_attempts BIGINT NOT NULL DEFAULT 0
    CHECK (failed_attempts >= 0);
-- During dunning: the next retry (active) or the cancellation date (past_due).
ALTER TABLE subscriptions ADD COLUMN retry_at BIGINT;
-- When the subscription's next step falls due (a charge or the end of dunning); NULL when
-- nothing will happen without the shopper (paused, cancelled, ended). Written with every
-- change, so that the renewal run finds what is due by one index.
ALTER TABLE subscriptions ADD COLUMN next_step_at BIGINT;
UPDATE subscriptions SET next_step_at = next_billing_at WHERE status = 'active';
CREATE INDEX subscriptions_next_step ON subscriptions (next_step_at)
    WHERE next_step_at IS NOT NULL;
CREATE INDEX subscriptions_by_email ON subscriptions (lower(email));

CREATE TABLE renewal_claims (
    subscription_id TEXT NOT NULL REFERENCES subscriptions (id),
    -- The billing cycle charged (1 for the first renewal) and the try (0 on the due date).
    period BIGINT NOT NULL CHECK (period > 0),
    attempt BIGINT NOT NULL CHECK (attempt >= 0),
    claimed BIGINT NOT NULL,
    -- Until when the runner that claimed it holds it; after that another runner may take it
    -- over and ask the gateway again under the same idempotency key.
    lease_until BIGINT NOT NULL,
    -- NULL while being charged; then 'paid' with the charge's id, or 'declined' with why.
    outcome TEXT CHECK (outcome IN ('paid', 'declined')),
    payment_id TEXT,
    reason TEXT,
    settled BIGINT,
    PRIMARY KEY (subscription_id, period, attempt)
);
