//! The SQL of the people store, one text for both dialects (SQLite accepts `$1`).

pub(crate) const CREATE_ACCOUNT: &str = "INSERT INTO site_user_accounts \
     (id, email, password_hash, confirmed_at, created, member_areas) \
     VALUES ($1, $2, $3, $4, $5, $6)";

pub(crate) const ACCOUNT_BY_ID: &str = "SELECT id, email, password_hash, confirmed_at, created, \
     member_areas FROM site_user_accounts WHERE id = $1";

pub(crate) const ACCOUNT_BY_EMAIL: &str = "SELECT id, email, password_hash, confirmed_at, \
     created, member_areas FROM site_user_accounts WHERE email = $1";

pub(crate) const CONFIRM_EMAIL: &str = "UPDATE site_user_accounts \
     SET confirmed_at = COALESCE(confirmed_at, $2) WHERE id = $1";

pub(crate) const SET_PASSWORD: &str =
    "UPDATE site_user_accounts SET password_hash = $2 WHERE id = $1";

pub(crate) const CHANGE_EMAIL: &str =
    "UPDATE site_user_accounts SET email = $2, confirmed_at = $3 WHERE id = $1";

/// Marks an account's address confirmed the first time; no row changes when it was
/// confirmed before (or there is no such account), which [`CONFIRM_EMAIL`] then tells apart.
pub(crate) const FIRST_CONFIRMATION: &str = "UPDATE site_user_accounts \
     SET confirmed_at = $2 WHERE id = $1 AND confirmed_at IS NULL";

/// The address an account holds now, and whether it is confirmed.
pub(crate) const CURRENT_ADDRESS: &str =
    "SELECT email, confirmed_at IS NOT NULL FROM site_user_accounts WHERE id = $1";

/// Ends the account's hold of the address it is about to leave at `$2`, when it was
/// confirmed and is not the address it moves to (`$3`).
pub(crate) const KEEP_EARLIER_EMAIL: &str = "INSERT INTO site_user_earlier_emails \
     (account_id, email, held_since, left_at) \
     SELECT id, email, email_held_since, $2 FROM site_user_accounts \
     WHERE id = $1 AND confirmed_at IS NOT NULL AND email <> $3 \
     ON CONFLICT (account_id, email, left_at) DO NOTHING";

/// Starts the account's hold of its address, just confirmed, where the last other
/// account's hold of it ended (none: since the beginning).
pub(crate) const TAKE_HOLD: &str = "UPDATE site_user_accounts SET email_held_since = ( \
     SELECT MAX(earlier.left_at) FROM site_user_earlier_emails AS earlier \
     WHERE earlier.email = site_user_accounts.email \
     AND earlier.account_id <> site_user_accounts.id) \
     WHERE id = $1";

/// The account's own earlier holds of the address it has just taken that its new hold
/// covers go: all of them when the new one starts at the beginning.
pub(crate) const FORGET_COVERED_HOLDS: &str = "DELETE FROM site_user_earlier_emails \
     WHERE account_id = $1 \
     AND email = (SELECT email FROM site_user_accounts WHERE id = $1) \
     AND ((SELECT email_held_since FROM site_user_accounts WHERE id = $1) IS NULL \
     OR held_since >= (SELECT email_held_since FROM site_user_accounts WHERE id = $1))";

/// The hold of the account's current address, when it is confirmed.
pub(crate) const CURRENT_HOLD: &str = "SELECT email, email_held_since \
     FROM site_user_accounts WHERE id = $1 AND confirmed_at IS NOT NULL";

/// The account's ended holds, the one left last first, each with whether another account
/// has confirmed the address since: it holds the address now, or took it after this hold.
pub(crate) const EARLIER_HOLDS: &str = "SELECT earlier.email, earlier.held_since, \
     earlier.left_at, \
     (EXISTS (SELECT 1 FROM site_user_accounts AS other \
         WHERE other.email = earlier.email AND other.id <> earlier.account_id \
         AND other.confirmed_at IS NOT NULL) \
      OR EXISTS (SELECT 1 FROM site_user_earlier_emails AS later \
         WHERE later.email = earlier.email AND later.account_id <> earlier.account_id \
         AND later.held_since >= earlier.left_at)) AS superseded \
     FROM site_user_earlier_emails AS earlier \
     WHERE earlier.account_id = $1 ORDER BY earlier.left_at DESC, earlier.email";

/// The account whose hold of address `$1` covers the instant `$2`.
pub(crate) const HOLDER_AT: &str = "SELECT id FROM site_user_accounts \
     WHERE email = $1 AND confirmed_at IS NOT NULL \
     AND (email_held_since IS NULL OR email_held_since < $2) \
     UNION ALL \
     SELECT account_id FROM site_user_earlier_emails \
     WHERE email = $1 AND (held_since IS NULL OR held_since < $2) AND $2 <= left_at \
     LIMIT 1";

pub(crate) const SET_MEMBER_AREAS: &str =
    "UPDATE site_user_accounts SET member_areas = $2 WHERE id = $1";

pub(crate) const DELETE_ACCOUNT: &str = "DELETE FROM site_user_accounts WHERE id = $1";

/// Saves an account's address in place of its last; no row is written for an unknown
/// account, which the caller reports.
pub(crate) const SAVE_ADDRESS: &str = "INSERT INTO site_user_addresses (account_id, address) \
     SELECT id, $2 FROM site_user_accounts WHERE id = $1 \
     ON CONFLICT (account_id) DO UPDATE SET address = excluded.address";

pub(crate) const SAVED_ADDRESS: &str =
    "SELECT address FROM site_user_addresses WHERE account_id = $1";

pub(crate) const REMOVE_ADDRESS: &str = "DELETE FROM site_user_addresses WHERE account_id = $1";

pub(crate) const SAVE_TOKEN: &str = "INSERT INTO site_user_tokens \
     (token, account_id, kind, new_email, expires_at) VALUES ($1, $2, $3, $4, $5) \
     ON CONFLICT (token) DO UPDATE SET account_id = excluded.account_id, kind = excluded.kind, \
     new_email = excluded.new_email, expires_at = excluded.expires_at";

pub(crate) const TAKE_TOKEN: &str = "DELETE FROM site_user_tokens WHERE token = $1 \
     RETURNING token, account_id, kind, new_email, expires_at";

pub(crate) const CREATE_SESSION: &str = "INSERT INTO site_user_sessions \
     (token, account_id, xsrf_token, created, expires_at, remember_me) \
     VALUES ($1, $2, $3, $4, $5, $6)";

pub(crate) const SESSION: &str = "SELECT token, account_id, xsrf_token, created, expires_at, \
     remember_me FROM site_user_sessions WHERE token = $1";

pub(crate) const DELETE_SESSION: &str = "DELETE FROM site_user_sessions WHERE token = $1";

pub(crate) const DELETE_SESSIONS_OF: &str = "DELETE FROM site_user_sessions WHERE account_id = $1";

pub(crate) const PUT_SESSION_DATA: &str = "INSERT INTO site_user_session_data \
     (session_token, key, value, expires_at) VALUES ($1, $2, $3, $4) \
     ON CONFLICT (session_token, key) DO UPDATE SET value = excluded.value, \
     expires_at = excluded.expires_at";

pub(crate) const SESSION_DATA: &str = "SELECT value, expires_at FROM site_user_session_data \
     WHERE session_token = $1 AND key = $2";

pub(crate) const DELETE_SESSION_DATA: &str =
    "DELETE FROM site_user_session_data WHERE session_token = $1 AND key = $2";
