-- A gift card's mail to its recipient, of an order placed before its payment is known (paid
-- in the browser, or a charge whose answer did not come), is written held: never due (its
-- next_attempt_ms the farthest instant, like a held order confirmation) until the transaction
-- that records the payment's success makes it due on the day the buyer chose, or at once when
-- that day has passed; a failed payment deletes it, since the failure empties the card.
-- held_for_order names the order whose payment it waits for, due_when_paid_ms the moment
-- chosen for it; both are cleared when it is made due. A composed mail names no order
-- otherwise (the outbox's subjects are a submission, an order or a composed mail).
ALTER TABLE form_deliveries ADD COLUMN held_for_order TEXT;
ALTER TABLE form_deliveries ADD COLUMN due_when_paid_ms BIGINT;
CREATE INDEX form_deliveries_held_for_order ON form_deliveries (held_for_order)
    WHERE held_for_order IS NOT NULL;

-- An account's donations are those given with its address while it held the address, as its
-- orders are (0043): its page lists them, its export holds them and its deletion erases them,
-- each looked up by the address without case, like the orders (orders_email_lower).
CREATE INDEX contributions_email_lower ON contributions (LOWER(email));
