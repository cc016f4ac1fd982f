//! The people store (accounts and site-user sessions) on both databases: the core's
//! conformance suite, each test on a fresh database.

use std::sync::Arc;

use async_trait::async_trait;
use vitrine_core::cart::Timestamp;
use vitrine_core::checkout::ShippingAddress;
use vitrine_core::people::{
    Account, AccountId, AccountStore, AccountToken, AccountWriteError, AddressHold, EmailAddress,
    PeopleStore, SavedSessionData, Session, SiteUserSessionStore, TokenDigest,
};
use vitrine_core::ports::RepositoryError;

/// A people store with what must outlive it (the test database).
pub struct PeopleStoreUnderTest<Guard> {
    store: Arc<dyn PeopleStore>,
    _guard: Guard,
}

#[async_trait]
impl<Guard: Send + Sync> AccountStore for PeopleStoreUnderTest<Guard> {
    async fn create_account(&self, account: &Account) -> Result<(), AccountWriteError> {
        self.store.create_account(account).await
    }

    async fn account(&self, id: &AccountId) -> Result<Option<Account>, RepositoryError> {
        self.store.account(id).await
    }

    async fn account_by_email(
        &self,
        email: &EmailAddress,
    ) -> Result<Option<Account>, RepositoryError> {
        self.store.account_by_email(email).await
    }

    async fn confirm_email(&self, id: &AccountId, now: Timestamp) -> Result<(), AccountWriteError> {
        self.store.confirm_email(id, now).await
    }

    async fn set_password(&self, id: &AccountId, hash: &str) -> Result<(), AccountWriteError> {
        self.store.set_password(id, hash).await
    }

    async fn change_email(
        &self,
        id: &AccountId,
        email: &EmailAddress,
        now: Timestamp,
    ) -> Result<(), AccountWriteError> {
        self.store.change_email(id, email, now).await
    }

    async fn address_holds(&self, id: &AccountId) -> Result<Vec<AddressHold>, RepositoryError> {
        self.store.address_holds(id).await
    }

    async fn holder_at(
        &self,
        email: &EmailAddress,
        at: Timestamp,
    ) -> Result<Option<AccountId>, RepositoryError> {
        self.store.holder_at(email, at).await
    }

    async fn set_member_areas(
        &self,
        id: &AccountId,
        member_areas: &[String],
    ) -> Result<(), AccountWriteError> {
        self.store.set_member_areas(id, member_areas).await
    }

    async fn delete_account(&self, id: &AccountId) -> Result<bool, RepositoryError> {
        self.store.delete_account(id).await
    }

    async fn save_address(
        &self,
        id: &AccountId,
        address: &ShippingAddress,
    ) -> Result<(), AccountWriteError> {
        self.store.save_address(id, address).await
    }

    async fn saved_address(
        &self,
        id: &AccountId,
    ) -> Result<Option<ShippingAddress>, RepositoryError> {
        self.store.saved_address(id).await
    }

    async fn remove_address(&self, id: &AccountId) -> Result<bool, RepositoryError> {
        self.store.remove_address(id).await
    }

    async fn save_token(&self, token: &AccountToken) -> Result<(), RepositoryError> {
        self.store.save_token(token).await
    }

    async fn take_token(
        &self,
        token: &TokenDigest,
        now: Timestamp,
    ) -> Result<Option<AccountToken>, RepositoryError> {
        self.store.take_token(token, now).await
    }
}

#[async_trait]
impl<Guard: Send + Sync> SiteUserSessionStore for PeopleStoreUnderTest<Guard> {
    async fn create_session(&self, session: &Session) -> Result<(), RepositoryError> {
        self.store.create_session(session).await
    }

    async fn session(
        &self,
        token: &TokenDigest,
        now: Timestamp,
    ) -> Result<Option<Session>, RepositoryError> {
        self.store.session(token, now).await
    }

    async fn delete_session(&self, token: &TokenDigest) -> Result<bool, RepositoryError> {
        self.store.delete_session(token).await
    }

    async fn delete_sessions_of(&self, account: &AccountId) -> Result<u64, RepositoryError> {
        self.store.delete_sessions_of(account).await
    }

    async fn put_session_data(
        &self,
        token: &TokenDigest,
        key: &str,
        data: &SavedSessionData,
    ) -> Result<(), RepositoryError> {
        self.store.put_session_data(token, key, data).await
    }

    async fn session_data(
        &self,
        token: &TokenDigest,
        key: &str,
        now: Timestamp,
    ) -> Result<Option<String>, RepositoryError> {
        self.store.session_data(token, key, now).await
    }
}

mod sqlite {
    use std::time::Duration;

    use sqlx::Connection;
    use vitrine_core::cart::Timestamp;
    use vitrine_core::people::EmailAddress;
    use vitrine_core::people::conformance::fixture_account;

    use super::PeopleStoreUnderTest;

    /// While another connection writes, a change of address waits for it instead of failing:
    /// SQLite refuses at once, without waiting, to turn a transaction that has read into one
    /// that writes while another connection writes, so the change writes before it reads.
    #[tokio::test]
    async fn an_address_change_waits_for_another_connection_writing() {
        let sqlite = crate::sqlite::fresh().await;
        let store = sqlite.database.people_store();
        let bob = fixture_account(3, "bob@example.com");
        store.create_account(&bob).await.unwrap();
        let mut other = crate::sqlite::hold_write_lock(&sqlite).await;
        let robert = EmailAddress::parse("robert@example.com").unwrap();

        let (changed, ()) = tokio::join!(
            store.change_email(&bob.id, &robert, Timestamp(2_000)),
            async {
                tokio::time::sleep(Duration::from_millis(200)).await;
                sqlx::query("COMMIT").execute(&mut other).await.unwrap();
            }
        );

        changed.unwrap();
        let moved = store.account(&bob.id).await.unwrap().unwrap();
        assert_eq!(moved.email, robert);
        other.close().await.unwrap();
    }

    async fn fresh() -> PeopleStoreUnderTest<impl Send + Sync> {
        let store = crate::sqlite::fresh().await;
        PeopleStoreUnderTest {
            store: store.database.people_store(),
            _guard: store,
        }
    }

    vitrine_core::people_store_conformance!(fresh().await);
}

mod postgres {
    use super::PeopleStoreUnderTest;

    async fn fresh() -> Option<PeopleStoreUnderTest<impl Send + Sync>> {
        let store = crate::postgres::fresh().await?;
        Some(PeopleStoreUnderTest {
            store: store.database.people_store(),
            _guard: store,
        })
    }

    vitrine_core::people_store_conformance!(match fresh().await {
        Some(store) => store,
        None => return,
    });
}
