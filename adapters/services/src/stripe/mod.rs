//! Stripe's PaymentIntents API as a [`PaymentGateway`]. A charge is one
//! `POST /v1/payment_intents` that creates and confirms the intent with the card as
//! `payment_method_data`, under the order's idempotency key as Stripe's `Idempotency-Key`,
//! so Stripe itself charges a key once; a refund is `POST /v1/refunds` for the intent.
//!
//! Calls that fail on the way (no connection, a timeout, a 5xx, a 409 while another request
//! with the same key is still running) are sent again with the same key, at most
//! [`StripeRetries::attempts`] times, as Stripe's own client libraries do; Stripe answers a
//! repeated key with the first answer, so a retry never charges twice. A 4xx is an answer
//! and is never retried. `Stripe-Should-Retry`, when Stripe sends it, decides. When every
//! attempt failed and one of them may have reached Stripe (a time-out, a 5xx, a 409), the
//! charge's outcome is unknown ([`PaymentError::OutcomeUnknown`]): the order waits for a
//! retry of the same key or for Stripe's webhook; only when no connection was ever made is
//! it sure that nothing was charged.

mod browser;
mod recurring;
mod webhook;
mod wire;

#[cfg(feature = "test-support")]
mod browser_fake;
#[cfg(feature = "test-support")]
pub mod fake;
#[cfg(feature = "test-support")]
mod recurring_fake;

use std::time::Duration;

use async_trait::async_trait;
use reqwest::header::CONTENT_TYPE;
use vitrine_core::checkout::{
    BrowserCardFields, IntentReport, IntentRequest, OpenIntent, PartialRefund, Payment,
    PaymentError, PaymentGateway, PaymentRequest,
};

use crate::http_client::client;
pub use browser::{
    InvalidPublishableKey, STRIPE_JS_URL, StripeBrowser, StripePublishableKey, failure_message,
};
pub use recurring::RENEWAL_NEEDS_CONFIRMATION;
pub use webhook::{
    InvalidWebhookSecret, STRIPE_SIGNATURE_HEADER, StripeWebhookSecret, StripeWebhooks,
};
pub use wire::VERIFICATION_NEEDED_MESSAGE;
use wire::{
    ChargeAnswer, cancel_form, charge_form, customer_form, intent_form, part_refund_form,
    read_charge, read_intent_report, read_open_intent, read_part_refund, read_refund, refund_form,
};

/// Stripe's API.
pub const STRIPE_API_BASE: &str = "https://api.stripe.com";

/// The API version every call asks for, so that a change of the account's default version
/// in Stripe's dashboard cannot change the answers this adapter reads.
pub const STRIPE_API_VERSION: &str = "2024-06-20";

/// A secret (`sk_`) or restricted (`rk_`) API key. Its `Debug` shows only the kind and mode.
#[derive(Clone, PartialEq, Eq)]
pub struct StripeSecretKey(String);

/// Why a configured key cannot be a Stripe secret key; it never repeats the key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "this is not a Stripe secret key: it must start with sk_ (a secret key) or rk_ (a restricted key){hint}"
)]
pub struct InvalidStripeKey {
    hint: &'static str,
}

impl StripeSecretKey {
    pub fn parse(key: &str) -> Result<Self, InvalidStripeKey> {
        let key = key.trim();
        if key.starts_with("pk_") {
            return Err(InvalidStripeKey {
                hint: "; pk_ keys are publishable keys, meant for browsers",
            });
        }
        let rest = key
            .strip_prefix("sk_")
            .or_else(|| key.strip_prefix("rk_"))
            .ok_or(InvalidStripeKey { hint: "" })?;
        if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return Err(InvalidStripeKey {
                hint: "; after it come only letters, digits and underscores",
            });
        }
        Ok(Self(key.to_owned()))
    }

    /// A test-mode key (`sk_test_`, `rk_test_`): Stripe moves no money and takes its test
    /// cards, 4242 4242 4242 4242 among them.
    pub fn is_test_mode(&self) -> bool {
        self.0[3..].starts_with("test_")
    }

    fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for StripeSecretKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mode = if self.is_test_mode() { "test" } else { "live" };
        write!(f, "StripeSecretKey({}{mode}_…)", &self.0[..3])
    }
}

