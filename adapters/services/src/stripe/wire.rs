//! Stripe's wire format: the form-encoded bodies of the calls (Stripe's bracket keys, such as
//! `payment_method_data[card][number]`), the parts of its JSON answers the gateway reads, and
//! what each answer means for a charge or a refund.

use serde::Deserialize;
use vitrine_core::checkout::{
    DECLINED_MESSAGE, IntentReport, IntentRequest, IntentState, OpenIntent, Payment, PaymentError,
    PaymentRequest,
};
use vitrine_core::money::Currency;

/// What the shopper reads when the card's bank asks for a verification step (3-D Secure),
/// which this checkout cannot show yet (our text).
pub const VERIFICATION_NEEDED_MESSAGE: &str = "Your bank asks for an extra verification step for this card, which this checkout cannot do yet. Nothing was charged. Please use another card.";

/// The body of `POST /v1/payment_intents`: create and confirm in one call, with the card
/// as typed at checkout.
pub(crate) fn charge_form(request: &PaymentRequest) -> String {
    let card = &request.card;
    url::form_urlencoded::Serializer::new(String::new())
        // Amounts are in the currency's smallest unit, as the core holds them: cents for
        // EUR or USD, whole yen for JPY (which has no minor unit).
        .append_pair("amount", &request.amount_minor.to_string())
        .append_pair("currency", &request.currency.code().to_ascii_lowercase())
        .append_pair("confirm", "true")
        // Cards only: without a list Stripe offers the account's other payment methods,
        // some of which redirect and would need a return URL.
        .append_pair("payment_method_types[0]", "card")
        .append_pair("payment_method_data[type]", "card")
        .append_pair("payment_method_data[card][number]", &card.number)
        .append_pair(
            "payment_method_data[card][exp_month]",
            &card.expiry_month.to_string(),
        )
        .append_pair(
            "payment_method_data[card][exp_year]",
            &card.expiry_year.to_string(),
        )
        .append_pair("payment_method_data[card][cvc]", &card.cvc)
        .append_pair("receipt_email", &request.email)
        .append_pair("description", &request.description)
        // The order's idempotency key is unique among orders, so it finds the order from
        // Stripe's dashboard.
        .append_pair(
            &format!("metadata[{}]", super::webhook::IDEMPOTENCY_KEY_METADATA),
            request.key.as_str(),
        )
        .finish()
}

/// The body of `POST /v1/payment_intents` for a payment the browser confirms: no card and no
/// `confirm`; cards only, so that the Payment Element shows card fields and nothing else. An
/// intent whose card is kept for renewals names its `customer` and asks Stripe to attach the
/// card to it for payments without the shopper (`setup_future_usage=off_session`).
pub(crate) fn intent_form(request: &IntentRequest, customer: Option<&str>) -> String {
    let mut form = url::form_urlencoded::Serializer::new(String::new());
    form.append_pair("amount", &request.amount_minor.to_string())
        .append_pair("currency", &request.currency.code().to_ascii_lowercase())
        .append_pair("payment_method_types[0]", "card")
        .append_pair("receipt_email", &request.email)
        .append_pair("description", &request.description)
        .append_pair(
            &format!("metadata[{}]", super::webhook::IDEMPOTENCY_KEY_METADATA),
            request.key.as_str(),
        );
    if let Some(customer) = customer {
        form.append_pair("customer", customer)
            .append_pair("setup_future_usage", "off_session");
    }
    form.finish()
}

/// The body of `POST /v1/customers` for the shopper whose card an intent keeps.
pub(crate) fn customer_form(email: &str) -> String {
    url::form_urlencoded::Serializer::new(String::new())
        .append_pair("email", email)
        .finish()
}

/// The body of `POST /v1/refunds`: the whole amount of one PaymentIntent.
pub(crate) fn refund_form(payment_intent: &str) -> String {
    url::form_urlencoded::Serializer::new(String::new())
        .append_pair("payment_intent", payment_intent)
        .finish()
}

/// The body of `POST /v1/refunds` giving back `amount` (minor units) of a PaymentIntent.
pub(crate) fn part_refund_form(payment_intent: &str, amount: i64) -> String {
    url::form_urlencoded::Serializer::new(String::new())
        .append_pair("payment_intent", payment_intent)
        .append_pair("amount", &amount.to_string())
        .finish()
}

/// The body of `POST /v1/payment_intents/{id}/cancel`.
pub(crate) fn cancel_form() -> String {
    url::form_urlencoded::Serializer::new(String::new())
        .append_pair("cancellation_reason", "abandoned")
        .finish()
}

