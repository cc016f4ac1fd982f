//! The two ports of site users: the account store and the site-user session store. One
//! database implements both, so that deleting an account can end its sessions in the same
//! transaction.

use async_trait::async_trait;

use super::model::{
    Account, AccountId, AccountToken, AddressHold, EmailAddress, SavedSessionData, Session,
    TokenDigest,
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
    /// Stores a new account; an address already in use is refused whatever its case. An
    /// account stored confirmed holds its address as [`confirm_email`](Self::confirm_email)
    /// says.
    async fn create_account(&self, account: &Account) -> Result<(), AccountWriteError>;

    async fn account(&self, id: &AccountId) -> Result<Option<Account>, RepositoryError>;

    async fn account_by_email(
        &self,
        email: &EmailAddress,
    ) -> Result<Option<Account>, RepositoryError>;

    /// Marks the address confirmed at `now` (kept at its first confirmation). The first
    /// confirmation starts the account's [hold](AddressHold) of the address where the last
    /// other account's hold of it ended (none: since the beginning); the holds of accounts
    /// that held it before stay as they were, ended.
    async fn confirm_email(&self, id: &AccountId, now: Timestamp) -> Result<(), AccountWriteError>;

    async fn set_password(
        &self,
        id: &AccountId,
        password_hash: &str,
    ) -> Result<(), AccountWriteError>;

    /// Moves the account to `email`, which counts as confirmed since its owner followed the
    /// link mailed to it. The hold of the address it leaves ends at `now` and is kept among
    /// its [holds](Self::address_holds) when it was confirmed; its hold of `email` starts
    /// where the last other account's hold of it ended (none: since the beginning), and
    /// replaces the account's own earlier holds of `email` it covers. Moving to the address
    /// it holds changes no hold.
    async fn change_email(
        &self,
        id: &AccountId,
        email: &EmailAddress,
        now: Timestamp,
    ) -> Result<(), AccountWriteError>;

    /// The account's [holds](AddressHold) of confirmed addresses: the current address's
    /// first when it is confirmed, then those it moved away from, the one left last first
    /// (ties by address). None for an unknown account.
    async fn address_holds(&self, id: &AccountId) -> Result<Vec<AddressHold>, RepositoryError>;

    /// The account whose hold of `email` covers the instant `at` (an order's creation):
    /// none when no hold covers it, as for an order placed after the last holder moved away
    /// and before anybody confirmed the address again.
    async fn holder_at(
        &self,
        email: &EmailAddress,
        at: Timestamp,
    ) -> Result<Option<AccountId>, RepositoryError>;

    async fn set_member_areas(
        &self,
        id: &AccountId,
        member_areas: &[String],
    ) -> Result<(), AccountWriteError>;

    /// Erases the account with its tokens, sessions, saved data, saved address and address
    /// holds. `false`
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
