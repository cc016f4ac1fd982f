//! Form submission keys in Redis, so a key issued by one server is live on every server. A
//! key's consumption is not kept here: the submission store records it in the same database
//! transaction as the submission.

use async_trait::async_trait;
use redis::AsyncCommands;
use redis::aio::ConnectionManager;
use vitrine_core::forms::submission::KEY_LIFETIME_SECONDS;
use vitrine_core::forms::{SubmissionKey, SubmissionKeyStore};
use vitrine_core::ports::RepositoryError;

use crate::unavailable;

/// How long Redis keeps an issued key, in real seconds. The value stored is the key's expiry
/// (Unix seconds, compared with the caller's clock); Redis forgets the key a little after it
/// can no longer be live, so the store does not grow.
const RETENTION_SECONDS: u64 = KEY_LIFETIME_SECONDS as u64 + 300;

/// The Redis key store.
#[derive(Clone)]
pub struct RedisKeyStore {
    connection: ConnectionManager,
    prefix: String,
}

impl RedisKeyStore {
    pub(crate) fn new(connection: ConnectionManager, prefix: String) -> Self {
        Self { connection, prefix }
    }

    fn name(&self, key: &SubmissionKey) -> String {
        format!("{}{}", self.prefix, key.as_str())
    }
}

#[async_trait]
impl SubmissionKeyStore for RedisKeyStore {
    async fn issue(&self, key: &SubmissionKey, expires_at: i64) -> Result<(), RepositoryError> {
        let mut connection = self.connection.clone();
        connection
            .set_ex::<_, _, ()>(self.name(key), expires_at, RETENTION_SECONDS)
            .await
            .map_err(unavailable("issuing a form key"))
    }

    async fn is_live(&self, key: &SubmissionKey, now: i64) -> Result<bool, RepositoryError> {
        let mut connection = self.connection.clone();
        let expires_at: Option<i64> = connection
            .get(self.name(key))
            .await
            .map_err(unavailable("reading a form key"))?;
        Ok(expires_at.is_some_and(|expires_at| expires_at > now))
    }
}
