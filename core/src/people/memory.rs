//! The in-memory account and session store, for tests and the core's own checks.

use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard};

use async_trait::async_trait;

use super::model::{
    Account, AccountId, AccountToken, AddressHold, EmailAddress, SavedSessionData, Session,
    TokenDigest,
};
use super::store::{AccountStore, AccountWriteError, SiteUserSessionStore};
use crate::cart::Timestamp;
use crate::checkout::{PlacedBetween, ShippingAddress};
use crate::ports::RepositoryError;

#[derive(Default)]
struct People {
    accounts: BTreeMap<AccountId, Account>,
    tokens: BTreeMap<TokenDigest, AccountToken>,
    sessions: BTreeMap<TokenDigest, Session>,
    data: BTreeMap<(TokenDigest, String), SavedSessionData>,
    addresses: BTreeMap<AccountId, ShippingAddress>,
    /// Where the hold of each confirmed account's current address starts (none: since the
    /// beginning).
    held_since: BTreeMap<AccountId, Option<Timestamp>>,
    /// Confirmed addresses accounts moved away from, in the order they were left.
    earlier: Vec<EarlierHold>,
}

/// A confirmed address an account moved away from, with the span it held it.
struct EarlierHold {
    account: AccountId,
    email: EmailAddress,
    since: Option<Timestamp>,
    left_at: Timestamp,
}

impl People {
    fn account_mut(&mut self, id: &AccountId) -> Result<&mut Account, AccountWriteError> {
        self.accounts
            .get_mut(id)
            .ok_or(AccountWriteError::UnknownAccount)
    }

    /// The account `id` takes `email`, just confirmed: its hold starts where the last other
    /// account's hold of it ended, and its own earlier holds the new one covers go.
    fn take_hold(&mut self, id: &AccountId, email: &EmailAddress) {
        let since = self
            .earlier
            .iter()
            .filter(|hold| &hold.email == email && &hold.account != id)
            .map(|hold| hold.left_at)
            .max();
        self.earlier.retain(|hold| {
            let covered = since.is_none() || hold.since.is_some_and(|own| Some(own) >= since);
            !(&hold.account == id && &hold.email == email && covered)
        });
        self.held_since.insert(id.clone(), since);
    }

    /// Whether an account other than `id` confirmed `email` after `left_at`.
    fn superseded(&self, id: &AccountId, email: &EmailAddress, left_at: Timestamp) -> bool {
        let held_now = self
            .accounts
            .values()
            .any(|account| &account.id != id && &account.email == email && account.is_confirmed());
        held_now
            || self.earlier.iter().any(|hold| {
                &hold.account != id
                    && &hold.email == email
                    && hold.since.is_some_and(|since| since >= left_at)
            })
    }

    fn end_session(&mut self, token: &TokenDigest) -> bool {
        self.data.retain(|(owner, _), _| owner != token);
        self.sessions.remove(token).is_some()
    }
}

/// Accounts, tokens, sessions and saved data behind one lock, as one database would hold
/// them.
#[derive(Default)]
pub struct InMemoryPeopleStore {
    people: Mutex<People>,
}

impl InMemoryPeopleStore {
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> Result<MutexGuard<'_, People>, RepositoryError> {
        self.people.lock().map_err(|_| {
            RepositoryError::Unavailable("the in-memory people store's lock was poisoned".into())
        })
    }
}

#[async_trait]
impl AccountStore for InMemoryPeopleStore {
    async fn create_account(&self, account: &Account) -> Result<(), AccountWriteError> {
        let mut people = self.lock()?;
        if people
            .accounts
            .values()
            .any(|other| other.email == account.email)
            || people.accounts.contains_key(&account.id)
        {
            return Err(AccountWriteError::EmailTaken);
        }
        people.accounts.insert(account.id.clone(), account.clone());
        if account.is_confirmed() {
            people.take_hold(&account.id, &account.email);
        }
        Ok(())
    }

    async fn account(&self, id: &AccountId) -> Result<Option<Account>, RepositoryError> {
        Ok(self.lock()?.accounts.get(id).cloned())
    }

