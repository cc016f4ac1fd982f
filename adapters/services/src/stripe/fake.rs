//! A local server speaking the part of Stripe's API the gateway uses, for tests (feature
//! `test-support`): `POST /v1/payment_intents` (create and confirm with a card),
//! `POST /v1/payment_intents/{id}/cancel` and `POST /v1/refunds`, form-encoded, behind
//! `Authorization: Bearer` with one secret key; and for renewals `POST /v1/payment_methods`,
//! `POST /v1/customers` and off-session intents on a saved customer and method
//! (`recurring_fake.rs`).
//!
//! It keeps Stripe's idempotency rules: the first answer to a key is saved once the endpoint
//! ran and is replayed (with `Idempotent-Replayed: true`) for the same key and parameters; the
//! same key with other parameters is a 400 `idempotency_error`; a key whose first request is
//! still running is a 409. Validation errors and injected server errors happen before the
//! endpoint runs, so nothing is saved for them. Cards behave as Stripe's test cards do.
//!
//! It also keeps the events Stripe would send to a webhook endpoint (`payment_intent.succeeded`
//! and `.payment_failed` for each charge, `.canceled` for each cancelled intent,
//! `charge.refunded` for each refund, and
//! `charge.dispute.created` for [`FakeStripe::dispute`]) and sends them, signed as Stripe
//! signs, when a test asks ([`FakeStripe::deliver_events`]): Stripe delivers later than it
//! answers, and at least once ([`FakeStripe::redeliver`]).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde_json::{Value, json};

/// The secret key the fake accepts.
pub const FAKE_SECRET_KEY: &str = "sk_test_vitrine_fake_stripe";

pub use super::browser_fake::BrowserStep;

/// The publishable key the fake's browser calls accept (from its stand-in of Stripe.js).
pub const FAKE_PUBLISHABLE_KEY: &str = "pk_test_vitrine_fake_stripe";

/// Stripe's test cards the fake knows; any other number is refused as a live card in test
/// mode, as Stripe does.
pub mod cards {
    pub const SUCCEEDS: &str = "4242424242424242";
    /// `card_declined`, `generic_decline`: "Your card was declined."
    pub const DECLINED: &str = "4000000000000002";
    /// `card_declined`, `insufficient_funds`: "Your card has insufficient funds."
    pub const INSUFFICIENT_FUNDS: &str = "4000000000009995";
    /// Always asks for 3-D Secure: the intent answers `requires_action`.
    pub const AUTHENTICATION_REQUIRED: &str = "4000002760003184";
    /// Asks for 3-D Secure on session; once set up for later payments (an intent with
    /// `setup_future_usage` the cardholder verified), off-session payments succeed.
    pub const AUTHENTICATION_UNLESS_SET_UP: &str = "4000002500003155";
}

/// A PaymentIntent the fake created.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FakePaymentIntent {
    pub id: String,
    pub amount: i64,
    pub currency: String,
    pub status: String,
    pub card_last4: String,
    pub receipt_email: String,
    pub description: String,
    pub metadata: BTreeMap<String, String>,
    pub idempotency_key: Option<String>,
    /// What the browser confirms the intent with; empty for intents confirmed at creation.
    pub client_secret: String,
    /// Where the bank's page sends the shopper back to, once confirmed in a browser.
    pub return_url: String,
    /// The bank's verification page of an intent that requires action in a browser.
    pub bank_url: String,
    /// The last attempt's card error: code, decline code and message.
    pub last_error: Option<(String, String, String)>,
    /// The Customer the intent is for; empty for none.
    pub customer: String,
    /// The PaymentMethod it was confirmed with; empty before, and after a failed attempt.
    pub payment_method: String,
    /// `off_session` when a success attaches the method to the customer; empty for none.
    pub setup_future_usage: String,
}

/// A refund the fake made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FakeRefund {
    pub id: String,
    pub payment_intent: String,
    /// What was given back, in minor units: the rest of the charge unless asked for less.
    pub amount: i64,
}

