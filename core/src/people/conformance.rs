//! The conformance suite every people store (accounts and site-user sessions) must pass:
//! the in-memory one, SQLite and PostgreSQL run the same assertions through
//! [`people_store_conformance!`].

use super::model::{
    Account, AccountId, AccountToken, BearerToken, EmailAddress, SavedSessionData, Secret, Session,
    TokenDigest, TokenPurpose,
};
use super::store::{AccountWriteError, PeopleStore};
use crate::cart::Timestamp;
use crate::checkout::ShippingAddress;

/// Generates one `#[tokio::test]` per check; `$make` builds a fresh, empty store (it may
/// use `.await`, and may `return` to skip when its database is not configured).
#[macro_export]
macro_rules! people_store_conformance {
    ($make:expr) => {
        $crate::people_store_conformance!(@tests $make;
            an_account_reads_back_whole_by_id_and_by_address,
            an_address_has_one_account,
            confirming_keeps_the_first_time,
            passwords_and_member_areas_change,
            writes_to_an_unknown_account_are_refused,
            a_token_is_taken_once_and_never_after_its_expiry,
            a_session_lives_until_its_expiry_and_is_then_removed,
            signing_out_ends_one_session_and_everywhere_ends_all_of_an_account,
            saved_data_expires_and_is_removed,
            deleting_an_account_erases_its_sessions_tokens_and_data,
            an_account_keeps_the_last_address_it_saved_until_removed,
            an_account_keeps_the_confirmed_addresses_it_moved_away_from,
            an_address_confirmed_by_another_account_is_held_from_where_the_last_hold_ended,
        );

        #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
        async fn concurrent_sign_ups_with_one_address_store_one_account() {
            let store = ::std::sync::Arc::new($make);
            let mut tasks = Vec::new();
            for n in 0..8u8 {
                let store = store.clone();
                tasks.push(tokio::spawn(async move {
                    $crate::people::conformance::sign_up_as_ada(&*store, n).await
                }));
            }
            let mut created = 0;
            for task in tasks {
                if task.await.expect("a sign-up task panicked") {
                    created += 1;
                }
            }
            assert_eq!(created, 1, "exactly one sign-up with the address stores an account");
        }
    };
    (@tests $make:expr; $($name:ident),* $(,)?) => {
        $(
            #[tokio::test]
            async fn $name() {
                let store = $make;
                $crate::people::conformance::$name(&store).await;
            }
        )*
    };
}

fn secret(n: u8) -> Secret {
    let mut bytes = [n; 32];
    bytes[31] = n.wrapping_mul(7).wrapping_add(1);
    Secret(bytes)
}

fn email(text: &str) -> EmailAddress {
    EmailAddress::parse(text).expect("fixture addresses are valid")
}

/// An unconfirmed account of `address`, its id made from `n`.
pub fn fixture_account(n: u8, address: &str) -> Account {
    Account {
        id: AccountId::from_secret(&secret(n)),
        email: email(address),
        password_hash: format!("$argon2id$v=19$m=8,t=1,p=1$fixture{n}"),
        confirmed_at: None,
        created: Timestamp(1_000),
        member_areas: vec![],
    }
}

fn digest(n: u8) -> TokenDigest {
    BearerToken::from_secret(&secret(n)).digest()
}

fn session(n: u8, account: &Account, expires_at: i64) -> Session {
    Session {
        token: digest(n),
        account: account.id.clone(),
        xsrf_token: format!("xsrf-{n}"),
        created: Timestamp(1_000),
        expires_at: Timestamp(expires_at),
        remember_me: n.is_multiple_of(2),
    }
}

/// Tries to create an account for ada@example.com with an id of its own; whether it did.
pub async fn sign_up_as_ada(store: &dyn PeopleStore, n: u8) -> bool {
    match store
        .create_account(&fixture_account(n.wrapping_add(100), "ada@example.com"))
        .await
    {
        Ok(()) => true,
        Err(AccountWriteError::EmailTaken) => false,
        Err(other) => panic!("a sign-up failed: {other}"),
    }
}

