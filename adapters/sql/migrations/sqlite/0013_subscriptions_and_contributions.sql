-- Subscriptions started by orders, written in the order's transaction, and contributions
-- made through a donation page.
CREATE TABLE subscriptions (
    id TEXT PRIMARY KEY,
    -- One subscription per order: a subscription checks out on its own.
    order_id TEXT NOT NULL UNIQUE REFERENCES orders (id),
    email TEXT NOT NULL,
    sku TEXT NOT NULL,
    product_name TEXT NOT NULL,
    quantity INTEGER NOT NULL CHECK (quantity > 0),
    -- One period's price before shipping and tax, in minor units of `currency`.
    price_cents INTEGER NOT NULL CHECK (price_cents >= 0),
    currency TEXT NOT NULL,
    billing_every INTEGER NOT NULL CHECK (billing_every > 0),
    billing_unit TEXT NOT NULL CHECK (billing_unit IN ('week', 'month', 'year')),
    -- 0 for a plan that runs until cancelled.
    billing_cycles INTEGER NOT NULL CHECK (billing_cycles >= 0),
    -- 'active'; the adapter refuses any other text as corrupt.
    status TEXT NOT NULL,
    -- Milliseconds since the Unix epoch; the anchor of every billing date.
    started INTEGER NOT NULL,
    payments_made INTEGER NOT NULL CHECK (payments_made > 0),
    -- When the next payment falls due; NULL when the plan's payments are all made.
    next_billing_at INTEGER
);
CREATE INDEX subscriptions_due ON subscriptions (status, next_billing_at);

CREATE TABLE contributions (
    id TEXT PRIMARY KEY,
    -- A double submit of the donation form records (and pays) once.
    idempotency_key TEXT NOT NULL UNIQUE,
    -- The donation block the contribution was made through, and its title then.
    donate_page_id TEXT NOT NULL,
    campaign_title TEXT NOT NULL,
    amount_minor INTEGER NOT NULL CHECK (amount_minor > 0),
    currency TEXT NOT NULL,
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    created INTEGER NOT NULL,
    payment_id TEXT NOT NULL
);
CREATE INDEX contributions_by_page ON contributions (donate_page_id, created);