/// An event the fake would send to a webhook endpoint.
#[derive(Debug, Clone, PartialEq)]
pub struct FakeEvent {
    pub id: String,
    pub kind: String,
    /// The whole event as Stripe sends it.
    pub body: Value,
    /// Whether a delivery was answered with a 2xx.
    pub delivered: bool,
}

#[derive(Default)]
pub(super) struct Ledger {
    /// Where the fake listens, for the addresses of its bank pages.
    pub(super) base: String,
    pub(super) intents: Vec<FakePaymentIntent>,
    events: Vec<FakeEvent>,
    refunds: Vec<FakeRefund>,
    /// Saved cards and customers (`recurring_fake.rs`).
    pub(super) saved_cards: super::recurring_fake::SavedCards,
    /// Saved answers by idempotency key: the request's fingerprint, status and body.
    saved: HashMap<String, (String, u16, String)>,
    in_flight: HashSet<String>,
    pub(super) requests: usize,
    /// The next requests answered with this status before the endpoint runs.
    failures: Vec<u16>,
    /// How long the endpoint takes.
    delay: Duration,
}

pub(super) type Shared = Arc<Mutex<Ledger>>;

/// Where and how the fake sends its events.
struct WebhookEndpoint {
    url: url::Url,
    secret: crate::StripeWebhookSecret,
}

/// A running fake Stripe; it stops when dropped.
pub struct FakeStripe {
    base: url::Url,
    ledger: Shared,
    server: tokio::task::JoinHandle<()>,
    webhook: Option<WebhookEndpoint>,
}

impl FakeStripe {
    /// Starts on a free local port, on the current tokio runtime.
    pub async fn start() -> Self {
        Self::start_on(0).await
    }

    /// Starts on `127.0.0.1:port` (0: a free one), on the current tokio runtime.
    pub async fn start_on(port: u16) -> Self {
        let ledger = Shared::default();
        let app = Router::new()
            .route("/v1/payment_intents", post(create_intent))
            .route("/v1/payment_intents/{id}/cancel", post(cancel_intent))
            .route(
                "/v1/payment_intents/{id}",
                axum::routing::get(super::browser_fake::retrieve_intent),
            )
            .route(
                "/v1/payment_intents/{id}/confirm",
                post(super::browser_fake::confirm_intent),
            )
            .route("/v1/refunds", post(create_refund))
            .route(
                "/v1/payment_methods",
                post(super::browser_fake::create_payment_method),
            )
            .route(
                "/bank/{id}",
                axum::routing::get(super::browser_fake::bank_page)
                    .post(super::browser_fake::bank_answer),
            )
            .route(
                super::browser_fake::SCRIPT_PATH,
                axum::routing::get(super::browser_fake::script),
            )
            .route(
                "/v1/customers",
                post(super::recurring_fake::create_customer),
            )
            .fallback(|| async {
                stripe_error(
                    StatusCode::NOT_FOUND,
                    "invalid_request_error",
                    None,
                    "Unrecognized request URL.",
                )
            })
            .with_state(ledger.clone());
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
            .await
            .expect("a local port");
        let base = format!("http://{}", listener.local_addr().expect("a bound address"));
        lock(&ledger).base = base.clone();
        let server = tokio::spawn(async move {
            axum::serve(listener, app).await.expect("the fake serves");
        });
        Self {
            base: base.parse().expect("a URL"),
            ledger,
            server,
            webhook: None,
        }
    }

    /// Sends events to `url`, signed with `secret`, when [`Self::deliver_events`] is called.
    pub fn with_webhook(mut self, url: url::Url, secret: crate::StripeWebhookSecret) -> Self {
        self.webhook = Some(WebhookEndpoint { url, secret });
        self
    }

    /// Every event so far, oldest first.
    pub fn events(&self) -> Vec<FakeEvent> {
        lock(&self.ledger).events.clone()
    }

