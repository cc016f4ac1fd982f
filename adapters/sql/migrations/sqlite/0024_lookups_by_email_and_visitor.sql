-- A site user's account page lists the orders and the newsletter subscriptions of their
-- address, which a shopper typed in any case: both are found by the lowercased address.
CREATE INDEX orders_email_lower ON orders (LOWER(email));
CREATE INDEX newsletter_subscribers_email_lower ON newsletter_subscribers (LOWER(email));

-- The owner's experiment figures join each exposure to the same visitor's conversions of
-- two kinds at or after it: found by visitor, kind and time rather than by a scan.
CREATE INDEX analytics_events_visitor_kind_time ON analytics_events (visitor_key, kind, recorded_at);
