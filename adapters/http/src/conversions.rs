//! Conversion events (000 s7): `POST /api/conversions/{event}` takes one of ViewContent,
//! AddToCart, Search, Lead, CompleteRegistration, Purchase from the page and hands it to the
//! ad pixel, only when the visitor explicitly accepted cookies for marketing. Sending happens
//! after the answer, so a slow pixel never slows a visitor down.

use axum::Json;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde::Deserialize;
use serde_json::json;
use vitrine_core::consent::{CONSENT_COOKIE, effective_consent};
use vitrine_core::conversions::{ConversionEvent, ConversionEventName, marketing_allowed};
use vitrine_core::money::Currency;

use crate::cart::now;
use crate::consent::{request_cookies, sends_gpc};
use crate::render::banner_settings;
use crate::{ApiError, AppState};

pub(crate) fn routes() -> Router<AppState> {
    Router::new().route("/api/conversions/{event}", post(record))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct EventBody {
    event_id: String,
    #[serde(default)]
    source_url: String,
    /// Minor units, with `currency`.
    value_cents: Option<i64>,
    currency: Option<String>,
    #[serde(default)]
    content_ids: Vec<String>,
    search_string: Option<String>,
}

fn event_name(wire: &str) -> Option<ConversionEventName> {
    ConversionEventName::ALL
        .into_iter()
        .find(|name| name.wire() == wire)
}

/// Whether the visitor behind `headers` consented to marketing on this site.
pub(crate) async fn visitor_allows_marketing(state: &AppState, headers: &HeaderMap) -> bool {
    let cookies = request_cookies(headers);
    let consent_cookie = cookies
        .iter()
        .find(|(name, _)| name == CONSENT_COOKIE)
        .map(|(_, value)| value.as_str());
    let consent = effective_consent(consent_cookie, sends_gpc(headers));
    let profile = state.repository.profile().await.ok().flatten();
    profile.is_some_and(|profile| marketing_allowed(&banner_settings(&profile.settings), consent))
}

/// Hands `event` to the pixel in the background, when there is a pixel.
pub(crate) fn send_in_background(state: &AppState, event: ConversionEvent) -> bool {
    let Some(pixel) = state.ad_pixel.clone() else {
        return false;
    };
    tokio::spawn(async move {
        if let Err(error) = pixel.send(std::slice::from_ref(&event)).await {
            tracing::warn!(%error, event = event.name.wire(), "the ad pixel did not take an event");
        }
    });
    true
}

/// Answers `{sent}`: false when the visitor did not consent or no pixel is configured, so a
/// page learns nothing else from it.
async fn record(
    State(state): State<AppState>,
    Path(event): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let name = event_name(&event).ok_or(ApiError::NotFound)?;
    let body: EventBody = serde_json::from_slice(&body).map_err(|_| {
        ApiError::BadRequest(
            "A conversion event is {eventId, sourceUrl, valueCents, currency, contentIds, searchString}."
                .into(),
        )
    })?;
    if body.event_id.is_empty() || body.event_id.len() > 128 {
        return Err(ApiError::BadRequest(
            "eventId has 1 to 128 characters.".into(),
        ));
    }
    let value = match (body.value_cents, body.currency.as_deref()) {
        (Some(cents), Some(code)) => Some((
            cents,
            Currency::from_code(code)
                .map_err(|_| ApiError::BadRequest("currency is not a known currency.".into()))?,
        )),
        (None, None) => None,
        _ => {
            return Err(ApiError::BadRequest(
                "valueCents and currency come together.".into(),
            ));
        }
    };
    if !visitor_allows_marketing(&state, &headers).await {
        return Ok(Json(json!({ "sent": false })).into_response());
    }
    let sent = send_in_background(
        &state,
        ConversionEvent {
            name,
            event_id: body.event_id,
            time: now(),
            source_url: body.source_url,
            value,
            content_ids: body.content_ids,
            search_string: body.search_string,
        },
    );
    Ok(Json(json!({ "sent": sent })).into_response())
}