    /// Opens a dispute on the PaymentIntent `payment_intent`, as a card holder's bank does:
    /// a `charge.dispute.created` event.
    pub fn dispute(&self, payment_intent: &str) {
        let mut ledger = lock(&self.ledger);
        let number = ledger.events.len() + 1;
        push_event(
            &mut ledger,
            "charge.dispute.created",
            json!({
                "id": format!("dp_fake{number:06}"),
                "object": "dispute",
                "charge": charge_id(payment_intent),
                "payment_intent": payment_intent,
                "reason": "fraudulent",
                "status": "needs_response",
            }),
        );
    }

    /// Sends every event not yet taken to the webhook endpoint, oldest first, each signed
    /// now; answers the status each delivery got. An event answered with anything but a 2xx
    /// is sent again by the next call, as Stripe retries.
    pub async fn deliver_events(&self) -> Vec<u16> {
        let pending: Vec<FakeEvent> = lock(&self.ledger)
            .events
            .iter()
            .filter(|event| !event.delivered)
            .cloned()
            .collect();
        let mut statuses = Vec::new();
        for event in pending {
            statuses.push(self.send(&event).await);
        }
        statuses
    }

    /// Sends the event `id` again, taken before or not; answers the status it got.
    pub async fn redeliver(&self, id: &str) -> u16 {
        let event = lock(&self.ledger)
            .events
            .iter()
            .find(|event| event.id == id)
            .cloned()
            .expect("the fake made this event");
        self.send(&event).await
    }

    async fn send(&self, event: &FakeEvent) -> u16 {
        let endpoint = self
            .webhook
            .as_ref()
            .expect("a webhook endpoint (FakeStripe::with_webhook)");
        let body = event.body.to_string();
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.as_secs() as i64);
        let status = crate::http_client::client()
            .post(endpoint.url.clone())
            .header("content-type", "application/json; charset=utf-8")
            .header(
                crate::STRIPE_SIGNATURE_HEADER,
                endpoint.secret.signature_header(now, body.as_bytes()),
            )
            .body(body)
            .send()
            .await
            .map_or(0, |response| response.status().as_u16());
        if (200..300).contains(&status)
            && let Some(stored) = lock(&self.ledger)
                .events
                .iter_mut()
                .find(|stored| stored.id == event.id)
        {
            stored.delivered = true;
        }
        status
    }

    /// The URL to give the gateway as its API base.
    pub fn base(&self) -> &url::Url {
        &self.base
    }

    pub(super) fn ledger(&self) -> &Shared {
        &self.ledger
    }

    pub fn payment_intents(&self) -> Vec<FakePaymentIntent> {
        lock(&self.ledger).intents.clone()
    }

    pub fn refunds(&self) -> Vec<FakeRefund> {
        lock(&self.ledger).refunds.clone()
    }

    /// Every request that reached the fake, refused ones included.
    pub fn requests(&self) -> usize {
        lock(&self.ledger).requests
    }

    /// Answers the next `count` requests with `status` (500: `api_error`; 429:
    /// `rate_limit_error`) before any endpoint runs, so nothing is saved for their keys.
    pub fn fail_next(&self, count: usize, status: u16) {
        lock(&self.ledger)
            .failures
            .extend(std::iter::repeat_n(status, count));
    }

    /// Makes every endpoint take `delay` from now on, with its key in flight meanwhile.
    pub fn slow_down(&self, delay: Duration) {
        lock(&self.ledger).delay = delay;
    }
}

impl Drop for FakeStripe {
    fn drop(&mut self) {
        self.server.abort();
    }
}

pub(super) fn lock(ledger: &Shared) -> MutexGuard<'_, Ledger> {
    ledger
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

pub(super) fn stripe_error(
    status: StatusCode,
    kind: &str,
    code: Option<&str>,
    message: &str,
) -> Response {
    let body = json!({ "error": { "type": kind, "code": code, "message": message } });
    (status, body.to_string()).into_response()
}

