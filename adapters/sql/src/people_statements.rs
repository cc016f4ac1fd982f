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

/// Keeps the address an account is about to leave among its earlier ones, when it was
/// confirmed and is not the address it moves to; leaving it again moves the time.
pub(crate) const KEEP_EARLIER_EMAIL: &str = "INSERT INTO site_user_earlier_emails \
     (account_id, email, left_at) \
     SELECT id, email, $2 FROM site_user_accounts \
     WHERE id = $1 AND confirmed_at IS NOT NULL AND email <> $3 \
     ON CONFLICT (account_id, email) DO UPDATE SET left_at = excluded.left_at";

/// An address an account has just confirmed by moving to it is nobody's earlier one.
pub(crate) const FORGET_EARLIER_EMAIL: &str =
    "DELETE FROM site_user_earlier_emails WHERE email = $1";

/// An address an account has just confirmed is no other account's earlier one.
pub(crate) const FORGET_OTHERS_EARLIER_EMAIL: &str = "DELETE FROM site_user_earlier_emails \
     WHERE account_id <> $1 \
     AND email = (SELECT email FROM site_user_accounts WHERE id = $1)";

pub(crate) const EARLIER_EMAILS: &str = "SELECT email FROM site_user_earlier_emails \
     WHERE account_id = $1 ORDER BY left_at DESC, email";

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
