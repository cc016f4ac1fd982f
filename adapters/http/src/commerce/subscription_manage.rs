//! A subscription's own page at `/commerce/subscriptions/{id}?sig=...`, which every renewal
//! and dunning mail links to: the shopper pauses, resumes or cancels it, or saves a new card,
//! without signing in. The signature (`SubscriptionLinks`) is the proof; the forms post back
//! to the page's address with it, and are answered with a redirect to the page (303), which
//! then says what happened. Without renewals wired, or with a wrong or expired signature,
//! the page answers 404 and says nothing of which subscriptions exist.

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use vitrine_core::checkout::{
    CheckoutForm, RenewalService, SUBSCRIPTIONS_PATH, SubscriptionActionError,
};
use vitrine_core::enums::PageType;

use crate::AppState;
use crate::commerce::cart::see_other_to;
use crate::commerce::cart_page::FormFields;
use crate::render::commerce_pages::CommerceMain;
use crate::render::subscription_page::SubscriptionManageMain;
use crate::shared::clock::now;
use crate::shared::route_table::Routes;
use crate::shared::visitor_page::respond;

pub(crate) fn routes() -> Routes {
    Routes::new()
        .route("/commerce/subscriptions/{id}", get(page))
        .route("/commerce/subscriptions/{id}/{action}", post(act))
}

#[derive(Debug, Deserialize)]
struct Signed {
    #[serde(default)]
    sig: String,
    /// What the last action did, as a word the page turns into a sentence.
    #[serde(default)]
    done: Option<String>,
}

/// What a word in `done` says.
fn done_text(word: &str) -> Option<&'static str> {
    Some(match word {
        "paused" => "Your subscription is paused.",
        "resumed" => "Your subscription is running again.",
        "cancelled" => "Your subscription is cancelled.",
        "card" => "Your new card is saved.",
        "card-refused" => "That card could not be saved. Please check it or use another card.",
        "not-allowed" => "That is not possible for this subscription now.",
        _ => return None,
    })
}

/// The renewal service when the signature opens subscription `id`.
fn opened<'a>(state: &'a AppState, id: &str, signature: &str) -> Option<&'a RenewalService> {
    let renewals = state.renewals.as_deref()?;
    renewals.links().check(id, signature, now()).ok()?;
    Some(renewals)
}

fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "Not found").into_response()
}

fn try_again() -> Response {
    (StatusCode::SERVICE_UNAVAILABLE, "Please try again.").into_response()
}

async fn page(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(signed): Query<Signed>,
) -> Response {
    let Some(renewals) = opened(&state, &id, &signed.sig) else {
        return not_found();
    };
    let subscription = match renewals.subscription(&id).await {
        Ok(Some(subscription)) => subscription,
        Ok(None) => return not_found(),
        Err(error) => {
            tracing::error!(%error, "reading a subscription failed");
            return try_again();
        }
    };
    let path = format!("{SUBSCRIPTIONS_PATH}/{id}");
    let main = SubscriptionManageMain::new(
        &subscription,
        path.clone(),
        signed.sig.clone(),
        signed
            .done
            .as_deref()
            .and_then(done_text)
            .map(str::to_owned),
    );
    respond(
        &state,
        PageType::OrderStatus,
        &path,
        "Your subscription",
        StatusCode::OK,
        &CommerceMain::SubscriptionManage(Box::new(main)),
    )
    .await
}

async fn act(
    State(state): State<AppState>,
    Path((id, action)): Path<(String, String)>,
    Query(signed): Query<Signed>,
    body: Bytes,
) -> Response {
    let Some(renewals) = opened(&state, &id, &signed.sig) else {
        return not_found();
    };
    let at = now();
    let result = match action.as_str() {
        "pause" => renewals.pause(&id, at).await.map(|_| "paused"),
        "resume" => renewals.resume(&id, at).await.map(|_| "resumed"),
        "cancel" => renewals.cancel(&id, at).await.map(|_| "cancelled"),
        "card" => {
            let form = FormFields::parse(&body);
            let typed = CheckoutForm {
                card_number: form.text("cardNumber"),
                card_expiry: form.text("cardExpiry"),
                card_cvc: form.text("cardCvc"),
                ..CheckoutForm::default()
            };
            match typed.check_card(at) {
                Ok(card) => renewals.update_card(&id, card, at).await.map(|_| "card"),
                Err(_) => Ok("card-refused"),
            }
        }
        _ => return not_found(),
    };
    let done = match result {
        Ok(word) => word,
        Err(SubscriptionActionError::Unknown(_)) => return not_found(),
        Err(SubscriptionActionError::NotAllowed(_)) => "not-allowed",
        Err(SubscriptionActionError::Card(error)) => {
            tracing::info!(%error, "a subscription's new card was refused");
            "card-refused"
        }
        Err(SubscriptionActionError::Repository(error)) => {
            tracing::error!(%error, "changing a subscription failed");
            return try_again();
        }
    };
    see_other_to(&format!(
        "{SUBSCRIPTIONS_PATH}/{id}?sig={}&done={done}",
        signed.sig
    ))
}