/// What an endpoint did: its status, body, and whether it ran (so the answer is saved).
pub(super) struct Outcome {
    pub(super) status: StatusCode,
    pub(super) body: Value,
    ran: bool,
}

impl Outcome {
    pub(super) fn ran(status: StatusCode, body: Value) -> Self {
        Self {
            status,
            body,
            ran: true,
        }
    }

    /// Refused before the endpoint ran: a missing or invalid parameter.
    pub(super) fn invalid(param: &str, message: String) -> Self {
        Self {
            status: StatusCode::BAD_REQUEST,
            body: json!({ "error": {
                "type": "invalid_request_error",
                "code": "parameter_invalid",
                "param": param,
                "message": message,
            }}),
            ran: false,
        }
    }
}

pub(super) type Form = BTreeMap<String, String>;

/// Authentication, injected failures and idempotency around one endpoint.
pub(super) async fn handle(
    ledger: &Shared,
    path: &str,
    headers: &HeaderMap,
    body: &Bytes,
    endpoint: impl FnOnce(&mut Ledger, &Form, Option<&str>) -> Outcome + Send + 'static,
) -> Response {
    let key = headers
        .get("idempotency-key")
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned);
    {
        let mut state = lock(ledger);
        state.requests += 1;
        let expected = format!("Bearer {FAKE_SECRET_KEY}");
        if headers.get("authorization").map(HeaderValue::as_bytes) != Some(expected.as_bytes()) {
            return stripe_error(
                StatusCode::UNAUTHORIZED,
                "invalid_request_error",
                None,
                "Invalid API Key provided: sk_test_********",
            );
        }
        if let Some(version) = headers.get("stripe-version")
            && version.as_bytes() != crate::STRIPE_API_VERSION.as_bytes()
        {
            return stripe_error(
                StatusCode::BAD_REQUEST,
                "invalid_request_error",
                None,
                "Invalid Stripe API version.",
            );
        }
        let form_encoded = headers
            .get("content-type")
            .is_some_and(|value| value.as_bytes() == b"application/x-www-form-urlencoded");
        if !form_encoded {
            return stripe_error(
                StatusCode::BAD_REQUEST,
                "invalid_request_error",
                None,
                "Invalid request: bodies are form-encoded.",
            );
        }
        if !state.failures.is_empty() {
            return match state.failures.remove(0) {
                429 => stripe_error(
                    StatusCode::TOO_MANY_REQUESTS,
                    "rate_limit_error",
                    Some("rate_limit"),
                    "Too many requests hit the API too quickly.",
                ),
                status => stripe_error(
                    StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
                    "api_error",
                    None,
                    "An unknown error occurred.",
                ),
            };
        }
        if let Some(key) = &key {
            let fingerprint = format!("{path}?{}", String::from_utf8_lossy(body));
            if state.in_flight.contains(key) {
                return stripe_error(
                    StatusCode::CONFLICT,
                    "idempotency_error",
                    Some("idempotency_key_in_use"),
                    "There is currently another in-progress request using this Stripe API key and idempotency key. Please try again later.",
                );
            }
            if let Some((first, status, saved)) = state.saved.get(key) {
                if *first != fingerprint {
                    return stripe_error(
                        StatusCode::BAD_REQUEST,
                        "idempotency_error",
                        None,
                        "Keys for idempotent requests can only be used with the same parameters they were first used with.",
                    );
                }
                let status = StatusCode::from_u16(*status).unwrap_or(StatusCode::OK);
                return (status, [("idempotent-replayed", "true")], saved.clone()).into_response();
            }
            state.in_flight.insert(key.clone());
        }
    }
    // Stripe finishes what it started even when the caller has gone (a timeout): the
    // endpoint runs apart from this request, which only waits for it.
    let ledger = ledger.clone();
    let path = path.to_owned();
    let body = body.clone();
    let work = tokio::spawn(async move {
        let delay = lock(&ledger).delay;
        tokio::time::sleep(delay).await;
        let form: Form = url::form_urlencoded::parse(&body).into_owned().collect();
        let mut state = lock(&ledger);
        let outcome = endpoint(&mut state, &form, key.as_deref());
        let text = outcome.body.to_string();
        if let Some(key) = key {
            state.in_flight.remove(&key);
            if outcome.ran {
                let fingerprint = format!("{path}?{}", String::from_utf8_lossy(&body));
                state
                    .saved
                    .insert(key, (fingerprint, outcome.status.as_u16(), text.clone()));
            }
        }
        (outcome.status, text)
    });
    match work.await {
        Ok(answer) => answer.into_response(),
        Err(_) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    }
}

