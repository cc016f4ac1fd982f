//! A local server speaking the part of Stripe's API the gateway uses, for tests (feature
//! `test-support`): `POST /v1/payment_intents` (create and confirm with a card),
//! `POST /v1/payment_intents/{id}/cancel` and `POST /v1/refunds`, form-encoded, behind
//! `Authorization: Bearer` with one secret key.
//!
//! It keeps Stripe's idempotency rules: the first answer to a key is saved once the endpoint
//! ran and is replayed (with `Idempotent-Replayed: true`) for the same key and parameters; the
//! same key with other parameters is a 400 `idempotency_error`; a key whose first request is
//! still running is a 409. Validation errors and injected server errors happen before the
//! endpoint runs, so nothing is saved for them. Cards behave as Stripe's test cards do.

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
}

/// A refund the fake made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FakeRefund {
    pub id: String,
    pub payment_intent: String,
}

#[derive(Default)]
struct Ledger {
    intents: Vec<FakePaymentIntent>,
    refunds: Vec<FakeRefund>,
    /// Saved answers by idempotency key: the request's fingerprint, status and body.
    saved: HashMap<String, (String, u16, String)>,
    in_flight: HashSet<String>,
    requests: usize,
    /// The next requests answered with this status before the endpoint runs.
    failures: Vec<u16>,
    /// How long the endpoint takes.
    delay: Duration,
}

type Shared = Arc<Mutex<Ledger>>;

/// A running fake Stripe; it stops when dropped.
pub struct FakeStripe {
    base: url::Url,
    ledger: Shared,
    server: tokio::task::JoinHandle<()>,
}

impl FakeStripe {
    /// Starts on a free local port, on the current tokio runtime.
    pub async fn start() -> Self {
        let ledger = Shared::default();
        let app = Router::new()
            .route("/v1/payment_intents", post(create_intent))
            .route("/v1/payment_intents/{id}/cancel", post(cancel_intent))
            .route("/v1/refunds", post(create_refund))
            .fallback(|| async {
                stripe_error(
                    StatusCode::NOT_FOUND,
                    "invalid_request_error",
                    None,
                    "Unrecognized request URL.",
                )
            })
            .with_state(ledger.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a local port");
        let base = format!("http://{}", listener.local_addr().expect("a bound address"));
        let server = tokio::spawn(async move {
            axum::serve(listener, app).await.expect("the fake serves");
        });
        Self {
            base: base.parse().expect("a URL"),
            ledger,
            server,
        }
    }

    /// The URL to give the gateway as its API base.
    pub fn base(&self) -> &url::Url {
        &self.base
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

fn lock(ledger: &Shared) -> MutexGuard<'_, Ledger> {
    ledger
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn stripe_error(status: StatusCode, kind: &str, code: Option<&str>, message: &str) -> Response {
    let body = json!({ "error": { "type": kind, "code": code, "message": message } });
    (status, body.to_string()).into_response()
}

/// What an endpoint did: its status, body, and whether it ran (so the answer is saved).
struct Outcome {
    status: StatusCode,
    body: Value,
    ran: bool,
}

impl Outcome {
    fn ran(status: StatusCode, body: Value) -> Self {
        Self {
            status,
            body,
            ran: true,
        }
    }

    /// Refused before the endpoint ran: a missing or invalid parameter.
    fn invalid(param: &str, message: String) -> Self {
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

type Form = BTreeMap<String, String>;

/// Authentication, injected failures and idempotency around one endpoint.
async fn handle(
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

fn intent_json(intent: &FakePaymentIntent) -> Value {
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
    });
    if intent.status == "requires_action" {
        body["next_action"] = json!({ "type": "use_stripe_sdk", "use_stripe_sdk": {} });
    }
    body
}

fn card_error(intent: &FakePaymentIntent, decline_code: &str, message: &str) -> Outcome {
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
        for (name, wanted) in [
            ("confirm", "true"),
            ("payment_method_types[0]", "card"),
            ("payment_method_data[type]", "card"),
        ] {
            if field(name) != wanted {
                return Outcome::invalid(name, format!("This fake expects {name}={wanted}."));
            }
        }
        let number = field("payment_method_data[card][number]");
        for name in ["exp_month", "exp_year", "cvc"] {
            let name = format!("payment_method_data[card][{name}]");
            if field(&name).is_empty() || number.is_empty() {
                return Outcome::invalid(&name, format!("Missing required param: {name}."));
            }
        }
        let metadata = form
            .iter()
            .filter_map(|(name, value)| {
                let inner = name.strip_prefix("metadata[")?.strip_suffix(']')?;
                Some((inner.to_owned(), value.clone()))
            })
            .collect();
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
        };
        let outcome = match number {
            cards::SUCCEEDS => {
                intent.status = "succeeded".into();
                Outcome::ran(StatusCode::OK, intent_json(&intent))
            }
            cards::AUTHENTICATION_REQUIRED => {
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
        Outcome::ran(StatusCode::OK, intent_json(intent))
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
        if state
            .refunds
            .iter()
            .any(|refund| &refund.payment_intent == id)
        {
            return Outcome::ran(
                StatusCode::BAD_REQUEST,
                json!({ "error": {
                    "type": "invalid_request_error",
                    "code": "charge_already_refunded",
                    "message": format!("Charge for {id} has already been refunded."),
                }}),
            );
        }
        let refund = FakeRefund {
            id: format!("re_fake{:06}", state.refunds.len() + 1),
            payment_intent: id.clone(),
        };
        let body = json!({
            "id": refund.id,
            "object": "refund",
            "amount": intent.amount,
            "currency": intent.currency,
            "payment_intent": id,
            "status": "succeeded",
        });
        state.refunds.push(refund);
        Outcome::ran(StatusCode::OK, body)
    })
    .await
}

fn missing(id: &str) -> Outcome {
    Outcome::ran(
        StatusCode::NOT_FOUND,
        json!({ "error": {
            "type": "invalid_request_error",
            "code": "resource_missing",
            "message": format!("No such payment_intent: '{id}'"),
        }}),
    )
}
