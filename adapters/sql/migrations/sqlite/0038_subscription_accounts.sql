-- The site-user account a subscription belongs to: the buyer who was signed in, or else the
-- confirmed account of the address it was bought with. A paid membership follows the
-- account, so an account that changes its address keeps what it pays for. No foreign key:
-- accounts may be kept apart from the orders, and an account id is never given twice, so
-- the id of a deleted account holds nothing anybody else could open.
ALTER TABLE subscriptions ADD COLUMN account_id TEXT;
CREATE INDEX subscriptions_account ON subscriptions (account_id) WHERE account_id IS NOT NULL;

-- Subscriptions bought before belong to the confirmed account of their address, as they
-- did when membership was read by address (accounts keep their address lowercased).
UPDATE subscriptions
SET account_id = (
    SELECT accounts.id FROM site_user_accounts AS accounts
    WHERE accounts.email = LOWER(subscriptions.email) AND accounts.confirmed_at IS NOT NULL
)
WHERE account_id IS NULL AND email <> '';
