//! The owner service: accounts made from the command line (each with a one-time setup link,
//! or a password given there), sign-in with attempt limits and an optional TOTP second
//! factor, sessions listed and revoked, and API keys with scopes. It shares the site users'
//! argon2id hashing, decoy hash and attempt counting (`people/`), so both sign-ins behave
//! alike: an unknown address still spends one password verification.

use std::sync::Arc;

use super::model::{
    API_KEY_PREFIX, ApiKey, MAX_API_KEY_NAME, OWNER_SESSION_SECONDS, Owner, OwnerSession,
    SETUP_LINK_SECONDS, SetupToken, TotpSecret,
};
use super::permissions::{OwnerAccess, role_permits};
use super::store::{OwnerStore, OwnerWriteError};
use crate::cart::Timestamp;
use crate::enums::{ContributorRole, PermissionCode};
use crate::forms::{RateLimit, RateLimiter};
use crate::people::{
    AccountId, BearerToken, DecoyHash, EmailAddress, LimitHit, MAX_PASSWORD_BYTES,
    MIN_PASSWORD_LENGTH, Passwords, RetryAfter, SecretSource, TokenError, Unavailable,
    check_password, count_attempt, salt_from,
};

/// The longest `User-Agent` kept with a session.
const MAX_USER_AGENT: usize = 200;

/// Sign-in attempt limits, counted through the rate-limit port so several servers share them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OwnerLimits {
    /// Attempts per address typed: few, since an owner account opens the whole site.
    pub sign_ins_per_account: RateLimit,
    /// Attempts per client address.
    pub sign_ins_per_client: RateLimit,
}