pub(super) fn intent_json(intent: &FakePaymentIntent) -> Value {
    let mut body = json!({
        "id": intent.id,
        "object": "payment_intent",
        "amount": intent.amount,
        "currency": intent.currency,
        "status": intent.status,
        "receipt_email": intent.receipt_email,
        "description": intent.description,
        "metadata": intent.metadata,
        "payment_method_types": ["card"],
        "last_payment_error": null,
        "next_action": null,
        "customer": null,
        "payment_method": null,
        "setup_future_usage": null,
    });
    for (name, value) in [
        ("customer", &intent.customer),
        ("payment_method", &intent.payment_method),
        ("setup_future_usage", &intent.setup_future_usage),
    ] {
        if !value.is_empty() {
            body[name] = json!(value);
        }
    }
    if !intent.client_secret.is_empty() {
        body["client_secret"] = json!(intent.client_secret);
    }
    if let Some((code, decline_code, message)) = &intent.last_error {
        body["last_payment_error"] = json!({
            "type": "card_error",
            "code": code,
            "decline_code": decline_code,
            "message": message,
        });
    }
    if intent.status == "requires_action" {
        body["next_action"] = if intent.return_url.is_empty() {
            json!({ "type": "use_stripe_sdk", "use_stripe_sdk": {} })
        } else {
            super::browser_fake::redirect_action(intent)
        };
    }
    body
}

/// The `metadata[...]` fields of a form.
pub(super) fn metadata_of(form: &Form) -> BTreeMap<String, String> {
    form.iter()
        .filter_map(|(name, value)| {
            let inner = name.strip_prefix("metadata[")?.strip_suffix(']')?;
            Some((inner.to_owned(), value.clone()))
        })
        .collect()
}

/// The Charge id the fake gives a PaymentIntent's charge.
fn charge_id(payment_intent: &str) -> String {
    format!("ch_{}", payment_intent.trim_start_matches("pi_"))
}

/// Keeps an event about `object` for the webhook endpoint.
pub(super) fn push_event(state: &mut Ledger, kind: &str, object: Value) {
    let id = format!("evt_fake{:06}", state.events.len() + 1);
    let body = json!({
        "id": id,
        "object": "event",
        "api_version": crate::STRIPE_API_VERSION,
        "type": kind,
        "livemode": false,
        "data": { "object": object },
    });
    state.events.push(FakeEvent {
        id,
        kind: kind.to_owned(),
        body,
        delivered: false,
    });
}

pub(super) fn card_error(intent: &FakePaymentIntent, decline_code: &str, message: &str) -> Outcome {
    let error = json!({
        "type": "card_error",
        "code": "card_declined",
        "decline_code": decline_code,
        "message": message,
        "doc_url": "https://stripe.com/docs/error-codes/card-declined",
    });
    let mut intent_body = intent_json(intent);
    intent_body["last_payment_error"] = error.clone();
    let mut error = error;
    error["payment_intent"] = intent_body;
    Outcome::ran(StatusCode::PAYMENT_REQUIRED, json!({ "error": error }))
}

