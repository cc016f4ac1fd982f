//! The SQL of the commerce store, one text for both dialects (SQLite accepts `$1`).

use crate::table_pages::matching_any;

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

/// Gives the cart of an order whose payment failed back to its shopper.
pub(crate) const RELEASE_FAILED_ORDER_CART: &str = "UPDATE carts SET is_purchased = FALSE, order_id = '' \
     WHERE order_id = $1 AND is_purchased = TRUE";

pub(crate) const CART_EXISTS: &str = "SELECT COUNT(*) FROM carts WHERE token = $1";

pub(crate) const SET_STOCK: &str = "INSERT INTO stock (sku, quantity, unlimited) VALUES ($1, $2, $3) \
     ON CONFLICT (sku) DO UPDATE SET quantity = excluded.quantity, unlimited = excluded.unlimited";

pub(crate) const SEED_STOCK: &str = "INSERT INTO stock (sku, quantity, unlimited) \
     VALUES ($1, $2, $3) ON CONFLICT (sku) DO NOTHING";

pub(crate) const STOCK: &str = "SELECT quantity, unlimited FROM stock WHERE sku = $1";

/// Takes `$1` units when they are there. The check and the decrement are one statement, so
/// two buyers can never both see the last unit: the second waits for the first's row lock
/// and then finds the condition false.
/// What other carts hold at checkout (`$3` is the buying cart, `$4` now) is not for sale.
pub(crate) const TAKE_STOCK: &str = "UPDATE stock SET quantity = quantity - $1 \
     WHERE sku = $2 AND unlimited = FALSE AND quantity - (SELECT COALESCE(SUM(h.quantity), 0) \
     FROM stock_holds h WHERE h.sku = $2 AND h.cart_token <> $3 AND h.expires_at > $4) >= $1";

/// Locks a SKU's stock row for the rest of the transaction (a write on both dialects), so
/// two carts taking holds on it count each other's.
pub(crate) const LOCK_STOCK: &str = "UPDATE stock SET quantity = quantity WHERE sku = $1";

pub(crate) const RELEASE_HOLDS: &str = "DELETE FROM stock_holds WHERE cart_token = $1";

/// PostgreSQL sums BIGINTs as NUMERIC; the cast keeps the answer an integer on both.
pub(crate) const HELD_BY_OTHERS: &str = "SELECT CAST(COALESCE(SUM(quantity), 0) AS BIGINT) FROM stock_holds \
     WHERE sku = $1 AND cart_token <> $2 AND expires_at > $3";

pub(crate) const INSERT_HOLD: &str =
    "INSERT INTO stock_holds (sku, cart_token, quantity, expires_at) VALUES ($1, $2, $3, $4)";

/// Forgets holds that have ended, so the table does not grow without end.
pub(crate) const DELETE_EXPIRED_HOLDS: &str = "DELETE FROM stock_holds WHERE expires_at <= $1";

/// Written first for each limited coupon of an order, so that orders using it count its
/// uses one after another (a row lock on PostgreSQL, the write lock on SQLite).
pub(crate) const LOCK_COUPON: &str = "INSERT INTO coupon_locks (code) VALUES ($1) \
     ON CONFLICT (code) DO UPDATE SET code = excluded.code";

macro_rules! order_columns {
    () => {
        "id, idempotency_key, cart_token, email, currency, created, subtotal_cents, \
         discount_cents, shipping_cost_cents, tax_cents, grand_total_cents, lines, coupon_codes, \
         shipping_address, payment_id, gift_card_code, gift_card_cents, payment_key, \
         payment_status"
    };
}

pub(crate) const INSERT_ORDER: &str = concat!(
    "INSERT INTO orders (",
    order_columns!(),
    ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)"
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

/// An address's orders placed after `$2` and up to `$3` included, newest first.
pub(crate) const ORDERS_PLACED_BETWEEN: &str = concat!(
    "SELECT ",
    order_columns!(),
    " FROM orders WHERE LOWER(email) = LOWER($1) AND created > $2 AND created <= $3 \
     ORDER BY created DESC, id DESC LIMIT $4"
);

/// Marks an order's gift card codes shown; a row changes only the first time.
pub(crate) const REVEAL_GIFT_CARD_CODES: &str = "UPDATE orders SET gift_card_codes_shown = TRUE \
     WHERE id = $1 AND gift_card_codes_shown = FALSE";

