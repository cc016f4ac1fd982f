//! Donation checkout, server-rendered so it works without JavaScript:
//! `/checkout/donate?donatePageId={id}` (page type 203), where `id` is the id of a donation
//! block on a published page, shows the block's amounts, an own amount, the donor's name and
//! email and the card, and takes the contribution; `/commerce/contributions/{id}/confirmed`
//! is the contribution confirmed page (204), which shows the donor's name and amount and so
//! opens only through the signed, expiring link the donation's answer leads to. Every rule
//! is the core's; these handlers parse and map.
//!
//! When the payment provider's own card fields are available (Stripe), the page shows them
//! through the `card-payment` island instead of the card inputs, and the island posts the
//! form to `donate_card_payment.rs`; the form posted here then carries no card, so it is
//! answered with the page again, what was typed kept, saying that paying by card needs
//! JavaScript.

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::get;
use vitrine_core::cart::texts::{PLEASE_TRY_AGAIN, UPDATE_MISSING_INFORMATION};
use vitrine_core::checkout::{
    CheckoutFieldErrors, Contribution, DONATION_CARD_FIELDS_NEED_JAVASCRIPT, DonateError,
    DonationCampaign, DonationForm, DonationRequest, IdempotencyKey, ORDER_LINK_PARAMETER,
    OrderPageAccess, PaymentError, link_access,
};
use vitrine_core::enums::PageType;

use crate::AppState;
use crate::commerce::cart_page::FormFields;
use crate::commerce::checkout_page::{TEST_PAYMENT_NOTE, random_hex};
use crate::render::commerce_pages::{CardFieldsView, CommerceMain, FieldView, NoticeMain};
use crate::render::donate_pages::{ContributionMain, DonateMain};
use crate::shared::clock::now;
use crate::shared::route_table::Routes;
use crate::shared::visitor_page::respond;

pub(crate) fn routes() -> Routes {
    Routes::new()
        .route("/checkout/donate", get(show).post(donate))
        .route("/commerce/contributions/{id}/confirmed", get(confirmed))
}

/// A query parameter's value.
pub(crate) fn query_value(query: Option<&str>, name: &str) -> String {
    query
        .map(|query| url::form_urlencoded::parse(query.as_bytes()))
        .and_then(|mut pairs| pairs.find(|(key, _)| key == name))
        .map(|(_, value)| value.trim().to_owned())
        .unwrap_or_default()
}

/// `/checkout/donate?donatePageId={id}`.
pub(crate) fn donate_path(donate_page_id: &str) -> String {
    let query: String = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("donatePageId", donate_page_id)
        .finish();
    format!("/checkout/donate?{query}")
}

/// A donation notice with a way back into the site.
pub(crate) async fn donate_notice(
    state: &AppState,
    path: &str,
    status: StatusCode,
    heading: &'static str,
    text: &str,
) -> Response {
    let main = CommerceMain::Notice(NoticeMain {
        heading,
        text: text.to_owned(),
        link_href: "/",
        link_text: "Go to the home page",
    });
    respond(state, PageType::Donate, path, heading, status, &main).await
}

/// The answer for a `donatePageId` no donation block on a published page has: a 404 that
/// says so and leads back into the site.
pub(crate) async fn unknown_page(state: &AppState, path: &str) -> Response {
    let text = "We couldn’t find this donation page. It may have closed; the Donate buttons on our pages lead to the ones that are open.";
    donate_notice(
        state,
        path,
        StatusCode::NOT_FOUND,
        "Donation page not found",
        text,
    )
    .await
}

async fn unavailable(state: &AppState, path: &str) -> Response {
    let status = StatusCode::SERVICE_UNAVAILABLE;
    donate_notice(state, path, status, "Donate", PLEASE_TRY_AGAIN).await
}

