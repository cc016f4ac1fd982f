//! The options of `vitrine serve` that decide how the HTTP adapter meets the internet: whether
//! the site is behind TLS, which proxies are trusted to name the client, and the limits on
//! requests.

use std::time::Duration;

use clap::Args;
use vitrine_http::{HttpConfig, RequestLimits};

#[derive(Debug, Clone, Args)]
pub struct HttpArgs {
    /// Serve for plain HTTP, for development on this machine: cookies lose `Secure`, the
    /// crumb cookie is named `crumb` instead of `__Host-crumb`, and no HSTS header is sent.
    /// Without it Vitrine assumes it is reached over HTTPS (directly or through a proxy).
    #[arg(long, env = "VITRINE_PLAIN_HTTP")]
    pub plain_http: bool,

    /// How many proxies in front of Vitrine append the client's address to
    /// X-Forwarded-For. With 0 (the default) the header is ignored and the client is the
    /// connection's peer; set it only when every request passes through those proxies.
    #[arg(
        long,
        env = "VITRINE_TRUSTED_PROXIES",
        value_name = "COUNT",
        default_value_t = 0
    )]
    pub trusted_proxies: u8,

    /// Rate limits per minute on state-changing requests (cart, checkout, analytics events,
    /// newsletter, reviews, widget renders, forms): per client address and per visitor, e.g.
    /// address=600,visitor=120. Names left out keep their default.
    #[arg(
        long,
        env = "VITRINE_REQUEST_LIMITS",
        value_name = "LIMITS",
        value_parser = parse_request_limits,
        default_value = "address=600,visitor=120"
    )]
    pub request_limits: RequestLimits,

    /// Rate limits per ten minutes on checkout entry, coupon and donation attempts, which
    /// hold stock or try a code or a card: per client address and per visitor, e.g.
    /// address=60,visitor=20. Names left out keep their default.
    #[arg(
        long,
        env = "VITRINE_ATTEMPT_LIMITS",
        value_name = "LIMITS",
        value_parser = parse_attempt_limits,
        default_value = "address=60,visitor=20"
    )]
    pub attempt_limits: RequestLimits,

    /// Seconds a request may take before it answers 503.
    #[arg(
        long,
        env = "VITRINE_REQUEST_TIMEOUT_SECONDS",
        value_name = "SECONDS",
        default_value_t = 75,
        value_parser = clap::value_parser!(u64).range(1..=3600)
    )]
    pub request_timeout_seconds: u64,

    /// Requests served at once; beyond it, requests answer 503 with Retry-After at once.
    #[arg(
        long,
        env = "VITRINE_MAX_CONCURRENT_REQUESTS",
        value_name = "COUNT",
        default_value_t = 1024,
        value_parser = clap::value_parser!(u64).range(1..=1_000_000)
    )]
    pub max_concurrent_requests: u64,
}

impl HttpArgs {
    /// The adapter's configuration for a site reached at `public_url`.
    pub fn config(&self, public_url: &str) -> HttpConfig {
        if !self.plain_http && public_url.starts_with("http://") {
            tracing::warn!(
                public_url,
                "cookies are Secure and the crumb is __Host-crumb, which browsers accept only \
                 over HTTPS (and on localhost); pass --plain-http to develop over plain HTTP"
            );
        }
        HttpConfig::new(public_url, !self.plain_http)
            .with_trusted_proxies(self.trusted_proxies)
            .with_request_limits(self.request_limits)
            .with_attempt_limits(self.attempt_limits)
            .with_request_timeout(Duration::from_secs(self.request_timeout_seconds))
            .with_concurrency_limit(
                usize::try_from(self.max_concurrent_requests).unwrap_or(usize::MAX),
            )
    }
}

fn parse_request_limits(text: &str) -> Result<RequestLimits, String> {
    limits_over(text, RequestLimits::default(), 60)
}

fn parse_attempt_limits(text: &str) -> Result<RequestLimits, String> {
    limits_over(text, vitrine_http::default_attempt_limits(), 600)
}

/// `defaults` with the limits named in `text`, each counted over `window_seconds`.
fn limits_over(
    text: &str,
    mut limits: RequestLimits,
    window_seconds: i64,
) -> Result<RequestLimits, String> {
    for (name, mut limit) in crate::shared_state::per_minute_limits(text, &["address", "visitor"])?
    {
        limit.window_seconds = window_seconds;
        match name {
            "address" => limits.per_address = limit,
            _ => limits.per_visitor = limit,
        }
    }
    Ok(limits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_limits_are_read_by_name_and_default_otherwise() {
        let limits = parse_request_limits("address=5000").unwrap();
        assert_eq!(limits.per_address.max, 5000);
        assert_eq!(limits.per_visitor, RequestLimits::default().per_visitor);
        assert_eq!(parse_request_limits("").unwrap(), RequestLimits::default());
        assert!(
            parse_request_limits("speed=3")
                .unwrap_err()
                .contains("address, visitor")
        );
        assert!(
            parse_request_limits("address=lots")
                .unwrap_err()
                .contains("whole number")
        );
    }

    #[test]
    fn attempt_limits_count_over_ten_minutes() {
        let limits = parse_attempt_limits("visitor=5").unwrap();
        assert_eq!(
            (limits.per_visitor.max, limits.per_visitor.window_seconds),
            (5, 600)
        );
        assert_eq!(
            limits.per_address,
            vitrine_http::default_attempt_limits().per_address
        );
        assert_eq!(limits.per_address.window_seconds, 600);
    }
}
