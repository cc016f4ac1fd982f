//! Integration tests of the SQL adapters: the core's conformance suite and this crate's own
//! checks, run against SQLite and PostgreSQL.

mod checks;
mod postgres;
mod sqlite;
mod support;
