//! Integration tests of the service adapters against real local servers started inside each
//! test: an SMTP sink, a webhook receiver that checks signatures, and captcha verify servers.

mod captcha;
mod delivery;
mod meta_pixel;
mod smtp_sink;
mod webhook_receiver;
