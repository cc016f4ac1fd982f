//! Where form keys and rate limits live: in this process (one server), or in Redis when
//! several servers serve one site (`--redis-url`), so a key issued by one server is accepted
//! by another exactly once and every server counts against the same limits.

use std::sync::Arc;

use anyhow::Context;
use clap::Args;
use vitrine_core::forms::memory::{MemoryKeyStore, MemoryRateLimiter};
use vitrine_core::forms::{RateLimit, RateLimiter, RateLimits, SubmissionKeyStore};

#[derive(Debug, Clone, Args)]
pub struct SharedStateArgs {
    /// Keep form keys and rate-limit counts in Redis, e.g. redis://127.0.0.1:6379, so that
    /// several servers can serve one site (they must also share a PostgreSQL database).
    /// [default: kept in this process]
    #[arg(
        long,
        env = "VITRINE_REDIS_URL",
        value_name = "URL",
        hide_env_values = true
    )]
    pub redis_url: Option<String>,

    /// What every name Vitrine writes to Redis starts with, so that several sites can share
    /// one Redis.
    #[arg(
        long,
        env = "VITRINE_REDIS_PREFIX",
        value_name = "PREFIX",
        default_value = "vitrine:"
    )]
    pub redis_prefix: String,

    /// Form rate limits per minute: submissions per visitor, submissions per form (all
    /// visitors together) and form keys per visitor, e.g. visitor=10,form=120,keys=30. Names
    /// left out keep their default.
    #[arg(
        long,
        env = "VITRINE_FORM_LIMITS",
        value_name = "LIMITS",
        value_parser = parse_limits,
        default_value = "visitor=10,form=120,keys=30"
    )]
    pub form_limits: RateLimits,
}

/// The key store and rate limiter the form service uses.
pub struct FormPorts {
    pub keys: Arc<dyn SubmissionKeyStore>,
    pub limiter: Arc<dyn RateLimiter>,
    pub limits: RateLimits,
}

pub async fn form_ports(args: &SharedStateArgs) -> anyhow::Result<FormPorts> {
    let (keys, limiter): (Arc<dyn SubmissionKeyStore>, Arc<dyn RateLimiter>) = match &args.redis_url
    {
        Some(url) => {
            let stores = vitrine_redis::RedisStores::connect(url, &args.redis_prefix)
                .await
                .context("could not use Redis for form keys and rate limits")?;
            tracing::info!(prefix = %args.redis_prefix, "form keys and rate limits in Redis");
            (
                Arc::new(stores.key_store()),
                Arc::new(stores.rate_limiter()),
            )
        }
        None => (
            Arc::new(MemoryKeyStore::new()),
            Arc::new(MemoryRateLimiter::new()),
        ),
    };
    Ok(FormPorts {
        keys,
        limiter,
        limits: args.form_limits,
    })
}

fn parse_limits(text: &str) -> Result<RateLimits, String> {
    let mut limits = RateLimits::default();
    for (name, limit) in per_minute_limits(text, &["visitor", "form", "keys"])? {
        match name {
            "visitor" => limits.submissions_per_visitor = limit,
            "form" => limits.submissions_per_form = limit,
            _ => limits.keys_per_visitor = limit,
        }
    }
    Ok(limits)
}

/// Reads `NAME=NUMBER,...` of per-minute limits, each NAME one of `names`.
pub fn per_minute_limits<'a>(
    text: &'a str,
    names: &[&str],
) -> Result<Vec<(&'a str, RateLimit)>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .map(|part| {
            let (name, value) = part
                .split_once('=')
                .ok_or_else(|| format!("`{part}` is not NAME=NUMBER"))?;
            let max: u32 = value
                .trim()
                .parse()
                .map_err(|_| format!("`{value}` is not a whole number"))?;
            let name = name.trim();
            if !names.contains(&name) {
                return Err(format!(
                    "`{name}` is not a limit here; use {}",
                    names.join(", ")
                ));
            }
            Ok((
                name,
                RateLimit {
                    max,
                    window_seconds: 60,
                },
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_read_by_name_and_default_otherwise() {
        let limits = parse_limits("form=500, keys=5").unwrap();
        assert_eq!(limits.submissions_per_form.max, 500);
        assert_eq!(limits.keys_per_visitor.max, 5);
        assert_eq!(
            limits.submissions_per_visitor,
            RateLimits::default().submissions_per_visitor
        );
        assert_eq!(parse_limits("").unwrap(), RateLimits::default());
    }

    #[test]
    fn a_bad_limit_says_what_is_wrong() {
        assert!(
            parse_limits("speed=3")
                .unwrap_err()
                .contains("visitor, form, keys")
        );
        assert!(
            parse_limits("form=lots")
                .unwrap_err()
                .contains("whole number")
        );
        assert!(parse_limits("form").unwrap_err().contains("NAME=NUMBER"));
    }
}
