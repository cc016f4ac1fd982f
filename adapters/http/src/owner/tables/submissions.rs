//! `GET /config/submissions`: the form submissions, newest first, with their values, and
//! `GET /config/submissions.csv`: every matching submission in the export the command line
//! writes too (`forms::export::to_csv`), one column per field.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::get;
use vitrine_core::forms::StoredSubmission;
use vitrine_core::forms::export::{submission_fields, to_csv};
use vitrine_core::owners::tables::OwnerTable;

use super::{TableParams, csv_download, open, shown, unavailable};
use crate::AppState;
use crate::shared::request_parts::escape_html as escape;
use crate::shared::route_table::Routes;

const TABLE: OwnerTable = OwnerTable::Submissions;

pub(super) fn routes() -> Routes {
    Routes::new()
        .route("/config/submissions", get(page))
        .route("/config/submissions.csv", get(export))
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
    let found = state.forms.submission_page(&opened.1).await;
    let columns = ["Received", "Form", "Values", "Spam"];
    shown(
        TABLE,
        &opened,
        found,
        &columns,
        ("submission", "submissions"),
        row,
    )
}

fn row(submission: &StoredSubmission) -> String {
    let values: String = submission_fields(submission)
        .iter()
        .map(|(field, text)| format!("<dt>{}</dt><dd>{}</dd>", escape(field), escape(text)))
        .collect();
    let form = if submission.object_name.is_empty() {
        &submission.form_id
    } else {
        &submission.object_name
    };
    format!(
        "<tr><td>{received}</td><td>{form}</td><td><dl class=\"owner-values\">{values}</dl></td>\
         <td>{spam}</td></tr>",
        received = super::owner_markup::date(submission.created_at.saturating_mul(1000)),
        form = escape(form),
        spam = if submission.spam { "Spam" } else { "No" },
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
    match state.forms.submission_page(&query).await {
        Ok(found) => csv_download(TABLE, to_csv(&found.rows)),
        Err(error) => unavailable(TABLE, &error),
    }
}
