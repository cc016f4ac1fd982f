//! The conformance suite every owner store must pass: the in-memory one, SQLite and
//! PostgreSQL run the same assertions through [`owner_store_conformance!`].

use super::model::{ApiKey, Owner, OwnerSession, SetupToken, TotpSecret};
use super::store::{OwnerStore, OwnerWriteError};
use crate::cart::Timestamp;
use crate::enums::{ContributorRole, PermissionCode};
use crate::people::{AccountId, BearerToken, EmailAddress, Secret, TokenDigest};

/// Generates one `#[tokio::test]` per check; `$make` builds a fresh, empty store behind a
/// pointer to `dyn OwnerStore` (an `Arc`, or a guard that keeps its database alive); it may
/// use `.await`, and may `return` to skip when its database is not configured.
#[macro_export]
macro_rules! owner_store_conformance {
    ($make:expr) => {
        $crate::owner_store_conformance!(@tests $make;
            an_owner_reads_back_whole_by_id_by_address_and_in_the_list,
            an_address_has_one_owner_account,
            updates_write_role_password_and_second_factor,
            a_setup_link_is_read_then_taken_once_and_never_after_its_expiry,
            sessions_live_until_their_expiry_and_are_listed_per_account,
            a_session_is_revoked_by_its_id_only_within_its_account,
            api_keys_read_back_with_their_scopes_and_are_revoked_per_account,
            removing_an_owner_ends_its_sessions_keys_and_setup_links,
        );
    };
    (@tests $make:expr; $($name:ident),* $(,)?) => {
        $(
            #[tokio::test]
            async fn $name() {
                let store = $make;
                $crate::owners::conformance::$name(&*store).await;
            }
        )*
    };
}

fn secret(n: u8) -> Secret {
    let mut bytes = [n; 32];
    bytes[31] = n.wrapping_mul(7).wrapping_add(1);
    Secret(bytes)
}

/// An owner of `address` with `role`, its id made from `n`, without a password.
pub fn fixture_owner(n: u8, address: &str, role: ContributorRole) -> Owner {
    Owner {
        id: AccountId::from_secret(&secret(n)),
        email: EmailAddress::parse(address).expect("fixture addresses are valid"),
        role,
        password_hash: None,
        totp: None,
        totp_last_step: None,
        totp_pending: None,
        created: Timestamp(1_000),
    }
}

fn token(n: u8) -> TokenDigest {
    BearerToken::from_secret(&secret(n)).digest()
}

fn session(n: u8, owner: &Owner, created: i64, expires_at: i64) -> OwnerSession {
    OwnerSession {
        id: format!("session{n}"),
        token: token(n),
        account: owner.id.clone(),
        csrf_token: format!("csrf{n}"),
        created: Timestamp(created),
        expires_at: Timestamp(expires_at),
        user_agent: format!("Browser {n}"),
    }
}

fn key(n: u8, owner: &Owner, created: i64) -> ApiKey {
    ApiKey {
        id: format!("key{n}"),
        token: token(100 + n),
        account: owner.id.clone(),
        name: format!("Script {n}"),
        scopes: vec![PermissionCode::Config, PermissionCode::Commerce],
        created: Timestamp(created),
    }
}

pub async fn an_owner_reads_back_whole_by_id_by_address_and_in_the_list(store: &dyn OwnerStore) {
    let ada = Owner {
        password_hash: Some("$argon2id$v=19$m=8,t=1,p=1$ada".into()),
        totp: Some(TotpSecret(*b"12345678901234567890")),
        totp_last_step: Some(7),
        totp_pending: Some(TotpSecret([9; 20])),
        ..fixture_owner(1, "ada@example.com", ContributorRole::Admin)
    };
    let bob = fixture_owner(2, "bob@example.com", ContributorRole::Viewer);
    store.create_owner(&bob).await.unwrap();
    store.create_owner(&ada).await.unwrap();
    assert_eq!(store.owner(&ada.id).await.unwrap(), Some(ada.clone()));
    assert_eq!(
        store.owner_by_email(&bob.email).await.unwrap(),
        Some(bob.clone())
    );
    assert_eq!(store.owners().await.unwrap(), vec![ada, bob]);
    let nobody = AccountId::from_secret(&secret(9));
    assert_eq!(store.owner(&nobody).await.unwrap(), None);
}

