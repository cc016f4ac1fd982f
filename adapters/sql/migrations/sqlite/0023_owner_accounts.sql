-- Owner and contributor accounts (addresses stored lowercased, so UNIQUE is case-blind) with
-- their role code (001 s3), the one-time setup links that set a password, signed-in owner
-- sessions and the API keys scripts use. Links, sessions and keys are kept as SHA-256 digests
-- only. Removing an account removes everything below it.
CREATE TABLE owner_accounts (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    role BIGINT NOT NULL,
    -- NULL until the setup link was followed.
    password_hash TEXT,
    -- The TOTP secret in hex, when the second factor is on.
    totp_secret TEXT,
    -- The last 30-second step whose code was accepted, so a code works once.
    totp_last_step BIGINT,
    created BIGINT NOT NULL
);

CREATE TABLE owner_setup_tokens (
    token TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES owner_accounts (id) ON DELETE CASCADE,
    expires_at BIGINT NOT NULL
);

CREATE TABLE owner_sessions (
    token TEXT PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL REFERENCES owner_accounts (id) ON DELETE CASCADE,
    csrf_token TEXT NOT NULL,
    created BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    user_agent TEXT NOT NULL
);
CREATE INDEX owner_sessions_account ON owner_sessions (account_id);

CREATE TABLE owner_api_keys (
    token TEXT PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL REFERENCES owner_accounts (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    -- The permission codes the key may use, as a JSON array of numbers.
    scopes TEXT NOT NULL,
    created BIGINT NOT NULL
);
CREATE INDEX owner_api_keys_account ON owner_api_keys (account_id);
