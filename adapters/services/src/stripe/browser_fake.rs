//! The fake Stripe's half for the shopper's browser: intents opened without a card for the
//! browser to confirm (with their client secret), `GET /v1/payment_intents/{id}` for the
//! server to ask what became of one, the calls its stand-in of Stripe.js makes with the
//! publishable key (`POST /v1/payment_methods` from the typed card, `POST
//! /v1/payment_intents/{id}/confirm` with the client secret), the bank's verification page
//! an intent needing 3-D Secure redirects to (approve or fail, then back to the shop's return
//! address with Stripe's query parameters), and the stand-in script itself at [`SCRIPT_PATH`].
//!
//! The browser's calls come from the shop's origin, so they answer with
//! `Access-Control-Allow-Origin: *`, as Stripe's API does for publishable-key calls.

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::header::{ACCESS_CONTROL_ALLOW_ORIGIN, CONTENT_TYPE, LOCATION};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use serde_json::json;

use super::fake::{
    FAKE_PUBLISHABLE_KEY, FAKE_SECRET_KEY, FakePaymentIntent, Form, Ledger, Outcome, Shared, cards,
    intent_json, lock, metadata_of, missing, push_event, stripe_error,
};

/// Where the fake serves its stand-in of Stripe.js, as `https://js.stripe.com/v3/`.
pub(super) const SCRIPT_PATH: &str = "/v3/";

/// The stand-in of Stripe.js: `Stripe(key)`, `elements()`, the Payment Element's card fields,
/// `elements.submit()` and `confirmPayment()`, speaking to the server that served it.
const SCRIPT: &str = include_str!("stripe_js_double.js");

/// What the bank says when the shopper fails its verification (Stripe's text).
const AUTHENTICATION_FAILED: &str = "We are unable to authenticate your payment method. Please choose a different payment method and try again.";

/// Opens an intent for the browser to confirm (`POST /v1/payment_intents` without `confirm`).
pub(super) fn open_intent(
    state: &mut Ledger,
    form: &Form,
    key: Option<&str>,
    amount: i64,
    currency: &str,
) -> Outcome {
    if form.get("payment_method_types[0]").map(String::as_str) != Some("card") {
        return Outcome::invalid(
            "payment_method_types[0]",
            "This fake expects payment_method_types[0]=card.".into(),
        );
    }
    let field = |name: &str| form.get(name).cloned().unwrap_or_default();
    let customer = field("customer");
    if !customer.is_empty() && !super::recurring_fake::has_customer(state, &customer) {
        return Outcome::ran(
            StatusCode::BAD_REQUEST,
            json!({ "error": {
                "type": "invalid_request_error",
                "code": "resource_missing",
                "param": "customer",
                "message": format!("No such customer: '{customer}'"),
            }}),
        );
    }
    let setup_future_usage = field("setup_future_usage");
    if !matches!(
        setup_future_usage.as_str(),
        "" | "off_session" | "on_session"
    ) {
        return Outcome::invalid(
            "setup_future_usage",
            "Invalid setup_future_usage: must be one of on_session or off_session".into(),
        );
    }
    let id = format!("pi_fake{:06}", state.intents.len() + 1);
    let intent = FakePaymentIntent {
        client_secret: format!("{id}_secret_fake{:04}", state.requests),
        id,
        amount,
        currency: currency.to_owned(),
        status: "requires_payment_method".into(),
        card_last4: String::new(),
        receipt_email: field("receipt_email"),
        description: field("description"),
        metadata: metadata_of(form),
        idempotency_key: key.map(str::to_owned),
        return_url: String::new(),
        bank_url: String::new(),
        last_error: None,
        customer,
        payment_method: String::new(),
        setup_future_usage,
    };
    let body = intent_json(&intent);
    state.intents.push(intent);
    Outcome::ran(StatusCode::OK, body)
}

/// The `next_action` of an intent confirmed in a browser that waits for its bank.
pub(super) fn redirect_action(intent: &FakePaymentIntent) -> serde_json::Value {
    json!({
        "type": "redirect_to_url",
        "redirect_to_url": { "url": intent.bank_url, "return_url": intent.return_url },
    })
}