/// How hard a call tries: attempts in all (the first included), the pause before the first
/// retry (doubled before each next one), and the time one attempt may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StripeRetries {
    pub attempts: u32,
    pub first_delay: Duration,
    pub timeout: Duration,
}

impl Default for StripeRetries {
    /// Three attempts, 0.5 s then 1 s apart, 20 s each: a shopper waits at most about a
    /// minute when Stripe is down, and usually a second or two.
    fn default() -> Self {
        Self {
            attempts: 3,
            first_delay: Duration::from_millis(500),
            timeout: Duration::from_secs(20),
        }
    }
}

/// Takes payments through Stripe. Its `Debug` never shows the key.
pub struct StripeGateway {
    client: reqwest::Client,
    api_base: url::Url,
    key: StripeSecretKey,
    retries: StripeRetries,
    /// Stripe.js in the shopper's browser takes the card, when configured.
    browser: Option<StripeBrowser>,
}

impl std::fmt::Debug for StripeGateway {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StripeGateway")
            .field("api_base", &self.api_base.as_str())
            .field("key", &self.key)
            .field("retries", &self.retries)
            .field("browser", &self.browser)
            .finish()
    }
}

/// A status and body Stripe answered.
struct Answer {
    status: u16,
    body: String,
}

impl StripeGateway {
    /// `api_base` is [`STRIPE_API_BASE`] in production, a local server in tests.
    pub fn new(api_base: url::Url, key: StripeSecretKey) -> Self {
        Self {
            client: client(),
            api_base,
            key,
            retries: StripeRetries::default(),
            browser: None,
        }
    }

    /// The same gateway taking cards in the shopper's browser through Stripe.js (the
    /// Payment Element), so that no card reaches this server.
    pub fn with_browser(mut self, browser: StripeBrowser) -> Self {
        self.browser = Some(browser);
        self
    }

    pub fn with_retries(mut self, retries: StripeRetries) -> Self {
        self.retries = StripeRetries {
            attempts: retries.attempts.max(1),
            ..retries
        };
        self
    }

    /// The URL of the API path made of `segments` (each percent-encoded).
    fn url(&self, segments: &[&str]) -> Result<url::Url, PaymentError> {
        let mut url = self.api_base.clone();
        url.path_segments_mut()
            .map_err(|()| PaymentError::Unavailable("the Stripe API base is not a URL".into()))?
            .pop_if_empty()
            .push("v1")
            .extend(segments);
        Ok(url)
    }

    /// POSTs `form` under `idempotency_key`, again on failures worth retrying.
    async fn post(
        &self,
        url: url::Url,
        idempotency_key: &str,
        form: String,
    ) -> Result<Answer, PaymentError> {
        self.send(url, Some((idempotency_key, form))).await
    }

    /// Sends a POST of a form under its idempotency key, or a GET without either, again on
    /// failures worth retrying (a GET changes nothing, so it is always safe to repeat).
    async fn send(
        &self,
        url: url::Url,
        post: Option<(&str, String)>,
    ) -> Result<Answer, PaymentError> {
        let attempts = self.retries.attempts;
        let mut delay = self.retries.first_delay;
        // Whether any attempt may have reached Stripe and been carried out there: then a
        // failure of every attempt leaves the outcome unknown rather than nothing done.
        let mut maybe_done = false;
        for attempt in 1..=attempts {
            let last = attempt == attempts;
            let request = match &post {
                Some((idempotency_key, form)) => self
                    .client
                    .post(url.clone())
                    .header("Idempotency-Key", *idempotency_key)
                    .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
                    .body(form.clone()),
                None => self.client.get(url.clone()),
            };
            let sent = request
                .bearer_auth(self.key.expose())
                .header("Stripe-Version", STRIPE_API_VERSION)
                .timeout(self.retries.timeout)
                .send()
                .await;
            let failure = match sent {
                Ok(response) => {
                    let status = response.status().as_u16();
                    let should_retry = match response
                        .headers()
                        .get("stripe-should-retry")
                        .map(|value| value.as_bytes())
                    {
                        Some(b"true") => true,
                        Some(b"false") => false,
                        _ => status == 409 || status >= 500,
                    };
                    maybe_done |= status == 409 || status >= 500;
                    match response.text().await {
                        Ok(body) if !should_retry || last => return Ok(Answer { status, body }),
                        Ok(_) => format!("HTTP {status}"),
                        Err(error) => error.without_url().to_string(),
                    }
                }
                Err(error) => {
                    // Only a connection never made is sure to have done nothing.
                    maybe_done |= !error.is_connect();
                    error.without_url().to_string()
                }
            };
            if last {
                let detail = format!(
                    "Stripe did not answer {} after {attempts} attempts: {failure}",
                    url.path()
                );
                return Err(if maybe_done {
                    PaymentError::OutcomeUnknown(detail)
                } else {
                    PaymentError::Unavailable(detail)
                });
            }
            tracing::warn!(
                path = url.path(),
                attempt,
                failure,
                "a Stripe call failed; sending it again with the same idempotency key"
            );
            tokio::time::sleep(delay).await;
            delay = delay.saturating_mul(2);
        }
        unreachable!("at least one attempt is made")
    }

