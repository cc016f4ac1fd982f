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
use vitrine_core::owners::tables::{CsvDocument, OwnerTable, TablePage, TableQuery};
use vitrine_core::ports::RepositoryError;

use super::markup::{TableScreen, table_page};
use super::{TableParams, csv_download, open, unavailable};
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
    let (viewer, query) = match open(&state, &headers, TABLE, given, false).await {
        Ok(opened) => opened,
        Err(response) => return response,
    };
    match subscribers(&state, &query).await {
        Ok(found) => table_page(&TableScreen {
            table: TABLE,
            viewer: &viewer,
            query: &query,
            page: &found,
            columns: &["Address", "List", "Status"],
            rows: found
                .rows
                .iter()
                .map(|subscriber| {
                    format!(
                        "<tr><td>{email}</td><td>{list}</td><td>{status}</td></tr>",
                        email = escape(&subscriber.email),
                        list = escape(&subscriber.list),
                        status = status(subscriber),
                    )
                })
                .collect(),
            noun: ("subscriber", "subscribers"),
        }),
        Err(error) => unavailable(TABLE, &error),
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
    match subscribers(&state, &query).await {
        Ok(found) => {
            let mut csv = CsvDocument::new(&["submission_id", "email", "list", "status"]);
            for subscriber in &found.rows {
                csv.row(&[
                    subscriber.submission_id.to_string(),
                    subscriber.email.clone(),
                    subscriber.list.clone(),
                    status(subscriber).to_owned(),
                ]);
            }
            csv_download(TABLE, csv.into_string())
        }
        Err(error) => unavailable(TABLE, &error),
    }
}
