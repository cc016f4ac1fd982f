//! Conversion events (000 s7): ViewContent, AddToCart, Search, Lead, CompleteRegistration and
//! Purchase go to the ad pixel only when the visitor explicitly accepted cookies for
//! marketing. The server fires them where they happen ([`fire`]: product pages, the cart, the
//! checkout, the forms, the newsletter confirmation), so they work without JavaScript and for
//! pages served from the cache; `POST /api/conversions/{event}` takes an event only a browser
//! sees. Sending happens after the answer, so a slow pixel never slows a visitor down.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde::Deserialize;
use serde_json::json;
use vitrine_core::consent::{Consent, ConsentChoice};
use vitrine_core::conversions::{ConversionEvent, ConversionEventName, marketing_allowed};
use vitrine_core::money::Currency;

use crate::render::banner_settings;
use crate::shared::clock::now;
use crate::shared::route_table::Routes;
use crate::{ApiError, AppState};

pub(crate) fn routes() -> Routes {
    Routes::new().route("/api/conversions/{event}", post(record))
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
    let consent = crate::shared::visitors::request_consent(headers);
    // Nothing but an explicit Accept allows marketing, whatever the site's policy; the policy
    // is read only then, so a visit without one costs no database read.
    if consent != Consent::Decided(ConsentChoice::Accepted) {
        return false;
    }
    let profile = state.repository.profile().await.ok().flatten();
    profile.is_some_and(|profile| marketing_allowed(&banner_settings(&profile.settings), consent))
}

/// Fires a conversion the server saw happen: `event` goes to the pixel when there is one and
/// the visitor behind `headers` consented to marketing. Answers whether it was handed on.
pub(crate) async fn fire(state: &AppState, headers: &HeaderMap, event: ConversionEvent) -> bool {
    if state.ad_pixel.is_none() || !visitor_allows_marketing(state, headers).await {
        return false;
    }
    send_in_background(state, event)
}

/// A conversion the server fires now, on the page at `path`, with `event_id` for
/// deduplication.
pub(crate) fn server_event(
    state: &AppState,
    name: ConversionEventName,
    event_id: String,
    path: &str,
) -> ConversionEvent {
    ConversionEvent {
        name,
        event_id,
        time: now(),
        source_url: format!("{}{path}", state.config.public_base_url),
        value: None,
        content_ids: Vec::new(),
        search_string: None,
    }
}

/// A new event id for an event that happens once per request (a page view, an add to
/// cart): 128 random bits as hex after the event's name.
pub(crate) fn random_event_id(name: ConversionEventName) -> String {
    let mut bytes = [0u8; 16];
    rand::fill(&mut bytes);
    format!("{}-{}", name.wire(), hex::encode(bytes))
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
