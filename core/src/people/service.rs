//! The people service: sign-up with a confirmed address, sign-in and sign-out, password reset,
//! email change and sign out everywhere (account deletion is in `erasure`). It never tells a
//! visitor whether an address has an account: sign-up and reset answer the same either way,
//! and a sign-in for an unknown address still spends one password verification, so its
//! timing matches.

use std::sync::{Arc, OnceLock};

use async_trait::async_trait;

use super::erasure::PersonalRecords;
use super::mails::{
    already_registered_mail, change_email_mail, confirm_account_mail, reset_password_mail,
};
use super::model::{
    Account, AccountId, AccountToken, BROWSER_SESSION_SECONDS, BearerToken, EmailAddress,
    REMEMBER_ME_SECONDS, SecretSource, Session, TokenPurpose,
};
use super::password::{MAX_PASSWORD_BYTES, MIN_PASSWORD_LENGTH, PasswordError, PasswordHasher};
use super::store::{AccountWriteError, PeopleStore};
use crate::cart::Timestamp;
use crate::forms::{DeliveryOutbox, RateLimit, RateLimiter, SiteLinks};
use crate::ports::RepositoryError;

/// How long a mailed confirmation link works.
pub const CONFIRM_TOKEN_SECONDS: i64 = 7 * 24 * 60 * 60;
/// How long a password reset link works.
pub const RESET_TOKEN_SECONDS: i64 = 60 * 60;
/// How long an email change link works.
pub const CHANGE_EMAIL_TOKEN_SECONDS: i64 = 24 * 60 * 60;

/// Hashing and verifying passwords. The core's [`PasswordHasher`] does it inline; the server
/// moves the work off its async workers, since one argon2id hash takes tens of milliseconds.
#[async_trait]
pub trait Passwords: Send + Sync {
    async fn hash(&self, password: String, salt: [u8; 16]) -> Result<String, PasswordError>;
    async fn verify(&self, password: String, stored: String) -> bool;
}

#[async_trait]
impl Passwords for PasswordHasher {
    async fn hash(&self, password: String, salt: [u8; 16]) -> Result<String, PasswordError> {
        PasswordHasher::hash(self, &password, &salt)
    }

    async fn verify(&self, password: String, stored: String) -> bool {
        PasswordHasher::verify(self, &password, &stored)
    }
}

/// Attempt limits, counted through the rate-limit port so that several servers share them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PeopleLimits {
    /// Sign-in attempts per account (by address typed).
    pub sign_ins_per_account: RateLimit,
    /// Sign-in attempts per client address.
    pub sign_ins_per_client: RateLimit,
    /// Sign-ups, reset and change requests per client address.
    pub mails_per_client: RateLimit,
    /// Reset requests per account, so nobody floods one inbox.
    pub mails_per_account: RateLimit,
}

impl Default for PeopleLimits {
    fn default() -> Self {
        let per_quarter_hour = |max| RateLimit {
            max,
            window_seconds: 15 * 60,
        };
        Self {
            sign_ins_per_account: per_quarter_hour(10),
            sign_ins_per_client: per_quarter_hour(50),
            mails_per_client: per_quarter_hour(10),
            mails_per_account: per_quarter_hour(3),
        }
    }
}

/// A refusal because too many attempts were made; retry after this many seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryAfter(pub i64);

