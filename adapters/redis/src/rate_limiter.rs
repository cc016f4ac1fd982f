//! Fixed-window rate limits counted in Redis, so every server counts against the same limit.
//! One atomic script increments a window's counter and sets its expiry, so racing servers
//! never lose a count and no counter outlives its window for long.

use async_trait::async_trait;
use redis::Script;
use redis::aio::ConnectionManager;
use vitrine_core::forms::{RateDecision, RateLimit, RateLimiter};
use vitrine_core::ports::RepositoryError;

use crate::unavailable;

/// Increments `KEYS[1]` and, on its first count, lets it expire after `ARGV[1]` seconds.
const HIT: &str = r"
local count = redis.call('INCR', KEYS[1])
if count == 1 then
  redis.call('EXPIRE', KEYS[1], ARGV[1])
end
return count
";

/// Extra real seconds a window's counter is kept, for clocks a little apart between servers.
const SLACK_SECONDS: i64 = 60;

/// The Redis rate limiter.
#[derive(Clone)]
pub struct RedisRateLimiter {
    connection: ConnectionManager,
    prefix: String,
    hit: Script,
}

impl RedisRateLimiter {
    pub(crate) fn new(connection: ConnectionManager, prefix: String) -> Self {
        Self {
            connection,
            prefix,
            hit: Script::new(HIT),
        }
    }

    /// The counter of `bucket` in the window of `window` seconds starting at `start`. The
    /// window's start and length are in the name: each window counts from zero, and two
    /// limits on one bucket never share a counter.
    fn counter_name(&self, bucket: &str, window: i64, start: i64) -> String {
        format!("{}{window}:{start}:{bucket}", self.prefix)
    }
}

#[async_trait]
impl RateLimiter for RedisRateLimiter {
    async fn hit(
        &self,
        bucket: &str,
        limit: RateLimit,
        now: i64,
    ) -> Result<RateDecision, RepositoryError> {
        let window = limit.window_seconds.max(1);
        let start = now - now.rem_euclid(window);
        let name = self.counter_name(bucket, window, start);
        let mut connection = self.connection.clone();
        let count: i64 = self
            .hit
            .key(name)
            .arg(window + SLACK_SECONDS)
            .invoke_async(&mut connection)
            .await
            .map_err(unavailable("counting a rate limit"))?;
        let used = u32::try_from(count).unwrap_or(u32::MAX);
        Ok(RateDecision {
            allowed: used <= limit.max,
            limit: limit.max,
            remaining: limit.max.saturating_sub(used),
            reset_after: start + window - now,
        })
    }

    async fn peek(
        &self,
        bucket: &str,
        limit: RateLimit,
        now: i64,
    ) -> Result<RateDecision, RepositoryError> {
        let window = limit.window_seconds.max(1);
        let start = now - now.rem_euclid(window);
        let mut connection = self.connection.clone();
        let count: Option<i64> = redis::cmd("GET")
            .arg(self.counter_name(bucket, window, start))
            .query_async(&mut connection)
            .await
            .map_err(unavailable("reading a rate limit"))?;
        let used = u32::try_from(count.unwrap_or(0)).unwrap_or(u32::MAX);
        Ok(RateDecision {
            allowed: used < limit.max,
            limit: limit.max,
            remaining: limit.max.saturating_sub(used),
            reset_after: start + window - now,
        })
    }
}
