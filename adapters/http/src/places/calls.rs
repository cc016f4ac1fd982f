//! `GET /api/google-maps/places/autocomplete` and `GET /api/google-maps/places/details`
//! (001 s7): predictions for what an owner typed, and the details of the one they picked,
//! asked of the configured geocoder. Both check the tracking context (a missing
//! `productPage` or `productSection` is logged as an error, and the call still answers),
//! count against the shared request limits in a bucket of their own, since reads are
//! otherwise not counted and each of these costs a call to another service, and answer 503
//! with a JSON error saying so when no geocoder is configured.

use std::collections::HashMap;
use std::sync::Arc;

use axum::Json;
use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::http::header::CACHE_CONTROL;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Serialize;
use vitrine_core::forms::RateLimit;
use vitrine_core::places::{
    Geocoder, GeocoderUnavailable, PlaceId, PlaceInputError, PlaceQuery, TrackingContext,
};

use crate::shared::request_limits::{RequestLimits, count};
use crate::shared::route_table::Routes;
use crate::{ApiError, AppState};

pub(crate) const AUTOCOMPLETE_PATH: &str = "/api/google-maps/places/autocomplete";
pub(crate) const DETAILS_PATH: &str = "/api/google-maps/places/details";

/// What a visitor reads when the site has no geocoder.
pub const NO_GEOCODER_MESSAGE: &str =
    "Place search is not available: this site has no geocoding service configured.";

/// 60 calls a minute per visitor, about one a second of typing, and 300 per address.
const PLACES_LIMITS: RequestLimits = RequestLimits {
    per_address: RateLimit {
        max: 300,
        window_seconds: 60,
    },
    per_visitor: RateLimit {
        max: 60,
        window_seconds: 60,
    },
};

/// Answers may be kept by the browser for five minutes: places move seldom.
const CACHE_FOR: &str = "private, max-age=300";

pub(crate) fn routes() -> Routes {
    Routes::new()
        .route(AUTOCOMPLETE_PATH, get(autocomplete))
        .route(DETAILS_PATH, get(details))
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Prediction {
    place_id: String,
    description: String,
    main_text: String,
    secondary_text: String,
}

#[derive(Debug, Serialize)]
struct Predictions {
    predictions: Vec<Prediction>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Place {
    place_id: String,
    name: String,
    address_line1: String,
    address_line2: String,
    address_country: String,
    lat: f64,
    lng: f64,
}

#[derive(Debug, Serialize)]
struct PlaceAnswer {
    result: Place,
}

/// The checks both calls share: the rate limit, a configured geocoder, the query's
/// parameters (the first of a repeated one counts) and the tracking context.
async fn prepare(
    state: &AppState,
    parts: &Parts,
    query: Option<&str>,
) -> Result<(Arc<dyn Geocoder>, HashMap<String, String>), Response> {
    if let Some(refusal) = count(state, parts, "places", PLACES_LIMITS).await {
        return Err(refusal);
    }
    let Some(geocoder) = state.geocoder.clone() else {
        return Err((
            StatusCode::SERVICE_UNAVAILABLE,
            Json(serde_json::json!({ "error": NO_GEOCODER_MESSAGE })),
        )
            .into_response());
    };
    let mut parameters = HashMap::new();
    for (name, value) in url::form_urlencoded::parse(query.unwrap_or("").as_bytes()) {
        parameters
            .entry(name.into_owned())
            .or_insert_with(|| value.into_owned());
    }
    if let Err(problem) =
        TrackingContext::check(parameters.get("trackingContext").map(String::as_str))
    {
        tracing::error!(path = parts.uri.path(), %problem, "a places call without its tracking context");
    }
    Ok((geocoder, parameters))
}

fn parameter<'a>(parameters: &'a HashMap<String, String>, name: &str) -> &'a str {
    parameters.get(name).map(String::as_str).unwrap_or("")
}

fn refused(error: PlaceInputError) -> ApiError {
    ApiError::BadRequest(error.to_string())
}

fn down(error: GeocoderUnavailable) -> ApiError {
    ApiError::Unavailable(Box::new(error))
}

async fn autocomplete(
    State(state): State<AppState>,
    parts: Parts,
    RawQuery(query): RawQuery,
) -> Response {
    let (geocoder, parameters) = match prepare(&state, &parts, query.as_deref()).await {
        Ok(prepared) => prepared,
        Err(refusal) => return refusal,
    };
    let answer = async {
        let query = PlaceQuery::parse(parameter(&parameters, "input")).map_err(refused)?;
        let found = geocoder.autocomplete(&query).await.map_err(down)?;
        let predictions = found
            .into_iter()
            .map(|prediction| Prediction {
                description: prediction.description(),
                place_id: prediction.place_id.as_str().to_owned(),
                main_text: prediction.main_text,
                secondary_text: prediction.secondary_text,
            })
            .collect();
        Ok(Predictions { predictions })
    };
    cacheable(answer.await)
}

async fn details(
    State(state): State<AppState>,
    parts: Parts,
    RawQuery(query): RawQuery,
) -> Response {
    let (geocoder, parameters) = match prepare(&state, &parts, query.as_deref()).await {
        Ok(prepared) => prepared,
        Err(refusal) => return refusal,
    };
    let answer = async {
        let id = PlaceId::parse(parameter(&parameters, "placeId")).map_err(refused)?;
        let place = geocoder
            .details(&id)
            .await
            .map_err(down)?
            .ok_or(ApiError::NotFound)?;
        Ok(PlaceAnswer {
            result: Place {
                place_id: place.place_id.as_str().to_owned(),
                name: place.name,
                address_line1: place.address_line1,
                address_line2: place.address_line2,
                address_country: place.address_country,
                lat: place.lat,
                lng: place.lng,
            },
        })
    };
    cacheable(answer.await)
}

/// A found answer with its cache lifetime; an error as the API answers errors.
fn cacheable<T: Serialize>(answer: Result<T, ApiError>) -> Response {
    match answer {
        Ok(body) => ([(CACHE_CONTROL, CACHE_FOR)], Json(body)).into_response(),
        Err(error) => error.into_response(),
    }
}
