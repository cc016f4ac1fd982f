//! The owner store on SQL: owner accounts, setup links, owner sessions and API keys.
//! Addresses are unique by a UNIQUE constraint (stored lowercased), and removing an account
//! cascades to its links, sessions and keys. Both backends share the statements
//! (`owner_statements.rs`) and, through a macro, the method bodies.

use std::fmt;

use sqlx::{PgPool, SqlitePool};
use vitrine_core::cart::Timestamp;
use vitrine_core::enums::{ContributorRole, PermissionCode};
use vitrine_core::owners::{ApiKey, Owner, OwnerSession, OwnerWriteError, SetupToken, TotpSecret};
use vitrine_core::people::{AccountId, EmailAddress, TokenDigest};
use vitrine_core::ports::RepositoryError;

/// The owner store of a SQLite database.
#[derive(Clone)]
pub struct SqliteOwnerStore {
    pool: SqlitePool,
}

/// The owner store of a PostgreSQL database.
#[derive(Clone)]
pub struct PostgresOwnerStore {
    pool: PgPool,
}

impl SqliteOwnerStore {
    pub(crate) fn new(pool: SqlitePool) -> Self {
        Self { pool }
    }
}

impl PostgresOwnerStore {
    pub(crate) fn new(pool: PgPool) -> Self {
        Self { pool }
    }
}

impl fmt::Debug for SqliteOwnerStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SqliteOwnerStore").finish_non_exhaustive()
    }
}

impl fmt::Debug for PostgresOwnerStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PostgresOwnerStore").finish_non_exhaustive()
    }
}

fn corrupt(what: &str, reason: impl ToString) -> RepositoryError {
    RepositoryError::Corrupt {
        what: what.to_owned(),
        reason: reason.to_string(),
    }
}

fn account_id(text: &str, what: &str) -> Result<AccountId, RepositoryError> {
    AccountId::parse(text).ok_or_else(|| corrupt(what, text))
}

#[derive(sqlx::FromRow)]
pub(crate) struct OwnerRow {
    id: String,
    email: String,
    role: i64,
    password_hash: Option<String>,
    totp_secret: Option<String>,
    totp_last_step: Option<i64>,
    totp_pending: Option<String>,
    created: i64,
}