#[derive(Debug, thiserror::Error)]
pub enum SignUpError {
    #[error("Please enter a valid email")]
    InvalidEmail,
    #[error("Your password must have at least {MIN_PASSWORD_LENGTH} characters.")]
    PasswordTooShort,
    #[error("Your password is too long.")]
    PasswordTooLong,
    #[error("Too many attempts. Please try again later.")]
    RateLimited(RetryAfter),
    #[error(transparent)]
    Unavailable(#[from] Unavailable),
}

#[derive(Debug, thiserror::Error)]
pub enum SignInError {
    #[error("The email or password is incorrect.")]
    InvalidCredentials,
    /// Only said to someone who knew the password.
    #[error("Please confirm your email address first: follow the link we sent you.")]
    Unconfirmed,
    #[error("Too many sign-in attempts. Please try again later.")]
    RateLimited(RetryAfter),
    #[error(transparent)]
    Unavailable(#[from] Unavailable),
}

#[derive(Debug, thiserror::Error)]
pub enum TokenError {
    #[error("This link is invalid or has expired.")]
    InvalidOrExpired,
    #[error("This email address is already in use.")]
    EmailTaken,
    #[error("Your password must have at least {MIN_PASSWORD_LENGTH} characters.")]
    PasswordTooShort,
    #[error("Your password is too long.")]
    PasswordTooLong,
    #[error(transparent)]
    Unavailable(#[from] Unavailable),
}

#[derive(Debug, thiserror::Error)]
pub enum MailRequestError {
    #[error("Please enter a valid email")]
    InvalidEmail,
    #[error("Too many attempts. Please try again later.")]
    RateLimited(RetryAfter),
    #[error(transparent)]
    Unavailable(#[from] Unavailable),
}

/// A store, the outbox or the hasher failed; the visitor sees a generic message.
#[derive(Debug, thiserror::Error)]
#[error("site users are unavailable: {0}")]
pub struct Unavailable(pub String);

impl From<RepositoryError> for Unavailable {
    fn from(error: RepositoryError) -> Self {
        Self(error.to_string())
    }
}

impl From<PasswordError> for Unavailable {
    fn from(error: PasswordError) -> Self {
        Self(error.to_string())
    }
}

impl From<AccountWriteError> for Unavailable {
    fn from(error: AccountWriteError) -> Self {
        Self(error.to_string())
    }
}

/// A new session: the cookie's token (never stored) and the session as stored.
#[derive(Debug, Clone)]
pub struct SignedIn {
    pub token: BearerToken,
    pub session: Session,
}

/// A live session with its account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Viewer {
    pub session: Session,
    pub account: Account,
}

pub struct PeopleService {
    pub(super) store: Arc<dyn PeopleStore>,
    pub(super) outbox: Arc<dyn DeliveryOutbox>,
    limiter: Arc<dyn RateLimiter>,
    secrets: Arc<dyn SecretSource>,
    pub(super) passwords: Arc<dyn Passwords>,
    links: SiteLinks,
    pub(super) limits: PeopleLimits,
    /// A hash nobody's password matches, verified when the address has no account.
    decoy_hash: DecoyHash,
    /// What deleting an account erases besides the account.
    pub(super) records: PersonalRecords,
}

/// What the service is built from.
pub struct PeoplePorts {
    pub store: Arc<dyn PeopleStore>,
    pub outbox: Arc<dyn DeliveryOutbox>,
    pub limiter: Arc<dyn RateLimiter>,
    pub secrets: Arc<dyn SecretSource>,
    pub passwords: Arc<dyn Passwords>,
    pub records: PersonalRecords,
}

/// Whether a new password is long enough and not too long to hash.
pub(crate) fn check_password(password: &str) -> Result<(), TokenError> {
    if password.chars().count() < MIN_PASSWORD_LENGTH {
        Err(TokenError::PasswordTooShort)
    } else if password.len() > MAX_PASSWORD_BYTES {
        Err(TokenError::PasswordTooLong)
    } else {
        Ok(())
    }
}

impl PeopleService {
    pub fn new(ports: PeoplePorts, links: SiteLinks, limits: PeopleLimits) -> Self {
        Self {
            store: ports.store,
            outbox: ports.outbox,
            limiter: ports.limiter,
            secrets: ports.secrets,
            passwords: ports.passwords,
            links,
            limits,
            decoy_hash: DecoyHash::default(),
            records: ports.records,
        }
    }

    async fn decoy_hash(&self) -> Result<String, Unavailable> {
        self.decoy_hash.get(&*self.secrets, &*self.passwords).await
    }

    fn salt(&self) -> [u8; 16] {
        salt_from(&*self.secrets)
    }

    pub(super) async fn limit(
        &self,
        bucket: String,
        limit: RateLimit,
        now: Timestamp,
    ) -> Result<(), LimitHit> {
        count_attempt(&*self.limiter, &bucket, limit, now).await
    }

    /// Counts a request that sends a mail against the client's limit and, given an address
    /// that may have an account, against that address's.
    async fn limit_mails(
        &self,
        email: Option<&EmailAddress>,
        client: &str,
        now: Timestamp,
    ) -> Result<(), LimitHit> {
        self.limit(
            format!("people:mail:client:{client}"),
            self.limits.mails_per_client,
            now,
        )
        .await?;
        if let Some(email) = email {
            self.limit(
                format!("people:mail:account:{email}"),
                self.limits.mails_per_account,
                now,
            )
            .await?;
        }
        Ok(())
    }

