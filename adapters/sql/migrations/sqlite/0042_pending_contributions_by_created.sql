-- The clean-up of donations abandoned in the browser lists the contributions still pending on
-- the provider's intent that were opened more than its window ago, oldest first: a partial
-- index keeps that lookup to the few pending rows among all the paid ones.
CREATE INDEX contributions_pending_by_created ON contributions (created, id)
    WHERE payment_status = 'pending';