pub async fn an_account_reads_back_whole_by_id_and_by_address(store: &dyn PeopleStore) {
    let mut ada = fixture_account(1, "ada@example.com");
    ada.member_areas = vec!["patrons".into(), "staff".into()];
    store.create_account(&ada).await.unwrap();
    assert_eq!(store.account(&ada.id).await.unwrap(), Some(ada.clone()));
    assert_eq!(
        store
            .account_by_email(&email("ADA@example.com"))
            .await
            .unwrap(),
        Some(ada)
    );
    assert_eq!(
        store
            .account_by_email(&email("bob@example.com"))
            .await
            .unwrap(),
        None
    );
    assert_eq!(
        store
            .account(&fixture_account(9, "x@example.com").id)
            .await
            .unwrap(),
        None
    );
}

pub async fn an_address_has_one_account(store: &dyn PeopleStore) {
    let ada = fixture_account(1, "ada@example.com");
    store.create_account(&ada).await.unwrap();
    let again = store
        .create_account(&fixture_account(2, "Ada@Example.com"))
        .await;
    assert!(
        matches!(again, Err(AccountWriteError::EmailTaken)),
        "{again:?}"
    );
    let bob = fixture_account(3, "bob@example.com");
    store.create_account(&bob).await.unwrap();
    let moved = store
        .change_email(&bob.id, &ada.email, Timestamp(2_000))
        .await;
    assert!(
        matches!(moved, Err(AccountWriteError::EmailTaken)),
        "{moved:?}"
    );
    store
        .change_email(&bob.id, &email("robert@example.com"), Timestamp(2_000))
        .await
        .unwrap();
    let robert = store.account(&bob.id).await.unwrap().unwrap();
    assert_eq!(robert.email.as_str(), "robert@example.com");
    assert_eq!(robert.confirmed_at, Some(Timestamp(2_000)));
    assert_eq!(store.account_by_email(&bob.email).await.unwrap(), None);
}

pub async fn confirming_keeps_the_first_time(store: &dyn PeopleStore) {
    let ada = fixture_account(1, "ada@example.com");
    store.create_account(&ada).await.unwrap();
    store
        .confirm_email(&ada.id, Timestamp(5_000))
        .await
        .unwrap();
    store
        .confirm_email(&ada.id, Timestamp(9_000))
        .await
        .unwrap();
    let read = store.account(&ada.id).await.unwrap().unwrap();
    assert_eq!(read.confirmed_at, Some(Timestamp(5_000)));
    assert!(read.is_confirmed());
}

pub async fn passwords_and_member_areas_change(store: &dyn PeopleStore) {
    let ada = fixture_account(1, "ada@example.com");
    store.create_account(&ada).await.unwrap();
    store.set_password(&ada.id, "$argon2id$new").await.unwrap();
    store
        .set_member_areas(&ada.id, &["patrons".to_owned()])
        .await
        .unwrap();
    let read = store.account(&ada.id).await.unwrap().unwrap();
    assert_eq!(read.password_hash, "$argon2id$new");
    assert_eq!(read.member_areas, vec!["patrons".to_owned()]);
}

pub async fn writes_to_an_unknown_account_are_refused(store: &dyn PeopleStore) {
    let ghost = fixture_account(1, "ghost@example.com");
    let unknown = |outcome: Result<(), AccountWriteError>| {
        assert!(
            matches!(outcome, Err(AccountWriteError::UnknownAccount)),
            "{outcome:?}"
        );
    };
    unknown(store.confirm_email(&ghost.id, Timestamp(1)).await);
    unknown(store.set_password(&ghost.id, "x").await);
    unknown(
        store
            .change_email(&ghost.id, &email("g@example.com"), Timestamp(1))
            .await,
    );
    unknown(store.set_member_areas(&ghost.id, &[]).await);
    assert!(!store.delete_account(&ghost.id).await.unwrap());
    assert!(
        store
            .create_session(&session(1, &ghost, 10_000))
            .await
            .is_err()
    );
    let token = AccountToken {
        token: digest(1),
        account: ghost.id.clone(),
        purpose: TokenPurpose::ConfirmEmail,
        expires_at: Timestamp(10_000),
    };
    assert!(store.save_token(&token).await.is_err());
}

