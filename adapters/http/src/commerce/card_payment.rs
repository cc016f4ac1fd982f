//! Checkout paid with the payment provider's own card fields (Stripe's Payment Element), so the
//! card never reaches this server: `POST /checkout/card-payment` takes the checkout form
//! without a card from the `card-payment` island and answers what the browser does next
//! (confirm the provider's intent with its client secret, or go to the order's page, or show
//! why not); `GET /checkout/card-payment/return` is where the provider sends the shopper back,
//! from the bank's verification page or straight after confirming, and resumes the order on
//! the provider's own word. The checkout page that shows the fields, and only that page, gets
//! a Content-Security-Policy naming the provider's hosts ([`allow_card_fields`]).

use std::collections::BTreeMap;

use axum::Json;
use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::http::header::CONTENT_SECURITY_POLICY;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Serialize;
use vitrine_core::cart::texts::{NOTHING_IN_CART, PLEASE_TRY_AGAIN};
use vitrine_core::checkout::{
    BrowserCardFields, BrowserCheckout, DeclinedAttempt, IdempotencyKey, PaymentStatus,
    ResumePaymentError, SESSION_EXPIRED_ALERT,
};

use crate::AppState;
use crate::commerce::cart::request_token;
use crate::commerce::cart_page::FormFields;
use crate::commerce::checkout_page::{explain, random_hex, record_purchase, typed_form};
use crate::shared::client_address::ClientAddress;
use crate::shared::clock::now;
use crate::shared::route_table::Routes;

/// Where the island posts the checkout form.
pub(crate) const CARD_PAYMENT_PATH: &str = "/checkout/card-payment";

/// Where the island tells of a card the provider declined, before the shopper tries another.
pub(crate) const DECLINED_PATH: &str = "/checkout/card-payment/declined";

/// Where the provider sends the shopper back, with `order` and the provider's parameters.
pub(crate) const RETURN_PATH: &str = "/checkout/card-payment/return";

/// What a shopper reads when the return address names no payment of theirs (our text).
const UNKNOWN_PAYMENT: &str = "We could not find this payment. If you paid, your order's confirmation mail has its page; otherwise your cart is still here.";

pub(crate) fn routes() -> Routes {
    Routes::new()
        .route(CARD_PAYMENT_PATH, post(open))
        .route(DECLINED_PATH, post(declined))
        .route(RETURN_PATH, get(resume))
}

/// The checkout page's policy with the provider's origins added where its script, its calls
/// and its frames (the fields, the bank's page) need them. Other pages keep the strict one.
pub(crate) fn allow_card_fields(response: &mut Response, fields: &BrowserCardFields) {
    let policy = card_fields_policy(fields);
    match HeaderValue::from_str(&policy) {
        Ok(value) => {
            response
                .headers_mut()
                .insert(CONTENT_SECURITY_POLICY, value);
        }
        Err(error) => tracing::error!(%error, "the card fields' origins make no header"),
    }
}

fn card_fields_policy(fields: &BrowserCardFields) -> String {
    let joined = |origins: &[String]| origins.join(" ");
    crate::shared::security_headers::CONTENT_SECURITY_POLICY_VALUE
        .replacen(
            "script-src 'self'",
            &format!("script-src 'self' {}", joined(&fields.script_origins)),
            1,
        )
        .replacen(
            "connect-src 'self'",
            &format!("connect-src 'self' {}", joined(&fields.connect_origins)),
            1,
        )
        .replacen(
            "frame-src ",
            &format!("frame-src {} ", joined(&fields.frame_origins)),
            1,
        )
}

/// What the browser does next, as `POST /checkout/card-payment` answers.
#[derive(Debug, Serialize, PartialEq, Eq)]
#[serde(tag = "next", rename_all = "camelCase")]
pub(crate) enum CardPaymentStepDto {
    /// Confirm the provider's intent with this secret; the provider then sends the shopper
    /// to `returnPath` (made absolute by the browser). `amountMinor` is what the intent
    /// carries, which the fields are updated to first: they were made with the amount the
    /// page showed when it loaded (a donor may choose another; a gift card may pay part).
    #[serde(rename_all = "camelCase")]
    Confirm {
        client_secret: String,
        return_path: String,
        amount_minor: i64,
    },
    /// Nothing is left to pay by card, or this checkout was settled before.
    #[serde(rename_all = "camelCase")]
    Order { order_path: String },
    /// Nothing was placed: the alert, and a message per field of the form.
    #[serde(rename_all = "camelCase")]
    Refused {
        alert: String,
        field_errors: BTreeMap<String, String>,
    },
}

pub(crate) fn refused(status: StatusCode, alert: &str) -> Response {
    refused_with(status, alert.to_owned(), BTreeMap::<&str, String>::new())
}

/// Nothing was placed: `alert`, and the message of each field of the form that was wrong.
pub(crate) fn refused_with<'a>(
    status: StatusCode,
    alert: String,
    field_errors: impl IntoIterator<Item = (&'a str, String)>,
) -> Response {
    let step = CardPaymentStepDto::Refused {
        alert,
        field_errors: field_errors
            .into_iter()
            .map(|(name, message)| (name.to_owned(), message))
            .collect(),
    };
    (status, Json(step)).into_response()
}

