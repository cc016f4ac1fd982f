//! The SQL of the commerce store, one text for both dialects (SQLite accepts `$1`).

pub(crate) const LOAD_CART: &str =
    "SELECT state, is_purchased, order_id FROM carts WHERE token = $1";

/// Inserts or replaces a cart, unless it has been purchased: then no row is touched.
pub(crate) const SAVE_CART: &str = "INSERT INTO carts (token, state) VALUES ($1, $2) \
     ON CONFLICT (token) DO UPDATE SET state = excluded.state WHERE carts.is_purchased = FALSE";

/// The first write of an order's transaction, so the transaction holds the write lock from
/// its first statement (SQLite) and the cart row is locked against a second order
/// (PostgreSQL).
pub(crate) const MARK_PURCHASED: &str = "UPDATE carts SET is_purchased = TRUE, order_id = $1 \
     WHERE token = $2 AND is_purchased = FALSE";

pub(crate) const CART_EXISTS: &str = "SELECT COUNT(*) FROM carts WHERE token = $1";

pub(crate) const SET_STOCK: &str = "INSERT INTO stock (sku, quantity, unlimited) VALUES ($1, $2, $3) \
     ON CONFLICT (sku) DO UPDATE SET quantity = excluded.quantity, unlimited = excluded.unlimited";

pub(crate) const SEED_STOCK: &str = "INSERT INTO stock (sku, quantity, unlimited) \
     VALUES ($1, $2, $3) ON CONFLICT (sku) DO NOTHING";

pub(crate) const STOCK: &str = "SELECT quantity, unlimited FROM stock WHERE sku = $1";

/// Takes `$1` units when they are there. The check and the decrement are one statement, so
/// two buyers can never both see the last unit: the second waits for the first's row lock
/// and then finds the condition false.
pub(crate) const TAKE_STOCK: &str = "UPDATE stock SET quantity = quantity - $1 \
     WHERE sku = $2 AND unlimited = FALSE AND quantity >= $1";

macro_rules! order_columns {
    () => {
        "id, idempotency_key, cart_token, email, currency, created, subtotal_cents, \
         discount_cents, shipping_cost_cents, tax_cents, grand_total_cents, lines, coupon_codes"
    };
}

pub(crate) const INSERT_ORDER: &str = concat!(
    "INSERT INTO orders (",
    order_columns!(),
    ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)"
);

pub(crate) const INSERT_ORDER_COUPON: &str =
    "INSERT INTO order_coupons (order_id, code, email) VALUES ($1, $2, $3)";

pub(crate) const ORDER_BY_ID: &str =
    concat!("SELECT ", order_columns!(), " FROM orders WHERE id = $1");

pub(crate) const ORDER_BY_KEY: &str = concat!(
    "SELECT ",
    order_columns!(),
    " FROM orders WHERE idempotency_key = $1"
);

pub(crate) const COUPON_USAGE: &str = "SELECT COUNT(*), \
     COALESCE(SUM(CASE WHEN LOWER(email) = LOWER($2) THEN 1 ELSE 0 END), 0) \
     FROM order_coupons WHERE code = $1";
