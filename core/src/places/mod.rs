//! Place search for the map block (spec 001 s7's places calls): the owner types part of an
//! address, picks one of the predictions, and its details fill a map location. The input
//! limits, the tracking-context check and the [`Geocoder`] port live here; the adapter that
//! asks a geocoding service is in `adapters/services`, and [`MemoryGeocoder`] serves tests.

mod memory;
mod tracking;

use async_trait::async_trait;
use serde::Serialize;
use thiserror::Error;

pub use memory::MemoryGeocoder;
pub use tracking::{TrackingContext, TrackingContextProblem};

/// The longest prediction input accepted, in characters: far beyond any address, short enough
/// that a request cannot make the geocoder search a page of text.
pub const MAX_INPUT_CHARS: usize = 200;
/// The longest place id accepted, in characters.
pub const MAX_PLACE_ID_CHARS: usize = 64;
/// How many predictions one autocomplete call answers at most.
pub const MAX_PREDICTIONS: usize = 5;

/// Why a places call's input is refused. The texts are answered as they are.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PlaceInputError {
    #[error("Type part of an address to search for places.")]
    EmptyInput,
    #[error("A place search takes at most 200 characters.")]
    InputTooLong,
    #[error("A place search cannot contain control characters.")]
    ControlCharacter,
    #[error("A place id is 1 to 64 letters, digits, '-', '_' or ':'.")]
    BadPlaceId,
}

/// What an owner typed to find a place: trimmed, not empty, at most [`MAX_INPUT_CHARS`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PlaceQuery(String);

impl PlaceQuery {
    pub fn parse(input: &str) -> Result<Self, PlaceInputError> {
        let input = input.trim();
        if input.is_empty() {
            return Err(PlaceInputError::EmptyInput);
        }
        if input.chars().count() > MAX_INPUT_CHARS {
            return Err(PlaceInputError::InputTooLong);
        }
        if input.chars().any(char::is_control) {
            return Err(PlaceInputError::ControlCharacter);
        }
        Ok(Self(input.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A geocoder's id of one place, as an autocomplete call handed it out.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(transparent)]
pub struct PlaceId(String);

impl PlaceId {
    pub fn parse(id: &str) -> Result<Self, PlaceInputError> {
        let valid = (1..=MAX_PLACE_ID_CHARS).contains(&id.len())
            && id
                .bytes()
                .all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b':'));
        if valid {
            Ok(Self(id.to_owned()))
        } else {
            Err(PlaceInputError::BadPlaceId)
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// One place an autocomplete call suggests: its name and where it lies.
#[derive(Debug, Clone, PartialEq)]
pub struct PlacePrediction {
    pub place_id: PlaceId,
    /// The name or the street address, what the owner most likely typed.
    pub main_text: String,
    /// The rest: town, region, country.
    pub secondary_text: String,
}

impl PlacePrediction {
    /// The whole line a list of predictions shows.
    pub fn description(&self) -> String {
        if self.secondary_text.is_empty() {
            self.main_text.clone()
        } else {
            format!("{}, {}", self.main_text, self.secondary_text)
        }
    }
}

/// A place's details, in the map location's terms so they can fill one.
#[derive(Debug, Clone, PartialEq)]
pub struct PlaceDetails {
    pub place_id: PlaceId,
    pub name: String,
    pub address_line1: String,
    pub address_line2: String,
    pub address_country: String,
    pub lat: f64,
    pub lng: f64,
}

/// The geocoding service could not answer.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("the geocoder is unavailable: {0}")]
pub struct GeocoderUnavailable(pub String);

/// A geocoding service: the port of the places calls.
#[async_trait]
pub trait Geocoder: Send + Sync {
    /// At most [`MAX_PREDICTIONS`] places matching `query`, best first.
    async fn autocomplete(
        &self,
        query: &PlaceQuery,
    ) -> Result<Vec<PlacePrediction>, GeocoderUnavailable>;

    /// The details of a place an autocomplete call named; none for an id it does not know.
    async fn details(&self, id: &PlaceId) -> Result<Option<PlaceDetails>, GeocoderUnavailable>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_query_is_trimmed_and_bounded() {
        assert_eq!(
            PlaceQuery::parse("  Rua da Argila ").unwrap().as_str(),
            "Rua da Argila"
        );
        assert_eq!(
            PlaceQuery::parse(" \t").unwrap_err(),
            PlaceInputError::EmptyInput
        );
        assert!(PlaceQuery::parse(&"é".repeat(MAX_INPUT_CHARS)).is_ok());
        assert_eq!(
            PlaceQuery::parse(&"é".repeat(MAX_INPUT_CHARS + 1)).unwrap_err(),
            PlaceInputError::InputTooLong
        );
        assert_eq!(
            PlaceQuery::parse("Main\u{0}Street").unwrap_err(),
            PlaceInputError::ControlCharacter
        );
    }

    #[test]
    fn a_place_id_is_a_short_token() {
        assert!(PlaceId::parse("N240109189").is_ok());
        assert!(PlaceId::parse("osm:W-12_3").is_ok());
        for bad in ["", "N 1", "<script>", &"a".repeat(MAX_PLACE_ID_CHARS + 1)] {
            assert_eq!(
                PlaceId::parse(bad).unwrap_err(),
                PlaceInputError::BadPlaceId,
                "{bad}"
            );
        }
    }

    #[test]
    fn a_description_joins_the_two_texts() {
        let prediction = PlacePrediction {
            place_id: PlaceId::parse("N1").unwrap(),
            main_text: "Terraluz Studio".into(),
            secondary_text: "Lisboa, Portugal".into(),
        };
        assert_eq!(
            prediction.description(),
            "Terraluz Studio, Lisboa, Portugal"
        );
        let bare = PlacePrediction {
            secondary_text: String::new(),
            ..prediction
        };
        assert_eq!(bare.description(), "Terraluz Studio");
    }
}