/// The fields of a PaymentIntent the gateway reads.
#[derive(Debug, Deserialize)]
pub(crate) struct PaymentIntentBody {
    pub id: String,
    pub status: String,
    #[serde(default)]
    pub last_payment_error: Option<ErrorDetail>,
    #[serde(default)]
    pub client_secret: Option<String>,
    #[serde(default)]
    pub amount: i64,
    #[serde(default)]
    pub currency: String,
    #[serde(default)]
    pub metadata: std::collections::BTreeMap<String, String>,
    /// The Customer the intent is for, when it names one (an id: never expanded here).
    #[serde(default)]
    pub customer: Option<String>,
    /// The PaymentMethod the intent was confirmed with.
    #[serde(default)]
    pub payment_method: Option<String>,
    /// `off_session` when the card is to be kept on the customer for later charges.
    #[serde(default)]
    pub setup_future_usage: Option<String>,
}

/// The fields of a Refund the gateway reads.
#[derive(Debug, Deserialize)]
pub(crate) struct RefundBody {
    pub id: String,
    pub status: String,
}

/// Every Stripe error answer: `{"error": {...}}`.
#[derive(Debug, Deserialize)]
pub(crate) struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(Debug, Deserialize)]
pub(crate) struct ErrorDetail {
    /// `card_error`, `invalid_request_error`, `idempotency_error`, `api_error` ...
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub code: Option<String>,
    #[serde(default)]
    pub decline_code: Option<String>,
    /// For card errors, written for the cardholder and safe to show.
    #[serde(default)]
    pub message: Option<String>,
}

/// A charge Stripe accepted, or one waiting for the cardholder.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum ChargeAnswer {
    Succeeded {
        id: String,
    },
    /// The bank wants the cardholder to verify (3-D Secure); nothing is charged yet.
    RequiresAction {
        id: String,
    },
}

/// What an answer to `POST /v1/payment_intents` means.
pub(crate) fn read_charge(status: u16, body: &str) -> Result<ChargeAnswer, PaymentError> {
    match status {
        200 => {
            let intent: PaymentIntentBody = serde_json::from_str(body)
                .map_err(|_| unreadable("a PaymentIntent", status, body))?;
            match intent.status.as_str() {
                "succeeded" => Ok(ChargeAnswer::Succeeded { id: intent.id }),
                "requires_action" => Ok(ChargeAnswer::RequiresAction { id: intent.id }),
                "requires_payment_method" => Err(PaymentError::Declined {
                    message: intent
                        .last_payment_error
                        .and_then(|error| error.message)
                        .unwrap_or_else(|| DECLINED_MESSAGE.to_owned()),
                }),
                // `processing` is rare for cards and may still end either way: Stripe's
                // webhook says how.
                "processing" => Err(PaymentError::OutcomeUnknown(format!(
                    "Stripe is still processing PaymentIntent {}",
                    intent.id
                ))),
                other => Err(PaymentError::Unavailable(format!(
                    "Stripe left PaymentIntent {} in status {other}",
                    intent.id
                ))),
            }
        }
        402 => match serde_json::from_str::<ErrorBody>(body) {
            Ok(ErrorBody { error }) if error.kind == "card_error" => Err(PaymentError::Declined {
                message: error
                    .message
                    .filter(|message| !message.trim().is_empty())
                    .unwrap_or_else(|| DECLINED_MESSAGE.to_owned()),
            }),
            _ => Err(failure(status, body)),
        },
        // Stripe's own failure, or the same key still running: whether the charge was made
        // is not known (Stripe documents a 500's result as indeterminate).
        409 | 500.. => Err(match failure(status, body) {
            PaymentError::Unavailable(detail) => PaymentError::OutcomeUnknown(detail),
            other => other,
        }),
        _ => Err(failure(status, body)),
    }
}

/// The intent Stripe opened for the browser, with the secret the browser confirms it with.
pub(crate) fn read_open_intent(status: u16, body: &str) -> Result<OpenIntent, PaymentError> {
    if status != 200 {
        return Err(failure(status, body));
    }
    let intent: PaymentIntentBody =
        serde_json::from_str(body).map_err(|_| unreadable("a PaymentIntent", status, body))?;
    let client_secret = intent
        .client_secret
        .filter(|secret| !secret.is_empty())
        .ok_or_else(|| unreadable("a PaymentIntent with its client secret", status, body))?;
    Ok(OpenIntent {
        id: intent.id,
        client_secret,
    })
}

