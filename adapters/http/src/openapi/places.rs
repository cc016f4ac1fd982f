//! Descriptions of the map block's place search calls (001 s7).

#![allow(dead_code)]

use super::schemas::{ErrorAnswer, PlaceAnswer, PlacePredictions};

/// Places matching what an owner typed, best first (at most 5), from the configured
/// geocoder. A missing or incomplete `trackingContext` is logged as an error; the call still
/// answers.
#[utoipa::path(
    get,
    path = "/api/google-maps/places/autocomplete",
    tag = "places",
    params(
        ("input" = String, Query, description = "What was typed: 1 to 200 characters, no control characters"),
        ("trackingContext" = Option<String>, Query, description = "JSON object with `productPage` and `productSection`"),
    ),
    responses(
        (status = 200, description = "The predictions (possibly none)", body = PlacePredictions),
        (status = 400, description = "No input, too long an input, or control characters in it", body = ErrorAnswer),
        (status = 503, description = "No geocoder is configured on this site, or it cannot be reached", body = ErrorAnswer),
    ),
)]
fn places_autocomplete() {}

/// The details of a place an autocomplete answer named, in a map location's terms.
#[utoipa::path(
    get,
    path = "/api/google-maps/places/details",
    tag = "places",
    params(
        ("placeId" = String, Query, description = "A `placeId` from an autocomplete answer"),
        ("trackingContext" = Option<String>, Query, description = "JSON object with `productPage` and `productSection`"),
    ),
    responses(
        (status = 200, description = "The place", body = PlaceAnswer),
        (status = 400, description = "No place id, or not one of 1 to 64 letters, digits, '-', '_' or ':'", body = ErrorAnswer),
        (status = 404, description = "No place has this id", body = ErrorAnswer),
        (status = 503, description = "No geocoder is configured on this site, or it cannot be reached", body = ErrorAnswer),
    ),
)]
fn places_details() {}