/// `GET /v1/payment_intents/{id}` with the secret key, or from the browser with the
/// publishable key and the intent's client secret (as Stripe.js reads an intent).
pub(super) async fn retrieve_intent(
    State(ledger): State<Shared>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    let mut state = lock(&ledger);
    state.requests += 1;
    if !headers.contains_key("authorization") {
        // Stripe.js reads an intent with the publishable key and its client secret.
        let query: Form = url::form_urlencoded::parse(query.unwrap_or_default().as_bytes())
            .into_owned()
            .collect();
        if query.get("key").map(String::as_str) != Some(FAKE_PUBLISHABLE_KEY) {
            return wrong_key();
        }
        let secret = query.get("client_secret").cloned().unwrap_or_default();
        return answer(
            match state.intents.iter().find(|intent| {
                intent.id == id && !secret.is_empty() && intent.client_secret == secret
            }) {
                Some(intent) => Outcome::ran(StatusCode::OK, intent_json(intent)),
                None => missing(&id),
            },
        );
    }
    let expected = format!("Bearer {FAKE_SECRET_KEY}");
    if headers.get("authorization").map(HeaderValue::as_bytes) != Some(expected.as_bytes()) {
        return stripe_error(
            StatusCode::UNAUTHORIZED,
            "invalid_request_error",
            None,
            "Invalid API Key provided: sk_test_********",
        );
    }
    let outcome = match state.intents.iter().find(|intent| intent.id == id) {
        Some(intent) => Outcome::ran(StatusCode::OK, intent_json(intent)),
        None => missing(&id),
    };
    (outcome.status, outcome.body.to_string()).into_response()
}

/// A browser's call: the form, when its publishable key is the fake's (else `wrong_key`).
fn browser_call(state: &mut Ledger, body: &Bytes) -> Option<Form> {
    state.requests += 1;
    let form: Form = url::form_urlencoded::parse(body).into_owned().collect();
    (form.get("key").map(String::as_str) == Some(FAKE_PUBLISHABLE_KEY)).then_some(form)
}

/// Stripe's answer to a browser call with another publishable key.
fn wrong_key() -> Response {
    cors(stripe_error(
        StatusCode::UNAUTHORIZED,
        "invalid_request_error",
        None,
        "Invalid API Key provided: pk_test_********",
    ))
}

fn cors(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
    response
}

fn answer(outcome: Outcome) -> Response {
    cors((outcome.status, outcome.body.to_string()).into_response())
}

/// `POST /v1/payment_methods`: from the browser with the publishable key (the card the
/// shopper typed), or from the server with the secret key (a renewal's saved card).
pub(super) async fn create_payment_method(
    State(ledger): State<Shared>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    if headers.contains_key("authorization") {
        return super::recurring_fake::create_payment_method(State(ledger), headers, body).await;
    }
    let mut state = lock(&ledger);
    match browser_call(&mut state, &body) {
        Some(form) => answer(super::recurring_fake::keep_card(&mut state, &form)),
        None => wrong_key(),
    }
}

/// `POST /v1/payment_intents/{id}/confirm` from the browser: the client secret proves the
/// browser was handed this intent; the card decides, as Stripe's test cards do.
pub(super) async fn confirm_intent(
    State(ledger): State<Shared>,
    Path(id): Path<String>,
    body: Bytes,
) -> Response {
    let mut state = lock(&ledger);
    let Some(form) = browser_call(&mut state, &body) else {
        return wrong_key();
    };
    let field = |name: &str| form.get(name).cloned().unwrap_or_default();
    let Some(number) = super::recurring_fake::card_of(&state, &field("payment_method")) else {
        return answer(missing(&field("payment_method")));
    };
    let base = state.base.clone();
    let Some(intent) = state.intents.iter_mut().find(|intent| intent.id == id) else {
        return answer(missing(&id));
    };
    if intent.client_secret.is_empty() || field("client_secret") != intent.client_secret {
        return answer(Outcome::invalid(
            "client_secret",
            "The client_secret provided does not match any associated PaymentIntent on this account.".into(),
        ));
    }
    if intent.status != "requires_payment_method" {
        return answer(Outcome::ran(
            StatusCode::BAD_REQUEST,
            json!({ "error": {
                "type": "invalid_request_error",
                "code": "payment_intent_unexpected_state",
                "message": format!("You cannot confirm this PaymentIntent because it has a status of {}.", intent.status),
            }}),
        ));
    }
    intent.card_last4 = number[number.len().saturating_sub(4)..].to_owned();
    intent.return_url = field("return_url");
    intent.last_error = None;
    intent.payment_method = field("payment_method");
    let declined = |code: &str, message: &str| {
        Some((
            "card_declined".to_owned(),
            code.to_owned(),
            message.to_owned(),
        ))
    };
    let error = match number.as_str() {
        cards::SUCCEEDS => {
            intent.status = "succeeded".into();
            None
        }
        cards::AUTHENTICATION_REQUIRED | cards::AUTHENTICATION_UNLESS_SET_UP => {
            intent.status = "requires_action".into();
            intent.bank_url = format!("{base}/bank/{id}");
            None
        }
        cards::INSUFFICIENT_FUNDS => {
            declined("insufficient_funds", "Your card has insufficient funds.")
        }
        _ => declined("generic_decline", "Your card was declined."),
    };
    if error.is_some() {
        // Stripe keeps a failed attempt's method on `last_payment_error` only.
        intent.payment_method.clear();
    }
    intent.last_error = error.clone();
    let intent = intent.clone();
    match error {
        None if intent.status == "succeeded" => {
            super::recurring_fake::attach_for_later(&mut state, &intent);
            push_event(&mut state, "payment_intent.succeeded", intent_json(&intent));
            answer(Outcome::ran(StatusCode::OK, intent_json(&intent)))
        }
        None => answer(Outcome::ran(StatusCode::OK, intent_json(&intent))),
        Some((code, decline_code, message)) => {
            push_event(
                &mut state,
                "payment_intent.payment_failed",
                intent_json(&intent),
            );
            let body = json!({ "error": {
                "type": "card_error",
                "code": code,
                "decline_code": decline_code,
                "message": message,
                "payment_intent": intent_json(&intent),
            }});
            answer(Outcome::ran(StatusCode::PAYMENT_REQUIRED, body))
        }
    }
}

