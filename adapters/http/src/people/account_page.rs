//! The signed-in site user's account page: who they are, the member areas they belong to
//! with their pages, the orders placed with their verified addresses (the current one and
//! those confirmed before an email change, each within the span the account held it, as the
//! export holds them) linked as the order mails link them, the donations made with them in
//! the same spans, their subscriptions with pause, resume and cancel
//! (`account_subscriptions.rs`), the newsletters the address receives with a button to unsubscribe, a
//! JSON export of their data, account deletion with a confirmation, and signing out. Its forms carry the session's XSRF token beside the same-origin check.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::routing::{get, post};
use vitrine_core::checkout::{ContributionPayment, ORDER_LINK_PARAMETER, ORDERS_PATH};
use vitrine_core::forms::channels::UNSUBSCRIBE_PATH;
use vitrine_core::people::{ACCOUNT_PAGE_PATH, MEMBER_ACCESS_PATH, SIGN_IN_PATH, Viewer};
use vitrine_core::site::BlockContent;

use super::forms::{Posted, carries_xsrf, member_areas, page, see_other, signed_in, with_return};
use super::site_users::{XSRF_MISSING, set_cookie, signed_out};
use crate::AppState;
use crate::render::commerce_pages::money_text;
use crate::render::dates::display_date;
use crate::render::people_pages::{
    AccountDonationView, AccountMain, AccountOrderView, AccountPaths, FormMain, Link,
    MembershipView, NewsletterView, Notice, PeopleMain,
};
use crate::shared::cookie_names::CART_COOKIE;
use crate::shared::paid_membership::open_member_areas;
use crate::shared::route_table::Routes;

/// Where the account page's sign-out form posts.
pub const SIGN_OUT_PAGE_PATH: &str = "/account/sign-out";
/// The JSON export of the account's data.
pub const EXPORT_PATH: &str = "/account/export.json";
/// Where the account page's deletion form posts.
pub const DELETE_PATH: &str = "/account/delete";
/// What the page says once the account is deleted.
pub const ACCOUNT_DELETED: &str = "Your account has been deleted.";
/// What the deletion form says when its box was not ticked.
pub const CONFIRM_DELETION: &str =
    "Please tick the box to confirm that you want to delete your account.";

pub(crate) fn routes() -> Routes {
    Routes::new()
        .route(ACCOUNT_PAGE_PATH, get(account_page))
        .route(EXPORT_PATH, get(super::account_export::export))
        .route(DELETE_PATH, post(delete))
        .route(SIGN_OUT_PAGE_PATH, post(sign_out))
}

fn paths() -> AccountPaths {
    AccountPaths {
        sign_out: SIGN_OUT_PAGE_PATH,
        export: EXPORT_PATH,
        delete: DELETE_PATH,
        member_access: MEMBER_ACCESS_PATH,
        unsubscribe: UNSUBSCRIBE_PATH,
        remove_address: super::account_address::REMOVE_ADDRESS_PATH,
    }
}

/// How many of the newest orders the account page lists.
const ORDERS_SHOWN: u32 = 50;

/// The newest orders placed with any of the viewer's verified addresses (the current one and
/// those it confirmed before) while the viewer held them, each linked with a signed order link (the order pages open for
/// the buyer's cart or such a link only).
async fn orders(state: &AppState, viewer: &Viewer) -> Result<Vec<AccountOrderView>, Response> {
    let found = state
        .people
        .orders_of(&viewer.account, ORDERS_SHOWN)
        .await
        .map_err(|error| {
            tracing::error!(%error, "reading an account's orders failed");
            crate::shared::visitor_page::unavailable(state)
        })?;
    let now = crate::shared::viewer::now();
    Ok(found
        .iter()
        .map(|order| AccountOrderView {
            id: order.id.clone(),
            href: format!(
                "{ORDERS_PATH}/{}?{ORDER_LINK_PARAMETER}={}",
                order.id,
                state.order_links.sign(&order.id, now)
            ),
            placed: display_date(order.created.millis()),
            total: money_text(order.grand_total_cents, order.currency),
            items: order
                .lines
                .iter()
                .map(|line| match line.quantity {
                    1 => line.product_name.clone(),
                    quantity => format!("{} × {quantity}", line.product_name),
                })
                .collect::<Vec<_>>()
                .join(", "),
        })
        .collect())
}

