//! Integration tests of the service adapters against real local servers started inside each
//! test: an SMTP sink, a webhook receiver that checks signatures, captcha verify servers, a
//! Graph API server and the crate's fake of Stripe's API.

mod captcha;
mod delivery;
mod meta_pixel;
mod smtp_sink;
mod stripe;
mod stripe_browser;
mod stripe_renewals;
mod stripe_webhooks;
mod webhook_receiver;
