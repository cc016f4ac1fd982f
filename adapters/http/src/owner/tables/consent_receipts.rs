//! `GET /config/consent-receipts`: the cookie consent decisions recorded, newest first, and
//! `GET /config/consent-receipts.csv`, the matching ones in the columns of the owner's
//! existing receipts export. Reading only: a receipt is a record and never changes.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::get;
use vitrine_core::owners::tables::OwnerTable;

use super::{TableParams, exported, open, shown};
use crate::AppState;
use crate::shared::request_parts::escape_html as escape;
use crate::shared::route_table::Routes;

const TABLE: OwnerTable = OwnerTable::ConsentReceipts;

pub(super) fn routes() -> Routes {
    Routes::new()
        .route("/config/consent-receipts", get(page))
        .route("/config/consent-receipts.csv", get(export))
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
    let found = state.consent.receipts.receipt_page(&opened.1).await;
    let columns = ["Recorded", "Receipt", "Choice", "Source", "Banner version"];
    shown(
        TABLE,
        &opened,
        found,
        &columns,
        ("receipt", "receipts"),
        |receipt| {
            format!(
                "<tr><td>{at}</td><td><code>{id}</code></td><td>{choice}</td>\
             <td>{source}</td><td>{version}</td></tr>",
                at = super::owner_markup::date(receipt.recorded_at_ms),
                id = escape(receipt.id.as_str()),
                choice = receipt.choice.wire(),
                source = receipt.source.wire(),
                version = receipt.banner_version,
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
    let found = state.consent.receipts.receipt_page(&query).await;
    let header = ["id", "bannerVersion", "choice", "source", "recordedAtMs"];
    exported(TABLE, found, &header, |receipt| {
        vec![
            receipt.id.as_str().to_owned(),
            receipt.banner_version.to_string(),
            receipt.choice.wire().to_owned(),
            receipt.source.wire().to_owned(),
            receipt.recorded_at_ms.to_string(),
        ]
    })
}
