//! Adapters of the core's outbound ports that talk to other services: mail over SMTP
//! ([`SmtpMailer`]), webhooks signed with HMAC-SHA256 ([`SignedWebhook`], scheme in
//! [`signature`]), the reCAPTCHA, hCaptcha and Turnstile verify APIs ([`HttpCaptcha`]), and
//! the worker that drains the delivery outbox ([`run_deliveries`]), a Photon-compatible
//! geocoder for the map block's place search ([`PhotonGeocoder`]), the tile server of its static map ([`HttpTileSource`]), the Meta Conversions API
//! ([`MetaConversionsApi`]) and Stripe's PaymentIntents API ([`StripeGateway`], its webhooks
//! [`StripeWebhooks`]; with the
//! feature `test-support`, a local fake of it in [`stripe_fake`]).

mod captcha;
mod http_client;
mod meta_pixel;
mod photon;
pub mod signature;
mod smtp;
mod stripe;
mod tile_server;
mod webhook;
mod worker;

pub use captcha::{CaptchaProvider, HttpCaptcha};
pub use meta_pixel::{META_API_VERSION, META_GRAPH_URL, MetaConversionsApi, MetaEvents};
pub use photon::PhotonGeocoder;
pub use smtp::{SmtpConfigError, SmtpMailer};
#[cfg(feature = "test-support")]
pub use stripe::fake as stripe_fake;
pub use stripe::{
    InvalidPublishableKey, InvalidStripeKey, InvalidWebhookSecret, RENEWAL_NEEDS_CONFIRMATION,
    STRIPE_API_BASE, STRIPE_API_VERSION, STRIPE_JS_URL, STRIPE_SIGNATURE_HEADER, StripeBrowser,
    StripeGateway, StripePublishableKey, StripeRetries, StripeSecretKey, StripeWebhookSecret,
    StripeWebhooks, VERIFICATION_NEEDED_MESSAGE, failure_message,
};
pub use tile_server::HttpTileSource;
pub use webhook::{SignedWebhook, WebhookBody};
pub use worker::{DeliveryWorker, run_deliveries};