    async fn account_by_email(
        &self,
        email: &EmailAddress,
    ) -> Result<Option<Account>, RepositoryError> {
        let people = self.lock()?;
        Ok(people
            .accounts
            .values()
            .find(|account| &account.email == email)
            .cloned())
    }

    async fn confirm_email(&self, id: &AccountId, now: Timestamp) -> Result<(), AccountWriteError> {
        let mut people = self.lock()?;
        let account = people.account_mut(id)?;
        if account.confirmed_at.is_none() {
            account.confirmed_at = Some(now);
            let email = account.email.clone();
            people.take_hold(id, &email);
        }
        Ok(())
    }

    async fn set_password(
        &self,
        id: &AccountId,
        password_hash: &str,
    ) -> Result<(), AccountWriteError> {
        self.lock()?.account_mut(id)?.password_hash = password_hash.to_owned();
        Ok(())
    }

    async fn change_email(
        &self,
        id: &AccountId,
        email: &EmailAddress,
        now: Timestamp,
    ) -> Result<(), AccountWriteError> {
        let mut people = self.lock()?;
        if people
            .accounts
            .values()
            .any(|other| &other.email == email && &other.id != id)
        {
            return Err(AccountWriteError::EmailTaken);
        }
        let account = people.account_mut(id)?;
        let left = account.is_confirmed().then(|| account.email.clone());
        account.email = email.clone();
        account.confirmed_at = Some(now);
        if left.as_ref() == Some(email) {
            // Moving to the address it holds changes no hold.
            return Ok(());
        }
        if let Some(left) = left {
            let since = people.held_since.get(id).copied().flatten();
            let kept = people
                .earlier
                .iter()
                .any(|hold| &hold.account == id && hold.email == left && hold.left_at == now);
            if !kept {
                people.earlier.push(EarlierHold {
                    account: id.clone(),
                    email: left,
                    since,
                    left_at: now,
                });
            }
        }
        people.take_hold(id, email);
        Ok(())
    }

    async fn address_holds(&self, id: &AccountId) -> Result<Vec<AddressHold>, RepositoryError> {
        let people = self.lock()?;
        let mut holds = Vec::new();
        if let Some(account) = people.accounts.get(id).filter(|a| a.is_confirmed()) {
            holds.push(AddressHold {
                email: account.email.clone(),
                placed: PlacedBetween {
                    after: people.held_since.get(id).copied().flatten(),
                    until: None,
                },
                superseded: false,
            });
        }
        let mut earlier: Vec<&EarlierHold> = people
            .earlier
            .iter()
            .filter(|hold| &hold.account == id)
            .collect();
        earlier.sort_by(|a, b| (b.left_at, &a.email).cmp(&(a.left_at, &b.email)));
        holds.extend(earlier.into_iter().map(|hold| AddressHold {
            email: hold.email.clone(),
            placed: PlacedBetween {
                after: hold.since,
                until: Some(hold.left_at),
            },
            superseded: people.superseded(id, &hold.email, hold.left_at),
        }));
        Ok(holds)
    }

    async fn holder_at(
        &self,
        email: &EmailAddress,
        at: Timestamp,
    ) -> Result<Option<AccountId>, RepositoryError> {
        let people = self.lock()?;
        let current = people.accounts.values().find(|account| {
            &account.email == email
                && account.is_confirmed()
                && people
                    .held_since
                    .get(&account.id)
                    .copied()
                    .flatten()
                    .is_none_or(|since| since < at)
        });
        let earlier = || {
            people.earlier.iter().find(|hold| {
                &hold.email == email
                    && (PlacedBetween {
                        after: hold.since,
                        until: Some(hold.left_at),
                    })
                    .contains(at)
            })
        };
        Ok(current
            .map(|account| account.id.clone())
            .or_else(|| earlier().map(|hold| hold.account.clone())))
    }

    async fn set_member_areas(
        &self,
        id: &AccountId,
        member_areas: &[String],
    ) -> Result<(), AccountWriteError> {
        self.lock()?.account_mut(id)?.member_areas = member_areas.to_vec();
        Ok(())
    }

