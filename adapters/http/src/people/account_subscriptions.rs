//! The subscriptions on the account page: those that belong to the signed-in user's account
//! (whatever address they were bought with) and those bought with its confirmed address since
//! it held it that no account holds yet, with where each stands, its amount and next
//! renewal, and buttons to pause, resume or cancel it. The buttons post to
//! `/account/subscriptions/{id}/{action}`
//! with the session's XSRF token, and change the subscription through the same renewal
//! service as the signed page its mails link to; anybody else's subscription is not found.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::response::Response;
use axum::routing::post;
use vitrine_core::checkout::{
    SubscriptionAction, SubscriptionActionError, SubscriptionHolder, SubscriptionStatus,
};
use vitrine_core::people::{Unavailable, Viewer};

use super::account_page::{account, required, xsrf_refusal};
use super::forms::{Posted, carries_xsrf};
use crate::AppState;
use crate::render::commerce_pages::money_text;
use crate::render::dates::display_date;
use crate::render::people_pages::{AccountSubscriptionView, Notice};
use crate::render::subscription_page::AllowedActions;
use crate::shared::route_table::Routes;

/// Where the account page's subscription buttons post, before the id and the action.
pub const ACCOUNT_SUBSCRIPTIONS_PATH: &str = "/account/subscriptions";

/// What the page says once a button did its work, or could not (our texts).
pub const SUBSCRIPTION_PAUSED: &str = "Your subscription is paused.";
pub const SUBSCRIPTION_RESUMED: &str = "Your subscription is running again.";
pub const SUBSCRIPTION_CANCELLED: &str = "Your subscription is cancelled.";
pub const SUBSCRIPTION_NOT_ALLOWED: &str = "That is not possible for this subscription now.";
pub const SUBSCRIPTION_NOT_FOUND: &str = "We could not find this subscription in your account.";

pub(crate) fn routes() -> Routes {
    Routes::new().route("/account/subscriptions/{id}/{action}", post(act))
}

fn status_text(status: SubscriptionStatus) -> &'static str {
    match status {
        SubscriptionStatus::Active => "Active",
        SubscriptionStatus::PastDue => "Past due: please update the card",
        SubscriptionStatus::Paused => "Paused",
        SubscriptionStatus::Cancelled => "Cancelled",
        SubscriptionStatus::Ended => "Ended",
    }
}

/// The subscriptions the viewer holds ([`SubscriptionHolder`]): none for an account never
/// confirmed (whoever typed somebody else's address at sign-up must not manage their
/// subscriptions) and none when the server charges no renewals.
pub(super) async fn subscriptions(
    state: &AppState,
    viewer: &Viewer,
) -> Result<Vec<AccountSubscriptionView>, Response> {
    let Some(renewals) = state.renewals.as_deref() else {
        return Ok(Vec::new());
    };
    if !viewer.account.is_confirmed() {
        return Ok(Vec::new());
    }
    let holder = holder(state, viewer).await.map_err(|error| {
        tracing::error!(%error, "reading an account's addresses failed");
        crate::shared::visitor_page::unavailable(state)
    })?;
    let found = renewals.of_holder(&holder).await.map_err(|error| {
        tracing::error!(%error, "reading an account's subscriptions failed");
        crate::shared::visitor_page::unavailable(state)
    })?;
    let now = crate::shared::viewer::now();
    Ok(found
        .iter()
        .map(|subscription| AccountSubscriptionView {
            product: subscription.product_name.clone(),
            status: status_text(subscription.status),
            amount: format!(
                "{} · {}",
                money_text(subscription.price_cents, subscription.currency),
                subscription.plan.describe()
            ),
            next_renewal: subscription
                .next_billing
                .filter(|_| !subscription.status.is_final())
                .and_then(|due| display_date(due.millis())),
            actions: AllowedActions::of(subscription),
            action_base: format!(
                "{ACCOUNT_SUBSCRIPTIONS_PATH}/{}",
                url::form_urlencoded::byte_serialize(subscription.id.as_bytes())
                    .collect::<String>()
            ),
            manage_href: Some(renewals.links().manage(&subscription.id, now)),
        })
        .collect())
}

/// The signed-in, confirmed viewer as the holder of subscriptions, with the start of its
/// hold of its address: a subscription bought with the address while another account held
/// it is not the viewer's.
async fn holder<'a>(
    state: &AppState,
    viewer: &'a Viewer,
) -> Result<SubscriptionHolder<'a>, Unavailable> {
    let holds = state.people.address_holds(&viewer.account).await?;
    let current = holds.iter().find(|hold| hold.is_current());
    Ok(SubscriptionHolder {
        account: viewer.account.id.as_str(),
        email: current.map_or("", |_| viewer.account.email.as_str()),
        held_since: current.and_then(|hold| hold.placed.after),
    })
}

/// `POST /account/subscriptions/{id}/{action}`: pauses, resumes or cancels one of the
/// viewer's subscriptions, then shows the account page saying what happened.
async fn act(
    State(state): State<AppState>,
    Path((id, action)): Path<(String, String)>,
    parts: Parts,
    body: Bytes,
) -> Response {
    let viewer = match required(&state, &parts.headers).await {
        Ok(viewer) => viewer,
        Err(response) => return response,
    };
    if !carries_xsrf(&viewer, &Posted::parse(&body)) {
        return xsrf_refusal(&state, &viewer).await;
    }
    let not_found = || Some(Notice::error(SUBSCRIPTION_NOT_FOUND));
    let (Some(renewals), Some(action), true) = (
        state.renewals.as_deref(),
        SubscriptionAction::parse(&action),
        viewer.account.is_confirmed(),
    ) else {
        return account(&state, &viewer, StatusCode::NOT_FOUND, not_found()).await;
    };
    let holder = match holder(&state, &viewer).await {
        Ok(holder) => holder,
        Err(error) => {
            tracing::error!(%error, "reading an account's addresses failed");
            return crate::shared::visitor_page::unavailable(&state);
        }
    };
    let now = crate::shared::clock::now();
    let (status, notice) = match renewals.act_for(&holder, &id, action, now).await {
        Ok(_) => (
            StatusCode::OK,
            Notice::info(match action {
                SubscriptionAction::Pause => SUBSCRIPTION_PAUSED,
                SubscriptionAction::Resume => SUBSCRIPTION_RESUMED,
                SubscriptionAction::Cancel => SUBSCRIPTION_CANCELLED,
            }),
        ),
        Err(SubscriptionActionError::Unknown(_)) => {
            (StatusCode::NOT_FOUND, Notice::error(SUBSCRIPTION_NOT_FOUND))
        }
        Err(SubscriptionActionError::NotAllowed(_)) => (
            StatusCode::CONFLICT,
            Notice::error(SUBSCRIPTION_NOT_ALLOWED),
        ),
        Err(SubscriptionActionError::Card(_) | SubscriptionActionError::Repository(_)) => {
            tracing::error!(subscription = %id, "changing a subscription from the account page failed");
            return crate::shared::visitor_page::unavailable(&state);
        }
    };
    account(&state, &viewer, status, Some(notice)).await
}