/// The donation page for `campaign`, filled with what the donor typed (never the card) and
/// the messages of the last attempt.
async fn donate_page(
    state: &AppState,
    campaign: &DonationCampaign,
    status: StatusCode,
    typed: &DonationForm,
    errors: &CheckoutFieldErrors,
    alert: Option<String>,
) -> Response {
    let path = donate_path(&campaign.id);
    // A fresh key per rendering of the form: submitting this form twice pays once, and a
    // corrected form after a refusal is a new attempt.
    let mut main = DonateMain::new(
        campaign,
        path.clone(),
        random_hex(),
        &typed.amount,
        &typed.other_amount,
    );
    let with_error = |field: FieldView, value: &str| FieldView {
        value: value.to_owned(),
        error: errors.get(field.name).cloned(),
        ..field
    };
    main.name = with_error(main.name, &typed.name);
    main.email = with_error(main.email, &typed.email);
    main.card_fields = card_fields_view(state, campaign, &typed.amount);
    if main.card_fields.is_some() {
        // The provider's fields take the card: the page has no card input of its own.
        main.payment.clear();
    }
    main.payment = main
        .payment
        .into_iter()
        .map(|field| {
            // The card's number and code are never sent back into the page.
            let value = if field.name == "cardExpiry" {
                typed.card_expiry.clone()
            } else {
                String::new()
            };
            with_error(field, &value)
        })
        .collect();
    main.amount_error = errors.get("amount").cloned();
    let payments = state.donations.payments();
    main.payment_note = payments.is_test().then_some(TEST_PAYMENT_NOTE);
    main.test_mode = payments.is_test();
    main.payments_off = !payments.takes_payments();
    main.alert = alert;
    let with_card_fields = main.card_fields.is_some();
    let mut response = respond(
        state,
        PageType::Donate,
        &path,
        &campaign.title,
        status,
        &CommerceMain::Donate(Box::new(main)),
    )
    .await;
    if with_card_fields && let Some(fields) = state.donations.payments().browser_card_fields() {
        crate::commerce::card_payment::allow_card_fields(&mut response, &fields);
    }
    response
}

/// The provider's card fields for a donation to `campaign`, when the gateway has them. The
/// fields are created before the donor picks an amount (the provider's deferred intent), so
/// they start with the amount picked, or the first suggested one; the intent the server
/// opens carries the amount the donor chose, which the island gives the fields before it
/// confirms. A declined card is told to the declined path, and another may be tried.
fn card_fields_view(
    state: &AppState,
    campaign: &DonationCampaign,
    chosen: &str,
) -> Option<CardFieldsView> {
    let fields = state.donations.payments().browser_card_fields()?;
    let amount_minor = campaign
        .suggested_amounts
        .iter()
        .find(|amount| amount.to_string() == chosen)
        .or(campaign.suggested_amounts.first())
        .copied()
        .unwrap_or(campaign.minimum_amount);
    Some(CardFieldsView {
        props: serde_json::json!({
            "publishableKey": fields.publishable_key,
            "amountMinor": amount_minor,
            "currency": campaign.currency.code().to_ascii_lowercase(),
            "intentPath": crate::commerce::donate_card_payment::intent_path(&campaign.id),
            "declinedPath": crate::commerce::donate_card_payment::DONATE_DECLINED_PATH,
            "saveForRenewals": false,
            "purpose": "donation",
        })
        .to_string(),
        script_url: fields.script_url,
        unavailable_text: DONATION_CARD_FIELDS_NEED_JAVASCRIPT,
    })
}

/// The signed, expiring link to the confirmed page of `contribution`: the page shows the
/// donor's name and amount, so the address alone opens nothing.
pub(crate) fn confirmed_link(state: &AppState, contribution: &Contribution) -> String {
    format!(
        "/commerce/contributions/{}/confirmed?{ORDER_LINK_PARAMETER}={}",
        contribution.id,
        state.order_links.sign(&contribution.id, now())
    )
}

/// Why a donation was refused, as the page or the island shows it.
pub(crate) enum DonationRefusal {
    /// No donation block on a published page has this id.
    UnknownPage,
    /// The status, the messages per field and the alert.
    Explained(StatusCode, CheckoutFieldErrors, String),
}