/// What `GET /v1/payment_intents/{id}` says became of a payment the browser confirmed.
/// `requires_payment_method` after an attempt (a `last_payment_error`) and `canceled` are
/// failures; before any attempt, with a verification open, or while Stripe processes, the
/// intent is still open.
pub(crate) fn read_intent_report(status: u16, body: &str) -> Result<IntentReport, PaymentError> {
    if status != 200 {
        return Err(failure(status, body));
    }
    let intent: PaymentIntentBody =
        serde_json::from_str(body).map_err(|_| unreadable("a PaymentIntent", status, body))?;
    let key = intent
        .metadata
        .get(super::webhook::IDEMPOTENCY_KEY_METADATA)
        .cloned();
    let failed = |error: Option<&ErrorDetail>| IntentState::Failed {
        message: super::browser::failure_message(
            error.and_then(|error| error.code.as_deref()),
            error.and_then(|error| error.decline_code.as_deref()),
        ),
    };
    // Stripe attaches the card to the customer when an intent for later use succeeds.
    let saved_card = match (
        intent.status.as_str(),
        intent.setup_future_usage.as_deref(),
        &intent.customer,
        &intent.payment_method,
    ) {
        ("succeeded", Some("off_session"), Some(customer), Some(method)) => {
            Some(format!("{customer}:{method}"))
        }
        _ => None,
    };
    let state = match intent.status.as_str() {
        "succeeded" => {
            let currency = Currency::from_code(&intent.currency.to_ascii_uppercase())
                .map_err(|_| unreadable("a PaymentIntent in a known currency", status, body))?;
            IntentState::Succeeded(Payment {
                id: intent.id,
                amount_minor: intent.amount,
                currency,
            })
        }
        "requires_payment_method" if intent.last_payment_error.is_some() => {
            failed(intent.last_payment_error.as_ref())
        }
        "canceled" => IntentState::Canceled,
        _ => IntentState::Open,
    };
    Ok(IntentReport {
        key,
        state,
        saved_card,
    })
}

/// What an answer to `POST /v1/refunds` means.
pub(crate) fn read_refund(status: u16, body: &str) -> Result<(), PaymentError> {
    if status == 200 {
        let refund: RefundBody =
            serde_json::from_str(body).map_err(|_| unreadable("a Refund", status, body))?;
        return match refund.status.as_str() {
            // A pending refund completes on Stripe's side without anything more from us.
            "succeeded" | "pending" => Ok(()),
            other => Err(PaymentError::Unavailable(format!(
                "Stripe left refund {} in status {other}",
                refund.id
            ))),
        };
    }
    // Given back already (by an earlier attempt or from the dashboard): the aim is met.
    if let Ok(ErrorBody { error }) = serde_json::from_str::<ErrorBody>(body)
        && error.code.as_deref() == Some("charge_already_refunded")
    {
        return Ok(());
    }
    Err(failure(status, body))
}

/// The answer to an owner's refund: the Refund's id once Stripe made it (or will, for a
/// pending one); anything else is a failure the owner is told about.
pub(crate) fn read_part_refund(status: u16, body: &str) -> Result<String, PaymentError> {
    if status != 200 {
        return Err(failure(status, body));
    }
    let refund: RefundBody =
        serde_json::from_str(body).map_err(|_| unreadable("a Refund", status, body))?;
    match refund.status.as_str() {
        "succeeded" | "pending" => Ok(refund.id),
        other => Err(PaymentError::Unavailable(format!(
            "Stripe left refund {} in status {other}",
            refund.id
        ))),
    }
}

/// An error answer as one line for the log: status, Stripe's type and code, and its message.
/// Stripe's messages name parameters, never their values, so no card data is in them.
fn failure(status: u16, body: &str) -> PaymentError {
    match serde_json::from_str::<ErrorBody>(body) {
        Ok(ErrorBody { error }) => {
            let code = [error.code, error.decline_code]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join("/");
            PaymentError::Unavailable(format!(
                "Stripe answered {status} {} ({code}): {}",
                error.kind,
                clip(error.message.as_deref().unwrap_or_default())
            ))
        }
        Err(_) => unreadable("an error", status, body),
    }
}

fn unreadable(what: &str, status: u16, body: &str) -> PaymentError {
    PaymentError::Unavailable(format!(
        "Stripe answered {status} with a body that is not {what}: {}",
        clip(body)
    ))
}

fn clip(text: &str) -> String {
    text.chars().take(300).collect()
}

#[cfg(test)]
mod tests {
    use vitrine_core::checkout::{CardDetails, IdempotencyKey};
    use vitrine_core::money::Currency;

    use super::*;

    fn request(currency: Currency, amount_minor: i64) -> PaymentRequest {
        PaymentRequest {
            key: IdempotencyKey::parse("0123456789abcdef").unwrap(),
            amount_minor,
            currency,
            card: CardDetails {
                number: "4242424242424242".into(),
                expiry_month: 4,
                expiry_year: 2031,
                cvc: "123".into(),
            },
            email: "ada+shop@example.com".into(),
            description: "1 × Sea Glass Mug".into(),
        }
    }

