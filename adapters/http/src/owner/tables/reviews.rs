//! `GET /config/reviews`: every review, hidden ones too, newest first, each with the buttons
//! to approve or hide it and a form for the owner's public reply; `GET /config/reviews.csv`
//! exports the matching reviews. The three actions post to `/config/reviews/approve`,
//! `/hide` and `/reply`, each with the review's id and the session's CSRF token.

use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::routing::{get, post};
use vitrine_core::owners::OwnerViewer;
use vitrine_core::owners::tables::{OwnerTable, TableAction, TableQuery};
use vitrine_core::reviews::{ModerateReviewError, Review, ReviewModeration};

use super::markup::back_field;
use super::{TableParams, actor, back_to, exported, open, refusal, shown, unavailable};
use crate::AppState;
use crate::shared::request_parts::escape_html as escape;
use crate::shared::route_table::Routes;

const TABLE: OwnerTable = OwnerTable::Reviews;

pub(super) fn routes() -> Routes {
    Routes::new()
        .route("/config/reviews", get(page))
        .route("/config/reviews.csv", get(export))
        .route("/config/reviews/approve", post(approve))
        .route("/config/reviews/hide", post(hide))
        .route("/config/reviews/reply", post(reply))
}

async fn page(
    State(state): State<AppState>,
    headers: HeaderMap,
    given: Result<Query<TableParams>, QueryRejection>,
) -> Response {
    let opened = match open(&state, &headers, TABLE, given, false).await {
        Ok(opened) => opened,
        Err(response) => return response,
    };
    let found = state.reviews.owner_page(&opened.1).await;
    let moderates = vitrine_core::owners::role_permits(
        opened.0.owner.role,
        TableAction::ApproveReview.permission(),
    );
    let columns = ["Written", "Product", "Stars", "Review", "Shown", "Reply"];
    shown(
        TABLE,
        &opened,
        found,
        &columns,
        ("review", "reviews"),
        |review| row(review, &opened.0, &opened.1, moderates),
    )
}

/// One review's row; the buttons and the reply form only for a role that moderates.
fn row(review: &Review, viewer: &OwnerViewer, query: &TableQuery, moderates: bool) -> String {
    let hidden_fields = format!(
        "{csrf}{back}<input type=\"hidden\" name=\"id\" value=\"{id}\">",
        csrf = super::owner_markup::hidden_csrf(viewer),
        back = back_field(TABLE, query),
        id = escape(&review.id),
    );
    let label = escape(&format!(
        "the review by {} of {}",
        author(review),
        review.product_name
    ));
    let shown = match (review.hidden, moderates) {
        (false, false) => "Shown".to_owned(),
        (true, false) => "Hidden".to_owned(),
        (false, true) => format!(
            "Shown <form method=\"post\" action=\"/config/reviews/hide\">{hidden_fields}\
             <button type=\"submit\" aria-label=\"Hide {label}\">Hide</button></form>"
        ),
        (true, true) => format!(
            "Hidden <form method=\"post\" action=\"/config/reviews/approve\">{hidden_fields}\
             <button type=\"submit\" aria-label=\"Approve {label}\">Approve</button></form>"
        ),
    };
    let reply_text = review.reply.as_deref().unwrap_or_default();
    let reply = if moderates {
        let field_id = format!("reply-{}", escape(&review.id));
        format!(
            "<form method=\"post\" action=\"/config/reviews/reply\">{hidden_fields}\
             <label for=\"{field_id}\">Reply to {label}</label> \
             <textarea id=\"{field_id}\" name=\"reply\" maxlength=\"{max}\">{reply}</textarea> \
             <button type=\"submit\">Save reply</button></form>",
            max = Review::MAX_REPLY,
            reply = escape(reply_text),
        )
    } else {
        escape(reply_text)
    };
    format!(
        "<tr><td>{written}</td><td>{product} <small>{sku}</small></td><td>{stars} of 5</td>\
         <td><strong>{title}</strong> {body} <small>by {author}</small></td>\
         <td>{shown}</td><td>{reply}</td></tr>",
        written = super::owner_markup::date(review.created.millis()),
        product = escape(&review.product_name),
        sku = escape(review.sku.as_str()),
        stars = review.rating.stars(),
        title = escape(&review.title),
        body = escape(&review.body),
        author = escape(author(review)),
    )
}

fn author(review: &Review) -> &str {
    if review.author_name.is_empty() {
        "a verified buyer"
    } else {
        &review.author_name
    }
}

async fn export(
    State(state): State<AppState>,
    headers: HeaderMap,
    given: Result<Query<TableParams>, QueryRejection>,
) -> Response {
    let query = match open(&state, &headers, TABLE, given, true).await {
        Ok((_, query)) => query,
        Err(response) => return response,
    };
    let header = [
        "id", "created", "order_id", "sku", "product", "stars", "title", "body", "author",
        "hidden", "reply",
    ];
    exported(
        TABLE,
        state.reviews.owner_page(&query).await,
        &header,
        |review| {
            vec![
                review.id.clone(),
                review.created.millis().to_string(),
                review.order_id.clone(),
                review.sku.as_str().to_owned(),
                review.product_name.clone(),
                review.rating.stars().to_string(),
                review.title.clone(),
                review.body.clone(),
                review.author_name.clone(),
                review.hidden.to_string(),
                review.reply.clone().unwrap_or_default(),
            ]
        },
    )
}

async fn moderate(
    state: &AppState,
    parts: &Parts,
    body: &Bytes,
    action: TableAction,
    moderation: impl FnOnce(&[(String, String)]) -> ReviewModeration,
) -> Response {
    let fields = super::super::config_page::form(body);
    if let Err(response) = actor(state, &parts.headers, &fields, action).await {
        return response;
    }
    let id = super::super::config_page::field(&fields, "id").unwrap_or_default();
    match state.reviews.moderate(id, moderation(&fields)).await {
        Ok(()) => {
            // Product pages show reviews, their replies and their average; cached copies of
            // them are now stale, as after a buyer's review.
            state.page_cache.clear();
            back_to(TABLE, &fields)
        }
        Err(ModerateReviewError::UnknownReview) => {
            refusal(TABLE, StatusCode::NOT_FOUND, "No review has this id.")
        }
        Err(error @ ModerateReviewError::Invalid(_)) => {
            refusal(TABLE, StatusCode::BAD_REQUEST, &error.to_string())
        }
        Err(ModerateReviewError::Repository(error)) => unavailable(TABLE, &error),
    }
}

/// `POST /config/reviews/approve`: shows a hidden review on its product page again.
async fn approve(State(state): State<AppState>, parts: Parts, body: Bytes) -> Response {
    moderate(&state, &parts, &body, TableAction::ApproveReview, |_| {
        ReviewModeration::Approve
    })
    .await
}

/// `POST /config/reviews/hide`: takes a review off its product page.
async fn hide(State(state): State<AppState>, parts: Parts, body: Bytes) -> Response {
    moderate(&state, &parts, &body, TableAction::HideReview, |_| {
        ReviewModeration::Hide
    })
    .await
}

/// `POST /config/reviews/reply`: sets the owner's reply (a blank one removes it).
async fn reply(State(state): State<AppState>, parts: Parts, body: Bytes) -> Response {
    moderate(
        &state,
        &parts,
        &body,
        TableAction::ReplyToReview,
        |fields| {
            ReviewModeration::Reply(
                super::super::config_page::field(fields, "reply")
                    .unwrap_or_default()
                    .to_owned(),
            )
        },
    )
    .await
}
