//! The SQL of the form store, one text for both dialects (SQLite accepts `$1` placeholders).

pub(crate) const INSERT_KEY: &str =
    "INSERT INTO form_submission_keys (submission_key, expires_at) VALUES ($1, $2)";

/// Claims a key: inserts its consumption, or marks the row the SQL key store issued. A key
/// consumed before (here or by another server sharing the database) is left alone and no row
/// changes. The key is the primary key, so two racing claims cannot both succeed: on
/// PostgreSQL the second waits for the first to commit and then finds it claimed; SQLite
/// writes one transaction at a time. `expires_at` of a key issued elsewhere records when it
/// was consumed.
pub(crate) const CLAIM_KEY: &str = "INSERT INTO form_submission_keys \
     (submission_key, expires_at, fingerprint) VALUES ($2, $3, $1) \
     ON CONFLICT (submission_key) DO UPDATE SET fingerprint = excluded.fingerprint \
     WHERE form_submission_keys.fingerprint IS NULL";

/// Whether the SQL key store issued a key that has not expired.
pub(crate) const KEY_IS_LIVE: &str = "SELECT COUNT(*) FROM form_submission_keys \
     WHERE submission_key = $1 AND expires_at > $2";

pub(crate) const LINK_KEY: &str =
    "UPDATE form_submission_keys SET submission_id = $1 WHERE submission_key = $2";

pub(crate) const READ_KEY: &str = "SELECT fingerprint, submission_id FROM form_submission_keys \
     WHERE submission_key = $1";

pub(crate) const FIND_SUBSCRIPTION: &str =
    "SELECT id FROM form_submissions WHERE form_id = $1 AND subscription = $2";

pub(crate) const INSERT_SUBMISSION: &str = "INSERT INTO form_submissions \
     (form_id, collection_id, object_name, is_overlay_form, form_values, spam, subscription, \
     created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id";

pub(crate) const LIST_SUBMISSIONS: &str = "SELECT id, form_id, collection_id, object_name, \
     is_overlay_form, form_values, spam, created_at FROM form_submissions ORDER BY id";
