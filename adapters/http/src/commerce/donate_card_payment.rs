//! Donations paid with the payment provider's own card fields (Stripe's Payment Element), so
//! the card never reaches this server, as the checkout's `card_payment.rs` does for orders:
//! `POST /checkout/donate/card-payment?donatePageId={id}` takes the donation form without a
//! card from the `card-payment` island and answers what the browser does next in the same
//! wire shape ([`CardPaymentStepDto`]: confirm the provider's intent with its client secret,
//! go to the contribution's page, or show why not); `GET /checkout/donate/card-payment/return`
//! is where the provider sends the donor back and resumes the contribution on the provider's
//! own word, then leads to the contribution's page (204), which says whether it was paid, is
//! waiting for the bank, or failed. A card the provider declines at once is told to
//! `POST /checkout/donate/card-payment/declined`, which asks the provider, counts the decline
//! and answers as the checkout's does ([`DeclinedStepDto`]): try another card on the same
//! intent, go to the contribution's page, or why not. Both posts count as donation attempts
//! (`attempt_limits.rs`) and pass the same origin checks as the donation form's.

use std::collections::BTreeMap;

use axum::Json;
use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use vitrine_core::cart::texts::PLEASE_TRY_AGAIN;
use vitrine_core::checkout::{
    BrowserDonation, ContributionPayment, DeclinedDonation, DonationRequest, IdempotencyKey,
    ResumeDonationError, ResumedDonation,
};

use crate::AppState;
use crate::commerce::card_payment::{CardPaymentStepDto, DeclinedStepDto, refused, refused_with};
use crate::commerce::cart_page::FormFields;
use crate::commerce::checkout_page::random_hex;
use crate::commerce::donate_page::{
    DonationRefusal, confirmed_link, donate_notice, explain, query_value, typed_form,
};
use crate::shared::client_address::ClientAddress;
use crate::shared::clock::now;
use crate::shared::route_table::Routes;

/// Where the island posts the donation form, with the page's `donatePageId`.
pub(crate) const DONATE_CARD_PAYMENT_PATH: &str = "/checkout/donate/card-payment";

/// Where the island tells of a card the provider declined, before the donor tries another.
pub(crate) const DONATE_DECLINED_PATH: &str = "/checkout/donate/card-payment/declined";

/// Where the provider sends the donor back, with `contribution` and the provider's
/// parameters.
pub(crate) const DONATE_RETURN_PATH: &str = "/checkout/donate/card-payment/return";

/// What a donor reads when the return address names no payment of theirs (our text).
const UNKNOWN_PAYMENT: &str = "We could not find this payment. If you donated, your receipt mail has its details; otherwise nothing was taken, and the donation page is open to try again.";

/// What a donor reads when the post names no donation page (our text).
const UNKNOWN_DONATION_PAGE: &str = "We couldn’t find this donation page. It may have closed; the Donate buttons on our pages lead to the ones that are open.";

pub(crate) fn routes() -> Routes {
    Routes::new()
        .route(DONATE_CARD_PAYMENT_PATH, post(open))
        .route(DONATE_DECLINED_PATH, post(declined))
        .route(DONATE_RETURN_PATH, get(resume))
}

/// Where the island of the donation page `donate_page_id` posts its form.
pub(crate) fn intent_path(donate_page_id: &str) -> String {
    let query = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("donatePageId", donate_page_id)
        .finish();
    format!("{DONATE_CARD_PAYMENT_PATH}?{query}")
}

fn return_path(contribution_id: &str) -> String {
    let query = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("contribution", contribution_id)
        .finish();
    format!("{DONATE_RETURN_PATH}?{query}")
}