    /// Cancels an intent that waits for a verification this checkout cannot show, so that
    /// it cannot be completed later and does not linger as incomplete. Best effort: an
    /// unconfirmed intent charges nothing either way.
    async fn abandon(&self, id: &str) {
        let cancelled = match self.url(&["payment_intents", id, "cancel"]) {
            Ok(url) => self.post(url, &format!("cancel-{id}"), cancel_form()).await,
            Err(error) => Err(error),
        };
        match cancelled {
            Ok(Answer { status: 200, .. }) => {}
            Ok(Answer { status, .. }) => {
                tracing::warn!(payment_intent = id, status, "Stripe refused to cancel");
            }
            Err(error) => {
                tracing::warn!(payment_intent = id, %error, "cancelling at Stripe failed");
            }
        }
    }
}

#[async_trait]
impl PaymentGateway for StripeGateway {
    async fn charge(&self, request: &PaymentRequest) -> Result<Payment, PaymentError> {
        let url = self.url(&["payment_intents"])?;
        let answer = self
            .post(url, request.key.as_str(), charge_form(request))
            .await?;
        match read_charge(answer.status, &answer.body)? {
            ChargeAnswer::Succeeded { id } => Ok(Payment {
                id,
                amount_minor: request.amount_minor,
                currency: request.currency,
            }),
            ChargeAnswer::RequiresAction { id } => {
                // Decision: 3-D Secure needs the shopper's browser to show the bank's page
                // (Stripe.js), which the server-rendered checkout does not have yet; the
                // shopper is told so and may use another card.
                tracing::info!(
                    payment_intent = id,
                    "the card asks for 3-D Secure; the payment is abandoned"
                );
                self.abandon(&id).await;
                Err(PaymentError::Declined {
                    message: VERIFICATION_NEEDED_MESSAGE.to_owned(),
                })
            }
        }
    }

    async fn refund(&self, payment: &Payment) -> Result<(), PaymentError> {
        let url = self.url(&["refunds"])?;
        // One refund per payment, however often it is asked for.
        let answer = self
            .post(
                url,
                &format!("refund-{}", payment.id),
                refund_form(&payment.id),
            )
            .await?;
        read_refund(answer.status, &answer.body)?;
        tracing::info!(payment_intent = payment.id, "refunded at Stripe");
        Ok(())
    }

    async fn refund_part(&self, refund: &PartialRefund) -> Result<String, PaymentError> {
        let url = self.url(&["refunds"])?;
        let answer = self
            .post(
                url,
                &refund.key,
                part_refund_form(&refund.payment_id, refund.amount_minor),
            )
            .await?;
        let id = read_part_refund(answer.status, &answer.body)?;
        tracing::info!(
            payment_intent = refund.payment_id,
            refund = id,
            amount = refund.amount_minor,
            "refunded at Stripe"
        );
        Ok(id)
    }

    /// In test mode Stripe takes the test cards the checkout page names.
    fn is_test(&self) -> bool {
        self.key.is_test_mode()
    }

    fn browser_card_fields(&self) -> Option<BrowserCardFields> {
        self.browser.as_ref().map(StripeBrowser::card_fields)
    }

