//! The owner store port: accounts, setup links, sessions and API keys in one database, so
//! removing an account ends its sessions and keys in the same transaction.

use async_trait::async_trait;

use super::model::{ApiKey, Owner, OwnerSession, SetupToken};
use crate::cart::Timestamp;
use crate::people::{AccountId, EmailAddress, TokenDigest};
use crate::ports::RepositoryError;

/// Why an owner account could not be written.
#[derive(Debug, thiserror::Error)]
pub enum OwnerWriteError {
    /// Another owner account has this address.
    #[error("an owner account with this address exists")]
    EmailTaken,
    /// No owner account has this id (removed meanwhile).
    #[error("the owner account does not exist")]
    UnknownOwner,
    #[error(transparent)]
    Store(#[from] RepositoryError),
}

#[async_trait]
pub trait OwnerStore: Send + Sync {
    /// Stores a new account; an address already in use is refused.
    async fn create_owner(&self, owner: &Owner) -> Result<(), OwnerWriteError>;

    async fn owner(&self, id: &AccountId) -> Result<Option<Owner>, RepositoryError>;

    async fn owner_by_email(&self, email: &EmailAddress) -> Result<Option<Owner>, RepositoryError>;

    /// Every account, ordered by address.
    async fn owners(&self) -> Result<Vec<Owner>, RepositoryError>;

    /// Writes the account's role, password hash and second factor.
    async fn update_owner(&self, owner: &Owner) -> Result<(), OwnerWriteError>;

    /// Removes the account with its setup links, sessions and keys; `false` when there was
    /// none.
    async fn delete_owner(&self, id: &AccountId) -> Result<bool, RepositoryError>;

    async fn save_setup_token(&self, token: &SetupToken) -> Result<(), RepositoryError>;

    /// Takes a setup link: removed whatever the outcome, returned only when live at `now`.
    async fn take_setup_token(
        &self,
        token: &TokenDigest,
        now: Timestamp,
    ) -> Result<Option<SetupToken>, RepositoryError>;

    /// The live setup link of this token without taking it (the setup page shows its form).
    async fn setup_token(
        &self,
        token: &TokenDigest,
        now: Timestamp,
    ) -> Result<Option<SetupToken>, RepositoryError>;

    async fn create_owner_session(&self, session: &OwnerSession) -> Result<(), RepositoryError>;

    /// The live session of this token; an expired one is removed and is `None`.
    async fn owner_session(
        &self,
        token: &TokenDigest,
        now: Timestamp,
    ) -> Result<Option<OwnerSession>, RepositoryError>;

    /// The account's live sessions, newest first.
    async fn owner_sessions_of(
        &self,
        account: &AccountId,
        now: Timestamp,
    ) -> Result<Vec<OwnerSession>, RepositoryError>;

    /// Ends the account's session with this public id; `false` when it has none.
    async fn delete_owner_session(
        &self,
        account: &AccountId,
        id: &str,
    ) -> Result<bool, RepositoryError>;

    /// Ends every session of the account; the number ended.
    async fn delete_owner_sessions_of(&self, account: &AccountId) -> Result<u64, RepositoryError>;

    async fn create_api_key(&self, key: &ApiKey) -> Result<(), RepositoryError>;

    async fn api_key(&self, token: &TokenDigest) -> Result<Option<ApiKey>, RepositoryError>;

    /// The account's keys, newest first.
    async fn api_keys_of(&self, account: &AccountId) -> Result<Vec<ApiKey>, RepositoryError>;

    /// Revokes the account's key with this id; `false` when it has none.
    async fn delete_api_key(&self, account: &AccountId, id: &str) -> Result<bool, RepositoryError>;
}
