//! The owner's tables under `/config/` (issue 18 §3): form submissions, orders, newsletter
//! subscribers, consent receipts and reviews, each a server-rendered page with a search, pages
//! of [`TABLE_PAGE_SIZE`](vitrine_core::owners::tables::TABLE_PAGE_SIZE) rows and a CSV export
//! of every matching row, working without JavaScript. The store pages and searches; a page
//! only shows what it gets.
//!
//! Who may see a table and act on its rows is the core's rule
//! ([`OwnerTable::read_permission`], [`TableAction::permission`]); an action is a form post
//! that repeats the session's CSRF token, under the origin check of every form post.

mod consent_receipts;
mod markup;
mod orders;
mod reviews;
mod submissions;
mod subscribers;

use axum::extract::Query;
use axum::extract::rejection::QueryRejection;
use axum::http::header::{CACHE_CONTROL, CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use vitrine_core::owners::tables::{
    CSV_CONTENT_TYPE, CsvDocument, OwnerTable, TableAction, TablePage, TableQuery,
};
use vitrine_core::owners::{OwnerViewer, role_permits};

use super::markup as owner_markup;
use crate::AppState;
use crate::shared::owner_access::owner_viewer;
use crate::shared::route_table::Routes;

pub(crate) fn routes() -> Routes {
    submissions::routes()
        .merge(orders::routes())
        .merge(subscribers::routes())
        .merge(consent_receipts::routes())
        .merge(reviews::routes())
}

/// What a table page answers when its store cannot be read.
const UNAVAILABLE: &str = "This table is unavailable. Please try again in a moment.";

/// The search and page of a table's address: `?q=...&page=2`.
#[derive(Debug, Default, serde::Deserialize)]
pub(super) struct TableParams {
    q: Option<String>,
    page: Option<u32>,
}

/// What a table page or export reads: the signed-in owner whose role reads the table, and
/// the page (or, for an export, every row) the address asks for; otherwise the answer to
/// give: the sign-in form's address, 403 for a role without the permission, or 400 for a
/// search or page number that cannot be read.
async fn open(
    state: &AppState,
    headers: &HeaderMap,
    table: OwnerTable,
    given: Result<Query<TableParams>, QueryRejection>,
    export: bool,
) -> Result<(OwnerViewer, TableQuery), Response> {
    let viewer = reader(state, headers, table).await?;
    let Ok(Query(params)) = given else {
        return Err(refusal(
            table,
            StatusCode::BAD_REQUEST,
            "The search or page number could not be read.",
        ));
    };
    let query = if export {
        TableQuery::export(params.q.as_deref())
    } else {
        TableQuery::page(params.q.as_deref(), params.page.unwrap_or(1))
    };
    match query {
        Ok(query) => Ok((viewer, query)),
        Err(error) => Err(refusal(table, StatusCode::BAD_REQUEST, &error.to_string())),
    }
}

fn refusal(table: OwnerTable, status: StatusCode, text: &str) -> Response {
    owner_markup::page(
        status,
        table.title(),
        &format!(
            "<main><h1>{title}</h1>{alert}<p><a href=\"/config/\">Back to the owner area</a></p></main>",
            title = table.title(),
            alert = owner_markup::alert(Some(text)),
        ),
    )
}

fn unavailable(table: OwnerTable, error: &dyn std::fmt::Display) -> Response {
    tracing::error!(%error, table = table.slug(), "an owner table could not be read");
    refusal(table, StatusCode::SERVICE_UNAVAILABLE, UNAVAILABLE)
}

/// The signed-in owner whose role reads `table`; otherwise the sign-in form's address, or
/// 403 for a role without the permission.
async fn reader(
    state: &AppState,
    headers: &HeaderMap,
    table: OwnerTable,
) -> Result<OwnerViewer, Response> {
    match owner_viewer(state, headers).await {
        Ok(Some(viewer)) if role_permits(viewer.owner.role, table.read_permission()) => Ok(viewer),
        Ok(Some(_)) => Err(refusal(
            table,
            StatusCode::FORBIDDEN,
            "Your role does not show this table.",
        )),
        Ok(None) => Err(Redirect::to("/config/").into_response()),
        Err(error) => Err(unavailable(table, &error)),
    }
}

/// The signed-in owner of a posted action who repeated the session's CSRF token and whose
/// role may take `action`; otherwise the answer to give.
async fn actor(
    state: &AppState,
    headers: &HeaderMap,
    fields: &[(String, String)],
    action: TableAction,
) -> Result<OwnerViewer, Response> {
    let viewer = super::config_page::acting_owner(state, headers, fields).await?;
    if role_permits(viewer.owner.role, action.permission()) {
        Ok(viewer)
    } else {
        Err(refusal(
            action.table(),
            StatusCode::FORBIDDEN,
            "Your role cannot change this table.",
        ))
    }
}

/// Where an action goes back to: the table page it was taken on, kept to this table's
/// address so a posted `back` cannot send the owner elsewhere.
fn back_to(table: OwnerTable, fields: &[(String, String)]) -> Response {
    let base = format!("/config/{}", table.slug());
    let back = super::config_page::field(fields, "back").unwrap_or_default();
    let location = match back.strip_prefix(&base) {
        Some(rest) if rest.is_empty() || (rest.starts_with('?') && !rest.contains('#')) => {
            back.to_owned()
        }
        _ => base,
    };
    Redirect::to(&location).into_response()
}

/// The answer to a table page: the rows the store found, each made by `row`, or 503 when
/// the store failed.
fn shown<T, E: std::fmt::Display>(
    table: OwnerTable,
    (viewer, query): &(OwnerViewer, TableQuery),
    found: Result<TablePage<T>, E>,
    columns: &[&str],
    noun: (&str, &str),
    row: impl Fn(&T) -> String,
) -> Response {
    match found {
        Ok(found) => markup::table_page(&markup::TableScreen {
            table,
            viewer,
            query,
            page: &found,
            columns,
            rows: found.rows.iter().map(row).collect(),
            noun,
        }),
        Err(error) => unavailable(table, &error),
    }
}

/// The answer to an export: a header row and one row of `cells` per row the store found, or
/// 503 when the store failed.
fn exported<T, E: std::fmt::Display>(
    table: OwnerTable,
    found: Result<TablePage<T>, E>,
    header: &[&str],
    cells: impl Fn(&T) -> Vec<String>,
) -> Response {
    match found {
        Ok(found) => {
            let mut csv = CsvDocument::new(header);
            for row in &found.rows {
                csv.row(&cells(row));
            }
            csv_download(table, csv.into_string())
        }
        Err(error) => unavailable(table, &error),
    }
}

/// A CSV download named after the table.
fn csv_download(table: OwnerTable, csv: String) -> Response {
    (
        StatusCode::OK,
        [
            (CONTENT_TYPE, CSV_CONTENT_TYPE.to_owned()),
            (
                CONTENT_DISPOSITION,
                format!("attachment; filename=\"{}.csv\"", table.slug()),
            ),
            (CACHE_CONTROL, "no-store".to_owned()),
        ],
        csv,
    )
        .into_response()
}

/// The links to every table, for the owner area's first screen.
pub(super) fn navigation() -> String {
    markup::navigation(None)
}
