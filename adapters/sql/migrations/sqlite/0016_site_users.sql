-- Site-user accounts (addresses stored lowercased, so UNIQUE is case-blind), the single-use
-- tokens mailed to them, their signed-in sessions and the sessions' saved data. Tokens and
-- sessions are kept as SHA-256 digests only. Deleting an account erases everything below it.
CREATE TABLE site_user_accounts (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    confirmed_at BIGINT,
    created BIGINT NOT NULL,
    -- The member areas the account may enter, as a JSON array of ids.
    member_areas TEXT NOT NULL DEFAULT '[]'
);

CREATE TABLE site_user_tokens (
    token TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES site_user_accounts (id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    -- For an email change: the address the account moves to.
    new_email TEXT,
    expires_at BIGINT NOT NULL
);
CREATE INDEX site_user_tokens_account ON site_user_tokens (account_id);

CREATE TABLE site_user_sessions (
    token TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES site_user_accounts (id) ON DELETE CASCADE,
    xsrf_token TEXT NOT NULL,
    created BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    remember_me BOOLEAN NOT NULL
);
CREATE INDEX site_user_sessions_account ON site_user_sessions (account_id);

CREATE TABLE site_user_session_data (
    session_token TEXT NOT NULL REFERENCES site_user_sessions (token) ON DELETE CASCADE,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    expires_at BIGINT,
    PRIMARY KEY (session_token, key)
);

-- Mails to site users share the outbox: such a row carries its composed mail (JSON of to,
-- subject and text) instead of naming a submission or an order. SQLite cannot change a CHECK
-- constraint, so the table is built again with its rows.
CREATE TABLE form_deliveries_new (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    submission_id BIGINT,
    order_id TEXT,
    review_token TEXT,
    mail TEXT,
    kind TEXT NOT NULL,
    attempts BIGINT NOT NULL DEFAULT 0,
    next_attempt_ms BIGINT NOT NULL,
    delivered_ms BIGINT,
    failed BOOLEAN NOT NULL DEFAULT FALSE,
    last_error TEXT,
    created_at BIGINT NOT NULL,
    CHECK ((submission_id IS NOT NULL) + (order_id IS NOT NULL) + (mail IS NOT NULL) = 1)
);

INSERT INTO form_deliveries_new
    (id, submission_id, order_id, review_token, kind, attempts, next_attempt_ms, delivered_ms,
     failed, last_error, created_at)
SELECT id, submission_id, order_id, review_token, kind, attempts, next_attempt_ms,
    delivered_ms, failed, last_error, created_at
FROM form_deliveries;

DROP TABLE form_deliveries;
ALTER TABLE form_deliveries_new RENAME TO form_deliveries;

CREATE INDEX form_deliveries_due ON form_deliveries (next_attempt_ms)
    WHERE delivered_ms IS NULL AND failed = FALSE;
CREATE UNIQUE INDEX form_deliveries_per_order ON form_deliveries (order_id, kind)
    WHERE order_id IS NOT NULL;