impl OwnerRow {
    pub(crate) fn into_owner(self) -> Result<Owner, RepositoryError> {
        let role = u16::try_from(self.role)
            .ok()
            .and_then(|code| ContributorRole::from_code(code).ok())
            .ok_or_else(|| corrupt("an owner's role", self.role))?;
        let secret = |stored: &Option<String>| match stored {
            Some(text) => TotpSecret::from_stored(text)
                .map(Some)
                .ok_or_else(|| corrupt("an owner's second factor", "not 20 bytes of hex")),
            None => Ok(None),
        };
        let totp = secret(&self.totp_secret)?;
        let totp_pending = secret(&self.totp_pending)?;
        Ok(Owner {
            id: account_id(&self.id, "an owner id")?,
            email: EmailAddress::parse(&self.email)
                .map_err(|error| corrupt("an owner's address", error))?,
            role,
            password_hash: self.password_hash,
            totp,
            totp_last_step: self.totp_last_step,
            totp_pending,
            created: Timestamp(self.created),
        })
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct SetupRow {
    token: String,
    account_id: String,
    expires_at: i64,
}

impl SetupRow {
    pub(crate) fn into_setup_token(self) -> Result<SetupToken, RepositoryError> {
        Ok(SetupToken {
            account: account_id(&self.account_id, "a setup link's account")?,
            token: TokenDigest::from_stored(self.token),
            expires_at: Timestamp(self.expires_at),
        })
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct SessionRow {
    token: String,
    id: String,
    account_id: String,
    csrf_token: String,
    created: i64,
    expires_at: i64,
    user_agent: String,
}

impl SessionRow {
    pub(crate) fn into_session(self) -> Result<OwnerSession, RepositoryError> {
        Ok(OwnerSession {
            account: account_id(&self.account_id, "an owner session's account")?,
            id: self.id,
            token: TokenDigest::from_stored(self.token),
            csrf_token: self.csrf_token,
            created: Timestamp(self.created),
            expires_at: Timestamp(self.expires_at),
            user_agent: self.user_agent,
        })
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct KeyRow {
    token: String,
    id: String,
    account_id: String,
    name: String,
    scopes: String,
    created: i64,
}

impl KeyRow {
    pub(crate) fn into_key(self) -> Result<ApiKey, RepositoryError> {
        let codes: Vec<u16> = serde_json::from_str(&self.scopes)
            .map_err(|error| corrupt("an API key's scopes", error))?;
        let scopes = codes
            .into_iter()
            .map(PermissionCode::from_code)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|error| corrupt("an API key's scopes", error))?;
        Ok(ApiKey {
            account: account_id(&self.account_id, "an API key's account")?,
            id: self.id,
            token: TokenDigest::from_stored(self.token),
            name: self.name,
            scopes,
            created: Timestamp(self.created),
        })
    }
}

pub(crate) fn scopes_json(scopes: &[PermissionCode]) -> String {
    let codes: Vec<u16> = scopes.iter().map(|scope| scope.code()).collect();
    // A list of numbers always serialises.
    serde_json::to_string(&codes).unwrap_or_else(|_| "[]".to_owned())
}

pub(crate) fn role_code(role: ContributorRole) -> i64 {
    i64::from(role.code())
}

/// Translates a failed account write: a UNIQUE violation means the address is taken.
pub(crate) fn owner_write_error(
    doing: &'static str,
) -> impl FnOnce(sqlx::Error) -> OwnerWriteError {
    move |error| match error {
        sqlx::Error::Database(database) if database.is_unique_violation() => {
            OwnerWriteError::EmailTaken
        }
        other => crate::errors::repository_error(doing)(other).into(),
    }
}

fn rows<Row, Value>(
    rows: Vec<Row>,
    convert: impl Fn(Row) -> Result<Value, RepositoryError>,
) -> Result<Vec<Value>, RepositoryError> {
    rows.into_iter().map(convert).collect()
}

pub(crate) fn owners(rows_read: Vec<OwnerRow>) -> Result<Vec<Owner>, RepositoryError> {
    rows(rows_read, OwnerRow::into_owner)
}

pub(crate) fn sessions(rows_read: Vec<SessionRow>) -> Result<Vec<OwnerSession>, RepositoryError> {
    rows(rows_read, SessionRow::into_session)
}

pub(crate) fn keys(rows_read: Vec<KeyRow>) -> Result<Vec<ApiKey>, RepositoryError> {
    rows(rows_read, KeyRow::into_key)
}

macro_rules! sql_owner_store {
    ($store:ty) => {
        #[async_trait::async_trait]
        impl vitrine_core::owners::OwnerStore for $store {
            async fn create_owner(
                &self,
                owner: &vitrine_core::owners::Owner,
            ) -> Result<(), vitrine_core::owners::OwnerWriteError> {
                sqlx::query($crate::owner_statements::CREATE_OWNER)
                    .bind(owner.id.as_str())
                    .bind(owner.email.as_str())
                    .bind($crate::owner_store::role_code(owner.role))
                    .bind(owner.password_hash.as_deref())
                    .bind(owner.totp.as_ref().map(|totp| totp.to_stored()))
                    .bind(owner.totp_last_step)
                    .bind(owner.totp_pending.as_ref().map(|totp| totp.to_stored()))
                    .bind(owner.created.millis())
                    .execute(&self.pool)
                    .await
                    .map_err($crate::owner_store::owner_write_error("creating an owner"))?;
                Ok(())
            }

            async fn owner(
                &self,
                id: &vitrine_core::people::AccountId,
            ) -> Result<Option<vitrine_core::owners::Owner>, vitrine_core::ports::RepositoryError>
            {
                let row: Option<$crate::owner_store::OwnerRow> =
                    sqlx::query_as($crate::owner_statements::OWNER_BY_ID)
                        .bind(id.as_str())
                        .fetch_optional(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error("reading an owner"))?;
                row.map($crate::owner_store::OwnerRow::into_owner).transpose()
            }

            async fn owner_by_email(
                &self,
                email: &vitrine_core::people::EmailAddress,
            ) -> Result<Option<vitrine_core::owners::Owner>, vitrine_core::ports::RepositoryError>
            {
                let row: Option<$crate::owner_store::OwnerRow> =
                    sqlx::query_as($crate::owner_statements::OWNER_BY_EMAIL)
                        .bind(email.as_str())
                        .fetch_optional(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error("finding an owner"))?;
                row.map($crate::owner_store::OwnerRow::into_owner).transpose()
            }

            async fn owners(
                &self,
            ) -> Result<Vec<vitrine_core::owners::Owner>, vitrine_core::ports::RepositoryError>
            {
                let rows = sqlx::query_as($crate::owner_statements::OWNERS)
                    .fetch_all(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("listing owners"))?;
                $crate::owner_store::owners(rows)
            }

            async fn update_owner(
                &self,
                owner: &vitrine_core::owners::Owner,
            ) -> Result<(), vitrine_core::owners::OwnerWriteError> {
                let done = sqlx::query($crate::owner_statements::UPDATE_OWNER)
                    .bind(owner.id.as_str())
                    .bind($crate::owner_store::role_code(owner.role))
                    .bind(owner.password_hash.as_deref())
                    .bind(owner.totp.as_ref().map(|totp| totp.to_stored()))
                    .bind(owner.totp_last_step)
                    .bind(owner.totp_pending.as_ref().map(|totp| totp.to_stored()))
                    .execute(&self.pool)
                    .await
                    .map_err($crate::owner_store::owner_write_error("updating an owner"))?;
                if done.rows_affected() == 0 {
                    return Err(vitrine_core::owners::OwnerWriteError::UnknownOwner);
                }
                Ok(())
            }

            async fn delete_owner(
                &self,
                id: &vitrine_core::people::AccountId,
            ) -> Result<bool, vitrine_core::ports::RepositoryError> {
                let done = sqlx::query($crate::owner_statements::DELETE_OWNER)
                    .bind(id.as_str())
                    .execute(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("removing an owner"))?;
                Ok(done.rows_affected() > 0)
            }

            async fn save_setup_token(
                &self,
                token: &vitrine_core::owners::SetupToken,
            ) -> Result<(), vitrine_core::ports::RepositoryError> {
                sqlx::query($crate::owner_statements::SAVE_SETUP_TOKEN)
                    .bind(token.token.as_str())
                    .bind(token.account.as_str())
                    .bind(token.expires_at.millis())
                    .execute(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("saving a setup link"))?;
                Ok(())
            }

            async fn take_setup_token(
                &self,
                token: &vitrine_core::people::TokenDigest,
                now: vitrine_core::cart::Timestamp,
            ) -> Result<Option<vitrine_core::owners::SetupToken>, vitrine_core::ports::RepositoryError>
            {
                let row: Option<$crate::owner_store::SetupRow> =
                    sqlx::query_as($crate::owner_statements::TAKE_SETUP_TOKEN)
                        .bind(token.as_str())
                        .fetch_optional(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error("taking a setup link"))?;
                Ok(row
                    .map($crate::owner_store::SetupRow::into_setup_token)
                    .transpose()?
                    .filter(|taken| now < taken.expires_at))
            }

            async fn setup_token(
                &self,
                token: &vitrine_core::people::TokenDigest,
                now: vitrine_core::cart::Timestamp,
            ) -> Result<Option<vitrine_core::owners::SetupToken>, vitrine_core::ports::RepositoryError>
            {
                let row: Option<$crate::owner_store::SetupRow> =
                    sqlx::query_as($crate::owner_statements::SETUP_TOKEN)
                        .bind(token.as_str())
                        .bind(now.millis())
                        .fetch_optional(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error("reading a setup link"))?;
                row.map($crate::owner_store::SetupRow::into_setup_token)
                    .transpose()
            }

            async fn create_owner_session(
                &self,
                session: &vitrine_core::owners::OwnerSession,
            ) -> Result<(), vitrine_core::ports::RepositoryError> {
                sqlx::query($crate::owner_statements::CREATE_SESSION)
                    .bind(session.token.as_str())
                    .bind(&session.id)
                    .bind(session.account.as_str())
                    .bind(&session.csrf_token)
                    .bind(session.created.millis())
                    .bind(session.expires_at.millis())
                    .bind(&session.user_agent)
                    .execute(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("starting an owner session"))?;
                Ok(())
            }

            async fn owner_session(
                &self,
                token: &vitrine_core::people::TokenDigest,
                now: vitrine_core::cart::Timestamp,
            ) -> Result<Option<vitrine_core::owners::OwnerSession>, vitrine_core::ports::RepositoryError>
            {
                let row: Option<$crate::owner_store::SessionRow> =
                    sqlx::query_as($crate::owner_statements::SESSION)
                        .bind(token.as_str())
                        .fetch_optional(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error("reading an owner session"))?;
                let Some(session) = row
                    .map($crate::owner_store::SessionRow::into_session)
                    .transpose()?
                else {
                    return Ok(None);
                };
                if session.is_live(now) {
                    return Ok(Some(session));
                }
                sqlx::query($crate::owner_statements::DELETE_SESSION_BY_TOKEN)
                    .bind(token.as_str())
                    .execute(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("ending an expired owner session"))?;
                Ok(None)
            }

            async fn owner_sessions_of(
                &self,
                account: &vitrine_core::people::AccountId,
                now: vitrine_core::cart::Timestamp,
            ) -> Result<Vec<vitrine_core::owners::OwnerSession>, vitrine_core::ports::RepositoryError>
            {
                let rows = sqlx::query_as($crate::owner_statements::SESSIONS_OF)
                    .bind(account.as_str())
                    .bind(now.millis())
                    .fetch_all(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("listing owner sessions"))?;
                $crate::owner_store::sessions(rows)
            }

            async fn delete_owner_session(
                &self,
                account: &vitrine_core::people::AccountId,
                id: &str,
            ) -> Result<bool, vitrine_core::ports::RepositoryError> {
                let done = sqlx::query($crate::owner_statements::DELETE_SESSION)
                    .bind(account.as_str())
                    .bind(id)
                    .execute(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("ending an owner session"))?;
                Ok(done.rows_affected() > 0)
            }

            async fn delete_owner_sessions_of(
                &self,
                account: &vitrine_core::people::AccountId,
            ) -> Result<u64, vitrine_core::ports::RepositoryError> {
                let done = sqlx::query($crate::owner_statements::DELETE_SESSIONS_OF)
                    .bind(account.as_str())
                    .execute(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("ending owner sessions"))?;
                Ok(done.rows_affected())
            }

            async fn create_api_key(
                &self,
                key: &vitrine_core::owners::ApiKey,
            ) -> Result<(), vitrine_core::ports::RepositoryError> {
                sqlx::query($crate::owner_statements::CREATE_KEY)
                    .bind(key.token.as_str())
                    .bind(&key.id)
                    .bind(key.account.as_str())
                    .bind(&key.name)
                    .bind($crate::owner_store::scopes_json(&key.scopes))
                    .bind(key.created.millis())
                    .execute(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("issuing an API key"))?;
                Ok(())
            }

            async fn api_key(
                &self,
                token: &vitrine_core::people::TokenDigest,
            ) -> Result<Option<vitrine_core::owners::ApiKey>, vitrine_core::ports::RepositoryError>
            {
                let row: Option<$crate::owner_store::KeyRow> =
                    sqlx::query_as($crate::owner_statements::KEY)
                        .bind(token.as_str())
                        .fetch_optional(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error("reading an API key"))?;
                row.map($crate::owner_store::KeyRow::into_key).transpose()
            }

            async fn api_keys_of(
                &self,
                account: &vitrine_core::people::AccountId,
            ) -> Result<Vec<vitrine_core::owners::ApiKey>, vitrine_core::ports::RepositoryError>
            {
                let rows = sqlx::query_as($crate::owner_statements::KEYS_OF)
                    .bind(account.as_str())
                    .fetch_all(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("listing API keys"))?;
                $crate::owner_store::keys(rows)
            }

            async fn delete_api_key(
                &self,
                account: &vitrine_core::people::AccountId,
                id: &str,
            ) -> Result<bool, vitrine_core::ports::RepositoryError> {
                let done = sqlx::query($crate::owner_statements::DELETE_KEY)
                    .bind(account.as_str())
                    .bind(id)
                    .execute(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("revoking an API key"))?;
                Ok(done.rows_affected() > 0)
            }
        }
    };
}

sql_owner_store!(SqliteOwnerStore);
sql_owner_store!(PostgresOwnerStore);