pub async fn an_address_has_one_owner_account(store: &dyn OwnerStore) {
    store
        .create_owner(&fixture_owner(1, "ada@example.com", ContributorRole::Admin))
        .await
        .unwrap();
    let again = store
        .create_owner(&fixture_owner(
            2,
            "ada@example.com",
            ContributorRole::Editor,
        ))
        .await;
    assert!(
        matches!(again, Err(OwnerWriteError::EmailTaken)),
        "{again:?}"
    );
}

pub async fn updates_write_role_password_and_second_factor(store: &dyn OwnerStore) {
    let ada = fixture_owner(1, "ada@example.com", ContributorRole::Editor);
    store.create_owner(&ada).await.unwrap();
    let changed = Owner {
        role: ContributorRole::StoreManager,
        password_hash: Some("$argon2id$new".into()),
        totp: Some(TotpSecret([4; 20])),
        totp_last_step: Some(42),
        totp_pending: Some(TotpSecret([5; 20])),
        ..ada.clone()
    };
    store.update_owner(&changed).await.unwrap();
    assert_eq!(store.owner(&ada.id).await.unwrap(), Some(changed.clone()));
    let cleared = Owner {
        password_hash: None,
        totp: None,
        totp_last_step: None,
        totp_pending: None,
        ..changed
    };
    store.update_owner(&cleared).await.unwrap();
    assert_eq!(store.owner(&ada.id).await.unwrap(), Some(cleared));
    let unknown = fixture_owner(5, "eve@example.com", ContributorRole::Admin);
    assert!(matches!(
        store.update_owner(&unknown).await,
        Err(OwnerWriteError::UnknownOwner)
    ));
}

pub async fn a_setup_link_is_read_then_taken_once_and_never_after_its_expiry(
    store: &dyn OwnerStore,
) {
    let ada = fixture_owner(1, "ada@example.com", ContributorRole::Admin);
    store.create_owner(&ada).await.unwrap();
    let link = SetupToken {
        token: token(1),
        account: ada.id.clone(),
        expires_at: Timestamp(5_000),
    };
    store.save_setup_token(&link).await.unwrap();
    assert_eq!(
        store
            .setup_token(&link.token, Timestamp(4_999))
            .await
            .unwrap(),
        Some(link.clone())
    );
    assert_eq!(
        store
            .take_setup_token(&link.token, Timestamp(4_999))
            .await
            .unwrap(),
        Some(link.clone())
    );
    assert_eq!(
        store
            .take_setup_token(&link.token, Timestamp(4_999))
            .await
            .unwrap(),
        None
    );
    let late = SetupToken {
        token: token(2),
        ..link
    };
    store.save_setup_token(&late).await.unwrap();
    assert_eq!(
        store
            .setup_token(&late.token, Timestamp(5_000))
            .await
            .unwrap(),
        None
    );
    assert_eq!(
        store
            .take_setup_token(&late.token, Timestamp(5_000))
            .await
            .unwrap(),
        None
    );
}

pub async fn sessions_live_until_their_expiry_and_are_listed_per_account(store: &dyn OwnerStore) {
    let ada = fixture_owner(1, "ada@example.com", ContributorRole::Admin);
    let bob = fixture_owner(2, "bob@example.com", ContributorRole::Editor);
    store.create_owner(&ada).await.unwrap();
    store.create_owner(&bob).await.unwrap();
    let older = session(1, &ada, 1_000, 10_000);
    let newer = session(2, &ada, 2_000, 10_000);
    let short = session(3, &ada, 3_000, 4_000);
    let bobs = session(4, &bob, 1_500, 10_000);
    for session in [&older, &newer, &short, &bobs] {
        store.create_owner_session(session).await.unwrap();
    }
    assert_eq!(
        store
            .owner_session(&newer.token, Timestamp(9_999))
            .await
            .unwrap(),
        Some(newer.clone())
    );
    assert_eq!(
        store
            .owner_sessions_of(&ada.id, Timestamp(5_000))
            .await
            .unwrap(),
        vec![newer.clone(), older.clone()]
    );
    assert_eq!(
        store
            .owner_session(&short.token, Timestamp(4_000))
            .await
            .unwrap(),
        None
    );
    assert_eq!(
        store
            .owner_session(&newer.token, Timestamp(10_000))
            .await
            .unwrap(),
        None
    );
    // Only the older session is left: reading the others past their expiry removed them.
    assert_eq!(store.delete_owner_sessions_of(&ada.id).await.unwrap(), 1);
    assert_eq!(
        store
            .owner_sessions_of(&bob.id, Timestamp(5_000))
            .await
            .unwrap(),
        vec![bobs]
    );
}