    /// Issues a mailed token for `account`; the token to put in the link.
    async fn issue_token(
        &self,
        account: &AccountId,
        purpose: TokenPurpose,
        lifetime_seconds: i64,
        now: Timestamp,
    ) -> Result<BearerToken, Unavailable> {
        let token = BearerToken::from_secret(&self.secrets.secret());
        self.store
            .save_token(&AccountToken {
                token: token.digest(),
                account: account.clone(),
                purpose,
                expires_at: now.plus_seconds(lifetime_seconds),
            })
            .await?;
        Ok(token)
    }

    /// Creates an unconfirmed account and mails its confirmation link. When the address has
    /// an account, that address gets a note instead: the answer is the same.
    pub async fn sign_up(
        &self,
        email: &str,
        password: &str,
        client: &str,
        now: Timestamp,
    ) -> Result<(), SignUpError> {
        let email = EmailAddress::parse(email).map_err(|_| SignUpError::InvalidEmail)?;
        check_password(password).map_err(|error| match error {
            TokenError::PasswordTooLong => SignUpError::PasswordTooLong,
            _ => SignUpError::PasswordTooShort,
        })?;
        self.limit_mails(Some(&email), client, now)
            .await
            .map_err(LimitHit::into_sign_up)?;
        // Hashed before looking the address up, so both paths take the same time.
        let password_hash = self
            .passwords
            .hash(password.to_owned(), self.salt())
            .await
            .map_err(Unavailable::from)?;
        let account = Account {
            id: AccountId::from_secret(&self.secrets.secret()),
            email: email.clone(),
            password_hash,
            confirmed_at: None,
            created: now,
            member_areas: Vec::new(),
        };
        let mail = match self.store.create_account(&account).await {
            Ok(()) => {
                let token = self
                    .issue_token(
                        &account.id,
                        TokenPurpose::ConfirmEmail,
                        CONFIRM_TOKEN_SECONDS,
                        now,
                    )
                    .await?;
                confirm_account_mail(&email, token.as_str(), &self.links)
            }
            Err(AccountWriteError::EmailTaken) => already_registered_mail(&email, &self.links),
            Err(other) => return Err(Unavailable::from(other).into()),
        };
        self.outbox
            .enqueue_mail(&mail, now.millis())
            .await
            .map_err(Unavailable::from)?;
        Ok(())
    }

    /// Confirms the address of a new account from its mailed link.
    pub async fn confirm_account(
        &self,
        token: &str,
        now: Timestamp,
    ) -> Result<AccountId, TokenError> {
        let account = self
            .take(token, now, |purpose| {
                matches!(purpose, TokenPurpose::ConfirmEmail)
            })
            .await?;
        match self.store.confirm_email(&account.account, now).await {
            Ok(()) => Ok(account.account),
            Err(AccountWriteError::UnknownAccount) => Err(TokenError::InvalidOrExpired),
            Err(other) => Err(Unavailable::from(other).into()),
        }
    }

    /// Takes a mailed token of the expected purpose.
    async fn take(
        &self,
        token: &str,
        now: Timestamp,
        expected: impl Fn(&TokenPurpose) -> bool,
    ) -> Result<AccountToken, TokenError> {
        let token = BearerToken::parse(token).ok_or(TokenError::InvalidOrExpired)?;
        let taken = self
            .store
            .take_token(&token.digest(), now)
            .await
            .map_err(Unavailable::from)?;
        taken
            .filter(|taken| expected(&taken.purpose))
            .ok_or(TokenError::InvalidOrExpired)
    }

    /// Signs in: checks the limits, then the password (a decoy's when the address has no
    /// account), and starts a new session, ending `previous` (the session is rotated).
    pub async fn sign_in(
        &self,
        email: &str,
        password: &str,
        remember_me: bool,
        previous: Option<&BearerToken>,
        client: &str,
        now: Timestamp,
    ) -> Result<SignedIn, SignInError> {
        self.limit(
            format!("people:sign-in:client:{client}"),
            self.limits.sign_ins_per_client,
            now,
        )
        .await
        .map_err(LimitHit::into_sign_in)?;
        let email = EmailAddress::parse(email).ok();
        if let Some(email) = &email {
            self.limit(
                format!("people:sign-in:account:{email}"),
                self.limits.sign_ins_per_account,
                now,
            )
            .await
            .map_err(LimitHit::into_sign_in)?;
        }
        let account = match &email {
            Some(email) => self
                .store
                .account_by_email(email)
                .await
                .map_err(Unavailable::from)?,
            None => None,
        };
        let stored = match &account {
            Some(account) => account.password_hash.clone(),
            None => self.decoy_hash().await?,
        };
        let matches = self.passwords.verify(password.to_owned(), stored).await;
        let account = match account {
            Some(account) if matches && password.len() <= MAX_PASSWORD_BYTES => account,
            _ => return Err(SignInError::InvalidCredentials),
        };
        if !account.is_confirmed() {
            return Err(SignInError::Unconfirmed);
        }
        if let Some(previous) = previous {
            self.store
                .delete_session(&previous.digest())
                .await
                .map_err(Unavailable::from)?;
        }
        Ok(self.start_session(&account.id, remember_me, now).await?)
    }

