//! The two ports of site users: the account store and the site-user session store. One
//! database implements both, so that deleting an account can end its sessions in the same
//! transaction.

use async_trait::async_trait;

use super::model::{
    Account, AccountId, AccountToken, EmailAddress, SavedSessionData, Session, TokenDigest,
};
use crate::cart::Timestamp;
use crate::checkout::ShippingAddress;
use crate::ports::RepositoryError;

/// Why an account could not be created or moved to an address.
#[derive(Debug, thiserror::Error)]
pub enum AccountWriteError {
    /// Another account has this address.
    #[error("an account with this address exists")]
    EmailTaken,
    /// No account has this id (deleted meanwhile).
    #[error("the account does not exist")]
    UnknownAccount,
    #[error(transparent)]
    Store(#[from] RepositoryError),
}

/// Site-user accounts and the single-use tokens mailed to them.
#[async_trait]
pub trait AccountStore: Send + Sync {
    /// Stores a new account; an address already in use is refused whatever its case.
    async fn create_account(&self, account: &Account) -> Result<(), AccountWriteError>;

    async fn account(&self, id: &AccountId) -> Result<Option<Account>, RepositoryError>;

    async fn account_by_email(
        &self,
        email: &EmailAddress,
    ) -> Result<Option<Account>, RepositoryError>;

    /// Marks the address confirmed at `now` (kept at its first confirmation). Another
    /// account that confirmed the address before and moved away from it no longer counts it
    /// among its [earlier addresses](Self::earlier_emails): it has a new verified holder.
    async fn confirm_email(&self, id: &AccountId, now: Timestamp) -> Result<(), AccountWriteError>;

    async fn set_password(
        &self,
        id: &AccountId,
        password_hash: &str,
    ) -> Result<(), AccountWriteError>;

    /// Moves the account to `email`, which counts as confirmed since its owner followed the
    /// link mailed to it. The address it leaves is kept among its
    /// [earlier addresses](Self::earlier_emails) when it was confirmed, and `email` stops
    /// being anybody's earlier address, this account's included: it is its current one now.
    async fn change_email(
        &self,
        id: &AccountId,
        email: &EmailAddress,
        now: Timestamp,
    ) -> Result<(), AccountWriteError>;

    /// The confirmed addresses the account moved away from, which no other account has
    /// confirmed since, the one left last first: the orders and mails kept under them are the
    /// account's to see and to erase. None for an unknown account.
    async fn earlier_emails(&self, id: &AccountId) -> Result<Vec<EmailAddress>, RepositoryError>;

    async fn set_member_areas(
        &self,
        id: &AccountId,
        member_areas: &[String],
    ) -> Result<(), AccountWriteError>;

    /// Erases the account with its tokens, sessions, saved data, saved address and earlier
    /// addresses. `false`
    /// when there was none.
    async fn delete_account(&self, id: &AccountId) -> Result<bool, RepositoryError>;

    /// Saves `address` as the account's shipping address, in place of the one saved before:
    /// an account keeps one, the last it chose to save. `UnknownAccount` when there is none.
    async fn save_address(
        &self,
        id: &AccountId,
        address: &ShippingAddress,
    ) -> Result<(), AccountWriteError>;

    /// The account's saved shipping address; none when it saved none or removed it.
    async fn saved_address(
        &self,
        id: &AccountId,
    ) -> Result<Option<ShippingAddress>, RepositoryError>;

    /// Removes the account's saved address; `false` when there was none.
    async fn remove_address(&self, id: &AccountId) -> Result<bool, RepositoryError>;

    async fn save_token(&self, token: &AccountToken) -> Result<(), RepositoryError>;

    /// Takes a mailed token: it is removed whatever the outcome, and returned only when it
    /// had not expired at `now`. A second take finds nothing.
    async fn take_token(
        &self,
        token: &TokenDigest,
        now: Timestamp,
    ) -> Result<Option<AccountToken>, RepositoryError>;
}

/// Signed-in browsers and their saved session data.
#[async_trait]
pub trait SiteUserSessionStore: Send + Sync {
    async fn create_session(&self, session: &Session) -> Result<(), RepositoryError>;

    /// The live session of this token; an expired one is removed and is `None`.
    async fn session(
        &self,
        token: &TokenDigest,
        now: Timestamp,
    ) -> Result<Option<Session>, RepositoryError>;

    /// Ends one session (signing out); `false` when there was none.
    async fn delete_session(&self, token: &TokenDigest) -> Result<bool, RepositoryError>;

    /// Ends every session of an account (sign out everywhere, a new password); the number
    /// ended.
    async fn delete_sessions_of(&self, account: &AccountId) -> Result<u64, RepositoryError>;

    /// Saves `data` under `key` for the session, replacing what was there.
    async fn put_session_data(
        &self,
        token: &TokenDigest,
        key: &str,
        data: &SavedSessionData,
    ) -> Result<(), RepositoryError>;

    /// The live data under `key`; data past its expiry is removed and is `None`.
    async fn session_data(
        &self,
        token: &TokenDigest,
        key: &str,
        now: Timestamp,
    ) -> Result<Option<String>, RepositoryError>;
}

/// A database holding both, as the people service takes it.
pub trait PeopleStore: AccountStore + SiteUserSessionStore {}

impl<T: AccountStore + SiteUserSessionStore> PeopleStore for T {}