/// How many of the newest donations the account page lists.
const DONATIONS_SHOWN: u32 = 50;

/// The newest donations made with any of the viewer's verified addresses while the viewer
/// held them, those paid only: a declined or abandoned donation gave nothing (the export
/// holds it, with its status).
async fn donations(
    state: &AppState,
    viewer: &Viewer,
) -> Result<Vec<AccountDonationView>, Response> {
    let found = state
        .people
        .contributions_of(&viewer.account, DONATIONS_SHOWN)
        .await
        .map_err(|error| {
            tracing::error!(%error, "reading an account's donations failed");
            crate::shared::visitor_page::unavailable(state)
        })?;
    Ok(found
        .iter()
        .filter(|given| matches!(given.payment, ContributionPayment::Paid { .. }))
        .map(|given| AccountDonationView {
            cause: given.campaign_title.clone(),
            given: display_date(given.created.millis()),
            amount: money_text(given.amount_minor, given.currency),
        })
        .collect())
}

/// The newsletters the viewer's address receives, named by their block's title.
async fn newsletters(
    state: &AppState,
    viewer: &Viewer,
    collections: &[vitrine_core::site::Collection],
) -> Result<Vec<NewsletterView>, Response> {
    let Some(newsletter) = state.newsletter.as_deref() else {
        return Ok(Vec::new());
    };
    let found = newsletter
        .subscriptions_of(viewer.account.email.as_str())
        .await
        .map_err(|error| {
            tracing::error!(%error, "reading an account's newsletters failed");
            crate::shared::visitor_page::unavailable(state)
        })?;
    let title = |list: &str| {
        collections
            .iter()
            .flat_map(|collection| collection.body.layout.blocks())
            .find_map(|block| match &block.content {
                BlockContent::Newsletter { title, .. }
                    if block.id.as_str() == list && !title.is_empty() =>
                {
                    Some(title.clone())
                }
                _ => None,
            })
            .unwrap_or_else(|| list.to_owned())
    };
    Ok(found
        .into_iter()
        .map(|subscriber| NewsletterView {
            list: title(&subscriber.list),
            confirmed: subscriber.confirmed,
            unsubscribe_token: subscriber.unsubscribe_token,
        })
        .collect())
}

/// The viewer of a page that needs one: signed in, or sent to sign in and come back.
pub(super) async fn required(state: &AppState, headers: &HeaderMap) -> Result<Viewer, Response> {
    match signed_in(state, headers).await? {
        Some(viewer) => Ok(viewer),
        None => Err(see_other(&with_return(
            SIGN_IN_PATH,
            Some(ACCOUNT_PAGE_PATH),
        ))),
    }
}

async fn account_page(State(state): State<AppState>, headers: HeaderMap) -> Response {
    match required(&state, &headers).await {
        Ok(viewer) => account(&state, &viewer, StatusCode::OK, None).await,
        Err(response) => response,
    }
}

