//! The SQL of the review store, one text for both dialects (SQLite accepts `$1`).

use crate::table_pages::matching_any;

pub(crate) const SAVE_REQUEST: &str = "INSERT INTO review_requests \
     (token, order_id, author_name, items, created, expires_at) VALUES ($1, $2, $3, $4, $5, $6) \
     ON CONFLICT (token) DO UPDATE SET order_id = excluded.order_id, \
     author_name = excluded.author_name, items = excluded.items, created = excluded.created, \
     expires_at = excluded.expires_at";

pub(crate) const LOAD_REQUEST: &str = "SELECT token, order_id, author_name, items, created, \
     expires_at FROM review_requests WHERE token = $1";

pub(crate) const ADD_REVIEW: &str = "INSERT INTO product_reviews \
     (id, order_id, sku, product_name, rating, title, body, author_name, created, hidden, reply) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)";

/// The columns a [`crate::review_store::ReviewRow`] reads.
macro_rules! review_columns {
    () => {
        "id, order_id, sku, product_name, rating, title, body, author_name, created, hidden, reply"
    };
}

pub(crate) const SET_HIDDEN: &str = "UPDATE product_reviews SET hidden = $2 WHERE id = $1";

pub(crate) const SET_REPLY: &str = "UPDATE product_reviews SET reply = $2 WHERE id = $1";

/// The owner's search over reviews: `$1` is a `LIKE` pattern escaped with a backslash (or
/// null for every review), matched without case (`ILIKE` on PostgreSQL) against the product
/// name, SKU, author, title and text.
macro_rules! reviews_matching {
    ($like:literal) => {
        matching_any!(
            "product_reviews",
            $like,
            "product_name",
            "sku",
            "author_name",
            "title",
            "body"
        )
    };
}

macro_rules! page_reviews {
    ($like:literal) => {
        concat!(
            "SELECT ",
            review_columns!(),
            reviews_matching!($like),
            " ORDER BY created DESC, id DESC LIMIT $2 OFFSET $3"
        )
    };
}

/// A page of every review matching `$1`, hidden ones too, newest first: `$2` from row `$3`.
pub(crate) const SQLITE_PAGE_REVIEWS: &str = page_reviews!("LIKE");
pub(crate) const POSTGRES_PAGE_REVIEWS: &str = page_reviews!("ILIKE");

/// How many reviews match `$1`.
pub(crate) const SQLITE_COUNT_REVIEWS: &str = concat!("SELECT COUNT(*)", reviews_matching!("LIKE"));
pub(crate) const POSTGRES_COUNT_REVIEWS: &str =
    concat!("SELECT COUNT(*)", reviews_matching!("ILIKE"));

pub(crate) const REVIEWED_SKUS: &str =
    "SELECT sku FROM product_reviews WHERE order_id = $1 ORDER BY sku";

/// The SKUs a product-wide query covers arrive as one JSON array in `$1`, so that every
/// statement is a constant; only the way to read the array differs between the dialects.
macro_rules! sku_set {
    (sqlite) => {
        "(SELECT value FROM json_each($1))"
    };
    (postgres) => {
        "(SELECT jsonb_array_elements_text(CAST($1 AS JSONB)))"
    };
}

macro_rules! reviews_for {
    ($dialect:ident) => {
        concat!(
            "SELECT ",
            review_columns!(),
            " FROM product_reviews WHERE NOT hidden AND sku IN ",
            sku_set!($dialect),
            " ORDER BY created DESC, id DESC LIMIT $2"
        )
    };
}

macro_rules! summary_for {
    ($dialect:ident) => {
        concat!(
            "SELECT COUNT(*), CAST(COALESCE(SUM(rating), 0) AS BIGINT) FROM product_reviews \
             WHERE NOT hidden AND sku IN ",
            sku_set!($dialect)
        )
    };
}

/// The newest reviews of the SKUs in `$1` (a JSON array), at most `$2`.
pub(crate) const SQLITE_REVIEWS_FOR: &str = reviews_for!(sqlite);
pub(crate) const POSTGRES_REVIEWS_FOR: &str = reviews_for!(postgres);

/// Count and star total of the reviews of the SKUs in `$1` (a JSON array).
pub(crate) const SQLITE_SUMMARY_FOR: &str = summary_for!(sqlite);
pub(crate) const POSTGRES_SUMMARY_FOR: &str = summary_for!(postgres);