fn return_path(order_id: &str) -> String {
    let query = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("order", order_id)
        .finish();
    format!("{RETURN_PATH}?{query}")
}

async fn open(
    State(state): State<AppState>,
    address: ClientAddress,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let Some(token) = request_token(&headers) else {
        return refused(StatusCode::BAD_REQUEST, SESSION_EXPIRED_ALERT);
    };
    let Ok(key) = IdempotencyKey::parse(FormFields::parse(&body).text("idempotencyKey")) else {
        return refused(StatusCode::BAD_REQUEST, PLEASE_TRY_AGAIN);
    };
    if state.carts.payments().browser_card_fields().is_none() {
        return refused(StatusCode::NOT_FOUND, PLEASE_TRY_AGAIN);
    }
    let payer = crate::commerce::payer::payer(&headers, address, Some(&token));
    let order_id = format!("order-{}", random_hex());
    let opened = state
        .carts
        .open_browser_payment(
            &payer,
            &token,
            key,
            order_id.clone(),
            &typed_form(&body),
            now(),
        )
        .await;
    let step = match opened {
        Ok(BrowserCheckout::Confirm { order, intent }) => {
            crate::shared::paid_membership::record_buyer(&state, &headers, &order).await;
            crate::commerce::checkout_page::save_address_if_asked(&state, &headers, &body, &order)
                .await;
            CardPaymentStepDto::Confirm {
                client_secret: intent.client_secret,
                return_path: return_path(&order.id),
                amount_minor: order.rest_due_cents(),
            }
        }
        Ok(BrowserCheckout::Placed(order)) => {
            // A replayed submit answers the first order, whose id is not this request's.
            if order.id == order_id {
                crate::shared::paid_membership::record_buyer(&state, &headers, &order).await;
                record_purchase(&state, &headers, address, &order).await;
            }
            // Paid in full by gift cards, a subscription leads where one paid by card leads.
            let order_path = if order.payment_status == PaymentStatus::Paid {
                crate::commerce::subscribe_page::confirmed_path(&state, &headers, &order).await
            } else {
                format!("/commerce/orders/{}/confirmed", order.id)
            };
            CardPaymentStepDto::Order { order_path }
        }
        Err(error) => {
            let (status, alert, errors) = match explain(&state, &headers, error).await {
                Ok(explained) => explained,
                Err(_) => (
                    StatusCode::CONFLICT,
                    NOTHING_IN_CART.to_owned(),
                    BTreeMap::new(),
                ),
            };
            return refused_with(status, alert, errors);
        }
    };
    Json(step).into_response()
}