pub(crate) const COUPON_USAGE: &str = "SELECT COUNT(*), \
     COALESCE(SUM(CASE WHEN LOWER(email) = LOWER($2) THEN 1 ELSE 0 END), 0) \
     FROM order_coupons WHERE code = $1";

/// Records a payment report; no row is written when its id was recorded before.
pub(crate) const RECORD_PAYMENT_EVENT: &str = "INSERT INTO payment_events \
     (event_id, payment_id, outcome, received) VALUES ($1, $2, $3, $4) \
     ON CONFLICT (event_id) DO NOTHING";

/// The order a report concerns: the one paid with its charge, or the one still pending
/// without a charge id that asked for the charge under its idempotency key; with what the
/// charge was for (the rest due after a gift card, and its currency).
macro_rules! order_of_payment {
    ($lock:literal) => {
        concat!(
            "SELECT id, payment_id, payment_status, idempotency_key, \
                    grand_total_cents - gift_card_cents, currency FROM orders \
             WHERE (payment_id <> '' AND payment_id = $1) \
                OR (payment_id = '' AND payment_key <> '' AND payment_key = $2)",
            $lock
        )
    };
}

pub(crate) const ORDER_OF_PAYMENT: &str = order_of_payment!("");

/// [`ORDER_OF_PAYMENT`], locking the order's row until the report's transaction ends.
pub(crate) const POSTGRES_ORDER_OF_PAYMENT: &str = order_of_payment!(" FOR UPDATE");

/// An order placed as payment pending waits on the intent its payer confirms in the browser.
pub(crate) const WAIT_FOR_BROWSER_PAYMENT: &str = "INSERT INTO waiting_browser_payments \
     (order_id, intent_id, opened) VALUES ($1, $2, $3)";

/// Whether the order still waits on an intent confirmed in the browser.
pub(crate) const WAITS_FOR_BROWSER_PAYMENT: &str =
    "SELECT COUNT(*) FROM waiting_browser_payments WHERE order_id = $1";

/// The order's payment is settled: it waits on no intent any more.
pub(crate) const END_BROWSER_PAYMENT_WAIT: &str =
    "DELETE FROM waiting_browser_payments WHERE order_id = $1";

/// The orders waiting on an intent confirmed in the browser since before `$1`, oldest
/// first, at most `$2`.
pub(crate) const BROWSER_PAYMENTS_OPENED_BEFORE: &str = "SELECT order_id, intent_id, opened \
     FROM waiting_browser_payments WHERE opened < $1 ORDER BY opened, order_id LIMIT $2";

pub(crate) const SET_ORDER_PAYMENT: &str =
    "UPDATE orders SET payment_id = $2, payment_status = $3 WHERE id = $1";

/// The owner's search over orders: `$1` is a `LIKE` pattern escaped with a backslash (or null
/// for every order), matched without case (`ILIKE` on PostgreSQL) against the id and address.
macro_rules! orders_matching {
    ($like:literal) => {
        matching_any!(
            "orders LEFT JOIN order_fulfilment ON order_fulfilment.order_id = orders.id",
            $like,
            "id",
            "email"
        )
    };
}

macro_rules! page_orders {
    ($like:literal) => {
        concat!(
            "SELECT ",
            order_columns!(),
            ", order_fulfilment.status AS fulfilment_status, tracking_url, \
             order_fulfilment.changed_at AS fulfilment_changed_at",
            orders_matching!($like),
            " ORDER BY created DESC, id DESC LIMIT $2 OFFSET $3"
        )
    };
}

/// A page of the orders matching `$1` with their fulfilment, newest first: `$2` from `$3`.
pub(crate) const SQLITE_PAGE_ORDERS: &str = page_orders!("LIKE");
pub(crate) const POSTGRES_PAGE_ORDERS: &str = page_orders!("ILIKE");

/// How many orders match `$1`.
pub(crate) const SQLITE_COUNT_ORDERS: &str = concat!("SELECT COUNT(*)", orders_matching!("LIKE"));
pub(crate) const POSTGRES_COUNT_ORDERS: &str =
    concat!("SELECT COUNT(*)", orders_matching!("ILIKE"));