    async fn delete_account(&self, id: &AccountId) -> Result<bool, RepositoryError> {
        let mut people = self.lock()?;
        let existed = people.accounts.remove(id).is_some();
        people.addresses.remove(id);
        people.held_since.remove(id);
        people.earlier.retain(|earlier| &earlier.account != id);
        people.tokens.retain(|_, token| &token.account != id);
        let ended: Vec<TokenDigest> = people
            .sessions
            .values()
            .filter(|session| &session.account == id)
            .map(|session| session.token.clone())
            .collect();
        for token in &ended {
            people.end_session(token);
        }
        Ok(existed)
    }

    async fn save_address(
        &self,
        id: &AccountId,
        address: &ShippingAddress,
    ) -> Result<(), AccountWriteError> {
        let mut people = self.lock()?;
        people.account_mut(id)?;
        people.addresses.insert(id.clone(), address.clone());
        Ok(())
    }

    async fn saved_address(
        &self,
        id: &AccountId,
    ) -> Result<Option<ShippingAddress>, RepositoryError> {
        Ok(self.lock()?.addresses.get(id).cloned())
    }

    async fn remove_address(&self, id: &AccountId) -> Result<bool, RepositoryError> {
        Ok(self.lock()?.addresses.remove(id).is_some())
    }

    async fn save_token(&self, token: &AccountToken) -> Result<(), RepositoryError> {
        let mut people = self.lock()?;
        if !people.accounts.contains_key(&token.account) {
            return Err(RepositoryError::Rejected(
                "a token for an account that does not exist".into(),
            ));
        }
        people.tokens.insert(token.token.clone(), token.clone());
        Ok(())
    }

    async fn take_token(
        &self,
        token: &TokenDigest,
        now: Timestamp,
    ) -> Result<Option<AccountToken>, RepositoryError> {
        let taken = self.lock()?.tokens.remove(token);
        Ok(taken.filter(|token| now < token.expires_at))
    }
}

#[async_trait]
impl SiteUserSessionStore for InMemoryPeopleStore {
    async fn create_session(&self, session: &Session) -> Result<(), RepositoryError> {
        let mut people = self.lock()?;
        if !people.accounts.contains_key(&session.account) {
            return Err(RepositoryError::Rejected(
                "a session for an account that does not exist".into(),
            ));
        }
        people
            .sessions
            .insert(session.token.clone(), session.clone());
        Ok(())
    }

    async fn session(
        &self,
        token: &TokenDigest,
        now: Timestamp,
    ) -> Result<Option<Session>, RepositoryError> {
        let mut people = self.lock()?;
        match people.sessions.get(token) {
            Some(session) if session.is_live(now) => Ok(Some(session.clone())),
            Some(_) => {
                people.end_session(token);
                Ok(None)
            }
            None => Ok(None),
        }
    }

    async fn delete_session(&self, token: &TokenDigest) -> Result<bool, RepositoryError> {
        Ok(self.lock()?.end_session(token))
    }

    async fn delete_sessions_of(&self, account: &AccountId) -> Result<u64, RepositoryError> {
        let mut people = self.lock()?;
        let ended: Vec<TokenDigest> = people
            .sessions
            .values()
            .filter(|session| &session.account == account)
            .map(|session| session.token.clone())
            .collect();
        for token in &ended {
            people.end_session(token);
        }
        Ok(ended.len() as u64)
    }

    async fn put_session_data(
        &self,
        token: &TokenDigest,
        key: &str,
        data: &SavedSessionData,
    ) -> Result<(), RepositoryError> {
        let mut people = self.lock()?;
        if !people.sessions.contains_key(token) {
            return Err(RepositoryError::Rejected(
                "saved data for a session that does not exist".into(),
            ));
        }
        people
            .data
            .insert((token.clone(), key.to_owned()), data.clone());
        Ok(())
    }

    async fn session_data(
        &self,
        token: &TokenDigest,
        key: &str,
        now: Timestamp,
    ) -> Result<Option<String>, RepositoryError> {
        let mut people = self.lock()?;
        let entry = (token.clone(), key.to_owned());
        match people.data.get(&entry) {
            Some(data) if data.is_live(now) => Ok(Some(data.value.clone())),
            Some(_) => {
                people.data.remove(&entry);
                Ok(None)
            }
            None => Ok(None),
        }
    }
}