    #[test]
    fn the_charge_form_uses_stripes_bracket_keys_and_minor_units() {
        let form = charge_form(&request(Currency::Eur, 3700));
        let pairs: Vec<(String, String)> = url::form_urlencoded::parse(form.as_bytes())
            .into_owned()
            .collect();
        insta::assert_debug_snapshot!(pairs);
    }

    #[test]
    fn yen_are_sent_whole_and_codes_lowercase() {
        let form = charge_form(&request(Currency::Jpy, 1500));
        assert!(form.starts_with("amount=1500&currency=jpy&"), "{form}");
    }

    #[test]
    fn answers_of_stripe_read_as_the_port_expects() {
        let succeeded = r#"{"id":"pi_1","object":"payment_intent","amount":3700,"currency":"eur","status":"succeeded","last_payment_error":null}"#;
        assert_eq!(
            read_charge(200, succeeded),
            Ok(ChargeAnswer::Succeeded { id: "pi_1".into() })
        );
        let action = r#"{"id":"pi_2","object":"payment_intent","status":"requires_action","next_action":{"type":"use_stripe_sdk"}}"#;
        assert_eq!(
            read_charge(200, action),
            Ok(ChargeAnswer::RequiresAction { id: "pi_2".into() })
        );
        let declined = r#"{"error":{"type":"card_error","code":"card_declined","decline_code":"insufficient_funds","message":"Your card has insufficient funds.","payment_intent":{"id":"pi_3","status":"requires_payment_method"}}}"#;
        assert_eq!(
            read_charge(402, declined),
            Err(PaymentError::Declined {
                message: "Your card has insufficient funds.".into()
            })
        );
        let unsaid = r#"{"error":{"type":"card_error","code":"card_declined"}}"#;
        assert_eq!(
            read_charge(402, unsaid),
            Err(PaymentError::Declined {
                message: DECLINED_MESSAGE.into()
            })
        );
        let in_use = r#"{"error":{"type":"idempotency_error","code":"idempotency_key_in_use","message":"There is currently another in-progress request using this Stripe API key and idempotency key."}}"#;
        let Err(PaymentError::OutcomeUnknown(detail)) = read_charge(409, in_use) else {
            panic!("a conflict is not a decline");
        };
        assert!(
            detail.starts_with("Stripe answered 409 idempotency_error (idempotency_key_in_use)"),
            "{detail}"
        );
        for (status, body) in [
            (200, "<html>"),
            (402, r#"{"error":{"type":"invalid_request_error"}}"#),
            (429, r#"{"error":{"type":"rate_limit_error"}}"#),
        ] {
            assert!(
                matches!(read_charge(status, body), Err(PaymentError::Unavailable(_))),
                "{status} {body}"
            );
        }
        for (status, body) in [
            (200, r#"{"id":"pi_4","status":"processing"}"#),
            (500, ""),
            (503, r#"{"error":{"type":"api_error"}}"#),
        ] {
            assert!(
                matches!(
                    read_charge(status, body),
                    Err(PaymentError::OutcomeUnknown(_))
                ),
                "{status} {body}"
            );
        }
    }

    #[test]
    fn a_refund_done_before_counts_as_done() {
        assert_eq!(
            read_refund(200, r#"{"id":"re_1","object":"refund","status":"pending"}"#),
            Ok(())
        );
        let already = r#"{"error":{"type":"invalid_request_error","code":"charge_already_refunded","message":"Charge ch_1 has already been refunded."}}"#;
        assert_eq!(read_refund(400, already), Ok(()));
        assert!(read_refund(200, r#"{"id":"re_2","status":"failed"}"#).is_err());
        assert!(
            read_refund(
                404,
                r#"{"error":{"type":"invalid_request_error","code":"resource_missing"}}"#
            )
            .is_err()
        );
    }

    #[test]
    fn the_answer_types_read_stripes_json() {
        let intent: PaymentIntentBody = serde_json::from_str(
            r#"{"id":"pi_5","object":"payment_intent","status":"requires_payment_method","last_payment_error":{"type":"card_error","code":"card_declined","decline_code":"generic_decline","message":"Your card was declined."}}"#,
        )
        .unwrap();
        let refund: RefundBody = serde_json::from_str(
            r#"{"id":"re_5","object":"refund","payment_intent":"pi_5","status":"succeeded"}"#,
        )
        .unwrap();
        insta::assert_debug_snapshot!((intent, refund));
    }
}
