//! `GET` and `PUT /api/site-header-footer` (001 s7): the data holding the site's header and
//! footer, and its replacement by the owner. A replacement is validated and cleaned by the
//! core, kept in the header and footer store, and every cached page is dropped, so the next
//! visit of any page shows it.

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::{Deserialize, Serialize};
use vitrine_core::header_footer::HeaderFooter;

use crate::shared::owner_access::owner_permits;
use crate::shared::route_table::Routes;
use crate::{ApiError, AppState};
use axum::http::Method;
use vitrine_core::enums::PermissionCode;

pub(crate) const HEADER_FOOTER_PATH: &str = "/api/site-header-footer";

/// What a refused body reads.
const BODY_SHAPE: &str = "The body is {\"header\": HTML text, \"footer\": HTML text}.";

pub(crate) fn routes() -> Routes {
    Routes::new().route(HEADER_FOOTER_PATH, get(show).put(replace))
}

/// The header and footer on the wire, as the owner sends them and reads them back.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct HeaderFooterBody {
    header: String,
    footer: String,
}

impl From<HeaderFooter> for HeaderFooterBody {
    fn from(value: HeaderFooter) -> Self {
        Self {
            header: value.header.into(),
            footer: value.footer.into(),
        }
    }
}

/// The header and footer pages show now: the owner's, or the site's default.
async fn show(State(state): State<AppState>, headers: HeaderMap) -> Result<Response, ApiError> {
    if !owner_permits(
        &state,
        &Method::GET,
        &headers,
        PermissionCode::ContentManager,
    )
    .await
    {
        return Err(ApiError::NotFound);
    }
    let current = state.pages.header_footer().await?;
    Ok(Json(HeaderFooterBody::from(current)).into_response())
}

/// Replaces the header and footer, answering them as stored (cleaned).
async fn replace(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    if !owner_permits(
        &state,
        &Method::PUT,
        &headers,
        PermissionCode::ContentManager,
    )
    .await
    {
        return Err(ApiError::NotFound);
    }
    let body: HeaderFooterBody =
        serde_json::from_slice(&body).map_err(|_| ApiError::BadRequest(BODY_SHAPE.into()))?;
    let chosen = HeaderFooter::new(&body.header, &body.footer)
        .map_err(|error| ApiError::BadRequest(error.to_string()))?;
    state.pages.replace_header_footer(&chosen).await?;
    // Every page shows the header and footer: no cached copy is right any more.
    state.page_cache.clear();
    Ok(Json(HeaderFooterBody::from(chosen)).into_response())
}
