-- Gift cards: issued by the order that buys them (one per unit of a gift card line), spent
-- by later orders. A card's balance is taken only by a conditional update inside the
-- spending order's transaction, so it never goes below zero.
CREATE TABLE gift_cards (
    -- 16 characters of Crockford's base 32, upper case, without dashes.
    code TEXT PRIMARY KEY,
    order_id TEXT NOT NULL REFERENCES orders (id),
    -- Where the card stands among its order's cards, for reading them back in order.
    position BIGINT NOT NULL,
    sku TEXT NOT NULL,
    currency TEXT NOT NULL,
    initial_cents BIGINT NOT NULL CHECK (initial_cents > 0),
    remaining_cents BIGINT NOT NULL CHECK (remaining_cents >= 0 AND remaining_cents <= initial_cents),
    -- Who the card is for; all empty when it is the buyer's.
    recipient_name TEXT NOT NULL DEFAULT '',
    recipient_email TEXT NOT NULL DEFAULT '',
    message TEXT NOT NULL DEFAULT '',
    created BIGINT NOT NULL
);
CREATE INDEX gift_cards_by_order ON gift_cards (order_id, position);

-- The part of an order a gift card paid; the rest is what the payment gateway charged.
ALTER TABLE orders ADD COLUMN gift_card_code TEXT NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN gift_card_cents BIGINT NOT NULL DEFAULT 0;
