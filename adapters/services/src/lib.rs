//! Adapters of the core's outbound ports that talk to other services: mail over SMTP
//! ([`SmtpMailer`]), webhooks signed with HMAC-SHA256 ([`SignedWebhook`], scheme in
//! [`signature`]), the reCAPTCHA, hCaptcha and Turnstile verify APIs ([`HttpCaptcha`]), and
//! the worker that drains the delivery outbox ([`run_deliveries`]).

mod captcha;
mod http_client;
mod meta_pixel;
pub mod signature;
mod smtp;
mod webhook;
mod worker;

pub use captcha::{CaptchaProvider, HttpCaptcha};
pub use meta_pixel::{META_API_VERSION, META_GRAPH_URL, MetaConversionsApi, MetaEvents};
pub use smtp::{SmtpConfigError, SmtpMailer};
pub use webhook::{SignedWebhook, WebhookBody};
pub use worker::{DeliveryWorker, run_deliveries};
