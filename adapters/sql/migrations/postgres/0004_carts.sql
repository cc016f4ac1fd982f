-- Commerce: carts kept by their token, stock per SKU, and placed orders.
CREATE TABLE carts (
    token TEXT PRIMARY KEY,
    -- The cart's stored state as JSON; totals are derived from it when it is priced.
    state TEXT NOT NULL,
    -- Set only by placing an order, in the same transaction as the stock decrement.
    is_purchased BOOLEAN NOT NULL DEFAULT FALSE,
    order_id TEXT NOT NULL DEFAULT ''
);

CREATE TABLE stock (
    sku TEXT PRIMARY KEY,
    quantity BIGINT NOT NULL CHECK (quantity >= 0),
    unlimited BOOLEAN NOT NULL
);

CREATE TABLE orders (
    id TEXT PRIMARY KEY,
    idempotency_key TEXT NOT NULL UNIQUE,
    cart_token TEXT NOT NULL,
    email TEXT NOT NULL,
    currency TEXT NOT NULL,
    created BIGINT NOT NULL,
    subtotal_cents BIGINT NOT NULL,
    discount_cents BIGINT NOT NULL,
    shipping_cost_cents BIGINT NOT NULL,
    tax_cents BIGINT NOT NULL,
    grand_total_cents BIGINT NOT NULL,
    lines TEXT NOT NULL,
    coupon_codes TEXT NOT NULL
);

CREATE TABLE order_coupons (
    order_id TEXT NOT NULL REFERENCES orders (id),
    code TEXT NOT NULL,
    email TEXT NOT NULL,
    PRIMARY KEY (order_id, code)
);
CREATE INDEX order_coupons_code ON order_coupons (code);
