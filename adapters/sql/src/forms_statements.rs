//! The SQL of the form store, one text for both dialects (SQLite accepts `$1` placeholders).

pub(crate) const INSERT_KEY: &str =
    "INSERT INTO form_submission_keys (submission_key, expires_at) VALUES ($1, $2)";

/// Claims an unused, unexpired key. As the transaction's first statement it takes the write
/// lock at once (SQLite) or the row lock (PostgreSQL), so of two racing saves one claims the
/// key and the other finds it claimed once the first commits.
pub(crate) const CLAIM_KEY: &str = "UPDATE form_submission_keys SET fingerprint = $1 \
     WHERE submission_key = $2 AND fingerprint IS NULL AND expires_at > $3";

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