/// `GET /bank/{id}`: the card's bank asks the shopper to approve the payment.
pub(super) async fn bank_page(State(ledger): State<Shared>, Path(id): Path<String>) -> Response {
    let state = lock(&ledger);
    let Some(intent) = state
        .intents
        .iter()
        .find(|intent| intent.id == id && intent.status == "requires_action")
    else {
        return (
            StatusCode::NOT_FOUND,
            Html(bank_html(
                "Nothing to verify",
                "<p>This payment waits for no verification.</p>",
            )),
        )
            .into_response();
    };
    let amount = format!(
        "{}.{:02} {}",
        intent.amount / 100,
        intent.amount % 100,
        intent.currency.to_ascii_uppercase()
    );
    let body = format!(
        "<p>The test bank of the local Stripe fake asks you to verify a payment of {amount} with the card ending in {}.</p>\
         <form method=\"post\"><button type=\"submit\" name=\"decision\" value=\"approve\">Approve</button> \
         <button type=\"submit\" name=\"decision\" value=\"fail\">Fail verification</button></form>",
        intent.card_last4
    );
    Html(bank_html("Verify your payment", &body)).into_response()
}

fn bank_html(heading: &str, body: &str) -> String {
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{heading} - Test bank</title></head>\
         <body><main><h1>{heading}</h1>{body}</main></body></html>"
    )
}

/// `POST /bank/{id}`: the shopper's answer, then back to the shop's return address with the
/// parameters Stripe adds to it.
pub(super) async fn bank_answer(
    State(ledger): State<Shared>,
    Path(id): Path<String>,
    body: Bytes,
) -> Response {
    let mut state = lock(&ledger);
    let form: Form = url::form_urlencoded::parse(&body).into_owned().collect();
    let approved = form.get("decision").map(String::as_str) == Some("approve");
    let Some(intent) = state
        .intents
        .iter_mut()
        .find(|intent| intent.id == id && intent.status == "requires_action")
    else {
        return (
            StatusCode::NOT_FOUND,
            "This payment waits for no verification.",
        )
            .into_response();
    };
    if approved {
        intent.status = "succeeded".into();
    } else {
        intent.status = "requires_payment_method".into();
        intent.payment_method.clear();
        intent.last_error = Some((
            "payment_intent_authentication_failure".into(),
            String::new(),
            AUTHENTICATION_FAILED.into(),
        ));
    }
    let intent = intent.clone();
    if approved {
        super::recurring_fake::attach_for_later(&mut state, &intent);
    }
    let kind = if approved {
        "payment_intent.succeeded"
    } else {
        "payment_intent.payment_failed"
    };
    push_event(&mut state, kind, intent_json(&intent));
    let Ok(mut back) = url::Url::parse(&intent.return_url) else {
        return (StatusCode::BAD_REQUEST, "The return address is not a URL.").into_response();
    };
    back.query_pairs_mut()
        .append_pair("payment_intent", &intent.id)
        .append_pair("payment_intent_client_secret", &intent.client_secret)
        .append_pair(
            "redirect_status",
            if approved { "succeeded" } else { "failed" },
        );
    let mut response = StatusCode::SEE_OTHER.into_response();
    if let Ok(location) = HeaderValue::from_str(back.as_str()) {
        response.headers_mut().insert(LOCATION, location);
    }
    response
}