pub async fn a_session_is_revoked_by_its_id_only_within_its_account(store: &dyn OwnerStore) {
    let ada = fixture_owner(1, "ada@example.com", ContributorRole::Admin);
    let bob = fixture_owner(2, "bob@example.com", ContributorRole::Editor);
    store.create_owner(&ada).await.unwrap();
    store.create_owner(&bob).await.unwrap();
    let adas = session(1, &ada, 1_000, 10_000);
    store.create_owner_session(&adas).await.unwrap();
    assert!(!store.delete_owner_session(&bob.id, &adas.id).await.unwrap());
    assert!(store.delete_owner_session(&ada.id, &adas.id).await.unwrap());
    assert_eq!(
        store
            .owner_session(&adas.token, Timestamp(2_000))
            .await
            .unwrap(),
        None
    );
    assert!(!store.delete_owner_session(&ada.id, &adas.id).await.unwrap());
}

pub async fn api_keys_read_back_with_their_scopes_and_are_revoked_per_account(
    store: &dyn OwnerStore,
) {
    let ada = fixture_owner(1, "ada@example.com", ContributorRole::Admin);
    let bob = fixture_owner(2, "bob@example.com", ContributorRole::Editor);
    store.create_owner(&ada).await.unwrap();
    store.create_owner(&bob).await.unwrap();
    let first = key(1, &ada, 1_000);
    let second = ApiKey {
        scopes: vec![PermissionCode::Admin],
        ..key(2, &ada, 2_000)
    };
    store.create_api_key(&first).await.unwrap();
    store.create_api_key(&second).await.unwrap();
    assert_eq!(
        store.api_key(&first.token).await.unwrap(),
        Some(first.clone())
    );
    assert_eq!(
        store.api_keys_of(&ada.id).await.unwrap(),
        vec![second.clone(), first.clone()]
    );
    assert!(!store.delete_api_key(&bob.id, &first.id).await.unwrap());
    assert!(store.delete_api_key(&ada.id, &first.id).await.unwrap());
    assert_eq!(store.api_key(&first.token).await.unwrap(), None);
    assert_eq!(store.api_keys_of(&ada.id).await.unwrap(), vec![second]);
}

pub async fn removing_an_owner_ends_its_sessions_keys_and_setup_links(store: &dyn OwnerStore) {
    let ada = fixture_owner(1, "ada@example.com", ContributorRole::Admin);
    store.create_owner(&ada).await.unwrap();
    let adas = session(1, &ada, 1_000, 10_000);
    let adas_key = key(1, &ada, 1_000);
    let link = SetupToken {
        token: token(50),
        account: ada.id.clone(),
        expires_at: Timestamp(10_000),
    };
    store.create_owner_session(&adas).await.unwrap();
    store.create_api_key(&adas_key).await.unwrap();
    store.save_setup_token(&link).await.unwrap();
    assert!(store.delete_owner(&ada.id).await.unwrap());
    assert!(!store.delete_owner(&ada.id).await.unwrap());
    assert_eq!(store.owner(&ada.id).await.unwrap(), None);
    assert_eq!(
        store
            .owner_session(&adas.token, Timestamp(2_000))
            .await
            .unwrap(),
        None
    );
    assert_eq!(store.api_key(&adas_key.token).await.unwrap(), None);
    assert_eq!(
        store
            .setup_token(&link.token, Timestamp(2_000))
            .await
            .unwrap(),
        None
    );
}