async fn resume(
    State(state): State<AppState>,
    address: ClientAddress,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Response {
    let query: BTreeMap<String, String> =
        url::form_urlencoded::parse(query.unwrap_or_default().as_bytes())
            .into_owned()
            .collect();
    let (Some(order_id), Some(intent_id)) = (query.get("order"), query.get("payment_intent"))
    else {
        return failure_page(&state, StatusCode::NOT_FOUND, "Payment", UNKNOWN_PAYMENT).await;
    };
    let token = request_token(&headers);
    let payer = crate::commerce::payer::payer(&headers, address, token.as_ref());
    match state
        .carts
        .resume_browser_payment(&payer, order_id, intent_id, now())
        .await
    {
        Ok(resumed) => {
            if let Some(why) = resumed.failure {
                return failure_page(&state, StatusCode::PAYMENT_REQUIRED, "Payment failed", &why)
                    .await;
            }
            if resumed.settled_now && resumed.order.payment_status == PaymentStatus::Paid {
                record_purchase(&state, &headers, address, &resumed.order).await;
            }
            // Paid: the confirmation (202), or the subscription's page; still pending: the
            // order received (207), which says so; failed before (by the webhook): its status
            // page says that.
            let next = if resumed.order.payment_status == PaymentStatus::Paid {
                crate::commerce::subscribe_page::confirmed_path(&state, &headers, &resumed.order)
                    .await
            } else {
                format!("/commerce/orders/{}/confirmed", resumed.order.id)
            };
            crate::commerce::cart::see_other_to(&next)
        }
        Err(ResumePaymentError::UnknownPayment(_)) => {
            failure_page(&state, StatusCode::NOT_FOUND, "Payment", UNKNOWN_PAYMENT).await
        }
        Err(ResumePaymentError::Repository(cause)) => {
            tracing::error!(error = %cause, "resuming a payment failed in the store");
            failure_page(
                &state,
                StatusCode::SERVICE_UNAVAILABLE,
                "Payment",
                PLEASE_TRY_AGAIN,
            )
            .await
        }
    }
}

/// What the island does after a declined card, as `POST /checkout/card-payment/declined`
/// answers, and the donation's `POST /checkout/donate/card-payment/declined` (whose `order`
/// step leads to the contribution's page).
#[derive(Debug, Serialize, PartialEq, Eq)]
#[serde(tag = "next", rename_all = "camelCase")]
pub(crate) enum DeclinedStepDto {
    /// Show `message` (why the card failed, in the shopper's words) and let them confirm the
    /// same intent with another card.
    #[serde(rename_all = "camelCase")]
    TryAgain { message: String },
    /// The payment is over (paid meanwhile, or failed for good): go to the order's page.
    #[serde(rename_all = "camelCase")]
    Order {
        order_path: String,
        alert: Option<String>,
    },
    /// Nothing is known of the decline yet; `alert` says so.
    #[serde(rename_all = "camelCase")]
    Refused { alert: String },
}

impl DeclinedStepDto {
    /// Nothing is known of the decline: `alert` says why, with `status`.
    pub(crate) fn refused(status: StatusCode, alert: &str) -> Response {
        let step = Self::Refused {
            alert: alert.to_owned(),
        };
        (status, Json(step)).into_response()
    }

    fn new(attempt: DeclinedAttempt) -> Self {
        match attempt {
            DeclinedAttempt::TryAgain { message, .. } => Self::TryAgain { message },
            DeclinedAttempt::Ended { order, failure } => Self::Order {
                order_path: format!("/commerce/orders/{}/confirmed", order.id),
                alert: failure,
            },
            DeclinedAttempt::Open(_) => Self::Refused {
                alert: PLEASE_TRY_AGAIN.to_owned(),
            },
        }
    }
}

/// The island's word that the provider declined a card: the server asks the provider, counts
/// the decline against the shopper, and says whether another card may be tried.
async fn declined(
    State(state): State<AppState>,
    address: ClientAddress,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let fields = FormFields::parse(&body);
    let (order_id, intent_id) = (fields.text("order"), fields.text("paymentIntent"));
    let token = request_token(&headers);
    let payer = crate::commerce::payer::payer(&headers, address, token.as_ref());
    match state
        .carts
        .decline_in_browser(&payer, &order_id, &intent_id, now())
        .await
    {
        Ok(attempt) => Json(DeclinedStepDto::new(attempt)).into_response(),
        Err(ResumePaymentError::UnknownPayment(_)) => {
            DeclinedStepDto::refused(StatusCode::NOT_FOUND, UNKNOWN_PAYMENT)
        }
        Err(ResumePaymentError::Repository(cause)) => {
            tracing::error!(error = %cause, "a declined card could not be recorded");
            DeclinedStepDto::refused(StatusCode::SERVICE_UNAVAILABLE, PLEASE_TRY_AGAIN)
        }
    }
}

/// A notice page about the payment, leading back to the cart (which a failed payment gave
/// back to the shopper).
async fn failure_page(
    state: &AppState,
    status: StatusCode,
    heading: &'static str,
    text: &str,
) -> Response {
    crate::commerce::checkout_page::notice_headed(state, heading, RETURN_PATH, status, text).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_card_payment_step_dto_keeps_its_wire_shape() {
        let steps = [
            CardPaymentStepDto::Confirm {
                client_secret: "pi_1_secret_2".into(),
                return_path: return_path("order-1"),
                amount_minor: 3_700,
            },
            CardPaymentStepDto::Order {
                order_path: "/commerce/orders/order-1/confirmed".into(),
            },
            CardPaymentStepDto::Refused {
                alert: "Please update the missing information.".into(),
                field_errors: [("email".to_owned(), "Required".to_owned())].into(),
            },
        ];
        insta::assert_snapshot!(serde_json::to_string_pretty(&steps).unwrap());
    }

    #[test]
    fn the_declined_step_dto_keeps_its_wire_shape() {
        let steps = [
            DeclinedStepDto::TryAgain {
                message: "Your card was declined. Nothing was charged.".into(),
            },
            DeclinedStepDto::Order {
                order_path: "/commerce/orders/order-1/confirmed".into(),
                alert: Some("Too many payments failed.".into()),
            },
            DeclinedStepDto::Refused {
                alert: "Please try again.".into(),
            },
        ];
        insta::assert_snapshot!(serde_json::to_string_pretty(&steps).unwrap());
    }

    #[test]
    fn only_the_providers_origins_are_added_to_the_strict_policy() {
        let fields = BrowserCardFields {
            publishable_key: "pk_test_1".into(),
            script_url: "https://js.stripe.com/v3/".into(),
            script_origins: vec!["https://js.stripe.com".into()],
            connect_origins: vec!["https://api.stripe.com".into()],
            frame_origins: vec![
                "https://js.stripe.com".into(),
                "https://hooks.stripe.com".into(),
            ],
        };
        let policy = card_fields_policy(&fields);
        assert!(
            policy.contains("script-src 'self' https://js.stripe.com;"),
            "{policy}"
        );
        assert!(
            policy.contains("connect-src 'self' https://api.stripe.com;"),
            "{policy}"
        );
        assert!(
            policy.contains("frame-src https://js.stripe.com https://hooks.stripe.com https://www.youtube-nocookie.com"),
            "{policy}"
        );
        assert!(policy.contains("default-src 'self';"), "{policy}");
        assert!(policy.contains("form-action 'self'"), "{policy}");
    }
}
