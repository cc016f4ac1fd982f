//! The people store on SQL: site-user accounts, mailed tokens, sessions and their saved data.
//! Addresses are unique by a UNIQUE constraint (stored lowercased), and deleting an account
//! cascades to its tokens, sessions and data. Both backends share the statements and, through
//! a macro, the method bodies.

use std::fmt;

use sqlx::{PgPool, SqlitePool};
use vitrine_core::cart::Timestamp;
use vitrine_core::people::{
    Account, AccountId, AccountToken, EmailAddress, Session, TokenDigest, TokenPurpose,
};
use vitrine_core::ports::RepositoryError;

/// The people store of a SQLite database.
#[derive(Clone)]
pub struct SqlitePeopleStore {
    pool: SqlitePool,
}

/// The people store of a PostgreSQL database.
#[derive(Clone)]
pub struct PostgresPeopleStore {
    pool: PgPool,
}

impl SqlitePeopleStore {
    pub(crate) fn new(pool: SqlitePool) -> Self {
        Self { pool }
    }
}

impl PostgresPeopleStore {
    pub(crate) fn new(pool: PgPool) -> Self {
        Self { pool }
    }
}

impl fmt::Debug for SqlitePeopleStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SqlitePeopleStore").finish_non_exhaustive()
    }
}

impl fmt::Debug for PostgresPeopleStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PostgresPeopleStore")
            .finish_non_exhaustive()
    }
}