async fn create_intent(State(ledger): State<Shared>, headers: HeaderMap, body: Bytes) -> Response {
    handle(&ledger, "/v1/payment_intents", &headers, &body, |state, form, key| {
        let field = |name: &str| form.get(name).map(String::as_str).unwrap_or_default();
        let Some(amount) = field("amount").parse::<i64>().ok().filter(|a| *a > 0) else {
            return Outcome::invalid("amount", "Invalid positive integer".into());
        };
        let currency = field("currency");
        if currency.len() != 3 || !currency.bytes().all(|b| b.is_ascii_lowercase()) {
            return Outcome::invalid("currency", format!("Invalid currency: {currency}"));
        }
        if !form.contains_key("confirm") {
            return super::browser_fake::open_intent(state, form, key, amount, currency);
        }
        for (name, wanted) in [
            ("confirm", "true"),
            ("payment_method_types[0]", "card"),
            ("payment_method_data[type]", "card"),
        ] {
            let off_session = name == "payment_method_data[type]" && form.contains_key("customer");
            if field(name) != wanted && !off_session {
                return Outcome::invalid(name, format!("This fake expects {name}={wanted}."));
            }
        }
        // An off-session renewal names a saved customer and card instead of card data.
        let saved_number;
        let number = if form.contains_key("customer") {
            match super::recurring_fake::saved_card(state, form) {
                Ok(found) => {
                    saved_number = found;
                    saved_number.as_str()
                }
                Err(refusal) => return refusal,
            }
        } else {
            field("payment_method_data[card][number]")
        };
        for name in ["exp_month", "exp_year", "cvc"] {
            let name = format!("payment_method_data[card][{name}]");
            if !form.contains_key("customer") && (field(&name).is_empty() || number.is_empty()) {
                return Outcome::invalid(&name, format!("Missing required param: {name}."));
            }
        }
        let metadata = metadata_of(form);
        let mut intent = FakePaymentIntent {
            id: format!("pi_fake{:06}", state.intents.len() + 1),
            amount,
            currency: currency.to_owned(),
            status: "requires_payment_method".into(),
            card_last4: number[number.len().saturating_sub(4)..].to_owned(),
            receipt_email: field("receipt_email").to_owned(),
            description: field("description").to_owned(),
            metadata,
            idempotency_key: key.map(str::to_owned),
            client_secret: String::new(),
            return_url: String::new(),
            bank_url: String::new(),
            last_error: None,
            customer: field("customer").to_owned(),
            payment_method: field("payment_method").to_owned(),
            setup_future_usage: String::new(),
        };
        let outcome = match number {
            cards::SUCCEEDS => {
                intent.status = "succeeded".into();
                Outcome::ran(StatusCode::OK, intent_json(&intent))
            }
            // Off session nobody can answer the bank: Stripe declines with
            // `authentication_required`.
            cards::AUTHENTICATION_UNLESS_SET_UP
                if super::recurring_fake::is_set_up(state, field("payment_method")) =>
            {
                intent.status = "succeeded".into();
                Outcome::ran(StatusCode::OK, intent_json(&intent))
            }
            cards::AUTHENTICATION_REQUIRED | cards::AUTHENTICATION_UNLESS_SET_UP
                if form.contains_key("customer") =>
            {
                card_error(
                    &intent,
                    "authentication_required",
                    "Your card was declined. This transaction requires authentication.",
                )
            }
            cards::AUTHENTICATION_REQUIRED | cards::AUTHENTICATION_UNLESS_SET_UP => {
                intent.status = "requires_action".into();
                Outcome::ran(StatusCode::OK, intent_json(&intent))
            }
            cards::DECLINED => card_error(&intent, "generic_decline", "Your card was declined."),
            cards::INSUFFICIENT_FUNDS => card_error(
                &intent,
                "insufficient_funds",
                "Your card has insufficient funds.",
            ),
            _ => card_error(
                &intent,
                "live_mode_test_card",
                "Your card was declined. Your request was in test mode, but used a non test (live) card. For a list of valid test cards, visit: https://stripe.com/docs/testing.",
            ),
        };
        let kind = match intent.status.as_str() {
            "succeeded" => Some("payment_intent.succeeded"),
            "requires_payment_method" => Some("payment_intent.payment_failed"),
            _ => None,
        };
        if let Some(kind) = kind {
            push_event(state, kind, intent_json(&intent));
        }
        state.intents.push(intent);
        outcome
    })
    .await
}

