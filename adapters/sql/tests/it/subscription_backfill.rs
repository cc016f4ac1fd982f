//! Migration 0038's backfill on both databases: a database migrated only up to 0037, holding
//! accounts and subscriptions, is migrated to the latest, and each subscription bought
//! before then belongs to the confirmed account of its address (compared without case),
//! never to an unconfirmed one, and an address without an account (or an erased one) leaves
//! it unclaimed.

use std::borrow::Cow;
use std::path::Path;
use std::str::FromStr;

use sqlx::migrate::Migrator;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqlitePool, SqlitePoolOptions};
use vitrine_sql::{connect, sqlite_url_for_data_dir};

/// The last migration before subscriptions had an account.
const BEFORE_ACCOUNTS: i64 = 37;

const ADA: &str = "0000000000000000000000000000000a";

/// Ada confirmed her address; Bo signed up with his and never confirmed it.
const ACCOUNTS: &str = "INSERT INTO site_user_accounts \
     (id, email, password_hash, confirmed_at, created, member_areas) VALUES \
     ('0000000000000000000000000000000a', 'ada@example.com', 'x', 2000, 1000, '[]'), \
     ('0000000000000000000000000000000b', 'bo@example.com', 'x', NULL, 1000, '[]')";

/// One order each: Ada typed her address in capitals, Bo his, Cy has no account, and one
/// order was erased before the migration.
const ORDERS: &str = "INSERT INTO orders (id, idempotency_key, cart_token, email, currency, \
     created, subtotal_cents, discount_cents, shipping_cost_cents, tax_cents, \
     grand_total_cents, lines, coupon_codes) VALUES \
     ('order-ada', 'key-ada', 'cart-ada', 'Ada@Example.COM', 'USD', 3000, 900, 0, 0, 0, 900, '[]', '[]'), \
     ('order-bo', 'key-bo', 'cart-bo', 'bo@example.com', 'USD', 3000, 900, 0, 0, 0, 900, '[]', '[]'), \
     ('order-cy', 'key-cy', 'cart-cy', 'cy@example.com', 'USD', 3000, 900, 0, 0, 0, 900, '[]', '[]'), \
     ('order-gone', 'key-gone', 'cart-gone', '', 'USD', 3000, 900, 0, 0, 0, 900, '[]', '[]')";

const SUBSCRIPTIONS: &str = "INSERT INTO subscriptions (id, order_id, email, sku, \
     product_name, quantity, price_cents, currency, billing_every, billing_unit, \
     billing_cycles, status, started, payments_made, next_billing_at) VALUES \
     ('sub-ada', 'order-ada', 'Ada@Example.COM', 'CLUB', 'Club', 1, 900, 'USD', 1, 'month', 0, 'active', 3000, 1, 5000), \
     ('sub-bo', 'order-bo', 'bo@example.com', 'CLUB', 'Club', 1, 900, 'USD', 1, 'month', 0, 'active', 3000, 1, 5000), \
     ('sub-cy', 'order-cy', 'cy@example.com', 'CLUB', 'Club', 1, 900, 'USD', 1, 'month', 0, 'active', 3000, 1, 5000), \
     ('sub-gone', 'order-gone', '', 'CLUB', 'Club', 1, 900, 'USD', 1, 'month', 0, 'active', 3000, 1, 5000)";

const HOLDERS: &str = "SELECT id, account_id FROM subscriptions ORDER BY id";

/// Who holds each subscription once migrated.
fn expected() -> Vec<(String, Option<String>)> {
    [
        ("sub-ada", Some(ADA)),
        ("sub-bo", None),
        ("sub-cy", None),
        ("sub-gone", None),
    ]
    .into_iter()
    .map(|(id, holder)| (id.to_owned(), holder.map(str::to_owned)))
    .collect()
}

/// The migrations of `dialect` up to and including `last`, read from this crate's own
/// migration files, so that their checksums match the ones the server embeds.
pub(crate) async fn migrations_until(dialect: &str, last: i64) -> Migrator {
    let directory = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("migrations")
        .join(dialect);
    let mut migrator = Migrator::new(directory).await.unwrap();
    let earlier: Vec<_> = migrator
        .iter()
        .filter(|migration| migration.version <= last)
        .cloned()
        .collect();
    assert!(
        earlier.iter().any(|m| m.version == last),
        "{dialect} {last}"
    );
    migrator.migrations = Cow::Owned(earlier);
    migrator
}

/// A SQLite database in `directory` migrated up to `last` only, through one connection, and
/// the URL that opens it.
pub(crate) async fn sqlite_until(directory: &Path, last: i64) -> (SqlitePool, String) {
    let url = sqlite_url_for_data_dir(directory);
    let options = SqliteConnectOptions::from_str(&url)
        .unwrap()
        .create_if_missing(true)
        .foreign_keys(true);
    let pool = SqlitePoolOptions::new()
        .max_connections(1)
        .connect_with(options)
        .await
        .unwrap();
    migrations_until("sqlite", last)
        .await
        .run(&pool)
        .await
        .unwrap();
    (pool, url)
}

/// The PostgreSQL schema of `url` migrated up to `last` only, through one connection.
pub(crate) async fn postgres_until(url: &str, last: i64) -> PgPool {
    let pool = PgPoolOptions::new()
        .max_connections(1)
        .connect_with(PgConnectOptions::from_str(url).unwrap())
        .await
        .unwrap();
    migrations_until("postgres", last)
        .await
        .run(&pool)
        .await
        .unwrap();
    pool
}

#[tokio::test]
async fn sqlite_gives_earlier_subscriptions_to_the_confirmed_account_of_their_address() {
    let directory = tempfile::tempdir().unwrap();
    let (pool, url) = sqlite_until(directory.path(), BEFORE_ACCOUNTS).await;
    for statement in [ACCOUNTS, ORDERS, SUBSCRIPTIONS] {
        sqlx::query(statement).execute(&pool).await.unwrap();
    }

    let database = connect(&url).await.unwrap();
    database.migrate().await.unwrap();

    let holders: Vec<(String, Option<String>)> =
        sqlx::query_as(HOLDERS).fetch_all(&pool).await.unwrap();
    assert_eq!(holders, expected());
    database.close().await;
    pool.close().await;
}

#[tokio::test]
async fn postgres_gives_earlier_subscriptions_to_the_confirmed_account_of_their_address() {
    let Some((url, _schema)) = crate::postgres::empty_schema().await else {
        return;
    };
    let pool = postgres_until(&url, BEFORE_ACCOUNTS).await;
    for statement in [ACCOUNTS, ORDERS, SUBSCRIPTIONS] {
        sqlx::query(statement).execute(&pool).await.unwrap();
    }

    let database = connect(&url).await.unwrap();
    database.migrate().await.unwrap();

    let holders: Vec<(String, Option<String>)> =
        sqlx::query_as(HOLDERS).fetch_all(&pool).await.unwrap();
    assert_eq!(holders, expected());
    database.close().await;
    pool.close().await;
}
