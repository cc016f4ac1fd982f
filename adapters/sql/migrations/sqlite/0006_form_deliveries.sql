-- The delivery outbox and newsletter subscribers. Deliveries are written in the same
-- transaction as their submission, so a stored submission never lacks its deliveries; a
-- worker sends them later, retrying with backoff. Times in milliseconds.
CREATE TABLE form_deliveries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    submission_id BIGINT NOT NULL,
    kind TEXT NOT NULL,
    attempts BIGINT NOT NULL DEFAULT 0,
    next_attempt_ms BIGINT NOT NULL,
    delivered_ms BIGINT,
    failed BOOLEAN NOT NULL DEFAULT FALSE,
    last_error TEXT,
    created_at BIGINT NOT NULL
);

CREATE INDEX form_deliveries_due ON form_deliveries (next_attempt_ms)
    WHERE delivered_ms IS NULL AND failed = FALSE;

-- One row per newsletter subscription ever stored (unsubscribed ones stay for the owner's
-- records; their form_submissions.subscription is cleared so the address may sign up again).
CREATE TABLE newsletter_subscribers (
    submission_id BIGINT PRIMARY KEY,
    list_id TEXT NOT NULL,
    email TEXT NOT NULL,
    unsubscribe_token TEXT NOT NULL UNIQUE,
    -- Set for double opt-in subscriptions; confirmed_at stays NULL until the link is followed.
    confirm_token TEXT UNIQUE,
    confirmed_at BIGINT,
    unsubscribed_at BIGINT
);
