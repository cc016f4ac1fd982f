//! One multiplexed, self-reconnecting connection to Redis, shared by the adapters.

use std::time::Duration;

use redis::aio::{ConnectionManager, ConnectionManagerConfig};

use crate::{RedisKeyStore, RedisRateLimiter};

/// How long connecting, and then each command, may take before the call fails (and a visitor
/// gets an error) rather than hanging.
const TIMEOUT: Duration = Duration::from_secs(3);

/// Why Redis could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    #[error("{url} is not a Redis URL: {reason}")]
    InvalidUrl { url: String, reason: String },
    #[error("Redis at {url} cannot be reached: {reason}")]
    Unreachable { url: String, reason: String },
}

/// The Redis-backed stores of one site, all on one connection.
#[derive(Clone)]
pub struct RedisStores {
    connection: ConnectionManager,
    prefix: String,
}

impl std::fmt::Debug for RedisStores {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisStores")
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

impl RedisStores {
    /// Connects to `url` (`redis://host:port/db`) and checks the server answers. Every name
    /// the stores write starts with `prefix`.
    pub async fn connect(url: &str, prefix: &str) -> Result<Self, ConnectError> {
        let shown = hide_password(url);
        let client = redis::Client::open(url).map_err(|error| ConnectError::InvalidUrl {
            url: shown.clone(),
            reason: error.to_string(),
        })?;
        let unreachable = |error: redis::RedisError| ConnectError::Unreachable {
            url: shown.clone(),
            reason: error.to_string(),
        };
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(TIMEOUT))
            .set_response_timeout(Some(TIMEOUT))
            .set_number_of_retries(2);
        let mut connection = client
            .get_connection_manager_with_config(config)
            .await
            .map_err(unreachable)?;
        redis::cmd("PING")
            .query_async::<String>(&mut connection)
            .await
            .map_err(unreachable)?;
        Ok(Self {
            connection,
            prefix: prefix.to_owned(),
        })
    }

    pub fn key_store(&self) -> RedisKeyStore {
        RedisKeyStore::new(self.connection.clone(), format!("{}key:", self.prefix))
    }

    pub fn rate_limiter(&self) -> RedisRateLimiter {
        RedisRateLimiter::new(self.connection.clone(), format!("{}rate:", self.prefix))
    }
}

/// The URL with any password replaced, for messages.
fn hide_password(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme_end), Some(at)) if at > scheme_end => {
            let credentials = &url[scheme_end + 3..at];
            match credentials.find(':') {
                Some(colon) => format!(
                    "{}{}:***{}",
                    &url[..scheme_end + 3],
                    &credentials[..colon],
                    &url[at..]
                ),
                None => url.to_owned(),
            }
        }
        _ => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::hide_password;

    #[test]
    fn passwords_are_hidden_in_messages() {
        assert_eq!(
            hide_password("redis://user:secret@cache:6379/0"),
            "redis://user:***@cache:6379/0"
        );
        assert_eq!(
            hide_password("redis://:secret@cache:6379"),
            "redis://:***@cache:6379"
        );
        assert_eq!(
            hide_password("redis://127.0.0.1:6379"),
            "redis://127.0.0.1:6379"
        );
    }
}
