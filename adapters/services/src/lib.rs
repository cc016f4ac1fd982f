//! Adapters of the core's outbound ports that talk to other services: mail over SMTP
//! ([`SmtpMailer`]), webhooks signed with HMAC-SHA256 ([`SignedWebhook`], scheme in
//! [`signature`]), the reCAPTCHA, hCaptcha and Turnstile verify APIs ([`HttpCaptcha`]), and
//! the worker that drains the delivery outbox ([`run_deliveries`]).

mod captcha;
mod http_client;
pub mod signature;
mod smtp;
mod webhook;
mod worker;

pub use captcha::{CaptchaProvider, HttpCaptcha};
pub use smtp::{SmtpConfigError, SmtpMailer};
pub use webhook::{SignedWebhook, WebhookBody};
pub use worker::{DeliveryWorker, run_deliveries};