/// What a donor reads about `error` (logging what the donor does not read).
pub(crate) fn explain(state: &AppState, error: DonateError) -> DonationRefusal {
    let no_errors = CheckoutFieldErrors::new();
    let (status, errors, alert) = match error {
        DonateError::UnknownPage(_) => return DonationRefusal::UnknownPage,
        DonateError::Invalid(errors) => (
            StatusCode::BAD_REQUEST,
            errors,
            UPDATE_MISSING_INFORMATION.to_owned(),
        ),
        DonateError::Payment(PaymentError::Declined { message }) => {
            (StatusCode::PAYMENT_REQUIRED, no_errors, message)
        }
        // A donation waits for no webhook: the donor sends the same form again, whose
        // key the gateway answers with the first charge if it was made.
        DonateError::Payment(
            PaymentError::Unavailable(cause) | PaymentError::OutcomeUnknown(cause),
        ) => {
            tracing::error!(error = %cause, "the payment gateway failed");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                no_errors,
                PLEASE_TRY_AGAIN.to_owned(),
            )
        }
        DonateError::Payment(PaymentError::NotConfigured) => {
            tracing::warn!(
                "a contribution was refused: this shop takes no payments (no Stripe key, no --test-payments)"
            );
            (
                StatusCode::SERVICE_UNAVAILABLE,
                no_errors,
                vitrine_core::checkout::CANNOT_TAKE_PAYMENTS.to_owned(),
            )
        }
        DonateError::PaymentRefunded(payment) => {
            tracing::warn!(
                payment_id = payment,
                "a contribution lost its charge to a refund"
            );
            (
                StatusCode::CONFLICT,
                no_errors,
                vitrine_core::checkout::PAYMENT_REFUNDED_MESSAGE.to_owned(),
            )
        }
        DonateError::TooManyFailedPayments(refused) => {
            crate::commerce::payer::record_refusal(state, &refused);
            (
                StatusCode::TOO_MANY_REQUESTS,
                no_errors,
                vitrine_core::checkout::TOO_MANY_FAILED_PAYMENTS.to_owned(),
            )
        }
        DonateError::Repository(cause) => {
            tracing::error!(error = %cause, "recording a contribution failed");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                no_errors,
                PLEASE_TRY_AGAIN.to_owned(),
            )
        }
    };
    DonationRefusal::Explained(status, errors, alert)
}

async fn show(State(state): State<AppState>, query: RawQuery) -> Response {
    let query = query.0.as_deref();
    let id = query_value(query, "donatePageId");
    let campaign = match state.donations.campaign(&id).await {
        Ok(Some(campaign)) => campaign,
        Ok(None) => return unknown_page(&state, &donate_path(&id)).await,
        Err(cause) => {
            tracing::error!(error = %cause, "reading a donation page failed");
            return unavailable(&state, &donate_path(&id)).await;
        }
    };
    // A donation block's own amount buttons pick the amount before the page opens.
    let typed = DonationForm {
        amount: query_value(query, "amount"),
        ..DonationForm::default()
    };
    donate_page(
        &state,
        &campaign,
        StatusCode::OK,
        &typed,
        &CheckoutFieldErrors::new(),
        None,
    )
    .await
}

pub(crate) fn typed_form(body: &[u8]) -> DonationForm {
    let form = FormFields::parse(body);
    DonationForm {
        amount: form.text("amount"),
        other_amount: form.text("otherAmount"),
        name: form.text("name"),
        email: form.text("email"),
        card_number: form.text("cardNumber"),
        card_expiry: form.text("cardExpiry"),
        card_cvc: form.text("cardCvc"),
    }
}

