-- Whether the buyer saw the codes of the gift cards an order issued: the order's first
-- confirmation view shows them in full and sets this, every later view shows their last 4.
ALTER TABLE orders ADD COLUMN gift_card_codes_shown BOOLEAN NOT NULL DEFAULT FALSE;