pub(crate) fn corrupt(what: &str, reason: impl ToString) -> RepositoryError {
    RepositoryError::Corrupt {
        what: what.to_owned(),
        reason: reason.to_string(),
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct AccountRow {
    id: String,
    email: String,
    password_hash: String,
    confirmed_at: Option<i64>,
    created: i64,
    member_areas: String,
}

impl AccountRow {
    pub(crate) fn into_account(self) -> Result<Account, RepositoryError> {
        Ok(Account {
            id: AccountId::parse(&self.id).ok_or_else(|| corrupt("an account id", &self.id))?,
            email: EmailAddress::parse(&self.email)
                .map_err(|error| corrupt("an account's address", error))?,
            password_hash: self.password_hash,
            confirmed_at: self.confirmed_at.map(Timestamp),
            created: Timestamp(self.created),
            member_areas: serde_json::from_str(&self.member_areas)
                .map_err(|error| corrupt("an account's member areas", error))?,
        })
    }
}

pub(crate) fn member_areas_json(member_areas: &[String]) -> String {
    // A list of strings always serialises.
    serde_json::to_string(member_areas).unwrap_or_else(|_| "[]".to_owned())
}

#[derive(sqlx::FromRow)]
pub(crate) struct TokenRow {
    token: String,
    account_id: String,
    kind: String,
    new_email: Option<String>,
    expires_at: i64,
}

impl TokenRow {
    pub(crate) fn into_token(self) -> Result<AccountToken, RepositoryError> {
        Ok(AccountToken {
            purpose: TokenPurpose::from_stored(&self.kind, self.new_email.as_deref())
                .ok_or_else(|| corrupt("a mailed token's purpose", &self.kind))?,
            token: TokenDigest::from_stored(self.token),
            account: AccountId::parse(&self.account_id)
                .ok_or_else(|| corrupt("a mailed token's account", &self.account_id))?,
            expires_at: Timestamp(self.expires_at),
        })
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct SessionRow {
    token: String,
    account_id: String,
    xsrf_token: String,
    created: i64,
    expires_at: i64,
    remember_me: bool,
}

impl SessionRow {
    pub(crate) fn into_session(self) -> Result<Session, RepositoryError> {
        Ok(Session {
            token: TokenDigest::from_stored(self.token),
            account: AccountId::parse(&self.account_id)
                .ok_or_else(|| corrupt("a session's account", &self.account_id))?,
            xsrf_token: self.xsrf_token,
            created: Timestamp(self.created),
            expires_at: Timestamp(self.expires_at),
            remember_me: self.remember_me,
        })
    }
}

/// Translates a failed account write: a UNIQUE violation means the address is taken.
pub(crate) fn account_write_error(
    doing: &'static str,
) -> impl FnOnce(sqlx::Error) -> vitrine_core::people::AccountWriteError {
    move |error| match error {
        sqlx::Error::Database(database) if database.is_unique_violation() => {
            vitrine_core::people::AccountWriteError::EmailTaken
        }
        other => crate::errors::repository_error(doing)(other).into(),
    }
}

/// An address read back from the store, checked as when it was typed.
pub(crate) fn stored_email(email: &str) -> Result<EmailAddress, RepositoryError> {
    EmailAddress::parse(email).map_err(|error| corrupt("an account's earlier address", error))
}

/// `Ok` when the statement changed the account, `UnknownAccount` when there was none.
pub(crate) fn one_account(rows: u64) -> Result<(), vitrine_core::people::AccountWriteError> {
    if rows == 0 {
        Err(vitrine_core::people::AccountWriteError::UnknownAccount)
    } else {
        Ok(())
    }
}

/// Starts, inside the transaction `$tx`, the hold of the address account `$id` has just
/// confirmed, and drops its own earlier holds of it the new one covers.
macro_rules! take_hold {
    ($tx:ident, $id:expr, $write:expr) => {
        for statement in [
            $crate::people_statements::TAKE_HOLD,
            $crate::people_statements::FORGET_COVERED_HOLDS,
        ] {
            sqlx::query(statement)
                .bind($id.as_str())
                .execute(&mut *$tx)
                .await
                .map_err($write("handing a confirmed address over"))?;
        }
    };
}
pub(crate) use take_hold;

macro_rules! sql_people_store {
    ($store:ty) => {
        #[async_trait::async_trait]
        impl vitrine_core::people::AccountStore for $store {
            async fn create_account(
                &self,
                account: &vitrine_core::people::Account,
            ) -> Result<(), vitrine_core::people::AccountWriteError> {
                sqlx::query($crate::people_statements::CREATE_ACCOUNT)
                    .bind(account.id.as_str())
                    .bind(account.email.as_str())
                    .bind(&account.password_hash)
                    .bind(account.confirmed_at.map(|at| at.millis()))
                    .bind(account.created.millis())
                    .bind($crate::people_store::member_areas_json(
                        &account.member_areas,
                    ))
                    .execute(&self.pool)
                    .await
                    .map_err($crate::people_store::account_write_error(
                        "creating an account",
                    ))?;
                if account.is_confirmed() {
                    sqlx::query($crate::people_statements::TAKE_HOLD)
                        .bind(account.id.as_str())
                        .execute(&self.pool)
                        .await
                        .map_err($crate::people_store::account_write_error(
                            "starting the hold of an address",
                        ))?;
                }
                Ok(())
            }

            async fn account(
                &self,
                id: &vitrine_core::people::AccountId,
            ) -> Result<Option<vitrine_core::people::Account>, vitrine_core::ports::RepositoryError>
            {
                let row: Option<$crate::people_store::AccountRow> =
                    sqlx::query_as($crate::people_statements::ACCOUNT_BY_ID)
                        .bind(id.as_str())
                        .fetch_optional(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error("reading an account"))?;
                row.map($crate::people_store::AccountRow::into_account)
                    .transpose()
            }

            async fn account_by_email(
                &self,
                email: &vitrine_core::people::EmailAddress,
            ) -> Result<Option<vitrine_core::people::Account>, vitrine_core::ports::RepositoryError>
            {
                let row: Option<$crate::people_store::AccountRow> =
                    sqlx::query_as($crate::people_statements::ACCOUNT_BY_EMAIL)
                        .bind(email.as_str())
                        .fetch_optional(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error("finding an account"))?;
                row.map($crate::people_store::AccountRow::into_account)
                    .transpose()
            }

            async fn confirm_email(
                &self,
                id: &vitrine_core::people::AccountId,
                now: vitrine_core::cart::Timestamp,
            ) -> Result<(), vitrine_core::people::AccountWriteError> {
                use $crate::people_statements as sql;
                let write = $crate::people_store::account_write_error;
                let mut tx = self
                    .pool
                    .begin()
                    .await
                    .map_err(write("starting to confirm an address"))?;
                let first = sqlx::query(sql::FIRST_CONFIRMATION)
                    .bind(id.as_str())
                    .bind(now.millis())
                    .execute(&mut *tx)
                    .await
                    .map_err(write("confirming an address"))?;
                if first.rows_affected() == 0 {
                    // Confirmed before, or no such account: the time stays as it was.
                    let done = sqlx::query(sql::CONFIRM_EMAIL)
                        .bind(id.as_str())
                        .bind(now.millis())
                        .execute(&mut *tx)
                        .await
                        .map_err(write("confirming an address"))?;
                    $crate::people_store::one_account(done.rows_affected())?;
                } else {
                    $crate::people_store::take_hold!(tx, id, write);
                }
                tx.commit()
                    .await
                    .map_err(write("committing a confirmed address"))
            }

            async fn set_password(
                &self,
                id: &vitrine_core::people::AccountId,
                password_hash: &str,
            ) -> Result<(), vitrine_core::people::AccountWriteError> {
                let done = sqlx::query($crate::people_statements::SET_PASSWORD)
                    .bind(id.as_str())
                    .bind(password_hash)
                    .execute(&self.pool)
                    .await
                    .map_err($crate::people_store::account_write_error(
                        "setting a password",
                    ))?;
                $crate::people_store::one_account(done.rows_affected())
            }

            async fn change_email(
                &self,
                id: &vitrine_core::people::AccountId,
                email: &vitrine_core::people::EmailAddress,
                now: vitrine_core::cart::Timestamp,
            ) -> Result<(), vitrine_core::people::AccountWriteError> {
                use $crate::people_statements as sql;
                let write = $crate::people_store::account_write_error;
                let mut tx = self
                    .pool
                    .begin()
                    .await
                    .map_err(write("starting to change an address"))?;
                // The hold of the address left ends before the account moves, in the same
                // transaction, so a refused move keeps nothing. It is written before anything
                // is read: SQLite refuses at once, without waiting, to turn a transaction that
                // has read into one that writes while another connection writes.
                sqlx::query(sql::KEEP_EARLIER_EMAIL)
                    .bind(id.as_str())
                    .bind(now.millis())
                    .bind(email.as_str())
                    .execute(&mut *tx)
                    .await
                    .map_err(write("keeping the address left"))?;
                let current: Option<(String, bool)> = sqlx::query_as(sql::CURRENT_ADDRESS)
                    .bind(id.as_str())
                    .fetch_optional(&mut *tx)
                    .await
                    .map_err(write("reading the address left"))?;
                let Some((left, confirmed)) = current else {
                    return Err(vitrine_core::people::AccountWriteError::UnknownAccount);
                };
                let stays = confirmed && left == email.as_str();
                let done = sqlx::query(sql::CHANGE_EMAIL)
                    .bind(id.as_str())
                    .bind(email.as_str())
                    .bind(now.millis())
                    .execute(&mut *tx)
                    .await
                    .map_err(write("changing an address"))?;
                $crate::people_store::one_account(done.rows_affected())?;
                if !stays {
                    $crate::people_store::take_hold!(tx, id, write);
                }
                tx.commit()
                    .await
                    .map_err(write("committing an address change"))
            }

            async fn address_holds(
                &self,
                id: &vitrine_core::people::AccountId,
            ) -> Result<Vec<vitrine_core::people::AddressHold>, vitrine_core::ports::RepositoryError>
            {
                use $crate::people_statements as sql;
                let read = $crate::errors::repository_error;
                let current: Option<(String, Option<i64>)> = sqlx::query_as(sql::CURRENT_HOLD)
                    .bind(id.as_str())
                    .fetch_optional(&self.pool)
                    .await
                    .map_err(read("reading an account's address"))?;
                let earlier: Vec<(String, Option<i64>, i64, bool)> =
                    sqlx::query_as(sql::EARLIER_HOLDS)
                        .bind(id.as_str())
                        .fetch_all(&self.pool)
                        .await
                        .map_err(read("reading an account's earlier addresses"))?;
                let current = current.map(|(email, since)| (email, since, None, false));
                current
                    .into_iter()
                    .chain(
                        earlier
                            .into_iter()
                            .map(|(email, since, left, superseded)| (email, since, Some(left), superseded)),
                    )
                    .map(|(email, since, left, superseded)| -> Result<_, vitrine_core::ports::RepositoryError> {
                        Ok(vitrine_core::people::AddressHold {
                            email: $crate::people_store::stored_email(&email)?,
                            placed: vitrine_core::checkout::PlacedBetween {
                                after: since.map(vitrine_core::cart::Timestamp),
                                until: left.map(vitrine_core::cart::Timestamp),
                            },
                            superseded,
                        })
                    })
                    .collect()
            }

            async fn holder_at(
                &self,
                email: &vitrine_core::people::EmailAddress,
                at: vitrine_core::cart::Timestamp,
            ) -> Result<Option<vitrine_core::people::AccountId>, vitrine_core::ports::RepositoryError>
            {
                let found: Option<String> =
                    sqlx::query_scalar($crate::people_statements::HOLDER_AT)
                        .bind(email.as_str())
                        .bind(at.millis())
                        .fetch_optional(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error(
                            "finding the holder of an address",
                        ))?;
                found
                    .map(|id| {
                        vitrine_core::people::AccountId::parse(&id)
                            .ok_or_else(|| $crate::people_store::corrupt("an account id", &id))
                    })
                    .transpose()
            }

            async fn set_member_areas(
                &self,
                id: &vitrine_core::people::AccountId,
                member_areas: &[String],
            ) -> Result<(), vitrine_core::people::AccountWriteError> {
                let done = sqlx::query($crate::people_statements::SET_MEMBER_AREAS)
                    .bind(id.as_str())
                    .bind($crate::people_store::member_areas_json(member_areas))
                    .execute(&self.pool)
                    .await
                    .map_err($crate::people_store::account_write_error(
                        "setting member areas",
                    ))?;
                $crate::people_store::one_account(done.rows_affected())
            }

            async fn delete_account(
                &self,
                id: &vitrine_core::people::AccountId,
            ) -> Result<bool, vitrine_core::ports::RepositoryError> {
                let done = sqlx::query($crate::people_statements::DELETE_ACCOUNT)
                    .bind(id.as_str())
                    .execute(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("deleting an account"))?;
                Ok(done.rows_affected() > 0)
            }

            async fn save_address(
                &self,
                id: &vitrine_core::people::AccountId,
                address: &vitrine_core::checkout::ShippingAddress,
            ) -> Result<(), vitrine_core::people::AccountWriteError> {
                let done = sqlx::query($crate::people_statements::SAVE_ADDRESS)
                    .bind(id.as_str())
                    .bind($crate::cart_store::json_text(address))
                    .execute(&self.pool)
                    .await
                    .map_err($crate::people_store::account_write_error(
                        "saving an address",
                    ))?;
                $crate::people_store::one_account(done.rows_affected())
            }

            async fn saved_address(
                &self,
                id: &vitrine_core::people::AccountId,
            ) -> Result<
                Option<vitrine_core::checkout::ShippingAddress>,
                vitrine_core::ports::RepositoryError,
            > {
                let stored: Option<String> =
                    sqlx::query_scalar($crate::people_statements::SAVED_ADDRESS)
                        .bind(id.as_str())
                        .fetch_optional(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error("reading a saved address"))?;
                stored
                    .map(|text| {
                        serde_json::from_str(&text).map_err(|error| {
                            vitrine_core::ports::RepositoryError::Corrupt {
                                what: "a saved address".to_owned(),
                                reason: error.to_string(),
                            }
                        })
                    })
                    .transpose()
            }

            async fn remove_address(
                &self,
                id: &vitrine_core::people::AccountId,
            ) -> Result<bool, vitrine_core::ports::RepositoryError> {
                let done = sqlx::query($crate::people_statements::REMOVE_ADDRESS)
                    .bind(id.as_str())
                    .execute(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("removing a saved address"))?;
                Ok(done.rows_affected() > 0)
            }

            async fn save_token(
                &self,
                token: &vitrine_core::people::AccountToken,
            ) -> Result<(), vitrine_core::ports::RepositoryError> {
                sqlx::query($crate::people_statements::SAVE_TOKEN)
                    .bind(token.token.as_str())
                    .bind(token.account.as_str())
                    .bind(token.purpose.kind())
                    .bind(token.purpose.new_email().map(|email| email.as_str()))
                    .bind(token.expires_at.millis())
                    .execute(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("saving a mailed token"))?;
                Ok(())
            }

            async fn take_token(
                &self,
                token: &vitrine_core::people::TokenDigest,
                now: vitrine_core::cart::Timestamp,
            ) -> Result<
                Option<vitrine_core::people::AccountToken>,
                vitrine_core::ports::RepositoryError,
            > {
                let row: Option<$crate::people_store::TokenRow> =
                    sqlx::query_as($crate::people_statements::TAKE_TOKEN)
                        .bind(token.as_str())
                        .fetch_optional(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error("taking a mailed token"))?;
                Ok(row
                    .map($crate::people_store::TokenRow::into_token)
                    .transpose()?
                    .filter(|token| now < token.expires_at))
            }
        }

        #[async_trait::async_trait]
        impl vitrine_core::people::SiteUserSessionStore for $store {
            async fn create_session(
                &self,
                session: &vitrine_core::people::Session,
            ) -> Result<(), vitrine_core::ports::RepositoryError> {
                sqlx::query($crate::people_statements::CREATE_SESSION)
                    .bind(session.token.as_str())
                    .bind(session.account.as_str())
                    .bind(&session.xsrf_token)
                    .bind(session.created.millis())
                    .bind(session.expires_at.millis())
                    .bind(session.remember_me)
                    .execute(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("starting a session"))?;
                Ok(())
            }

            async fn session(
                &self,
                token: &vitrine_core::people::TokenDigest,
                now: vitrine_core::cart::Timestamp,
            ) -> Result<Option<vitrine_core::people::Session>, vitrine_core::ports::RepositoryError>
            {
                let row: Option<$crate::people_store::SessionRow> =
                    sqlx::query_as($crate::people_statements::SESSION)
                        .bind(token.as_str())
                        .fetch_optional(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error("reading a session"))?;
                let Some(session) = row
                    .map($crate::people_store::SessionRow::into_session)
                    .transpose()?
                else {
                    return Ok(None);
                };
                if session.is_live(now) {
                    return Ok(Some(session));
                }
                vitrine_core::people::SiteUserSessionStore::delete_session(self, token).await?;
                Ok(None)
            }

            async fn delete_session(
                &self,
                token: &vitrine_core::people::TokenDigest,
            ) -> Result<bool, vitrine_core::ports::RepositoryError> {
                let done = sqlx::query($crate::people_statements::DELETE_SESSION)
                    .bind(token.as_str())
                    .execute(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("ending a session"))?;
                Ok(done.rows_affected() > 0)
            }

            async fn delete_sessions_of(
                &self,
                account: &vitrine_core::people::AccountId,
            ) -> Result<u64, vitrine_core::ports::RepositoryError> {
                let done = sqlx::query($crate::people_statements::DELETE_SESSIONS_OF)
                    .bind(account.as_str())
                    .execute(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error(
                        "ending an account's sessions",
                    ))?;
                Ok(done.rows_affected())
            }

            async fn put_session_data(
                &self,
                token: &vitrine_core::people::TokenDigest,
                key: &str,
                data: &vitrine_core::people::SavedSessionData,
            ) -> Result<(), vitrine_core::ports::RepositoryError> {
                sqlx::query($crate::people_statements::PUT_SESSION_DATA)
                    .bind(token.as_str())
                    .bind(key)
                    .bind(&data.value)
                    .bind(data.expires_at.map(|at| at.millis()))
                    .execute(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("saving session data"))?;
                Ok(())
            }

            async fn session_data(
                &self,
                token: &vitrine_core::people::TokenDigest,
                key: &str,
                now: vitrine_core::cart::Timestamp,
            ) -> Result<Option<String>, vitrine_core::ports::RepositoryError> {
                let row: Option<(String, Option<i64>)> =
                    sqlx::query_as($crate::people_statements::SESSION_DATA)
                        .bind(token.as_str())
                        .bind(key)
                        .fetch_optional(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error("reading session data"))?;
                let Some((value, expires_at)) = row else {
                    return Ok(None);
                };
                let data = vitrine_core::people::SavedSessionData {
                    value,
                    expires_at: expires_at.map(vitrine_core::cart::Timestamp),
                };
                if data.is_live(now) {
                    return Ok(Some(data.value));
                }
                sqlx::query($crate::people_statements::DELETE_SESSION_DATA)
                    .bind(token.as_str())
                    .bind(key)
                    .execute(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error(
                        "removing expired session data",
                    ))?;
                Ok(None)
            }
        }
    };
}

sql_people_store!(SqlitePeopleStore);
sql_people_store!(PostgresPeopleStore);
