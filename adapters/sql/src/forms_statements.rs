//! The SQL of the form store, one text for both dialects (SQLite accepts `$1` placeholders).

use crate::table_pages::matching_any;

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

/// What a key did: its fingerprint, and the submission it stored (linked on the key's row,
/// or naming the key on the submission's row, as a group insert leaves it).
pub(crate) const READ_KEY: &str = "SELECT k.fingerprint, COALESCE(k.submission_id, s.id) \
     FROM form_submission_keys k LEFT JOIN form_submissions s \
     ON s.submission_key = k.submission_key WHERE k.submission_key = $1";

pub(crate) const FIND_SUBSCRIPTION: &str =
    "SELECT id FROM form_submissions WHERE form_id = $1 AND subscription = $2";

pub(crate) const INSERT_SUBMISSION: &str = "INSERT INTO form_submissions \
     (form_id, collection_id, object_name, is_overlay_form, form_values, spam, subscription, \
     created_at, submission_key) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id";

/// The start of a group claim; `VALUES (key, now, fingerprint), ...` and [`CLAIM_MANY_END`]
/// follow. Like [`CLAIM_KEY`], but for many keys at once, answering the keys it claimed.
pub(crate) const CLAIM_MANY_START: &str =
    "INSERT INTO form_submission_keys (submission_key, expires_at, fingerprint) ";

pub(crate) const CLAIM_MANY_END: &str = " ON CONFLICT (submission_key) DO UPDATE \
     SET fingerprint = excluded.fingerprint WHERE form_submission_keys.fingerprint IS NULL \
     RETURNING submission_key";

/// The start of a group insert; `VALUES (...), ...` in the column order of
/// [`INSERT_SUBMISSION`] and [`INSERT_MANY_END`] follow.
pub(crate) const INSERT_MANY_START: &str = "INSERT INTO form_submissions \
     (form_id, collection_id, object_name, is_overlay_form, form_values, spam, subscription, \
     created_at, submission_key) ";

pub(crate) const INSERT_MANY_END: &str = " RETURNING id, submission_key";

pub(crate) const LIST_SUBMISSIONS: &str = "SELECT id, form_id, collection_id, object_name, \
     is_overlay_form, form_values, spam, created_at FROM form_submissions ORDER BY id";

/// The owner's search over submissions: `$1` is a `LIKE` pattern escaped with a backslash (or null
/// for every row), matched without case against the values, the form id and the form's name.
/// SQLite's `LIKE` ignores the case of ASCII letters; PostgreSQL needs `ILIKE`.
macro_rules! submissions_matching {
    ($like:literal) => {
        matching_any!(
            "form_submissions",
            $like,
            "form_values",
            "form_id",
            "object_name"
        )
    };
}

macro_rules! page_submissions {
    ($like:literal) => {
        concat!(
            "SELECT id, form_id, collection_id, object_name, is_overlay_form, form_values, spam, \
             created_at",
            submissions_matching!($like),
            " ORDER BY id DESC LIMIT $2 OFFSET $3"
        )
    };
}

/// A page of the submissions matching `$1`, newest first: `$2` rows from row `$3`.
pub(crate) const SQLITE_PAGE_SUBMISSIONS: &str = page_submissions!("LIKE");
pub(crate) const POSTGRES_PAGE_SUBMISSIONS: &str = page_submissions!("ILIKE");

/// How many submissions match `$1`.
pub(crate) const SQLITE_COUNT_SUBMISSIONS: &str =
    concat!("SELECT COUNT(*)", submissions_matching!("LIKE"));
pub(crate) const POSTGRES_COUNT_SUBMISSIONS: &str =
    concat!("SELECT COUNT(*)", submissions_matching!("ILIKE"));
