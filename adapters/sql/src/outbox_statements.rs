//! The SQL of the delivery outbox and the newsletter subscribers, one text for both dialects.

use crate::table_pages::matching_any;

pub(crate) const ENQUEUE: &str = "INSERT INTO form_deliveries \
     (submission_id, kind, next_attempt_ms, created_at) VALUES ($1, $2, $3, $4)";

/// A delivery about an order, due at `$4`; `$2` names the review request of a review mail.
pub(crate) const ENQUEUE_FOR_ORDER: &str = "INSERT INTO form_deliveries \
     (order_id, review_token, kind, next_attempt_ms, created_at) VALUES ($1, $2, $3, $4, $5)";

/// `next_attempt_ms` of an order confirmation held until the order's payment succeeds: never
/// due, so no worker claims it until the success makes it due ([`RELEASE_HELD_CONFIRMATION`])
/// or a failure drops it ([`DROP_HELD_CONFIRMATION`]). The row exists from the order's own
/// transaction, so the unique (order, kind) keeps it to one mail.
pub(crate) const HELD_UNTIL_PAID_MS: i64 = i64::MAX;

/// Makes order `$1`'s held confirmation (kind `$2`) due at `$3`; a released one is left alone.
pub(crate) const RELEASE_HELD_CONFIRMATION: &str = "UPDATE form_deliveries      SET next_attempt_ms = $3 WHERE order_id = $1 AND kind = $2 AND next_attempt_ms = $4      AND delivered_ms IS NULL";

/// Drops order `$1`'s confirmation (kind `$2`) while it is still held: its payment failed.
pub(crate) const DROP_HELD_CONFIRMATION: &str = "DELETE FROM form_deliveries      WHERE order_id = $1 AND kind = $2 AND next_attempt_ms = $3 AND delivered_ms IS NULL";

/// A composed mail due at `$3` and written at `$4` (a gift card to its recipient, on the day
/// the buyer chose). It names no order: the outbox's subjects are one of a submission, an
/// order or a composed mail, and the order's own transaction already writes it exactly once.
/// A mail held for the payment of order `$5` is due at [`HELD_UNTIL_PAID_MS`] and keeps the
/// moment chosen for it in `$6` ([`RELEASE_HELD_MAILS`], [`DROP_HELD_MAILS`]); both are null
/// for any other.
pub(crate) const ENQUEUE_MAIL_DUE: &str = "INSERT INTO form_deliveries \
     (mail, kind, next_attempt_ms, created_at, held_for_order, due_when_paid_ms) \
     VALUES ($1, $2, $3, $4, $5, $6)";

/// Makes the composed mails held for order `$1`'s payment due, now that it succeeded at `$2`:
/// each at the moment chosen for it, or at `$2` when that has passed. A CASE rather than
/// `MAX`/`GREATEST`, which the two dialects spell differently.
pub(crate) const RELEASE_HELD_MAILS: &str = "UPDATE form_deliveries SET \
     next_attempt_ms = CASE WHEN due_when_paid_ms > $2 THEN due_when_paid_ms ELSE $2 END, \
     held_for_order = NULL, due_when_paid_ms = NULL \
     WHERE held_for_order = $1 AND delivered_ms IS NULL";

/// Drops the composed mails held for order `$1`'s payment: it failed.
pub(crate) const DROP_HELD_MAILS: &str =
    "DELETE FROM form_deliveries WHERE held_for_order = $1 AND delivered_ms IS NULL";

/// A composed mail to a site user, due at `$3`.
pub(crate) const ENQUEUE_MAIL: &str = "INSERT INTO form_deliveries \
     (mail, kind, next_attempt_ms, created_at) VALUES ($1, $2, $3, $3)";

pub(crate) const MAIL_OF: &str = "SELECT mail FROM form_deliveries WHERE id = $1";

pub(crate) const INSERT_SUBSCRIBER: &str = "INSERT INTO newsletter_subscribers \
     (submission_id, list_id, email, unsubscribe_token, confirm_token, confirmed_at) \
     VALUES ($1, $2, $3, $4, $5, $6)";

pub(crate) const DUE: &str = "SELECT id, next_attempt_ms FROM form_deliveries \
     WHERE delivered_ms IS NULL AND failed = FALSE AND next_attempt_ms <= $1 \
     ORDER BY next_attempt_ms, id LIMIT $2";

/// Takes a delivery for a lease only if no other worker moved it since it was read.
pub(crate) const CLAIM: &str = "UPDATE form_deliveries SET next_attempt_ms = $1 \
     WHERE id = $2 AND next_attempt_ms = $3 AND delivered_ms IS NULL AND failed = FALSE";