async fn donate(
    State(state): State<AppState>,
    address: crate::shared::client_address::ClientAddress,
    headers: axum::http::HeaderMap,
    query: RawQuery,
    body: Bytes,
) -> Response {
    let id = query_value(query.0.as_deref(), "donatePageId");
    let path = donate_path(&id);
    let typed = typed_form(&body);
    let campaign = match state.donations.campaign(&id).await {
        Ok(Some(campaign)) => campaign,
        Ok(None) => return unknown_page(&state, &path).await,
        Err(cause) => {
            tracing::error!(error = %cause, "reading a donation page failed");
            return unavailable(&state, &path).await;
        }
    };
    let no_errors = CheckoutFieldErrors::new();
    if state.donations.payments().browser_card_fields().is_some() {
        // The provider's fields take the card, and only with JavaScript: this form carries
        // none, so nothing is tried and the page comes back with what was typed.
        let alert = Some(DONATION_CARD_FIELDS_NEED_JAVASCRIPT.to_owned());
        return donate_page(
            &state,
            &campaign,
            StatusCode::BAD_REQUEST,
            &typed,
            &no_errors,
            alert,
        )
        .await;
    }
    let Ok(key) = IdempotencyKey::parse(FormFields::parse(&body).text("idempotencyKey")) else {
        let alert = Some(PLEASE_TRY_AGAIN.to_owned());
        return donate_page(
            &state,
            &campaign,
            StatusCode::BAD_REQUEST,
            &typed,
            &no_errors,
            alert,
        )
        .await;
    };
    let request = DonationRequest {
        donate_page_id: id,
        key,
        contribution_id: format!("contribution-{}", random_hex()),
        form: typed.clone(),
    };
    let contribution_id = request.contribution_id.clone();
    let payer = crate::commerce::payer::payer(&headers, address, None);
    match state.donations.donate_as(&payer, request, now()).await {
        Ok(contribution) => {
            // A replayed submit answers the first contribution, whose id is not this
            // request's: its Donate fired with it.
            if contribution.id == contribution_id {
                let event = crate::shared::conversion_events::donated(&state, &contribution);
                crate::shared::conversions::fire(&state, &headers, event).await;
            }
            crate::commerce::cart::see_other_to(&confirmed_link(&state, &contribution))
        }
        Err(error) => match explain(&state, error) {
            DonationRefusal::UnknownPage => unknown_page(&state, &path).await,
            DonationRefusal::Explained(status, errors, alert) => {
                donate_page(&state, &campaign, status, &typed, &errors, Some(alert)).await
            }
        },
    }
}

/// The contribution page of a request that may not see it: 404 "Contribution not found"
/// whether or not the contribution exists, or 403 for a link this server made whose time
/// has passed.
async fn contribution_closed(state: &AppState, path: &str, status: StatusCode) -> Response {
    let (heading, text) = if status == StatusCode::FORBIDDEN {
        (
            "Link expired",
            "This link to your contribution has expired. Contact the organisation for its details.",
        )
    } else {
        (
            "Contribution not found",
            "We couldn’t find this contribution. Check the link you followed.",
        )
    };
    let main = CommerceMain::Notice(NoticeMain {
        heading,
        text: text.to_owned(),
        link_href: "/",
        link_text: "Go to the home page",
    });
    respond(
        state,
        PageType::ContributionConfirmed,
        path,
        heading,
        status,
        &main,
    )
    .await
}

async fn confirmed(
    State(state): State<AppState>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> Response {
    let path = format!("/commerce/contributions/{id}/confirmed");
    let signature = crate::commerce::order_page::link_signature(query.as_deref());
    match link_access(&id, signature.as_deref(), &state.order_links, now()) {
        OrderPageAccess::Buyer | OrderPageAccess::Link => {}
        OrderPageAccess::Expired => {
            return contribution_closed(&state, &path, StatusCode::FORBIDDEN).await;
        }
        OrderPageAccess::Refused => {
            return contribution_closed(&state, &path, StatusCode::NOT_FOUND).await;
        }
    }
    let contribution = match state.donations.contribution(&id).await {
        Ok(Some(contribution)) => contribution,
        Ok(None) => return contribution_closed(&state, &path, StatusCode::NOT_FOUND).await,
        Err(cause) => {
            tracing::error!(error = %cause, "reading a contribution failed");
            return unavailable(&state, &path).await;
        }
    };
    // The page's own thanks, while its block is still on the site; a lookup that fails
    // costs the page only that sentence.
    let thank_you = match state.donations.campaign(&contribution.donate_page_id).await {
        Ok(campaign) => campaign.map(|campaign| campaign.thank_you),
        Err(cause) => {
            tracing::warn!(error = %cause, "reading a donation page's thanks failed");
            None
        }
    };
    let donate_again = donate_path(&contribution.donate_page_id);
    let main = ContributionMain::new(&contribution, thank_you, donate_again);
    let title = main.heading;
    respond(
        &state,
        PageType::ContributionConfirmed,
        &path,
        title,
        StatusCode::OK,
        &CommerceMain::Contribution(Box::new(main)),
    )
    .await
}