    async fn start_session(
        &self,
        account: &AccountId,
        remember_me: bool,
        now: Timestamp,
    ) -> Result<SignedIn, Unavailable> {
        let token = BearerToken::from_secret(&self.secrets.secret());
        let lifetime = if remember_me {
            REMEMBER_ME_SECONDS
        } else {
            BROWSER_SESSION_SECONDS
        };
        let session = Session {
            token: token.digest(),
            account: account.clone(),
            xsrf_token: hex_of(&self.secrets.secret().0[..16]),
            created: now,
            expires_at: now.plus_seconds(lifetime),
            remember_me,
        };
        self.store.create_session(&session).await?;
        Ok(SignedIn { token, session })
    }

    /// The signed-in viewer of a session cookie, if it is live and its account exists.
    pub async fn viewer(&self, token: &str, now: Timestamp) -> Result<Option<Viewer>, Unavailable> {
        let Some(token) = BearerToken::parse(token) else {
            return Ok(None);
        };
        let Some(session) = self.store.session(&token.digest(), now).await? else {
            return Ok(None);
        };
        let Some(account) = self.store.account(&session.account).await? else {
            return Ok(None);
        };
        Ok(Some(Viewer { session, account }))
    }

    /// Ends the session of a cookie.
    pub async fn sign_out(&self, token: &str) -> Result<(), Unavailable> {
        if let Some(token) = BearerToken::parse(token) {
            self.store.delete_session(&token.digest()).await?;
        }
        Ok(())
    }

    /// Ends a session already looked up (signing out with the XSRF token checked).
    pub async fn sign_out_session(&self, session: &Session) -> Result<(), Unavailable> {
        self.store.delete_session(&session.token).await?;
        Ok(())
    }

    /// Ends every session of the account; the number ended.
    pub async fn sign_out_everywhere(&self, account: &AccountId) -> Result<u64, Unavailable> {
        Ok(self.store.delete_sessions_of(account).await?)
    }

    /// Mails a reset link when the address has an account; answers the same when not.
    pub async fn request_password_reset(
        &self,
        email: &str,
        client: &str,
        now: Timestamp,
    ) -> Result<(), MailRequestError> {
        let email = EmailAddress::parse(email).map_err(|_| MailRequestError::InvalidEmail)?;
        self.limit_mails(Some(&email), client, now)
            .await
            .map_err(LimitHit::into_mail_request)?;
        let Some(account) = self
            .store
            .account_by_email(&email)
            .await
            .map_err(Unavailable::from)?
        else {
            return Ok(());
        };
        let token = self
            .issue_token(
                &account.id,
                TokenPurpose::ResetPassword,
                RESET_TOKEN_SECONDS,
                now,
            )
            .await?;
        self.outbox
            .enqueue_mail(
                &reset_password_mail(&email, token.as_str(), &self.links),
                now.millis(),
            )
            .await
            .map_err(Unavailable::from)?;
        Ok(())
    }

    /// Sets a new password from a reset link and ends every session of the account. The
    /// address counts as confirmed: its owner followed a link mailed to it.
    pub async fn reset_password(
        &self,
        token: &str,
        password: &str,
        now: Timestamp,
    ) -> Result<AccountId, TokenError> {
        check_password(password)?;
        let taken = self
            .take(token, now, |purpose| {
                matches!(purpose, TokenPurpose::ResetPassword)
            })
            .await?;
        let hash = self
            .passwords
            .hash(password.to_owned(), self.salt())
            .await
            .map_err(Unavailable::from)?;
        match self.store.set_password(&taken.account, &hash).await {
            Ok(()) => {}
            Err(AccountWriteError::UnknownAccount) => return Err(TokenError::InvalidOrExpired),
            Err(other) => return Err(Unavailable::from(other).into()),
        }
        self.store
            .confirm_email(&taken.account, now)
            .await
            .map_err(Unavailable::from)?;
        self.store
            .delete_sessions_of(&taken.account)
            .await
            .map_err(Unavailable::from)?;
        Ok(taken.account)
    }

