//! The SQL of the review store, one text for both dialects (SQLite accepts `$1`).

pub(crate) const SAVE_REQUEST: &str = "INSERT INTO review_requests \
     (token, order_id, author_name, items, created, expires_at) VALUES ($1, $2, $3, $4, $5, $6) \
     ON CONFLICT (token) DO UPDATE SET order_id = excluded.order_id, \
     author_name = excluded.author_name, items = excluded.items, created = excluded.created, \
     expires_at = excluded.expires_at";

pub(crate) const LOAD_REQUEST: &str = "SELECT token, order_id, author_name, items, created, \
     expires_at FROM review_requests WHERE token = $1";

pub(crate) const ADD_REVIEW: &str = "INSERT INTO product_reviews \
     (id, order_id, sku, product_name, rating, title, body, author_name, created) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)";

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
            "SELECT id, order_id, sku, product_name, rating, title, body, author_name, created \
             FROM product_reviews WHERE sku IN ",
            sku_set!($dialect),
            " ORDER BY created DESC, id DESC LIMIT $2"
        )
    };
}

macro_rules! summary_for {
    ($dialect:ident) => {
        concat!(
            "SELECT COUNT(*), CAST(COALESCE(SUM(rating), 0) AS BIGINT) FROM product_reviews \
             WHERE sku IN ",
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
