//! The options of `vitrine serve` that decide how the HTTP adapter meets the internet: whether
//! the site is behind TLS.

use clap::Args;
use vitrine_http::HttpConfig;

#[derive(Debug, Clone, Args)]
pub struct HttpArgs {
    /// Serve for plain HTTP, for development on this machine: cookies lose `Secure`, the
    /// crumb cookie is named `crumb` instead of `__Host-crumb`, and no HSTS header is sent.
    /// Without it Vitrine assumes it is reached over HTTPS (directly or through a proxy).
    #[arg(long, env = "VITRINE_PLAIN_HTTP")]
    pub plain_http: bool,
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
    }
}