pub async fn a_token_is_taken_once_and_never_after_its_expiry(store: &dyn PeopleStore) {
    let ada = fixture_account(1, "ada@example.com");
    store.create_account(&ada).await.unwrap();
    let change = AccountToken {
        token: digest(1),
        account: ada.id.clone(),
        purpose: TokenPurpose::ChangeEmail(email("ada@new-example.com")),
        expires_at: Timestamp(10_000),
    };
    let reset = AccountToken {
        token: digest(2),
        account: ada.id.clone(),
        purpose: TokenPurpose::ResetPassword,
        expires_at: Timestamp(10_000),
    };
    store.save_token(&change).await.unwrap();
    store.save_token(&reset).await.unwrap();
    assert_eq!(
        store
            .take_token(&change.token, Timestamp(9_999))
            .await
            .unwrap(),
        Some(change.clone())
    );
    assert_eq!(
        store
            .take_token(&change.token, Timestamp(9_999))
            .await
            .unwrap(),
        None
    );
    // An expired token is gone, even when asked again with an earlier clock.
    assert_eq!(
        store
            .take_token(&reset.token, Timestamp(10_000))
            .await
            .unwrap(),
        None
    );
    assert_eq!(
        store.take_token(&reset.token, Timestamp(1)).await.unwrap(),
        None
    );
}

pub async fn a_session_lives_until_its_expiry_and_is_then_removed(store: &dyn PeopleStore) {
    let ada = fixture_account(1, "ada@example.com");
    store.create_account(&ada).await.unwrap();
    let signed_in = session(2, &ada, 10_000);
    store.create_session(&signed_in).await.unwrap();
    assert_eq!(
        store
            .session(&signed_in.token, Timestamp(9_999))
            .await
            .unwrap(),
        Some(signed_in.clone())
    );
    assert_eq!(
        store
            .session(&signed_in.token, Timestamp(10_000))
            .await
            .unwrap(),
        None
    );
    assert_eq!(
        store.session(&signed_in.token, Timestamp(1)).await.unwrap(),
        None
    );
    assert_eq!(store.session(&digest(7), Timestamp(1)).await.unwrap(), None);
}

pub async fn signing_out_ends_one_session_and_everywhere_ends_all_of_an_account(
    store: &dyn PeopleStore,
) {
    let ada = fixture_account(1, "ada@example.com");
    let bob = fixture_account(2, "bob@example.com");
    store.create_account(&ada).await.unwrap();
    store.create_account(&bob).await.unwrap();
    for (n, who) in [(10, &ada), (11, &ada), (12, &ada), (13, &bob)] {
        store
            .create_session(&session(n, who, 10_000))
            .await
            .unwrap();
    }
    assert!(store.delete_session(&digest(10)).await.unwrap());
    assert!(!store.delete_session(&digest(10)).await.unwrap());
    assert_eq!(store.delete_sessions_of(&ada.id).await.unwrap(), 2);
    for n in [11, 12] {
        assert_eq!(store.session(&digest(n), Timestamp(1)).await.unwrap(), None);
    }
    assert!(
        store
            .session(&digest(13), Timestamp(1))
            .await
            .unwrap()
            .is_some()
    );
}

pub async fn saved_data_expires_and_is_removed(store: &dyn PeopleStore) {
    let ada = fixture_account(1, "ada@example.com");
    store.create_account(&ada).await.unwrap();
    let signed_in = session(2, &ada, 100_000);
    store.create_session(&signed_in).await.unwrap();
    let lasting = SavedSessionData {
        value: "kept".into(),
        expires_at: None,
    };
    let brief = SavedSessionData {
        value: "brief".into(),
        expires_at: Some(Timestamp(5_000)),
    };
    store
        .put_session_data(&signed_in.token, "lasting", &lasting)
        .await
        .unwrap();
    store
        .put_session_data(&signed_in.token, "brief", &brief)
        .await
        .unwrap();
    let read =
        |key: &'static str, at: i64| store.session_data(&signed_in.token, key, Timestamp(at));
    assert_eq!(
        read("brief", 4_999).await.unwrap().as_deref(),
        Some("brief")
    );
    assert_eq!(read("brief", 5_000).await.unwrap(), None);
    assert_eq!(
        read("brief", 1).await.unwrap(),
        None,
        "expired data is removed"
    );
    assert_eq!(
        read("lasting", 99_999).await.unwrap().as_deref(),
        Some("kept")
    );
    let replaced = SavedSessionData {
        value: "new".into(),
        expires_at: None,
    };
    store
        .put_session_data(&signed_in.token, "lasting", &replaced)
        .await
        .unwrap();
    assert_eq!(read("lasting", 1).await.unwrap().as_deref(), Some("new"));
    assert_eq!(read("unknown", 1).await.unwrap(), None);
    assert!(
        store
            .put_session_data(&digest(9), "lasting", &lasting)
            .await
            .is_err(),
        "data needs a session"
    );
}

