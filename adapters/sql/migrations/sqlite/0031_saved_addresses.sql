-- The shipping address a site user chose to save at checkout, one per account (the last
-- saved), as the JSON of the core's ShippingAddress. Deleting the account erases it.
CREATE TABLE site_user_addresses (
    account_id TEXT PRIMARY KEY REFERENCES site_user_accounts (id) ON DELETE CASCADE,
    address TEXT NOT NULL
);
