//! Integration tests of the SQL adapters: the core's conformance suite and this crate's own
//! checks, run against SQLite and PostgreSQL.

mod address_holds_migration;
mod aftercare;
mod analytics;
mod browser_payments;
mod cart;
mod checks;
mod contributions;
mod day_counts_migration;
mod forms;
mod header_footer;
mod ledger;
mod multilingual;
mod order_mails;
mod outbox;
mod owners;
mod people;
mod postgres;
mod renewals;
mod reviews;
mod sqlite;
mod subscription_backfill;
mod support;