async fn open(
    State(state): State<AppState>,
    address: ClientAddress,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
    body: Bytes,
) -> Response {
    let Ok(key) = IdempotencyKey::parse(FormFields::parse(&body).text("idempotencyKey")) else {
        return refused(StatusCode::BAD_REQUEST, PLEASE_TRY_AGAIN);
    };
    if state.donations.payments().browser_card_fields().is_none() {
        return refused(StatusCode::NOT_FOUND, PLEASE_TRY_AGAIN);
    }
    let request = DonationRequest {
        donate_page_id: query_value(query.as_deref(), "donatePageId"),
        key,
        contribution_id: format!("contribution-{}", random_hex()),
        form: typed_form(&body),
    };
    let payer = crate::commerce::payer::payer(&headers, address, None);
    let step = match state
        .donations
        .open_browser_donation(&payer, request, now())
        .await
    {
        Ok(BrowserDonation::Confirm {
            contribution,
            intent,
        }) => CardPaymentStepDto::Confirm {
            client_secret: intent.client_secret,
            return_path: return_path(&contribution.id),
            amount_minor: contribution.amount_minor,
        },
        // Paid before (a submit sent again after paying): its page.
        Ok(BrowserDonation::Settled(contribution)) => CardPaymentStepDto::Order {
            order_path: confirmed_link(&state, &contribution),
        },
        Err(error) => {
            let (status, alert, field_errors) = match explain(&state, error) {
                DonationRefusal::UnknownPage => (
                    StatusCode::NOT_FOUND,
                    UNKNOWN_DONATION_PAGE.to_owned(),
                    BTreeMap::new(),
                ),
                DonationRefusal::Explained(status, errors, alert) => (status, alert, errors),
            };
            return refused_with(status, alert, field_errors);
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
    let query = query.as_deref();
    let id = query_value(query, "contribution");
    let intent_id = query_value(query, "payment_intent");
    if id.is_empty() || intent_id.is_empty() {
        return notice(&state, StatusCode::NOT_FOUND, UNKNOWN_PAYMENT).await;
    }
    let payer = crate::commerce::payer::payer(&headers, address, None);
    match state
        .donations
        .resume_browser_donation(&payer, &id, &intent_id, now())
        .await
    {
        Ok(resumed) => {
            thank_once(&state, &headers, &resumed).await;
            // Paid, pending or failed: the contribution's page says which.
            crate::commerce::cart::see_other_to(&confirmed_link(&state, &resumed.contribution))
        }
        Err(error) => {
            let (status, text) = explain_resume(error);
            notice(&state, status, text).await
        }
    }
}

/// Fires `Donate` for money taken, once: when the donor's own request settled it. One the
/// webhook settled first fires none, since only the donor's own request says whether they
/// consented to marketing.
async fn thank_once(state: &AppState, headers: &HeaderMap, resumed: &ResumedDonation) {
    if resumed.settled_now
        && matches!(
            resumed.contribution.payment,
            ContributionPayment::Paid { .. }
        )
    {
        let event = crate::shared::conversion_events::donated(state, &resumed.contribution);
        crate::shared::conversions::fire(state, headers, event).await;
    }
}

/// The status and text of a contribution that could not be resumed, logged.
fn explain_resume(error: ResumeDonationError) -> (StatusCode, &'static str) {
    match error {
        ResumeDonationError::UnknownContribution(_) => (StatusCode::NOT_FOUND, UNKNOWN_PAYMENT),
        ResumeDonationError::PaymentRefunded(payment) => {
            tracing::warn!(
                payment_id = payment,
                "a contribution lost its charge to a refund"
            );
            (
                StatusCode::CONFLICT,
                vitrine_core::checkout::PAYMENT_REFUNDED_MESSAGE,
            )
        }
        // The provider could not be asked: asking again may answer.
        ResumeDonationError::Payment(cause) => {
            tracing::warn!(error = %cause, "a donation in the browser could not be checked");
            (StatusCode::SERVICE_UNAVAILABLE, PLEASE_TRY_AGAIN)
        }
        ResumeDonationError::Repository(cause) => {
            tracing::error!(error = %cause, "resuming a donation failed in the store");
            (StatusCode::SERVICE_UNAVAILABLE, PLEASE_TRY_AGAIN)
        }
    }
}

/// The island's word that the provider declined a donor's card: the server asks the
/// provider, counts the decline against the donor, and says whether another card may be
/// tried on the same intent.
async fn declined(
    State(state): State<AppState>,
    address: ClientAddress,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let fields = FormFields::parse(&body);
    let (id, intent_id) = (fields.text("contribution"), fields.text("paymentIntent"));
    let payer = crate::commerce::payer::payer(&headers, address, None);
    let step = match state
        .donations
        .decline_in_browser(&payer, &id, &intent_id, now())
        .await
    {
        Ok(DeclinedDonation::TryAgain { message, .. }) => DeclinedStepDto::TryAgain { message },
        // Paid meanwhile, or failed for good: the contribution's page says which.
        Ok(DeclinedDonation::Ended(resumed)) => {
            thank_once(&state, &headers, &resumed).await;
            let alert = match &resumed.contribution.payment {
                ContributionPayment::Failed { message } => Some(message.clone()),
                ContributionPayment::Paid { .. } | ContributionPayment::Pending { .. } => None,
            };
            DeclinedStepDto::Order {
                order_path: confirmed_link(&state, &resumed.contribution),
                alert,
            }
        }
        Ok(DeclinedDonation::Open(_)) => DeclinedStepDto::Refused {
            alert: PLEASE_TRY_AGAIN.to_owned(),
        },
        Err(error) => {
            let (status, text) = explain_resume(error);
            return DeclinedStepDto::refused(status, text);
        }
    };
    Json(step).into_response()
}

async fn notice(state: &AppState, status: StatusCode, text: &str) -> Response {
    donate_notice(state, DONATE_RETURN_PATH, status, "Donation", text).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_addresses_carry_their_ids_encoded() {
        assert_eq!(
            intent_path("kiln fund"),
            "/checkout/donate/card-payment?donatePageId=kiln+fund"
        );
        assert_eq!(
            return_path("contribution-1"),
            "/checkout/donate/card-payment/return?contribution=contribution-1"
        );
    }
}
