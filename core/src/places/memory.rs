//! The in-memory geocoder: a fixed list of places, searched by the words of their name and
//! address. The core's and the HTTP adapter's tests use it.

use async_trait::async_trait;

use crate::places::{
    Geocoder, GeocoderUnavailable, MAX_PREDICTIONS, PlaceDetails, PlaceId, PlacePrediction,
    PlaceQuery,
};

#[derive(Debug, Default)]
pub struct MemoryGeocoder {
    places: Vec<PlaceDetails>,
}

impl MemoryGeocoder {
    pub fn new(places: Vec<PlaceDetails>) -> Self {
        Self { places }
    }
}

/// Every word of the query appears, ignoring case, in the place's name or address.
fn matches(place: &PlaceDetails, query: &PlaceQuery) -> bool {
    let haystack = [
        &place.name,
        &place.address_line1,
        &place.address_line2,
        &place.address_country,
    ]
    .map(|text| text.to_lowercase())
    .join(" ");
    query
        .as_str()
        .to_lowercase()
        .split_whitespace()
        .all(|word| haystack.contains(word))
}

#[async_trait]
impl Geocoder for MemoryGeocoder {
    async fn autocomplete(
        &self,
        query: &PlaceQuery,
    ) -> Result<Vec<PlacePrediction>, GeocoderUnavailable> {
        Ok(self
            .places
            .iter()
            .filter(|place| matches(place, query))
            .take(MAX_PREDICTIONS)
            .map(|place| PlacePrediction {
                place_id: place.place_id.clone(),
                main_text: place.name.clone(),
                secondary_text: [&place.address_line2, &place.address_country]
                    .into_iter()
                    .filter(|text| !text.is_empty())
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", "),
            })
            .collect())
    }

    async fn details(&self, id: &PlaceId) -> Result<Option<PlaceDetails>, GeocoderUnavailable> {
        Ok(self
            .places
            .iter()
            .find(|place| &place.place_id == id)
            .cloned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn studio() -> PlaceDetails {
        PlaceDetails {
            place_id: PlaceId::parse("N1").unwrap(),
            name: "Terraluz Studio".into(),
            address_line1: "Rua da Argila Azul 14".into(),
            address_line2: "1100-321 Lisboa".into(),
            address_country: "Portugal".into(),
            lat: 38.7172,
            lng: -9.1313,
        }
    }

    #[tokio::test]
    async fn finds_places_by_every_word_and_their_details_by_id() {
        let geocoder = MemoryGeocoder::new(vec![studio()]);
        let found = geocoder
            .autocomplete(&PlaceQuery::parse("argila lisboa").unwrap())
            .await
            .unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].description(),
            "Terraluz Studio, 1100-321 Lisboa, Portugal"
        );
        let none = geocoder
            .autocomplete(&PlaceQuery::parse("argila porto").unwrap())
            .await
            .unwrap();
        assert!(none.is_empty());
        let details = geocoder.details(&found[0].place_id).await.unwrap();
        assert_eq!(details, Some(studio()));
        let unknown = geocoder
            .details(&PlaceId::parse("N2").unwrap())
            .await
            .unwrap();
        assert_eq!(unknown, None);
    }
}
