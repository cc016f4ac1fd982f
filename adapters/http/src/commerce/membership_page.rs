//! The membership-confirmed page (page type 208) at `/commerce/orders/{id}/membership`,
//! where the subscription checkout of a paid member area's plan leads. It opens like the
//! order's own pages (the buyer's cart or a signed link), joins the areas the order bought
//! for the confirmed account of its address once more (idempotent, so a store that failed
//! when the payment succeeded is made good here), and says what the buyer may now enter.

use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::routing::get;
use vitrine_core::cart::texts::PLEASE_TRY_AGAIN;
use vitrine_core::enums::PageType;
use vitrine_core::people::SIGN_UP_PATH;
use vitrine_core::site::MemberArea;

use crate::AppState;
use crate::commerce::checkout_page::notice;
use crate::commerce::order_page::readable_order;
use crate::render::commerce_pages::CommerceMain;
use crate::render::membership_page::{MembershipAreaView, MembershipMain, MembershipPageLink};
use crate::render::subscription_page::SubscriptionFacts;
use crate::shared::paid_membership::{PaidAreas, join_areas_of_order};
use crate::shared::route_table::Routes;
use crate::shared::visitor_page::respond;

pub(crate) fn routes() -> Routes {
    Routes::new().route(
        "/commerce/orders/{id}/membership",
        get(membership_confirmed),
    )
}

/// The address of the membership-confirmed page of the order `order_id`.
pub(crate) fn membership_path(order_id: &str) -> String {
    format!("/commerce/orders/{order_id}/membership")
}

async fn membership_confirmed(
    State(state): State<AppState>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    let order = match readable_order(&state, &headers, query.as_deref(), &id).await {
        Ok(order) => order,
        Err(answer) => return answer,
    };
    // The page may be opened through a forwarded order link, so it claims nothing for whoever
    // is signed in: only the checkout names its buyer.
    let paid = match join_areas_of_order(&state, &order, None).await {
        Ok(paid) => paid,
        Err(error) => {
            tracing::error!(%error, "joining the member areas of an order failed");
            return notice(&state, StatusCode::SERVICE_UNAVAILABLE, PLEASE_TRY_AGAIN).await;
        }
    };
    let (joined, areas) = match paid {
        // An order that bought no area has its own confirmation.
        PaidAreas::None => {
            return crate::commerce::cart::see_other_to(&format!(
                "/commerce/orders/{}/confirmed",
                order.id
            ));
        }
        PaidAreas::AwaitingAccount(areas) => (false, areas),
        PaidAreas::Joined(areas) => (true, areas),
    };
    let titles = areas
        .iter()
        .map(|area| area.title.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let lead = if joined {
        format!(
            "Thank you. Your payment was received and your account {} is now a member of {titles}.",
            order.email
        )
    } else {
        format!(
            "Thank you. Your payment was received. Create an account with {} and confirm the address: your membership of {titles} starts as soon as it is confirmed.",
            order.email
        )
    };
    let subscription = match state
        .carts
        .store()
        .subscription(&format!("{}-subscription", order.id))
        .await
    {
        Ok(subscription) => subscription,
        Err(cause) => {
            // The membership stands; the page only leaves the subscription's facts out.
            tracing::warn!(error = %cause, "reading the subscription of a membership failed");
            None
        }
    };
    let mut views = Vec::new();
    for area in &areas {
        views.push(area_view(&state, area).await);
    }
    let main = MembershipMain {
        heading: "Membership confirmed",
        lead,
        joined,
        areas: views,
        sign_up_href: SIGN_UP_PATH.to_owned(),
        subscription: subscription.as_ref().map(SubscriptionFacts::new),
    };
    let path = membership_path(&order.id);
    respond(
        &state,
        PageType::MembershipConfirmed,
        &path,
        main.heading,
        StatusCode::OK,
        &CommerceMain::Membership(Box::new(main)),
    )
    .await
}

/// An area with links to its pages (those the site still has).
async fn area_view(state: &AppState, area: &MemberArea) -> MembershipAreaView {
    let mut pages = Vec::new();
    for id in &area.pages {
        if let Ok(Some(collection)) = state.repository.collection(id).await {
            pages.push(MembershipPageLink {
                title: collection.title.clone(),
                href: format!("/{}", collection.slug),
            });
        }
    }
    MembershipAreaView {
        id: area.id.as_str().to_owned(),
        title: area.title.clone(),
        description: area.description.clone(),
        pages,
    }
}
