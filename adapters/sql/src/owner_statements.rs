//! The SQL of the owner store, one text for both dialects (SQLite accepts `$1`).

macro_rules! owner_columns {
    () => {
        "id, email, role, password_hash, totp_secret, totp_last_step, totp_pending, created"
    };
}

macro_rules! session_columns {
    () => {
        "token, id, account_id, csrf_token, created, expires_at, user_agent"
    };
}

macro_rules! key_columns {
    () => {
        "token, id, account_id, name, scopes, created"
    };
}

pub(crate) const CREATE_OWNER: &str = concat!(
    "INSERT INTO owner_accounts (",
    owner_columns!(),
    ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
);

pub(crate) const OWNER_BY_ID: &str = concat!(
    "SELECT ",
    owner_columns!(),
    " FROM owner_accounts WHERE id = $1"
);

pub(crate) const OWNER_BY_EMAIL: &str = concat!(
    "SELECT ",
    owner_columns!(),
    " FROM owner_accounts WHERE email = $1"
);

pub(crate) const OWNERS: &str = concat!(
    "SELECT ",
    owner_columns!(),
    " FROM owner_accounts ORDER BY email"
);

pub(crate) const UPDATE_OWNER: &str = "UPDATE owner_accounts SET role = $2, password_hash = $3, \
     totp_secret = $4, totp_last_step = $5, totp_pending = $6 WHERE id = $1";

pub(crate) const DELETE_OWNER: &str = "DELETE FROM owner_accounts WHERE id = $1";

pub(crate) const SAVE_SETUP_TOKEN: &str =
    "INSERT INTO owner_setup_tokens (token, account_id, expires_at) VALUES ($1, $2, $3)";

pub(crate) const TAKE_SETUP_TOKEN: &str = "DELETE FROM owner_setup_tokens WHERE token = $1 \
     RETURNING token, account_id, expires_at";

pub(crate) const SETUP_TOKEN: &str = "SELECT token, account_id, expires_at \
     FROM owner_setup_tokens WHERE token = $1 AND expires_at > $2";

pub(crate) const CREATE_SESSION: &str = concat!(
    "INSERT INTO owner_sessions (",
    session_columns!(),
    ") VALUES ($1, $2, $3, $4, $5, $6, $7)"
);

pub(crate) const SESSION: &str = concat!(
    "SELECT ",
    session_columns!(),
    " FROM owner_sessions WHERE token = $1"
);

pub(crate) const SESSIONS_OF: &str = concat!(
    "SELECT ",
    session_columns!(),
    " FROM owner_sessions WHERE account_id = $1 AND expires_at > $2 \
     ORDER BY created DESC, id"
);

pub(crate) const DELETE_SESSION_BY_TOKEN: &str = "DELETE FROM owner_sessions WHERE token = $1";

pub(crate) const DELETE_SESSION: &str =
    "DELETE FROM owner_sessions WHERE account_id = $1 AND id = $2";

pub(crate) const DELETE_SESSIONS_OF: &str = "DELETE FROM owner_sessions WHERE account_id = $1";

pub(crate) const CREATE_KEY: &str = concat!(
    "INSERT INTO owner_api_keys (",
    key_columns!(),
    ") VALUES ($1, $2, $3, $4, $5, $6)"
);

pub(crate) const KEY: &str = concat!(
    "SELECT ",
    key_columns!(),
    " FROM owner_api_keys WHERE token = $1"
);

pub(crate) const KEYS_OF: &str = concat!(
    "SELECT ",
    key_columns!(),
    " FROM owner_api_keys WHERE account_id = $1 ORDER BY created DESC, id"
);

pub(crate) const DELETE_KEY: &str = "DELETE FROM owner_api_keys WHERE account_id = $1 AND id = $2";
