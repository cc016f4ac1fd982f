-- Each account's hold of a confirmed address is a span of time, and the orders placed with
-- the address (and the gift cards sent to it) belong to the account whose hold covers the
-- moment they were placed. This takes over from the comment of 0040: an address no longer
-- leaves the list of the account that moved away from it once another account confirms
-- it. Its row stays, its span ending at left_at, so that account keeps seeing, exporting and
-- erasing its own orders, and the new holder never sees them.
--
-- A hold starts where the last other account's hold of the address ended: held_since is the
-- latest left_at of the other accounts' rows for it when the account confirmed it (at its
-- sign-up confirmation or its email change), NULL when nobody held it before, meaning since
-- the beginning: the orders a guest placed before signing up are the first account's. An
-- order placed after one account left and before the next confirmed is the next one's.
-- The records kept under an address without a time (newsletters, donations, mails waiting
-- to go) belong to its last holder only. An account that comes back to an address holds it
-- in a new span; the union counts. Rows from before this migration start at the beginning,
-- as they counted then; the rows 0040 deleted on a new confirmation cannot be brought back.
ALTER TABLE site_user_accounts ADD COLUMN email_held_since BIGINT;

ALTER TABLE site_user_earlier_emails ADD COLUMN held_since BIGINT;
ALTER TABLE site_user_earlier_emails DROP CONSTRAINT site_user_earlier_emails_pkey;
ALTER TABLE site_user_earlier_emails ADD PRIMARY KEY (account_id, email, left_at);