pub async fn deleting_an_account_erases_its_sessions_tokens_and_data(store: &dyn PeopleStore) {
    let ada = fixture_account(1, "ada@example.com");
    let bob = fixture_account(2, "bob@example.com");
    store.create_account(&ada).await.unwrap();
    store.create_account(&bob).await.unwrap();
    let hers = session(3, &ada, 10_000);
    let his = session(4, &bob, 10_000);
    store.create_session(&hers).await.unwrap();
    store.create_session(&his).await.unwrap();
    let data = SavedSessionData {
        value: "v".into(),
        expires_at: None,
    };
    store
        .put_session_data(&hers.token, "k", &data)
        .await
        .unwrap();
    store
        .put_session_data(&his.token, "k", &data)
        .await
        .unwrap();
    let reset = AccountToken {
        token: digest(5),
        account: ada.id.clone(),
        purpose: TokenPurpose::ResetPassword,
        expires_at: Timestamp(10_000),
    };
    store.save_token(&reset).await.unwrap();

    assert!(store.delete_account(&ada.id).await.unwrap());

    assert_eq!(store.account(&ada.id).await.unwrap(), None);
    assert_eq!(store.account_by_email(&ada.email).await.unwrap(), None);
    assert_eq!(
        store.session(&hers.token, Timestamp(1)).await.unwrap(),
        None
    );
    assert_eq!(
        store
            .session_data(&hers.token, "k", Timestamp(1))
            .await
            .unwrap(),
        None
    );
    assert_eq!(
        store.take_token(&reset.token, Timestamp(1)).await.unwrap(),
        None
    );
    // Bob is untouched, and the address is free again.
    assert!(
        store
            .session(&his.token, Timestamp(1))
            .await
            .unwrap()
            .is_some()
    );
    assert_eq!(
        store
            .session_data(&his.token, "k", Timestamp(1))
            .await
            .unwrap()
            .as_deref(),
        Some("v")
    );
    store
        .create_account(&fixture_account(6, "ada@example.com"))
        .await
        .unwrap();
}

fn address(name: &str, line1: &str) -> ShippingAddress {
    ShippingAddress {
        name: name.into(),
        line1: line1.into(),
        line2: "Flat 3".into(),
        city: "London".into(),
        region: String::new(),
        postal_code: "SW1A 1AA".into(),
        country: "GB".into(),
    }
}

pub async fn an_account_keeps_the_last_address_it_saved_until_removed(store: &dyn PeopleStore) {
    let ada = fixture_account(1, "ada@example.com");
    let bob = fixture_account(2, "bob@example.com");
    store.create_account(&ada).await.unwrap();
    store.create_account(&bob).await.unwrap();
    assert_eq!(store.saved_address(&ada.id).await.unwrap(), None);

    let first = address("Ada Lovelace", "12 Analytical Row");
    let moved = address("Ada King", "1 Difference Lane");
    store.save_address(&ada.id, &first).await.unwrap();
    store.save_address(&ada.id, &moved).await.unwrap();
    store.save_address(&bob.id, &first).await.unwrap();
    assert_eq!(
        store.saved_address(&ada.id).await.unwrap(),
        Some(moved.clone()),
        "the last saved address replaces the one before"
    );

    assert!(store.remove_address(&ada.id).await.unwrap());
    assert!(!store.remove_address(&ada.id).await.unwrap());
    assert_eq!(store.saved_address(&ada.id).await.unwrap(), None);
    assert_eq!(store.saved_address(&bob.id).await.unwrap(), Some(first));

    let ghost = fixture_account(3, "ghost@example.com");
    assert!(matches!(
        store.save_address(&ghost.id, &moved).await,
        Err(AccountWriteError::UnknownAccount)
    ));
    assert_eq!(store.saved_address(&ghost.id).await.unwrap(), None);

    assert!(store.delete_account(&bob.id).await.unwrap());
    assert_eq!(
        store.saved_address(&bob.id).await.unwrap(),
        None,
        "deleting the account erases its address"
    );
}

/// The addresses `account` moved away from, as the store answers them.
async fn earlier(store: &dyn PeopleStore, account: &Account) -> Vec<String> {
    store
        .address_holds(&account.id)
        .await
        .unwrap()
        .iter()
        .filter(|hold| !hold.is_current())
        .map(|hold| hold.email.as_str().to_owned())
        .collect()
}

