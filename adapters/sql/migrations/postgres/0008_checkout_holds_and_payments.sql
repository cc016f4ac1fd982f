-- Checkout: stock held for a cart while its shopper checks out, the lock row a coupon's
-- usage is counted under, and what an order records of its shipping and payment.
CREATE TABLE stock_holds (
    sku TEXT NOT NULL,
    cart_token TEXT NOT NULL,
    quantity BIGINT NOT NULL CHECK (quantity > 0),
    -- Milliseconds since the Unix epoch; a hold at or past this instant no longer counts.
    expires_at BIGINT NOT NULL,
    PRIMARY KEY (sku, cart_token)
);
CREATE INDEX stock_holds_cart ON stock_holds (cart_token);

-- One row per limited coupon, written first in an order's transaction so that two orders
-- using the same coupon count its uses one after the other.
CREATE TABLE coupon_locks (
    code TEXT PRIMARY KEY
);

ALTER TABLE orders ADD COLUMN shipping_address TEXT NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN payment_id TEXT NOT NULL DEFAULT '';
