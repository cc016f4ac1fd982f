-- The confirmed addresses a site-user account moved away from (by a confirmed email change),
-- with when it left each: the orders and mails kept under them are still the account's to
-- export and to erase when it is deleted. An address leaves this list once another account
-- confirms it, since from then on its orders may be that account's. Deleting the account
-- erases its rows. Addresses are kept lowercased, as the accounts keep theirs.
CREATE TABLE site_user_earlier_emails (
    account_id TEXT NOT NULL REFERENCES site_user_accounts (id) ON DELETE CASCADE,
    email TEXT NOT NULL,
    left_at BIGINT NOT NULL,
    PRIMARY KEY (account_id, email)
);
CREATE INDEX site_user_earlier_emails_email ON site_user_earlier_emails (email);
