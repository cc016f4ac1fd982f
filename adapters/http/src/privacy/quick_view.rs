//! `POST /api/census/RecordQuickView/{id}` (000 s7): a shopper opened a product's quick view.
//! Recorded as a census row of kind `quick-view`, counted like a page view: by the visitor
//! cookie when the visitor allows tracking, otherwise by the cookieless daily hash.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde_json::json;
use vitrine_core::site::ItemId;

use crate::shared::census_log::CensusRow;
use crate::shared::clock::now_ms;
use crate::shared::conversion_events::ViewedProduct;
use crate::shared::route_table::Routes;
use crate::shared::visitors::visitor_key;
use crate::{ApiError, AppState};

/// The census kind quick views are stored as.
pub const QUICK_VIEW: &str = "quick-view";

/// The visitor-tracking cookie of 000 s3.
const VISITOR_COOKIE: &str = "ss_cvr";

pub(crate) fn routes() -> Routes {
    Routes::new().route("/api/census/RecordQuickView/{id}", post(record_quick_view))
}

/// Only products have a quick view, so an id that names no product is a 404 and records
/// nothing; census switched off answers 204 and records nothing.
async fn record_quick_view(
    State(state): State<AppState>,
    Path(id): Path<String>,
    address: crate::shared::client_address::ClientAddress,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let id = ItemId::parse(id).map_err(|error| ApiError::BadRequest(error.to_string()))?;
    let item = state
        .repository
        .item(&id)
        .await
        .map_err(|error| ApiError::Unavailable(Box::new(error)))?;
    let Some(item) = item.filter(|item| item.product.is_some()) else {
        return Err(ApiError::NotFound);
    };
    if state.census.disabled {
        return Ok(StatusCode::NO_CONTENT.into_response());
    }
    let now = now_ms();
    // The quick view's body is not specified, so the visitor cookie comes from the request's
    // cookies rather than a form field.
    let cookies = crate::shared::request_parts::request_cookies(&headers);
    let visitor_cookie = cookies
        .iter()
        .find(|(name, _)| name == VISITOR_COOKIE)
        .map(|(_, value)| value.as_str());
    let visitor = visitor_key(&state, &headers, address, visitor_cookie, now).await;
    // A quick view is a look at a product: a ViewContent conversion for consenting visitors,
    // priced like the product's page (the store currency is read only when a pixel is on).
    if state.ad_pixel.is_some() {
        let currency = state
            .repository
            .profile()
            .await
            .ok()
            .flatten()
            .map(|profile| profile.settings.store.selected_currency)
            .unwrap_or_default();
        if let Some(viewed) = ViewedProduct::of_item(&item, currency) {
            let path = crate::shared::conversion_events::page_path(&state, &headers, "/");
            crate::shared::conversions::fire(&state, &headers, viewed.event(&state, &path)).await;
        }
    }
    state.census.record(CensusRow {
        kind: QUICK_VIEW,
        visitor,
        page_path: None,
        data: json!({ "itemId": id.as_str() }),
        recorded_at_ms: now,
    });
    Ok(Json(json!({ "recorded": true })).into_response())
}
