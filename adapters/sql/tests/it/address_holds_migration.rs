//! Migration 0043 on both databases: a database migrated only up to 0040, holding an
//! account that moved away from its first address, is migrated to the latest. The earlier
//! address stays the account's, its span starting at the beginning as it counted then and
//! ending when the account left; the current address is held since the beginning too; and
//! coming back to the first address and leaving it again keeps one span of it.

use vitrine_core::cart::Timestamp;
use vitrine_core::checkout::PlacedBetween;
use vitrine_core::people::{AccountId, AddressHold, EmailAddress};
use vitrine_sql::connect;

use crate::subscription_backfill::{postgres_until, sqlite_until};

/// The last migration before address holds.
const BEFORE_HOLDS: i64 = 40;

const ADA: &str = "0000000000000000000000000000000a";

const ACCOUNTS: &str = "INSERT INTO site_user_accounts \
     (id, email, password_hash, confirmed_at, created, member_areas) VALUES \
     ('0000000000000000000000000000000a', 'ada.new@example.com', 'x', 3000, 1000, '[]')";

const EARLIER: &str = "INSERT INTO site_user_earlier_emails (account_id, email, left_at) \
     VALUES ('0000000000000000000000000000000a', 'ada@example.com', 3000)";

fn email(text: &str) -> EmailAddress {
    EmailAddress::parse(text).unwrap()
}

/// What the migrated database answers, through its people store.
async fn check(url: &str) {
    let database = connect(url).await.unwrap();
    database.migrate().await.unwrap();
    let store = database.people_store();
    let ada = AccountId::parse(ADA).unwrap();
    assert_eq!(
        store.address_holds(&ada).await.unwrap(),
        [
            AddressHold {
                email: email("ada.new@example.com"),
                placed: PlacedBetween::ALWAYS,
                superseded: false,
            },
            AddressHold {
                email: email("ada@example.com"),
                placed: PlacedBetween {
                    after: None,
                    until: Some(Timestamp(3_000)),
                },
                superseded: false,
            },
        ]
    );
    // Back to the first address and away again: a second span of the same address.
    store
        .change_email(&ada, &email("ada@example.com"), Timestamp(4_000))
        .await
        .unwrap();
    store
        .change_email(&ada, &email("ada.third@example.com"), Timestamp(5_000))
        .await
        .unwrap();
    let earlier: Vec<(String, Option<Timestamp>)> = store
        .address_holds(&ada)
        .await
        .unwrap()
        .into_iter()
        .skip(1)
        .map(|hold| (hold.email.as_str().to_owned(), hold.placed.until))
        .collect();
    assert_eq!(
        earlier,
        [
            ("ada@example.com".to_owned(), Some(Timestamp(5_000))),
            ("ada.new@example.com".to_owned(), Some(Timestamp(4_000))),
        ],
        "coming back to an address held alone since the beginning covers the span before"
    );
    database.close().await;
}

#[tokio::test]
async fn sqlite_keeps_the_earlier_addresses_as_spans_from_the_beginning() {
    let directory = tempfile::tempdir().unwrap();
    let (pool, url) = sqlite_until(directory.path(), BEFORE_HOLDS).await;
    for statement in [ACCOUNTS, EARLIER] {
        sqlx::query(statement).execute(&pool).await.unwrap();
    }
    pool.close().await;
    check(&url).await;
}

#[tokio::test]
async fn postgres_keeps_the_earlier_addresses_as_spans_from_the_beginning() {
    let Some((url, _schema)) = crate::postgres::empty_schema().await else {
        return;
    };
    let pool = postgres_until(&url, BEFORE_HOLDS).await;
    for statement in [ACCOUNTS, EARLIER] {
        sqlx::query(statement).execute(&pool).await.unwrap();
    }
    pool.close().await;
    check(&url).await;
}
