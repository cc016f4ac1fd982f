-- The second factor an owner is enrolling from the owner area: the server's new secret,
-- waiting for a first correct code before it replaces totp_secret. Hex, like totp_secret.
ALTER TABLE owner_accounts ADD COLUMN totp_pending TEXT;
