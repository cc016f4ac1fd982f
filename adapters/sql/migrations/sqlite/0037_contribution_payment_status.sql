-- A contribution paid in the donor's browser (the payment provider's own card fields) is kept
-- before the donor pays, pending on the provider's intent, and settled on the provider's
-- answer. Contributions charged by the server were paid when recorded, as all earlier ones.
ALTER TABLE contributions ADD COLUMN payment_status TEXT NOT NULL DEFAULT 'paid'
    CHECK (payment_status IN ('pending', 'paid', 'failed'));
-- The provider's intent of a contribution paid in the browser; empty for one the server charged.
ALTER TABLE contributions ADD COLUMN intent_id TEXT NOT NULL DEFAULT '';
-- Why a failed contribution's payment failed, in the donor's words; empty otherwise.
ALTER TABLE contributions ADD COLUMN failure TEXT NOT NULL DEFAULT '';
