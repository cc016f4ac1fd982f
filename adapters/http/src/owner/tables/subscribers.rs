//! `GET /config/subscribers`: the newsletter subscribers, newest first, with their list and
//! whether they confirmed or ended their subscription; `GET /config/subscribers.csv` exports
//! the matching ones. Reading only: subscribers end their subscription through their own
//! link.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::get;
use vitrine_core::forms::Subscriber;
use vitrine_core::owners::tables::{OwnerTable, TablePage, TableQuery};
use vitrine_core::ports::RepositoryError;

use super::{TableParams, exported, open, shown};
use crate::AppState;
use crate::shared::request_parts::escape_html as escape;
use crate::shared::route_table::Routes;

const TABLE: OwnerTable = OwnerTable::Subscribers;

pub(super) fn routes() -> Routes {
    Routes::new()
        .route("/config/subscribers", get(page))
        .route("/config/subscribers.csv", get(export))
}

/// The subscribers the query asks for; none on a server that keeps no newsletter sign-ups
/// (one built without the delivery outbox, as in some tests).
async fn subscribers(
    state: &AppState,
    query: &TableQuery,
) -> Result<TablePage<Subscriber>, RepositoryError> {
    match &state.newsletter {
        Some(newsletter) => newsletter.subscriber_page(query).await,
        None => Ok(TablePage {
            rows: Vec::new(),
            total: 0,
        }),
    }
}

fn status(subscriber: &Subscriber) -> &'static str {
    match (subscriber.unsubscribed, subscriber.confirmed) {
        (true, _) => "Unsubscribed",
        (false, true) => "Subscribed",
        (false, false) => "Waiting for confirmation",
    }
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
    let found = subscribers(&state, &opened.1).await;
    let columns = ["Address", "List", "Status"];
    shown(
        TABLE,
        &opened,
        found,
        &columns,
        ("subscriber", "subscribers"),
        |subscriber| {
            format!(
                "<tr><td>{email}</td><td>{list}</td><td>{status}</td></tr>",
                email = escape(&subscriber.email),
                list = escape(&subscriber.list),
                status = status(subscriber),
            )
        },
    )
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
    let header = ["submission_id", "email", "list", "status"];
    exported(
        TABLE,
        subscribers(&state, &query).await,
        &header,
        |subscriber| {
            vec![
                subscriber.submission_id.to_string(),
                subscriber.email.clone(),
                subscriber.list.clone(),
                status(subscriber).to_owned(),
            ]
        },
    )
}
