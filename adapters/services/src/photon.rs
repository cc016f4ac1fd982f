//! The geocoder on a Photon-compatible API (`GET {base}/api?q=...&limit=...`, answered with
//! GeoJSON features carrying OpenStreetMap's address properties), the owner's own instance or
//! one they may use.
//!
//! Photon has no lookup by id, so a place's details are those of a place an autocomplete
//! answer named: each answer's places are kept (bounded, in this process) by id, and an id
//! the server never handed out is unknown. Answers to a query are kept too, so an owner
//! typing the same letters again does not ask the service twice.

use async_trait::async_trait;
use quick_cache::sync::Cache;
use serde::Deserialize;
use vitrine_core::places::{
    Geocoder, GeocoderUnavailable, MAX_PREDICTIONS, PlaceDetails, PlaceId, PlacePrediction,
    PlaceQuery,
};

/// How many queries' answers, and how many places, are kept.
const CACHED_QUERIES: usize = 1_000;
const CACHED_PLACES: usize = 5_000;

pub struct PhotonGeocoder {
    client: reqwest::Client,
    search_url: url::Url,
    queries: Cache<String, Vec<PlacePrediction>>,
    places: Cache<PlaceId, PlaceDetails>,
}

impl PhotonGeocoder {
    /// A geocoder asking the Photon API at `base` (its `/api` is appended).
    pub fn new(base: &url::Url) -> Result<Self, url::ParseError> {
        let mut base = base.clone();
        if !base.path().ends_with('/') {
            base.set_path(&format!("{}/", base.path()));
        }
        Ok(Self {
            client: crate::http_client::client(),
            search_url: base.join("api")?,
            queries: Cache::new(CACHED_QUERIES),
            places: Cache::new(CACHED_PLACES),
        })
    }

    async fn search(&self, query: &PlaceQuery) -> Result<Vec<Feature>, GeocoderUnavailable> {
        let unavailable = |error: String| GeocoderUnavailable(error);
        let mut url = self.search_url.clone();
        url.query_pairs_mut()
            .append_pair("q", query.as_str())
            .append_pair("limit", &MAX_PREDICTIONS.to_string());
        let response = self
            .client
            .get(url)
            .header("Accept", "application/json")
            .send()
            .await
            .map_err(|error| unavailable(error.to_string()))?;
        if !response.status().is_success() {
            return Err(unavailable(format!(
                "the geocoder answered {}",
                response.status()
            )));
        }
        let body = response
            .bytes()
            .await
            .map_err(|error| unavailable(error.to_string()))?;
        let answer: FeatureCollection = serde_json::from_slice(&body)
            .map_err(|error| unavailable(format!("unreadable answer: {error}")))?;
        Ok(answer.features)
    }
}

#[async_trait]
impl Geocoder for PhotonGeocoder {
    async fn autocomplete(
        &self,
        query: &PlaceQuery,
    ) -> Result<Vec<PlacePrediction>, GeocoderUnavailable> {
        let key = query.as_str().to_lowercase();
        if let Some(predictions) = self.queries.get(&key) {
            return Ok(predictions);
        }
        let mut predictions = Vec::new();
        for feature in self.search(query).await? {
            let Some((details, prediction)) = feature.place() else {
                continue;
            };
            self.places.insert(details.place_id.clone(), details);
            predictions.push(prediction);
            if predictions.len() == MAX_PREDICTIONS {
                break;
            }
        }
        self.queries.insert(key, predictions.clone());
        Ok(predictions)
    }

    async fn details(&self, id: &PlaceId) -> Result<Option<PlaceDetails>, GeocoderUnavailable> {
        Ok(self.places.get(id))
    }
}

#[derive(Debug, Deserialize)]
struct FeatureCollection {
    #[serde(default)]
    features: Vec<Feature>,
}

#[derive(Debug, Deserialize)]
struct Feature {
    geometry: Geometry,
    properties: Properties,
}

#[derive(Debug, Deserialize)]
struct Geometry {
    /// Longitude, then latitude, as GeoJSON orders them.
    coordinates: (f64, f64),
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Properties {
    osm_type: Option<String>,
    osm_id: Option<u64>,
    name: Option<String>,
    housenumber: Option<String>,
    street: Option<String>,
    postcode: Option<String>,
    city: Option<String>,
    state: Option<String>,
    country: Option<String>,
}

impl Feature {
    /// The place and its prediction; none for a feature without an id or off the globe.
    fn place(self) -> Option<(PlaceDetails, PlacePrediction)> {
        let (lng, lat) = self.geometry.coordinates;
        if !(-90.0..=90.0).contains(&lat) || !(-180.0..=180.0).contains(&lng) {
            return None;
        }
        let p = self.properties;
        let place_id = PlaceId::parse(&format!("{}{}", p.osm_type?, p.osm_id?)).ok()?;
        let join = |parts: &[&Option<String>], separator: &str| {
            parts
                .iter()
                .filter_map(|part| part.as_deref().map(str::trim))
                .filter(|part| !part.is_empty())
                .collect::<Vec<_>>()
                .join(separator)
        };
        let street = join(&[&p.street, &p.housenumber], " ");
        let town = join(&[&p.postcode, &p.city], " ");
        let name = join(&[&p.name], "");
        let main_text = if name.is_empty() {
            street.clone()
        } else {
            name.clone()
        };
        let mut rest: Vec<&str> = Vec::new();
        if !name.is_empty() && !street.is_empty() {
            rest.push(&street);
        }
        let region = join(&[&p.city, &p.state, &p.country], ", ");
        if !region.is_empty() {
            rest.push(&region);
        }
        let prediction = PlacePrediction {
            place_id: place_id.clone(),
            main_text: main_text.clone(),
            secondary_text: rest.join(", "),
        };
        let details = PlaceDetails {
            place_id,
            name: main_text,
            address_line1: street,
            address_line2: town,
            address_country: join(&[&p.country], ""),
            lat,
            lng,
        };
        (!prediction.main_text.is_empty()).then_some((details, prediction))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feature(json: &str) -> Feature {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn a_feature_becomes_a_place_in_map_location_terms() {
        let (details, prediction) = feature(
            r#"{"type":"Feature","geometry":{"type":"Point","coordinates":[-9.1313,38.7172]},
               "properties":{"osm_type":"N","osm_id":42,"name":"Terraluz Studio",
               "street":"Rua da Argila Azul","housenumber":"14","postcode":"1100-321",
               "city":"Lisboa","country":"Portugal","countrycode":"PT"}}"#,
        )
        .place()
        .unwrap();
        assert_eq!(details.place_id.as_str(), "N42");
        assert_eq!((details.lat, details.lng), (38.7172, -9.1313));
        assert_eq!(
            [
                details.address_line1.as_str(),
                details.address_line2.as_str(),
                details.address_country.as_str()
            ],
            ["Rua da Argila Azul 14", "1100-321 Lisboa", "Portugal"]
        );
        assert_eq!(
            prediction.description(),
            "Terraluz Studio, Rua da Argila Azul 14, Lisboa, Portugal"
        );
    }

    #[test]
    fn features_without_an_id_a_name_or_a_place_on_earth_are_left_out() {
        for json in [
            r#"{"geometry":{"coordinates":[0,0]},"properties":{"name":"No id"}}"#,
            r#"{"geometry":{"coordinates":[0,0]},"properties":{"osm_type":"N","osm_id":1}}"#,
            r#"{"geometry":{"coordinates":[0,95]},"properties":{"osm_type":"N","osm_id":1,"name":"Off"}}"#,
        ] {
            assert!(feature(json).place().is_none(), "{json}");
        }
    }
}
