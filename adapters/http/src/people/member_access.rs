//! The member-access page (000 s2: root `#sqs-member-access-page-root`): every member area
//! of the site with what it costs, a join button for a free one, the subscription plans of
//! a paid one behind the pricing toggle of 000 s4 (monthly on the left, yearly on the
//! right), and the sign-in and sign-up forms for a visitor who has not signed in. The
//! member-area block and the access-denied page (106) link here.

use std::collections::BTreeSet;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::response::Response;
use axum::routing::{get, post};
use vitrine_core::people::{JoinError, MEMBER_ACCESS_PATH, Viewer};
use vitrine_core::site::{ItemId, MemberArea, MemberAreaAccess};

use super::forms::{
    Posted, carries_xsrf, member_areas, page, return_query, see_other, signed_in, with_return,
};
use super::pages::{sign_in_form, sign_up_form};
use super::site_users::XSRF_MISSING;
use crate::AppState;
use crate::render::commerce_pages::money_text;
use crate::render::people_pages::{AreaView, MemberAccessMain, Notice, PeopleMain, PriceView};
use crate::shared::paid_membership::open_member_areas;
use crate::shared::route_table::Routes;

/// Where a free area's join button posts.
pub const JOIN_PATH: &str = "/account/member-access/join";

pub(crate) fn routes() -> Routes {
    Routes::new()
        .route(MEMBER_ACCESS_PATH, get(member_access))
        .route(JOIN_PATH, post(join))
}

async fn member_access(State(state): State<AppState>, parts: Parts) -> Response {
    let viewer = match signed_in(&state, &parts.headers).await {
        Ok(viewer) => viewer,
        Err(response) => return response,
    };
    let return_to = return_query(parts.uri.query());
    render(&state, viewer.as_ref(), return_to, StatusCode::OK, None).await
}

async fn render(
    state: &AppState,
    viewer: Option<&Viewer>,
    return_to: Option<String>,
    status: StatusCode,
    notice: Option<Notice>,
) -> Response {
    let areas = match member_areas(state).await {
        Ok(areas) => areas,
        Err(response) => return response,
    };
    // A paid area whose subscription lapsed is offered again, as to somebody who never
    // joined it.
    let open = match viewer {
        Some(viewer) => open_member_areas(state, &viewer.account).await,
        None => BTreeSet::new(),
    };
    let mut views = Vec::new();
    for area in &areas {
        views.push(area_view(state, area, &open).await);
    }
    let back = return_to.as_deref();
    let main = MemberAccessMain {
        notice,
        areas: views,
        xsrf: viewer.map(|viewer| viewer.session.xsrf_token.clone()),
        return_to: back.unwrap_or(MEMBER_ACCESS_PATH).to_owned(),
        join_path: JOIN_PATH,
        sign_in: sign_in_form("", Some(&with_return(MEMBER_ACCESS_PATH, back)), None),
        sign_up: sign_up_form("", Some(&with_return(MEMBER_ACCESS_PATH, back)), None),
    };
    page(
        state,
        viewer,
        (MEMBER_ACCESS_PATH, "Member access"),
        status,
        PeopleMain::MemberAccess(Box::new(main)),
    )
    .await
}

async fn area_view(state: &AppState, area: &MemberArea, open: &BTreeSet<String>) -> AreaView {
    let (monthly, yearly) = match &area.access {
        MemberAreaAccess::Free => (None, None),
        MemberAreaAccess::Paid { plans } => {
            let monthly = match plans.first() {
                Some(plan) => price(state, plan).await,
                None => None,
            };
            let yearly = match plans.get(1) {
                Some(plan) => price(state, plan).await,
                None => None,
            };
            (monthly, yearly)
        }
    };
    AreaView {
        id: area.id.as_str().to_owned(),
        title: area.title.clone(),
        description: area.description.clone(),
        is_member: open.contains(area.id.as_str()),
        is_free: area.is_free(),
        monthly,
        yearly,
    }
}

/// A plan's price and billing period, linking to its product page; none when the product
/// or its shop is gone or locked.
async fn price(state: &AppState, plan: &ItemId) -> Option<PriceView> {
    let item = state.repository.item(plan).await.ok().flatten()?;
    let shop = state
        .repository
        .collection(&item.collection_id)
        .await
        .ok()
        .flatten()
        .filter(|shop| shop.permission_type == vitrine_core::site::PermissionType::Public)?;
    let product = item.product.as_ref()?;
    let variant = product.variants.first()?;
    let currency = state
        .pages
        .profile()
        .await
        .ok()?
        .settings
        .store
        .selected_currency;
    let period = product
        .subscription_plan
        .map(|plan| plan.describe())
        .unwrap_or_default();
    Some(PriceView {
        text: format!(
            "{} · {period}",
            money_text(variant.effective_price(), currency)
        ),
        href: format!("/{}/{}", shop.slug, item.slug),
    })
}

/// `POST /account/member-access/join`: a signed-in site user joins a free area and goes
/// back to the page that sent them.
async fn join(State(state): State<AppState>, parts: Parts, body: Bytes) -> Response {
    let posted = Posted::parse(&body);
    let return_to = posted.return_to(MEMBER_ACCESS_PATH);
    let viewer = match signed_in(&state, &parts.headers).await {
        Ok(Some(viewer)) => viewer,
        Ok(None) => return see_other(&with_return(MEMBER_ACCESS_PATH, Some(&return_to))),
        Err(response) => return response,
    };
    if !carries_xsrf(&viewer, &posted) {
        let notice = Some(Notice::error(XSRF_MISSING));
        return render(
            &state,
            Some(&viewer),
            Some(return_to),
            StatusCode::FORBIDDEN,
            notice,
        )
        .await;
    }
    let areas = match member_areas(&state).await {
        Ok(areas) => areas,
        Err(response) => return response,
    };
    let outcome = state
        .people
        .join_free_area(&viewer.account, &areas, posted.field("area"))
        .await;
    let status = match &outcome {
        Ok(()) => return see_other(&return_to),
        Err(JoinError::UnknownArea) => StatusCode::NOT_FOUND,
        Err(JoinError::Paid) => StatusCode::PAYMENT_REQUIRED,
        Err(JoinError::UnknownAccount) => StatusCode::UNAUTHORIZED,
        Err(JoinError::Unavailable(error)) => {
            tracing::error!(%error, "joining a member area failed");
            return crate::shared::visitor_page::unavailable(&state);
        }
    };
    let notice = outcome.err().map(|error| Notice::error(error.to_string()));
    render(&state, Some(&viewer), Some(return_to), status, notice).await
}