impl Default for OwnerLimits {
    fn default() -> Self {
        let per_quarter_hour = |max| RateLimit {
            max,
            window_seconds: 15 * 60,
        };
        Self {
            sign_ins_per_account: per_quarter_hour(5),
            sign_ins_per_client: per_quarter_hour(20),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum OwnerSignInError {
    #[error("The email or password is incorrect.")]
    InvalidCredentials,
    /// Said only to someone who knew the password.
    #[error("Enter the six-digit code from your authenticator app.")]
    SecondFactorRequired,
    #[error("The code is incorrect or has been used already.")]
    InvalidSecondFactor,
    #[error("Too many sign-in attempts. Please try again later.")]
    RateLimited(RetryAfter),
    #[error(transparent)]
    Unavailable(#[from] Unavailable),
}

/// Why an account could not be added or changed from the command line.
#[derive(Debug, thiserror::Error)]
pub enum ManageOwnerError {
    #[error("{0:?} is not a valid email address")]
    InvalidEmail(String),
    #[error("an owner account with this address exists already")]
    EmailTaken,
    #[error("no owner account has this address")]
    UnknownOwner,
    #[error("the password must have at least {MIN_PASSWORD_LENGTH} characters")]
    PasswordTooShort,
    #[error("the password is too long")]
    PasswordTooLong,
    #[error(transparent)]
    Unavailable(#[from] Unavailable),
}

#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error("This setup link is invalid or has expired.")]
    InvalidOrExpired,
    #[error("Your password must have at least {MIN_PASSWORD_LENGTH} characters.")]
    PasswordTooShort,
    #[error("Your password is too long.")]
    PasswordTooLong,
    #[error(transparent)]
    Unavailable(#[from] Unavailable),
}

#[derive(Debug, thiserror::Error)]
pub enum ApiKeyError {
    #[error("Give the key a name of 1 to {MAX_API_KEY_NAME} characters.")]
    InvalidName,
    #[error("Choose at least one scope.")]
    NoScopes,
    /// A key cannot do more than its owner.
    #[error("Your role does not hold the {0} permission.")]
    ScopeNotHeld(PermissionCode),
    #[error(transparent)]
    Unavailable(#[from] Unavailable),
}

/// A new session: the cookie's token (never stored) and the session as stored.
#[derive(Debug, Clone)]
pub struct OwnerSignedIn {
    pub token: BearerToken,
    pub session: OwnerSession,
    pub owner: Owner,
}

/// A live owner session with its account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnerViewer {
    pub session: OwnerSession,
    pub owner: Owner,
}

/// A new API key: the text shown once, and the key as stored.
#[derive(Debug, Clone)]
pub struct IssuedApiKey {
    pub secret: String,
    pub key: ApiKey,
}

/// What the owner service is built from.
pub struct OwnerPorts {
    pub store: Arc<dyn OwnerStore>,
    pub limiter: Arc<dyn RateLimiter>,
    pub secrets: Arc<dyn SecretSource>,
    pub passwords: Arc<dyn Passwords>,
}

pub struct OwnerService {
    pub(super) ports: OwnerPorts,
    pub(super) limits: OwnerLimits,
    decoy_hash: DecoyHash,
}

fn password_refusal(error: TokenError) -> SetupError {
    match error {
        TokenError::PasswordTooLong => SetupError::PasswordTooLong,
        _ => SetupError::PasswordTooShort,
    }
}

impl From<OwnerWriteError> for Unavailable {
    fn from(error: OwnerWriteError) -> Self {
        Self(error.to_string())
    }
}

impl OwnerService {
    pub fn new(ports: OwnerPorts, limits: OwnerLimits) -> Self {
        Self {
            ports,
            limits,
            decoy_hash: DecoyHash::default(),
        }
    }

    pub(super) fn store(&self) -> &dyn OwnerStore {
        &*self.ports.store
    }

    fn new_id(&self) -> String {
        hex::encode(&self.ports.secrets.secret().0[..8])
    }

    async fn hash(&self, password: &str) -> Result<String, Unavailable> {
        Ok(self
            .ports
            .passwords
            .hash(password.to_owned(), salt_from(&*self.ports.secrets))
            .await?)
    }

    /// Adds an account. Without a password it has none until its setup link (returned) is
    /// followed; with one, it can sign in at once.
    pub async fn add(
        &self,
        email: &str,
        role: ContributorRole,
        password: Option<&str>,
        now: Timestamp,
    ) -> Result<(Owner, Option<BearerToken>), ManageOwnerError> {
        let email = EmailAddress::parse(email)
            .map_err(|_| ManageOwnerError::InvalidEmail(email.to_owned()))?;
        let password_hash = match password {
            Some(password) => {
                check_password(password).map_err(|error| match password_refusal(error) {
                    SetupError::PasswordTooLong => ManageOwnerError::PasswordTooLong,
                    _ => ManageOwnerError::PasswordTooShort,
                })?;
                Some(self.hash(password).await?)
            }
            None => None,
        };
        let owner = Owner {
            id: AccountId::from_secret(&self.ports.secrets.secret()),
            email,
            role,
            password_hash,
            totp: None,
            totp_last_step: None,
            totp_pending: None,
            created: now,
        };
        match self.store().create_owner(&owner).await {
            Ok(()) => {}
            Err(OwnerWriteError::EmailTaken) => return Err(ManageOwnerError::EmailTaken),
            Err(other) => return Err(Unavailable::from(other).into()),
        }
        let link = match owner.password_hash {
            Some(_) => None,
            None => Some(self.issue_setup_link(&owner.id, now).await?),
        };
        Ok((owner, link))
    }

    async fn issue_setup_link(
        &self,
        account: &AccountId,
        now: Timestamp,
    ) -> Result<BearerToken, Unavailable> {
        let token = BearerToken::from_secret(&self.ports.secrets.secret());
        self.store()
            .save_setup_token(&SetupToken {
                token: token.digest(),
                account: account.clone(),
                expires_at: now.plus_seconds(SETUP_LINK_SECONDS),
            })
            .await?;
        Ok(token)
    }

    async fn existing(&self, email: &str) -> Result<Owner, ManageOwnerError> {
        let email = EmailAddress::parse(email)
            .map_err(|_| ManageOwnerError::InvalidEmail(email.to_owned()))?;
        self.store()
            .owner_by_email(&email)
            .await
            .map_err(Unavailable::from)?
            .ok_or(ManageOwnerError::UnknownOwner)
    }

    /// Every account, ordered by address.
    pub async fn list(&self) -> Result<Vec<Owner>, Unavailable> {
        Ok(self.store().owners().await?)
    }

    /// Removes the account with its sessions and keys.
    pub async fn remove(&self, email: &str) -> Result<Owner, ManageOwnerError> {
        let owner = self.existing(email).await?;
        self.store()
            .delete_owner(&owner.id)
            .await
            .map_err(Unavailable::from)?;
        Ok(owner)
    }

    /// Clears the account's password and second factor, ends its sessions and returns a
    /// new setup link: what an owner who lost either needs.
    pub async fn reset(
        &self,
        email: &str,
        now: Timestamp,
    ) -> Result<BearerToken, ManageOwnerError> {
        let owner = self.existing(email).await?;
        self.store()
            .update_owner(&Owner {
                password_hash: None,
                totp: None,
                totp_last_step: None,
                totp_pending: None,
                ..owner.clone()
            })
            .await
            .map_err(Unavailable::from)?;
        self.store()
            .delete_owner_sessions_of(&owner.id)
            .await
            .map_err(Unavailable::from)?;
        Ok(self.issue_setup_link(&owner.id, now).await?)
    }

    /// Turns the second factor on with a new secret, to be added to an authenticator app.
    pub async fn enable_totp(&self, email: &str) -> Result<(Owner, TotpSecret), ManageOwnerError> {
        let owner = self.existing(email).await?;
        let secret = TotpSecret::from_secret(&self.ports.secrets.secret());
        let owner = Owner {
            totp: Some(secret.clone()),
            totp_last_step: None,
            totp_pending: None,
            ..owner
        };
        self.store()
            .update_owner(&owner)
            .await
            .map_err(Unavailable::from)?;
        Ok((owner, secret))
    }

    /// The account a live setup link is for.
    pub async fn setup_owner(
        &self,
        token: &str,
        now: Timestamp,
    ) -> Result<Option<Owner>, Unavailable> {
        let Some(token) = BearerToken::parse(token) else {
            return Ok(None);
        };
        let Some(link) = self.store().setup_token(&token.digest(), now).await? else {
            return Ok(None);
        };
        Ok(self.store().owner(&link.account).await?)
    }

    /// Sets the password from a setup link and signs the owner in.
    pub async fn complete_setup(
        &self,
        token: &str,
        password: &str,
        user_agent: &str,
        now: Timestamp,
    ) -> Result<OwnerSignedIn, SetupError> {
        check_password(password).map_err(password_refusal)?;
        let token = BearerToken::parse(token).ok_or(SetupError::InvalidOrExpired)?;
        let link = self
            .store()
            .take_setup_token(&token.digest(), now)
            .await
            .map_err(Unavailable::from)?
            .ok_or(SetupError::InvalidOrExpired)?;
        let owner = self
            .store()
            .owner(&link.account)
            .await
            .map_err(Unavailable::from)?
            .ok_or(SetupError::InvalidOrExpired)?;
        let owner = Owner {
            password_hash: Some(self.hash(password).await?),
            ..owner
        };
        match self.store().update_owner(&owner).await {
            Ok(()) => {}
            Err(OwnerWriteError::UnknownOwner) => return Err(SetupError::InvalidOrExpired),
            Err(other) => return Err(Unavailable::from(other).into()),
        }
        Ok(self.start_session(owner, user_agent, now).await?)
    }

    async fn limit(
        &self,
        bucket: String,
        limit: RateLimit,
        now: Timestamp,
    ) -> Result<(), OwnerSignInError> {
        count_attempt(&*self.ports.limiter, &bucket, limit, now)
            .await
            .map_err(|hit| match hit {
                LimitHit::Over(after) => OwnerSignInError::RateLimited(after),
                LimitHit::Unavailable(error) => error.into(),
            })
    }

    /// Signs in: the limits first, then the password (a decoy's when the address has no
    /// account with one), then the second factor when the account has one.
    pub async fn sign_in(
        &self,
        email: &str,
        password: &str,
        code: Option<&str>,
        client: &str,
        user_agent: &str,
        now: Timestamp,
    ) -> Result<OwnerSignedIn, OwnerSignInError> {
        self.limit(
            format!("owner:sign-in:client:{client}"),
            self.limits.sign_ins_per_client,
            now,
        )
        .await?;
        let email = EmailAddress::parse(email).ok();
        if let Some(email) = &email {
            self.limit(
                format!("owner:sign-in:account:{email}"),
                self.limits.sign_ins_per_account,
                now,
            )
            .await?;
        }
        let owner = match &email {
            Some(email) => self
                .store()
                .owner_by_email(email)
                .await
                .map_err(Unavailable::from)?,
            None => None,
        };
        let stored = match owner.as_ref().and_then(|owner| owner.password_hash.clone()) {
            Some(hash) => hash,
            None => {
                self.decoy_hash
                    .get(&*self.ports.secrets, &*self.ports.passwords)
                    .await?
            }
        };
        let matches = self
            .ports
            .passwords
            .verify(password.to_owned(), stored)
            .await;
        let owner = match owner {
            Some(owner)
                if matches
                    && owner.password_hash.is_some()
                    && password.len() <= MAX_PASSWORD_BYTES =>
            {
                owner
            }
            _ => return Err(OwnerSignInError::InvalidCredentials),
        };
        let owner = self.check_second_factor(owner, code, now).await?;
        Ok(self.start_session(owner, user_agent, now).await?)
    }

    /// Accepts a code of the account's second factor once: the step it matched is kept, and
    /// a code of that step or an earlier one is refused after.
    async fn check_second_factor(
        &self,
        owner: Owner,
        code: Option<&str>,
        now: Timestamp,
    ) -> Result<Owner, OwnerSignInError> {
        let Some(secret) = &owner.totp else {
            return Ok(owner);
        };
        let code = code.map(str::trim).filter(|code| !code.is_empty());
        let Some(code) = code else {
            return Err(OwnerSignInError::SecondFactorRequired);
        };
        let step = secret
            .matching_step(code, now.millis() / 1000)
            .filter(|step| owner.totp_last_step.is_none_or(|last| *step > last))
            .ok_or(OwnerSignInError::InvalidSecondFactor)?;
        let owner = Owner {
            totp_last_step: Some(step),
            ..owner
        };
        self.store()
            .update_owner(&owner)
            .await
            .map_err(Unavailable::from)?;
        Ok(owner)
    }

    async fn start_session(
        &self,
        owner: Owner,
        user_agent: &str,
        now: Timestamp,
    ) -> Result<OwnerSignedIn, Unavailable> {
        let token = BearerToken::from_secret(&self.ports.secrets.secret());
        let session = OwnerSession {
            id: self.new_id(),
            token: token.digest(),
            account: owner.id.clone(),
            csrf_token: hex::encode(&self.ports.secrets.secret().0[..16]),
            created: now,
            expires_at: now.plus_seconds(OWNER_SESSION_SECONDS),
            user_agent: user_agent.chars().take(MAX_USER_AGENT).collect(),
        };
        self.store().create_owner_session(&session).await?;
        Ok(OwnerSignedIn {
            token,
            session,
            owner,
        })
    }

    /// The signed-in owner of a session cookie, if the session is live and the account
    /// exists.
    pub async fn viewer(
        &self,
        token: &str,
        now: Timestamp,
    ) -> Result<Option<OwnerViewer>, Unavailable> {
        let Some(token) = BearerToken::parse(token) else {
            return Ok(None);
        };
        let Some(session) = self.store().owner_session(&token.digest(), now).await? else {
            return Ok(None);
        };
        let Some(owner) = self.store().owner(&session.account).await? else {
            return Ok(None);
        };
        Ok(Some(OwnerViewer { session, owner }))
    }

    /// Ends one session of the account (signing out, or revoking another browser); `false`
    /// when it has no such session.
    pub async fn end_session(&self, account: &AccountId, id: &str) -> Result<bool, Unavailable> {
        Ok(self.store().delete_owner_session(account, id).await?)
    }

    /// The account's live sessions, newest first.
    pub async fn sessions(
        &self,
        account: &AccountId,
        now: Timestamp,
    ) -> Result<Vec<OwnerSession>, Unavailable> {
        Ok(self.store().owner_sessions_of(account, now).await?)
    }

    /// Issues an API key for the account, limited to `scopes`, each of which its role must
    /// hold.
    pub async fn create_api_key(
        &self,
        owner: &Owner,
        name: &str,
        scopes: &[PermissionCode],
        now: Timestamp,
    ) -> Result<IssuedApiKey, ApiKeyError> {
        let name = name.trim();
        if name.is_empty() || name.chars().count() > MAX_API_KEY_NAME {
            return Err(ApiKeyError::InvalidName);
        }
        if scopes.is_empty() {
            return Err(ApiKeyError::NoScopes);
        }
        if let Some(missing) = scopes
            .iter()
            .find(|scope| !role_permits(owner.role, **scope))
        {
            return Err(ApiKeyError::ScopeNotHeld(*missing));
        }
        let mut scopes = scopes.to_vec();
        scopes.sort();
        scopes.dedup();
        let token = BearerToken::from_secret(&self.ports.secrets.secret());
        let key = ApiKey {
            id: self.new_id(),
            token: token.digest(),
            account: owner.id.clone(),
            name: name.to_owned(),
            scopes,
            created: now,
        };
        self.store()
            .create_api_key(&key)
            .await
            .map_err(Unavailable::from)?;
        Ok(IssuedApiKey {
            secret: format!("{API_KEY_PREFIX}{}", token.as_str()),
            key,
        })
    }

    /// The account's keys, newest first.
    pub async fn api_keys(&self, account: &AccountId) -> Result<Vec<ApiKey>, Unavailable> {
        Ok(self.store().api_keys_of(account).await?)
    }

    pub async fn revoke_api_key(&self, account: &AccountId, id: &str) -> Result<bool, Unavailable> {
        Ok(self.store().delete_api_key(account, id).await?)
    }

    /// What a script's `Authorization: Bearer vk_...` may do; `None` for anything but a live
    /// key of an existing account.
    pub async fn key_access(&self, bearer: &str) -> Result<Option<OwnerAccess>, Unavailable> {
        let Some(token) = bearer
            .strip_prefix(API_KEY_PREFIX)
            .and_then(BearerToken::parse)
        else {
            return Ok(None);
        };
        let Some(key) = self.store().api_key(&token.digest()).await? else {
            return Ok(None);
        };
        let Some(owner) = self.store().owner(&key.account).await? else {
            return Ok(None);
        };
        Ok(Some(OwnerAccess::Key {
            role: owner.role,
            scopes: key.scopes,
        }))
    }
}