/// A hold as (address, after, until, superseded).
type Held = (&'static str, Option<i64>, Option<i64>, bool);

/// `account`'s holds, compared as [`Held`]s.
async fn holds(
    store: &dyn PeopleStore,
    account: &Account,
) -> Vec<(String, Option<i64>, Option<i64>, bool)> {
    store
        .address_holds(&account.id)
        .await
        .unwrap()
        .into_iter()
        .map(|hold| {
            (
                hold.email.as_str().to_owned(),
                hold.placed.after.map(Timestamp::millis),
                hold.placed.until.map(Timestamp::millis),
                hold.superseded,
            )
        })
        .collect()
}

fn held(expected: &[Held]) -> Vec<(String, Option<i64>, Option<i64>, bool)> {
    expected
        .iter()
        .map(|&(email, after, until, superseded)| (email.to_owned(), after, until, superseded))
        .collect()
}

/// The account holding `address` at `at`, by the id it was given.
async fn holder(store: &dyn PeopleStore, address: &str, at: i64) -> Option<AccountId> {
    store
        .holder_at(&email(address), Timestamp(at))
        .await
        .unwrap()
}

pub async fn an_account_keeps_the_confirmed_addresses_it_moved_away_from(store: &dyn PeopleStore) {
    let ada = fixture_account(1, "ada@example.com");
    store.create_account(&ada).await.unwrap();
    store
        .confirm_email(&ada.id, Timestamp(2_000))
        .await
        .unwrap();
    assert!(earlier(store, &ada).await.is_empty());

    store
        .change_email(&ada.id, &email("ada.new@example.com"), Timestamp(3_000))
        .await
        .unwrap();
    store
        .change_email(&ada.id, &email("ada.third@example.com"), Timestamp(4_000))
        .await
        .unwrap();
    assert_eq!(
        earlier(store, &ada).await,
        ["ada.new@example.com", "ada@example.com"],
        "the address left last comes first"
    );
    store
        .change_email(&ada.id, &email("Ada@Example.com"), Timestamp(5_000))
        .await
        .unwrap();
    assert_eq!(
        earlier(store, &ada).await,
        ["ada.third@example.com", "ada.new@example.com"],
        "the address moved back to is the current one, not an earlier one"
    );

    // An address never confirmed is not one the account verified.
    let bob = fixture_account(2, "bob@example.com");
    store.create_account(&bob).await.unwrap();
    store
        .change_email(&bob.id, &email("robert@example.com"), Timestamp(3_000))
        .await
        .unwrap();
    assert!(earlier(store, &bob).await.is_empty());
    store
        .change_email(&bob.id, &email("rob@example.com"), Timestamp(4_000))
        .await
        .unwrap();
    assert_eq!(earlier(store, &bob).await, ["robert@example.com"]);

    // A refused move leaves no earlier address behind.
    let moved = store
        .change_email(&bob.id, &email("ada@example.com"), Timestamp(6_000))
        .await;
    assert!(
        matches!(moved, Err(AccountWriteError::EmailTaken)),
        "{moved:?}"
    );
    assert_eq!(earlier(store, &bob).await, ["robert@example.com"]);

    assert!(store.delete_account(&ada.id).await.unwrap());
    assert!(
        earlier(store, &ada).await.is_empty(),
        "deleting the account erases its earlier addresses"
    );
    assert_eq!(earlier(store, &bob).await, ["robert@example.com"]);
    let ghost = fixture_account(9, "ghost@example.com");
    assert!(earlier(store, &ghost).await.is_empty());
}

/// An account that confirms an address another account moved away from holds it from where
/// that account's hold ended; the first account keeps its span, so each sees its own orders.
pub async fn an_address_confirmed_by_another_account_is_held_from_where_the_last_hold_ended(
    store: &dyn PeopleStore,
) {
    let ada = fixture_account(1, "ada@example.com");
    store.create_account(&ada).await.unwrap();
    store
        .confirm_email(&ada.id, Timestamp(2_000))
        .await
        .unwrap();
    assert_eq!(
        holds(store, &ada).await,
        held(&[("ada@example.com", None, None, false)]),
        "the first holder holds the address since the beginning: a guest's orders are theirs"
    );
    for (address, at) in [
        ("ada.new@example.com", 3_000),
        ("ada.third@example.com", 4_000),
    ] {
        store
            .change_email(&ada.id, &email(address), Timestamp(at))
            .await
            .unwrap();
    }
    assert_eq!(
        holds(store, &ada).await,
        held(&[
            ("ada.third@example.com", None, None, false),
            ("ada.new@example.com", None, Some(4_000), false),
            ("ada@example.com", None, Some(3_000), false),
        ])
    );

    // Signing up with the old address proves nothing until it is confirmed.
    let carol = fixture_account(2, "ada@example.com");
    store.create_account(&carol).await.unwrap();
    assert!(holds(store, &carol).await.is_empty());
    assert_eq!(holder(store, "ada@example.com", 3_500).await, None);
    store
        .confirm_email(&carol.id, Timestamp(5_000))
        .await
        .unwrap();
    assert_eq!(
        holds(store, &carol).await,
        held(&[("ada@example.com", Some(3_000), None, false)]),
        "an order placed between Ada leaving and Carol confirming is Carol's"
    );
    assert_eq!(
        holds(store, &ada).await,
        held(&[
            ("ada.third@example.com", None, None, false),
            ("ada.new@example.com", None, Some(4_000), false),
            ("ada@example.com", None, Some(3_000), true),
        ]),
        "Ada keeps her span of her first address; another account holds it now"
    );
    assert_eq!(
        holder(store, "ada@example.com", 1_000).await,
        Some(ada.id.clone())
    );
    assert_eq!(
        holder(store, "ADA@example.com", 3_000).await,
        Some(ada.id.clone())
    );
    assert_eq!(
        holder(store, "ada@example.com", 3_001).await,
        Some(carol.id.clone())
    );
    assert_eq!(
        holder(store, "ada@example.com", 9_000).await,
        Some(carol.id.clone())
    );
    assert_eq!(
        holder(store, "ada.new@example.com", 3_500).await,
        Some(ada.id.clone())
    );
    assert_eq!(holder(store, "ada.new@example.com", 4_001).await, None);
    assert_eq!(holder(store, "nobody@example.com", 3_000).await, None);

    // Moving to it by its mailed link proves it too.
    let dan = fixture_account(3, "dan@example.com");
    store.create_account(&dan).await.unwrap();
    store
        .change_email(&dan.id, &email("ada.new@example.com"), Timestamp(6_000))
        .await
        .unwrap();
    assert_eq!(
        holds(store, &dan).await,
        held(&[("ada.new@example.com", Some(4_000), None, false)])
    );
    assert_eq!(
        holds(store, &ada).await[1],
        held(&[("ada.new@example.com", None, Some(4_000), true)])[0]
    );

    // Ada comes back to her first address once Carol left it: a new span of her own.
    store
        .change_email(&carol.id, &email("carol@example.com"), Timestamp(7_000))
        .await
        .unwrap();
    store
        .change_email(&ada.id, &email("ada@example.com"), Timestamp(8_000))
        .await
        .unwrap();
    assert_eq!(
        holds(store, &ada).await,
        held(&[
            ("ada@example.com", Some(7_000), None, false),
            ("ada.third@example.com", None, Some(8_000), false),
            ("ada.new@example.com", None, Some(4_000), true),
            ("ada@example.com", None, Some(3_000), true),
        ])
    );
    assert_eq!(
        holds(store, &carol).await,
        held(&[
            ("carol@example.com", None, None, false),
            ("ada@example.com", Some(3_000), Some(7_000), true),
        ])
    );
    assert_eq!(
        holder(store, "ada@example.com", 2_000).await,
        Some(ada.id.clone())
    );
    assert_eq!(
        holder(store, "ada@example.com", 6_000).await,
        Some(carol.id.clone())
    );
    assert_eq!(
        holder(store, "ada@example.com", 7_500).await,
        Some(ada.id.clone())
    );

    // A confirmation again (a password reset confirms too) moves no hold.
    store
        .confirm_email(&carol.id, Timestamp(9_000))
        .await
        .unwrap();
    assert_eq!(
        holds(store, &carol).await[0],
        held(&[("carol@example.com", None, None, false)])[0]
    );

    assert!(store.delete_account(&carol.id).await.unwrap());
    assert!(holds(store, &carol).await.is_empty());
    assert_eq!(holder(store, "ada@example.com", 6_000).await, None);
}