async fn cancel_intent(
    State(ledger): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let path = format!("/v1/payment_intents/{id}/cancel");
    handle(&ledger, &path, &headers, &body, move |state, _, _| {
        let Some(intent) = state.intents.iter_mut().find(|intent| intent.id == id) else {
            return missing(&id);
        };
        if matches!(intent.status.as_str(), "succeeded" | "canceled") {
            return Outcome::ran(
                StatusCode::BAD_REQUEST,
                json!({ "error": {
                    "type": "invalid_request_error",
                    "code": "payment_intent_unexpected_state",
                    "message": format!("You cannot cancel this PaymentIntent because it has a status of {}.", intent.status),
                }}),
            );
        }
        intent.status = "canceled".into();
        let body = intent_json(intent);
        push_event(state, "payment_intent.canceled", body.clone());
        Outcome::ran(StatusCode::OK, body)
    })
    .await
}

async fn create_refund(State(ledger): State<Shared>, headers: HeaderMap, body: Bytes) -> Response {
    handle(&ledger, "/v1/refunds", &headers, &body, |state, form, _| {
        let Some(id) = form.get("payment_intent") else {
            return Outcome::invalid(
                "payment_intent",
                "Missing required param: payment_intent.".into(),
            );
        };
        let Some(intent) = state.intents.iter().find(|intent| &intent.id == id) else {
            return missing(id);
        };
        if intent.status != "succeeded" {
            return Outcome::ran(
                StatusCode::BAD_REQUEST,
                json!({ "error": {
                    "type": "invalid_request_error",
                    "code": "charge_not_refundable",
                    "message": "This PaymentIntent does not have a successful charge to refund.",
                }}),
            );
        }
        // Refunds of a charge add up to at most its amount, as at Stripe.
        let given_back: i64 = state
            .refunds
            .iter()
            .filter(|refund| &refund.payment_intent == id)
            .map(|refund| refund.amount)
            .sum();
        let left = intent.amount - given_back;
        if left <= 0 {
            return Outcome::ran(
                StatusCode::BAD_REQUEST,
                json!({ "error": {
                    "type": "invalid_request_error",
                    "code": "charge_already_refunded",
                    "message": format!("Charge for {id} has already been refunded."),
                }}),
            );
        }
        let amount = match form.get("amount").map(|text| text.parse::<i64>()) {
            None => left,
            Some(Ok(amount)) if amount > 0 && amount <= left => amount,
            Some(_) => {
                return Outcome::invalid(
                    "amount",
                    format!("Refund amount must be a positive integer of at most {left}."),
                );
            }
        };
        let refund = FakeRefund {
            id: format!("re_fake{:06}", state.refunds.len() + 1),
            payment_intent: id.clone(),
            amount,
        };
        let body = json!({
            "id": refund.id,
            "object": "refund",
            "amount": amount,
            "currency": intent.currency,
            "payment_intent": id,
            "status": "succeeded",
        });
        let refunded_in_all = given_back + amount;
        let charge = json!({
            "id": charge_id(id),
            "object": "charge",
            "amount": intent.amount,
            "amount_refunded": refunded_in_all,
            "currency": intent.currency,
            "payment_intent": id,
            "refunded": refunded_in_all == intent.amount,
            "metadata": intent.metadata,
        });
        state.refunds.push(refund);
        push_event(state, "charge.refunded", charge);
        Outcome::ran(StatusCode::OK, body)
    })
    .await
}

pub(super) fn missing(id: &str) -> Outcome {
    Outcome::ran(
        StatusCode::NOT_FOUND,
        json!({ "error": {
            "type": "invalid_request_error",
            "code": "resource_missing",
            "message": format!("No such payment_intent: '{id}'"),
        }}),
    )
}
