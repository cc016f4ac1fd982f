//! The HTTP client the webhook and captcha adapters share: rustls with the ring provider and
//! the platform's root certificates, and a timeout so a hanging receiver cannot hold a
//! delivery or a visitor forever.

use std::time::Duration;

/// How long one call may take end to end.
const TIMEOUT: Duration = Duration::from_secs(10);

pub(crate) fn client() -> reqwest::Client {
    // The process-wide provider may already be installed (by another adapter or a test);
    // either way ring is what the client then uses.
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .timeout(TIMEOUT)
        .user_agent(concat!("Vitrine/", env!("CARGO_PKG_VERSION")))
        .build()
        .expect("a client with rustls and a crypto provider builds")
}