/// A claimed delivery with its submission (and subscriber), or the order it names.
pub(crate) const CLAIMED: &str = "SELECT d.id AS delivery_id, d.kind, d.attempts, \
     d.order_id, d.review_token, d.mail, \
     s.id, s.form_id, s.collection_id, s.object_name, s.is_overlay_form, s.form_values, s.spam, \
     s.created_at, n.list_id, n.email, n.unsubscribe_token, n.confirm_token, n.confirmed_at, \
     n.unsubscribed_at \
     FROM form_deliveries d LEFT JOIN form_submissions s ON s.id = d.submission_id \
     LEFT JOIN newsletter_subscribers n ON n.submission_id = s.id WHERE d.id = $1";

pub(crate) const DELIVERED: &str = "UPDATE form_deliveries \
     SET delivered_ms = $1, attempts = attempts + 1 WHERE id = $2";

pub(crate) const RETRY: &str = "UPDATE form_deliveries \
     SET attempts = $1, next_attempt_ms = $2, last_error = $3 WHERE id = $4";

pub(crate) const GIVE_UP: &str = "UPDATE form_deliveries \
     SET attempts = $1, failed = TRUE, last_error = $2 WHERE id = $3";

pub(crate) const LIST: &str = "SELECT id, submission_id, order_id, kind, attempts, \
     next_attempt_ms, delivered_ms, failed, last_error FROM form_deliveries ORDER BY id";

pub(crate) const SUBSCRIBER_BY_TOKEN: &str = "SELECT submission_id, list_id, email, \
     unsubscribe_token, confirm_token, confirmed_at, unsubscribed_at FROM newsletter_subscribers \
     WHERE unsubscribe_token = $1 OR confirm_token = $1";

/// The live subscriptions of an address, compared lowercased (the
/// `newsletter_subscribers_email_lower` index).
pub(crate) const SUBSCRIPTIONS_OF: &str = "SELECT submission_id, list_id, email, \
     unsubscribe_token, confirm_token, confirmed_at, unsubscribed_at FROM newsletter_subscribers \
     WHERE LOWER(email) = LOWER($1) AND unsubscribed_at IS NULL ORDER BY submission_id";

pub(crate) const CONFIRM: &str = "UPDATE newsletter_subscribers SET confirmed_at = $1 \
     WHERE confirm_token = $2 AND confirmed_at IS NULL AND unsubscribed_at IS NULL \
     RETURNING submission_id";

pub(crate) const CONFIRM_TOKEN_EXISTS: &str =
    "SELECT submission_id FROM newsletter_subscribers WHERE confirm_token = $1";

pub(crate) const UNSUBSCRIBE: &str = "UPDATE newsletter_subscribers SET unsubscribed_at = $1 \
     WHERE unsubscribe_token = $2 AND unsubscribed_at IS NULL RETURNING submission_id";

pub(crate) const UNSUBSCRIBE_TOKEN_EXISTS: &str =
    "SELECT submission_id FROM newsletter_subscribers WHERE unsubscribe_token = $1";

/// Frees the (list, address) slots of every sign-up of an address, for its erasure.
pub(crate) const RELEASE_SUBSCRIPTIONS_OF: &str = "UPDATE form_submissions SET subscription = NULL \
     WHERE id IN (SELECT submission_id FROM newsletter_subscribers WHERE LOWER(email) = LOWER($1))";

/// Erases every subscriber row of an address, live or ended.
pub(crate) const ERASE_SUBSCRIBERS_OF: &str =
    "DELETE FROM newsletter_subscribers WHERE LOWER(email) = LOWER($1)";

/// Frees the (list, address) slot of the unique index, so the address may sign up again.
pub(crate) const RELEASE_SUBSCRIPTION: &str =
    "UPDATE form_submissions SET subscription = NULL WHERE id = $1";

/// The owner's search over subscribers: `$1` is a `LIKE` pattern escaped with a backslash
/// (or null for all), matched without case (`ILIKE` on PostgreSQL) against address and list.
macro_rules! subscribers_matching {
    ($like:literal) => {
        matching_any!("newsletter_subscribers", $like, "email", "list_id")
    };
}

macro_rules! page_subscribers {
    ($like:literal) => {
        concat!(
            "SELECT submission_id, list_id, email, unsubscribe_token, confirm_token, \
             confirmed_at, unsubscribed_at",
            subscribers_matching!($like),
            " ORDER BY submission_id DESC LIMIT $2 OFFSET $3"
        )
    };
}

/// A page of the subscribers matching `$1`, newest first: `$2` rows from row `$3`.
pub(crate) const SQLITE_PAGE_SUBSCRIBERS: &str = page_subscribers!("LIKE");
pub(crate) const POSTGRES_PAGE_SUBSCRIBERS: &str = page_subscribers!("ILIKE");

/// How many subscribers match `$1`.
pub(crate) const SQLITE_COUNT_SUBSCRIBERS: &str =
    concat!("SELECT COUNT(*)", subscribers_matching!("LIKE"));
pub(crate) const POSTGRES_COUNT_SUBSCRIBERS: &str =
    concat!("SELECT COUNT(*)", subscribers_matching!("ILIKE"));
