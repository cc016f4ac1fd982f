//! The fake Stripe's saved cards: `POST /v1/payment_methods` keeps a test card,
//! `POST /v1/customers` attaches it to a new customer, and an intent naming `customer` and
//! `payment_method` with `off_session=true` charges that card as the checkout's intents do.
//! A method charged for a customer it is not attached to is refused, as Stripe does.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde_json::json;

use super::fake::{Form, Ledger, Outcome, Shared, handle};

/// The cards and customers the fake keeps.
#[derive(Debug, Default)]
pub(super) struct SavedCards {
    /// PaymentMethod id and its card number.
    methods: Vec<(String, String)>,
    /// Customer id, email and its attached PaymentMethod.
    customers: Vec<(String, String, String)>,
    /// PaymentMethods set up for off-session payments by a verified intent.
    set_up: Vec<String>,
}

impl super::fake::FakeStripe {
    /// The customers created so far: id and email.
    pub fn customers(&self) -> Vec<(String, String)> {
        super::fake::lock(self.ledger())
            .saved_cards
            .customers
            .iter()
            .map(|(id, email, _)| (id.clone(), email.clone()))
            .collect()
    }
}

fn field<'a>(form: &'a Form, name: &str) -> &'a str {
    form.get(name).map(String::as_str).unwrap_or_default()
}

fn missing(kind: &str, id: &str) -> Outcome {
    Outcome::ran(
        StatusCode::NOT_FOUND,
        json!({ "error": {
            "type": "invalid_request_error",
            "code": "resource_missing",
            "message": format!("No such {kind}: '{id}'"),
        }}),
    )
}

/// The card number of the saved method an off-session intent names, or the refusal.
pub(super) fn saved_card(state: &Ledger, form: &Form) -> Result<String, Outcome> {
    let customer = field(form, "customer");
    let method = field(form, "payment_method");
    if field(form, "off_session") != "true" {
        return Err(Outcome::invalid(
            "off_session",
            "This fake expects off_session=true with a customer.".into(),
        ));
    }
    let cards = &state.saved_cards;
    let Some((_, _, attached)) = cards.customers.iter().find(|(id, ..)| id == customer) else {
        return Err(missing("customer", customer));
    };
    if attached != method {
        return Err(Outcome::ran(
            StatusCode::BAD_REQUEST,
            json!({ "error": {
                "type": "invalid_request_error",
                "code": "payment_method_not_attached",
                "message": format!("The provided PaymentMethod {method} is not attached to customer {customer}."),
            }}),
        ));
    }
    cards
        .methods
        .iter()
        .find(|(id, _)| id == method)
        .map(|(_, number)| number.clone())
        .ok_or_else(|| missing("payment_method", method))
}

pub(super) async fn create_payment_method(
    State(ledger): State<Shared>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    handle(
        &ledger,
        "/v1/payment_methods",
        &headers,
        &body,
        |state, form, _| keep_card(state, form),
    )
    .await
}

/// Keeps the test card of a `POST /v1/payment_methods` form as a new PaymentMethod, or
/// refuses it as Stripe would (a missing field, a number that is not a test card).
pub(super) fn keep_card(state: &mut Ledger, form: &Form) -> Outcome {
    if field(form, "type") != "card" {
        return Outcome::invalid("type", "This fake keeps cards only.".into());
    }
    let number = field(form, "card[number]").to_owned();
    for name in [
        "card[number]",
        "card[exp_month]",
        "card[exp_year]",
        "card[cvc]",
    ] {
        if field(form, name).is_empty() {
            return Outcome::invalid(name, format!("Missing required param: {name}."));
        }
    }
    if !matches!(
        number.as_str(),
        super::fake::cards::SUCCEEDS
            | super::fake::cards::DECLINED
            | super::fake::cards::INSUFFICIENT_FUNDS
            | super::fake::cards::AUTHENTICATION_REQUIRED
            | super::fake::cards::AUTHENTICATION_UNLESS_SET_UP
    ) {
        return Outcome::ran(
            StatusCode::PAYMENT_REQUIRED,
            json!({ "error": {
                "type": "card_error",
                "code": "card_declined",
                "decline_code": "live_mode_test_card",
                "message": "Your card was declined. Your request was in test mode, but used a non test (live) card.",
            }}),
        );
    }
    let cards = &mut state.saved_cards;
    let id = format!("pm_fake{:06}", cards.methods.len() + 1);
    let last4 = number[number.len().saturating_sub(4)..].to_owned();
    cards.methods.push((id.clone(), number));
    Outcome::ran(
        StatusCode::OK,
        json!({ "id": id, "object": "payment_method", "type": "card", "card": { "last4": last4 } }),
    )
}

/// Whether the fake made customer `id`.
pub(super) fn has_customer(state: &Ledger, id: &str) -> bool {
    state
        .saved_cards
        .customers
        .iter()
        .any(|(customer, ..)| customer == id)
}

/// What Stripe does when an intent with `setup_future_usage` and a customer succeeds: the
/// method that paid it is attached to the customer, so it can be charged off session.
pub(super) fn attach_for_later(state: &mut Ledger, intent: &super::fake::FakePaymentIntent) {
    if intent.setup_future_usage.is_empty() || intent.payment_method.is_empty() {
        return;
    }
    if let Some((_, _, attached)) = state
        .saved_cards
        .customers
        .iter_mut()
        .find(|(customer, ..)| *customer == intent.customer)
    {
        attached.clone_from(&intent.payment_method);
        state.saved_cards.set_up.push(intent.payment_method.clone());
    }
}

/// Whether PaymentMethod `id` was set up for off-session payments by an intent.
pub(super) fn is_set_up(state: &Ledger, id: &str) -> bool {
    state.saved_cards.set_up.iter().any(|method| method == id)
}

/// The card number of the kept PaymentMethod `id`.
pub(super) fn card_of(state: &Ledger, id: &str) -> Option<String> {
    state
        .saved_cards
        .methods
        .iter()
        .find(|(method, _)| method == id)
        .map(|(_, number)| number.clone())
}

pub(super) async fn create_customer(
    State(ledger): State<Shared>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    handle(
        &ledger,
        "/v1/customers",
        &headers,
        &body,
        |state, form, _| {
            let method = field(form, "payment_method").to_owned();
            let cards = &mut state.saved_cards;
            if !method.is_empty() && !cards.methods.iter().any(|(id, _)| *id == method) {
                return missing("payment_method", &method);
            }
            if field(form, "invoice_settings[default_payment_method]") != method {
                return Outcome::invalid(
                    "invoice_settings[default_payment_method]",
                    "This fake expects the attached method as the default.".into(),
                );
            }
            let id = format!("cus_fake{:06}", cards.customers.len() + 1);
            let email = field(form, "email").to_owned();
            cards
                .customers
                .push((id.clone(), email.clone(), method.clone()));
            Outcome::ran(
                StatusCode::OK,
                json!({
                    "id": id,
                    "object": "customer",
                    "email": email,
                    "invoice_settings": { "default_payment_method": method },
                }),
            )
        },
    )
    .await
}
