//! Redis adapters of the ports several servers must share: the form key store (a key issued
//! by one server is live on all) and the rate limiter (one count per visitor and per form,
//! whichever server is asked). Every name is prefixed, so several sites or test runs can share
//! one Redis.

mod connection;
mod key_store;
mod rate_limiter;

pub use connection::{ConnectError, RedisStores};
pub use key_store::RedisKeyStore;
pub use rate_limiter::RedisRateLimiter;

use vitrine_core::ports::RepositoryError;

/// Redis failures become the core's "store unavailable", with what was being done.
fn unavailable(doing: &'static str) -> impl Fn(redis::RedisError) -> RepositoryError {
    move |error| RepositoryError::Unavailable(format!("{doing} in Redis: {error}"))
}