    /// Mails a link to `new_email` that moves the signed-in account there.
    pub async fn request_email_change(
        &self,
        account: &AccountId,
        new_email: &str,
        client: &str,
        now: Timestamp,
    ) -> Result<(), MailRequestError> {
        let email = EmailAddress::parse(new_email).map_err(|_| MailRequestError::InvalidEmail)?;
        self.limit_mails(None, client, now)
            .await
            .map_err(LimitHit::into_mail_request)?;
        let token = self
            .issue_token(
                account,
                TokenPurpose::ChangeEmail(email.clone()),
                CHANGE_EMAIL_TOKEN_SECONDS,
                now,
            )
            .await?;
        self.outbox
            .enqueue_mail(
                &change_email_mail(&email, token.as_str(), &self.links),
                now.millis(),
            )
            .await
            .map_err(Unavailable::from)?;
        Ok(())
    }

    /// Moves the account to the address its link was mailed to; other sessions end, since
    /// a change of address is a change of who may sign in.
    pub async fn confirm_email_change(
        &self,
        token: &str,
        now: Timestamp,
    ) -> Result<AccountId, TokenError> {
        let taken = self
            .take(token, now, |purpose| {
                matches!(purpose, TokenPurpose::ChangeEmail(_))
            })
            .await?;
        let Some(email) = taken.purpose.new_email() else {
            return Err(TokenError::InvalidOrExpired);
        };
        match self.store.change_email(&taken.account, email, now).await {
            Ok(()) => Ok(taken.account),
            Err(AccountWriteError::EmailTaken) => Err(TokenError::EmailTaken),
            Err(AccountWriteError::UnknownAccount) => Err(TokenError::InvalidOrExpired),
            Err(AccountWriteError::Store(error)) => Err(Unavailable::from(error).into()),
        }
    }
}

fn hex_of(bytes: &[u8]) -> String {
    hex::encode(bytes)
}

/// A hash nobody's password matches, verified when an address has no account (or none with
/// a password), so a sign-in takes as long either way. Made on first need with the
/// configured cost; two callers racing both make one, and either is as good. The owner
/// area's sign-in shares it.
#[derive(Default)]
pub(crate) struct DecoyHash(OnceLock<String>);

impl DecoyHash {
    pub(crate) async fn get(
        &self,
        secrets: &dyn SecretSource,
        passwords: &dyn Passwords,
    ) -> Result<String, Unavailable> {
        if let Some(hash) = self.0.get() {
            return Ok(hash.clone());
        }
        let password = hex_of(&secrets.secret().0);
        let hash = passwords.hash(password, salt_from(secrets)).await?;
        Ok(self.0.get_or_init(|| hash).clone())
    }
}

/// A fresh 16-byte salt.
pub(crate) fn salt_from(secrets: &dyn SecretSource) -> [u8; 16] {
    let secret = secrets.secret();
    let mut salt = [0; 16];
    salt.copy_from_slice(&secret.0[..16]);
    salt
}

/// Counts one attempt in `bucket`; refused with the seconds to wait once `limit` is spent.
pub(crate) async fn count_attempt(
    limiter: &dyn RateLimiter,
    bucket: &str,
    limit: RateLimit,
    now: Timestamp,
) -> Result<(), LimitHit> {
    let decision = limiter
        .hit(bucket, limit, now.millis() / 1000)
        .await
        .map_err(|error| LimitHit::Unavailable(error.into()))?;
    if decision.allowed {
        Ok(())
    } else {
        Err(LimitHit::Over(RetryAfter(decision.reset_after.max(1))))
    }
}

/// A rate limit reached, or the limiter unreachable.
pub(crate) enum LimitHit {
    Over(RetryAfter),
    Unavailable(Unavailable),
}

impl LimitHit {
    fn into_sign_up(self) -> SignUpError {
        match self {
            Self::Over(after) => SignUpError::RateLimited(after),
            Self::Unavailable(error) => error.into(),
        }
    }

    fn into_sign_in(self) -> SignInError {
        match self {
            Self::Over(after) => SignInError::RateLimited(after),
            Self::Unavailable(error) => error.into(),
        }
    }

    fn into_mail_request(self) -> MailRequestError {
        match self {
            Self::Over(after) => MailRequestError::RateLimited(after),
            Self::Unavailable(error) => error.into(),
        }
    }
}
