//! The in-memory owner store, for tests and for a server started without a database.

use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard};

use async_trait::async_trait;

use super::model::{ApiKey, Owner, OwnerSession, SetupToken};
use super::store::{OwnerStore, OwnerWriteError};
use crate::cart::Timestamp;
use crate::people::{AccountId, EmailAddress, TokenDigest};
use crate::ports::RepositoryError;

#[derive(Default)]
struct Owners {
    accounts: BTreeMap<AccountId, Owner>,
    setup: BTreeMap<TokenDigest, SetupToken>,
    sessions: BTreeMap<TokenDigest, OwnerSession>,
    keys: BTreeMap<TokenDigest, ApiKey>,
}

/// Accounts, setup links, sessions and keys behind one lock, as one database holds them.
#[derive(Default)]
pub struct InMemoryOwnerStore {
    owners: Mutex<Owners>,
}

impl InMemoryOwnerStore {
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> Result<MutexGuard<'_, Owners>, RepositoryError> {
        self.owners.lock().map_err(|_| {
            RepositoryError::Unavailable("the in-memory owner store's lock was poisoned".into())
        })
    }
}

#[async_trait]
impl OwnerStore for InMemoryOwnerStore {
    async fn create_owner(&self, owner: &Owner) -> Result<(), OwnerWriteError> {
        let mut owners = self.lock()?;
        if owners
            .accounts
            .values()
            .any(|other| other.email == owner.email)
        {
            return Err(OwnerWriteError::EmailTaken);
        }
        owners.accounts.insert(owner.id.clone(), owner.clone());
        Ok(())
    }

    async fn owner(&self, id: &AccountId) -> Result<Option<Owner>, RepositoryError> {
        Ok(self.lock()?.accounts.get(id).cloned())
    }

    async fn owner_by_email(&self, email: &EmailAddress) -> Result<Option<Owner>, RepositoryError> {
        Ok(self
            .lock()?
            .accounts
            .values()
            .find(|owner| &owner.email == email)
            .cloned())
    }

    async fn owners(&self) -> Result<Vec<Owner>, RepositoryError> {
        let mut all: Vec<Owner> = self.lock()?.accounts.values().cloned().collect();
        all.sort_by(|a, b| a.email.cmp(&b.email));
        Ok(all)
    }

    async fn update_owner(&self, owner: &Owner) -> Result<(), OwnerWriteError> {
        let mut owners = self.lock()?;
        let stored = owners
            .accounts
            .get_mut(&owner.id)
            .ok_or(OwnerWriteError::UnknownOwner)?;
        stored.role = owner.role;
        stored.password_hash.clone_from(&owner.password_hash);
        stored.totp.clone_from(&owner.totp);
        stored.totp_last_step = owner.totp_last_step;
        stored.totp_pending.clone_from(&owner.totp_pending);
        Ok(())
    }

    async fn delete_owner(&self, id: &AccountId) -> Result<bool, RepositoryError> {
        let mut owners = self.lock()?;
        owners.setup.retain(|_, token| &token.account != id);
        owners.sessions.retain(|_, session| &session.account != id);
        owners.keys.retain(|_, key| &key.account != id);
        Ok(owners.accounts.remove(id).is_some())
    }

    async fn save_setup_token(&self, token: &SetupToken) -> Result<(), RepositoryError> {
        self.lock()?
            .setup
            .insert(token.token.clone(), token.clone());
        Ok(())
    }

    async fn take_setup_token(
        &self,
        token: &TokenDigest,
        now: Timestamp,
    ) -> Result<Option<SetupToken>, RepositoryError> {
        Ok(self
            .lock()?
            .setup
            .remove(token)
            .filter(|taken| now < taken.expires_at))
    }

    async fn setup_token(
        &self,
        token: &TokenDigest,
        now: Timestamp,
    ) -> Result<Option<SetupToken>, RepositoryError> {
        Ok(self
            .lock()?
            .setup
            .get(token)
            .filter(|found| now < found.expires_at)
            .cloned())
    }

    async fn create_owner_session(&self, session: &OwnerSession) -> Result<(), RepositoryError> {
        self.lock()?
            .sessions
            .insert(session.token.clone(), session.clone());
        Ok(())
    }

    async fn owner_session(
        &self,
        token: &TokenDigest,
        now: Timestamp,
    ) -> Result<Option<OwnerSession>, RepositoryError> {
        let mut owners = self.lock()?;
        match owners.sessions.get(token) {
            Some(session) if session.is_live(now) => Ok(Some(session.clone())),
            Some(_) => {
                owners.sessions.remove(token);
                Ok(None)
            }
            None => Ok(None),
        }
    }

    async fn owner_sessions_of(
        &self,
        account: &AccountId,
        now: Timestamp,
    ) -> Result<Vec<OwnerSession>, RepositoryError> {
        let mut sessions: Vec<OwnerSession> = self
            .lock()?
            .sessions
            .values()
            .filter(|session| &session.account == account && session.is_live(now))
            .cloned()
            .collect();
        sessions.sort_by(|a, b| b.created.cmp(&a.created).then(a.id.cmp(&b.id)));
        Ok(sessions)
    }

    async fn delete_owner_session(
        &self,
        account: &AccountId,
        id: &str,
    ) -> Result<bool, RepositoryError> {
        let mut owners = self.lock()?;
        let before = owners.sessions.len();
        owners
            .sessions
            .retain(|_, session| !(&session.account == account && session.id == id));
        Ok(owners.sessions.len() < before)
    }

    async fn delete_owner_sessions_of(&self, account: &AccountId) -> Result<u64, RepositoryError> {
        let mut owners = self.lock()?;
        let before = owners.sessions.len();
        owners
            .sessions
            .retain(|_, session| &session.account != account);
        Ok((before - owners.sessions.len()) as u64)
    }

    async fn create_api_key(&self, key: &ApiKey) -> Result<(), RepositoryError> {
        self.lock()?.keys.insert(key.token.clone(), key.clone());
        Ok(())
    }

    async fn api_key(&self, token: &TokenDigest) -> Result<Option<ApiKey>, RepositoryError> {
        Ok(self.lock()?.keys.get(token).cloned())
    }

    async fn api_keys_of(&self, account: &AccountId) -> Result<Vec<ApiKey>, RepositoryError> {
        let mut keys: Vec<ApiKey> = self
            .lock()?
            .keys
            .values()
            .filter(|key| &key.account == account)
            .cloned()
            .collect();
        keys.sort_by(|a, b| b.created.cmp(&a.created).then(a.id.cmp(&b.id)));
        Ok(keys)
    }

    async fn delete_api_key(&self, account: &AccountId, id: &str) -> Result<bool, RepositoryError> {
        let mut owners = self.lock()?;
        let before = owners.keys.len();
        owners
            .keys
            .retain(|_, key| !(&key.account == account && key.id == id));
        Ok(owners.keys.len() < before)
    }
}