pub(super) async fn account(
    state: &AppState,
    viewer: &Viewer,
    status: StatusCode,
    notice: Option<Notice>,
) -> Response {
    let areas = match member_areas(state).await {
        Ok(areas) => areas,
        Err(response) => return response,
    };
    let collections = state.repository.collections().await.unwrap_or_default();
    // A paid membership whose subscription lapsed is not listed: the member-access page
    // offers it again.
    let open = open_member_areas(state, &viewer.account).await;
    let memberships = areas
        .iter()
        .filter(|area| open.contains(area.id.as_str()))
        .map(|area| MembershipView {
            title: area.title.clone(),
            pages: area
                .pages
                .iter()
                .filter_map(|id| collections.iter().find(|c| &c.id == id))
                .map(|collection| (collection.path(), collection.title.clone()))
                .collect(),
        })
        .collect();
    let orders = match orders(state, viewer).await {
        Ok(orders) => orders,
        Err(response) => return response,
    };
    let donations = match donations(state, viewer).await {
        Ok(donations) => donations,
        Err(response) => return response,
    };
    let subscriptions = match super::account_subscriptions::subscriptions(state, viewer).await {
        Ok(subscriptions) => subscriptions,
        Err(response) => return response,
    };
    let newsletters = match newsletters(state, viewer, &collections).await {
        Ok(newsletters) => newsletters,
        Err(response) => return response,
    };
    let saved_address = match super::account_address::saved_address_lines(state, viewer).await {
        Ok(lines) => lines,
        Err(response) => return response,
    };
    let main = AccountMain {
        notice,
        email: viewer.account.email.as_str().to_owned(),
        xsrf: viewer.session.xsrf_token.clone(),
        memberships,
        orders,
        donations,
        subscriptions,
        newsletters,
        saved_address,
        paths: paths(),
    };
    page(
        state,
        Some(viewer),
        (ACCOUNT_PAGE_PATH, "Your account"),
        status,
        PeopleMain::Account(main),
    )
    .await
}

/// `POST /account/delete`: erases the account once the visitor ticked the confirmation.
async fn delete(State(state): State<AppState>, parts: Parts, body: Bytes) -> Response {
    let viewer = match required(&state, &parts.headers).await {
        Ok(viewer) => viewer,
        Err(response) => return response,
    };
    let posted = Posted::parse(&body);
    if !carries_xsrf(&viewer, &posted) {
        return xsrf_refusal(&state, &viewer).await;
    }
    if posted.field("confirm") != "delete" {
        let notice = Some(Notice::error(CONFIRM_DELETION));
        return account(&state, &viewer, StatusCode::BAD_REQUEST, notice).await;
    }
    if let Err(error) = state.people.delete_account(&viewer.account).await {
        tracing::error!(%error, "deleting an account failed");
        return crate::shared::visitor_page::unavailable(&state);
    }
    let main = FormMain::message(
        "Your account",
        Notice::info(ACCOUNT_DELETED),
        vec![Link {
            href: "/".to_owned(),
            text: "Go to the home page",
        }],
    );
    let mut response = page(
        &state,
        None,
        (DELETE_PATH, "Your account"),
        StatusCode::OK,
        PeopleMain::Form(main),
    )
    .await;
    copy_cookies(&signed_out(&state), &mut response);
    response
}

/// `POST /account/sign-out`: ends this browser's session and clears its cart, as the JSON
/// call does without cloneCart, then goes to the site root (000 s2).
async fn sign_out(State(state): State<AppState>, parts: Parts, body: Bytes) -> Response {
    let viewer = match signed_in(&state, &parts.headers).await {
        Ok(Some(viewer)) => viewer,
        Ok(None) => return see_other("/"),
        Err(response) => return response,
    };
    if !carries_xsrf(&viewer, &Posted::parse(&body)) {
        return xsrf_refusal(&state, &viewer).await;
    }
    if let Err(error) = state.people.sign_out_session(&viewer.session).await {
        tracing::error!(%error, "signing out failed");
        return crate::shared::visitor_page::unavailable(&state);
    }
    let mut response = see_other("/?logout=true");
    copy_cookies(&signed_out(&state), &mut response);
    set_cookie(
        &mut response,
        &super::site_users::expired_cookie_header(&state, CART_COOKIE),
    );
    response
}

/// The account page again, saying the form lacked the session's XSRF token.
pub(super) async fn xsrf_refusal(state: &AppState, viewer: &Viewer) -> Response {
    let notice = Some(Notice::error(XSRF_MISSING));
    account(state, viewer, StatusCode::FORBIDDEN, notice).await
}

fn copy_cookies(from: &Response, to: &mut Response) {
    for value in from.headers().get_all(axum::http::header::SET_COOKIE) {
        to.headers_mut()
            .append(axum::http::header::SET_COOKIE, value.clone());
    }
}