    /// `POST /v1/payment_intents` without a card and unconfirmed, under the attempt's key;
    /// for a card kept for renewals, first `POST /v1/customers` under `{key}-customer`, so
    /// the same attempt makes one customer however often it is opened.
    async fn open_intent(&self, request: &IntentRequest) -> Result<OpenIntent, PaymentError> {
        let customer = if request.save_for_renewals {
            let key = format!("{}-customer", request.key.as_str());
            let answer = self
                .post(
                    self.url(&["customers"])?,
                    &key,
                    customer_form(&request.email),
                )
                .await?;
            Some(recurring::created_id(
                answer.status,
                &answer.body,
                "Customer",
            )?)
        } else {
            None
        };
        let url = self.url(&["payment_intents"])?;
        let answer = self
            .post(
                url,
                request.key.as_str(),
                intent_form(request, customer.as_deref()),
            )
            .await?;
        read_open_intent(answer.status, &answer.body)
    }

    /// `GET /v1/payment_intents/{id}`: Stripe's own word on the intent.
    async fn intent_report(&self, id: &str) -> Result<IntentReport, PaymentError> {
        let url = self.url(&["payment_intents", id])?;
        let answer = self.send(url, None).await?;
        read_intent_report(answer.status, &answer.body)
    }

    /// `POST /v1/payment_intents/{id}/cancel` under `cancel-{id}`, so that servers asking at
    /// once cancel once. An intent Stripe will not cancel (it succeeded, or was cancelled
    /// before) is read back: its own state is the answer.
    async fn cancel_intent(&self, id: &str) -> Result<IntentReport, PaymentError> {
        let url = self.url(&["payment_intents", id, "cancel"])?;
        let answer = self
            .post(url, &format!("cancel-{id}"), cancel_form())
            .await?;
        if answer.status == 200 {
            return read_intent_report(answer.status, &answer.body);
        }
        tracing::info!(
            payment_intent = id,
            status = answer.status,
            "Stripe did not cancel the intent; reading what became of it"
        );
        self.intent_report(id).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_and_restricted_keys_are_taken_and_others_refused_without_repeating_them() {
        for key in [
            "sk_test_51Habc",
            "sk_live_51Habc",
            "rk_test_51H_x",
            " rk_live_9 ",
        ] {
            assert!(StripeSecretKey::parse(key).is_ok(), "{key}");
        }
        for key in [
            "",
            "sk_",
            "pk_test_51Habc",
            "whsec_abc",
            "sk_test_a b",
            "sk-test-1",
        ] {
            let error = StripeSecretKey::parse(key).unwrap_err().to_string();
            assert!(error.contains("sk_") && error.contains("rk_"), "{error}");
            assert!(key.len() < 4 || !error.contains(key.trim()), "{error}");
        }
        assert!(
            StripeSecretKey::parse("pk_live_1")
                .unwrap_err()
                .to_string()
                .contains("publishable")
        );
    }

    #[test]
    fn the_mode_follows_the_key_and_debug_hides_it() {
        let test = StripeSecretKey::parse("sk_test_51Hsecretpart").unwrap();
        let live = StripeSecretKey::parse("rk_live_51Hsecretpart").unwrap();
        assert!(test.is_test_mode());
        assert!(!live.is_test_mode());
        let gateway = StripeGateway::new(STRIPE_API_BASE.parse().unwrap(), test);
        assert!(gateway.is_test());
        let shown = format!("{gateway:?} {live:?}");
        assert!(!shown.contains("secretpart"), "{shown}");
        assert!(
            shown.contains("sk_test_") && shown.contains("rk_live_"),
            "{shown}"
        );
    }

    #[test]
    fn paths_are_joined_to_the_base_with_or_without_a_slash() {
        let key = StripeSecretKey::parse("sk_test_1").unwrap();
        for base in [
            "http://127.0.0.1:9",
            "http://127.0.0.1:9/",
            "http://h/stripe/",
        ] {
            let gateway = StripeGateway::new(base.parse().unwrap(), key.clone());
            let url = gateway
                .url(&["payment_intents", "pi_1/x", "cancel"])
                .unwrap();
            assert!(
                url.as_str()
                    .ends_with("/v1/payment_intents/pi_1%2Fx/cancel"),
                "{url}"
            );
            assert!(!url.as_str().contains("//v1"), "{url}");
        }
    }
}
