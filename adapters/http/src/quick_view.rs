//! `POST /api/census/RecordQuickView/{id}` (000 s7): a shopper opened a product's quick view.
//! Recorded as a census row of kind `quick-view`, counted like a page view: by the visitor
//! cookie when the visitor allows tracking, otherwise by the cookieless daily hash.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use serde_json::json;
use vitrine_core::conversions::{ConversionEvent, ConversionEventName};
use vitrine_core::site::ItemId;

use crate::census::{CensusRow, now_ms, visitor_key};
use crate::{ApiError, AppState};

/// The census kind quick views are stored as.
pub const QUICK_VIEW: &str = "quick-view";

/// The visitor-tracking cookie of 000 s3.
const VISITOR_COOKIE: &str = "ss_cvr";

pub(crate) fn routes() -> Router<AppState> {
    Router::new().route("/api/census/RecordQuickView/{id}", post(record_quick_view))
}

/// Only products have a quick view, so an id that names no product is a 404 and records
/// nothing; census switched off answers 204 and records nothing.
async fn record_quick_view(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let id = ItemId::parse(id).map_err(|error| ApiError::BadRequest(error.to_string()))?;
    let item = state
        .repository
        .item(&id)
        .await
        .map_err(|error| ApiError::Unavailable(Box::new(error)))?;
    if item.is_none_or(|item| item.product.is_none()) {
        return Err(ApiError::NotFound);
    }
    if state.census.disabled {
        return Ok(StatusCode::NO_CONTENT.into_response());
    }
    let now = now_ms();
    // The quick view's body is not specified, so the visitor cookie comes from the request's
    // cookies rather than a form field.
    let cookies = crate::consent::request_cookies(&headers);
    let visitor_cookie = cookies
        .iter()
        .find(|(name, _)| name == VISITOR_COOKIE)
        .map(|(_, value)| value.as_str());
    let visitor = visitor_key(&state, &headers, visitor_cookie, now).await;
    // A quick view is a look at a product: a ViewContent conversion for consenting visitors.
    let name = ConversionEventName::ViewContent;
    let event = ConversionEvent {
        content_ids: vec![id.as_str().to_owned()],
        ..crate::conversions::server_event(
            &state,
            name,
            crate::conversions::random_event_id(name),
            &crate::conversion_events::page_path(&state, &headers, "/"),
        )
    };
    crate::conversions::fire(&state, &headers, event).await;
    state.census.record(CensusRow {
        kind: QUICK_VIEW,
        visitor,
        page_path: None,
        data: json!({ "itemId": id.as_str() }),
        recorded_at_ms: now,
    });
    Ok(Json(json!({ "recorded": true })).into_response())
}