/// The stand-in of Stripe.js.
pub(super) async fn script() -> Response {
    ([(CONTENT_TYPE, "text/javascript; charset=utf-8")], SCRIPT).into_response()
}

/// Where a shopper's browser goes after confirming an intent, as the stand-in of Stripe.js
/// leads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BrowserStep {
    /// The bank's verification page (3-D Secure).
    Bank(String),
    /// The shop's return address, with Stripe's parameters.
    Return(String),
    /// The card was declined at once: the error's message, and the return address with the
    /// intent (where the shop's island then sends the shopper).
    Declined { message: String, return_url: String },
}

impl super::fake::FakeStripe {
    /// Does over HTTP what the stand-in of Stripe.js does for a shopper who typed `card`:
    /// a PaymentMethod from the fields with the publishable key, then the intent confirmed
    /// with its client secret and `return_url`; answers where the browser goes next. For
    /// router tests, which drive no browser.
    pub async fn confirm_in_browser(
        &self,
        client_secret: &str,
        card: &str,
        return_url: &str,
    ) -> BrowserStep {
        let base = self.base().as_str().trim_end_matches('/').to_owned();
        let method = browser_post(
            &format!("{base}/v1/payment_methods"),
            &[
                ("key", FAKE_PUBLISHABLE_KEY),
                ("type", "card"),
                ("card[number]", card),
                ("card[exp_month]", "12"),
                ("card[exp_year]", "2040"),
                ("card[cvc]", "123"),
            ],
        )
        .await;
        let method = method["id"].as_str().expect("a PaymentMethod").to_owned();
        let id = client_secret
            .split("_secret_")
            .next()
            .expect("a client secret names its intent");
        let intent = browser_post(
            &format!("{base}/v1/payment_intents/{id}/confirm"),
            &[
                ("key", FAKE_PUBLISHABLE_KEY),
                ("client_secret", client_secret),
                ("payment_method", &method),
                ("return_url", return_url),
            ],
        )
        .await;
        if let Some(error) = intent.get("error") {
            let mut back = url::Url::parse(return_url).expect("an absolute return URL");
            back.query_pairs_mut().append_pair("payment_intent", id);
            return BrowserStep::Declined {
                message: error["message"].as_str().unwrap_or_default().to_owned(),
                return_url: back.into(),
            };
        }
        match intent["next_action"]["redirect_to_url"]["url"].as_str() {
            Some(bank) => BrowserStep::Bank(bank.to_owned()),
            None => {
                let mut back = url::Url::parse(return_url).expect("an absolute return URL");
                back.query_pairs_mut()
                    .append_pair("payment_intent", id)
                    .append_pair("payment_intent_client_secret", client_secret)
                    .append_pair("redirect_status", "succeeded");
                BrowserStep::Return(back.into())
            }
        }
    }

    /// The shopper's answer on the bank's page at `bank_url`; answers where the bank sends
    /// them (the shop's return address).
    pub async fn answer_bank(&self, bank_url: &str, approve: bool) -> String {
        let decision = if approve { "approve" } else { "fail" };
        let _ = rustls::crypto::ring::default_provider().install_default();
        // The browser would follow the bank's redirect to the shop; the test does that itself.
        let response = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("a client")
            .post(bank_url)
            .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(format!("decision={decision}"))
            .send()
            .await
            .expect("the fake's bank answers");
        assert_eq!(
            response.status().as_u16(),
            303,
            "the bank sends the shopper back"
        );
        response
            .headers()
            .get(LOCATION)
            .and_then(|value| value.to_str().ok())
            .expect("a return address")
            .to_owned()
    }
}

async fn browser_post(url: &str, fields: &[(&str, &str)]) -> serde_json::Value {
    let body = url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(fields)
        .finish();
    crate::http_client::client()
        .post(url)
        .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(body)
        .send()
        .await
        .expect("the fake answers")
        .text()
        .await
        .map(|text| serde_json::from_str(&text).expect("the fake answers JSON"))
        .expect("the fake's answer is read")
}
