//! The map block's location and UI options (spec 001 s3, constants of 001 s9), with the
//! normalisation that turns what an owner wrote into a location a map can show.

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Map location of spec 001 s3. The marker defaults to the map centre.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MapLocation {
    pub map_lat: f64,
    pub map_lng: f64,
    pub marker_lat: Option<f64>,
    pub marker_lng: Option<f64>,
    pub map_zoom: u8,
    pub address_title: String,
    pub address_line1: String,
    pub address_line2: String,
    pub address_country: String,
}

/// What an owner may leave out of a map location: everything. [`MapLocation::normalise`]
/// fills the spec's defaults and refuses values no map can show.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MapLocationInput {
    pub map_lat: Option<f64>,
    pub map_lng: Option<f64>,
    pub marker_lat: Option<f64>,
    pub marker_lng: Option<f64>,
    pub map_zoom: Option<u8>,
    pub address_title: String,
    pub address_line1: String,
    pub address_line2: String,
    pub address_country: String,
}

/// Why a map location cannot be shown. The field names are the spec's.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum MapLocationError {
    #[error("expected a latitude from -90 to 90 degrees, found {value}")]
    Latitude { field: &'static str, value: f64 },
    #[error("expected a longitude from -180 to 180 degrees, found {value}")]
    Longitude { field: &'static str, value: f64 },
    #[error("expected a zoom from {min} to {max}, found {value}", min = MapLocation::MIN_ZOOM, max = MapLocation::MAX_ZOOM)]
    Zoom { value: u8 },
    #[error("expected markerLat and markerLng together or neither, found only {given}")]
    HalfMarker { given: &'static str },
}

impl MapLocationError {
    /// The spec's name of the field at fault.
    pub fn field(&self) -> &'static str {
        match self {
            Self::Latitude { field, .. } | Self::Longitude { field, .. } => field,
            Self::Zoom { .. } => "mapZoom",
            Self::HalfMarker { given } => given,
        }
    }
}

impl MapLocation {
    /// The spec's default zoom (001 s9).
    pub const DEFAULT_ZOOM: u8 = 12;
    /// The widest view web maps offer a block: the whole world in a few tiles.
    pub const MIN_ZOOM: u8 = 1;
    /// The closest zoom web map tile servers serve.
    pub const MAX_ZOOM: u8 = 20;
    /// The spec's "fixed point in New York": Times Square, as latitude and longitude.
    pub const DEFAULT_CENTRE: (f64, f64) = (40.758_0, -73.985_5);

    /// A location from what an owner wrote: the centre defaults to New York, the zoom to 12,
    /// and the marker stays absent (so it follows the centre) unless both of its coordinates
    /// are given. Address texts are trimmed.
    pub fn normalise(input: MapLocationInput) -> Result<Self, MapLocationError> {
        let map_lat = latitude("mapLat", input.map_lat)?.unwrap_or(Self::DEFAULT_CENTRE.0);
        let map_lng = longitude("mapLng", input.map_lng)?.unwrap_or(Self::DEFAULT_CENTRE.1);
        let marker_lat = latitude("markerLat", input.marker_lat)?;
        let marker_lng = longitude("markerLng", input.marker_lng)?;
        match (marker_lat, marker_lng) {
            (Some(_), None) => return Err(MapLocationError::HalfMarker { given: "markerLat" }),
            (None, Some(_)) => return Err(MapLocationError::HalfMarker { given: "markerLng" }),
            _ => {}
        }
        let map_zoom = input.map_zoom.unwrap_or(Self::DEFAULT_ZOOM);
        if !(Self::MIN_ZOOM..=Self::MAX_ZOOM).contains(&map_zoom) {
            return Err(MapLocationError::Zoom { value: map_zoom });
        }
        Ok(Self {
            map_lat,
            map_lng,
            marker_lat,
            marker_lng,
            map_zoom,
            address_title: input.address_title.trim().to_owned(),
            address_line1: input.address_line1.trim().to_owned(),
            address_line2: input.address_line2.trim().to_owned(),
            address_country: input.address_country.trim().to_owned(),
        })
    }

    /// Where the marker stands: its own coordinates, or the map centre when it has none.
    pub fn marker(&self) -> (f64, f64) {
        (
            self.marker_lat.unwrap_or(self.map_lat),
            self.marker_lng.unwrap_or(self.map_lng),
        )
    }
}

fn latitude(field: &'static str, value: Option<f64>) -> Result<Option<f64>, MapLocationError> {
    in_degrees(value, 90.0).map_err(|value| MapLocationError::Latitude { field, value })
}

fn longitude(field: &'static str, value: Option<f64>) -> Result<Option<f64>, MapLocationError> {
    in_degrees(value, 180.0).map_err(|value| MapLocationError::Longitude { field, value })
}

/// The value when it lies within ±`limit` degrees; NaN and infinities lie nowhere.
fn in_degrees(value: Option<f64>, limit: f64) -> Result<Option<f64>, f64> {
    match value {
        Some(degrees) if !(-limit..=limit).contains(&degrees) => Err(degrees),
        other => Ok(other),
    }
}

/// Map styles of spec 001 s3.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum MapStyle {
    #[default]
    Original,
    Grayscale,
    Satellite,
    MinimalDark,
    MinimalLight,
    MinimalBlue,
}

impl MapStyle {
    /// The six styles, in the spec's order.
    pub const ALL: [MapStyle; 6] = [
        MapStyle::Original,
        MapStyle::Grayscale,
        MapStyle::Satellite,
        MapStyle::MinimalDark,
        MapStyle::MinimalLight,
        MapStyle::MinimalBlue,
    ];

    /// The spec's name of the style.
    pub fn name(self) -> &'static str {
        match self {
            MapStyle::Original => "Original",
            MapStyle::Grayscale => "Grayscale",
            MapStyle::Satellite => "Satellite",
            MapStyle::MinimalDark => "MinimalDark",
            MapStyle::MinimalLight => "MinimalLight",
            MapStyle::MinimalBlue => "MinimalBlue",
        }
    }
}

/// The map UI options of spec 001 s3 other than the style, which the block keeps beside them.
/// The spec shows no defaults; these are a storefront map's usual ones: labels, dragging,
/// controls and the marker's link on; terrain, scroll-wheel zoom (which would trap a page's
/// scrolling), a bare map and a draggable marker off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct MapUiOptions {
    pub show_labels: bool,
    pub show_terrain: bool,
    pub draggable: bool,
    pub scrollwheel: bool,
    pub show_controls: bool,
    pub disable_default_ui: bool,
    pub marker_draggable: bool,
    /// A click on the marker opens the external maps page (001 s2).
    pub link_on_click: bool,
}

impl Default for MapUiOptions {
    fn default() -> Self {
        Self {
            show_labels: true,
            show_terrain: false,
            draggable: true,
            scrollwheel: false,
            show_controls: true,
            disable_default_ui: false,
            marker_draggable: false,
            link_on_click: true,
        }
    }
}

impl MapUiOptions {
    /// Whether the map draws its zoom and other controls: `disableDefaultUI` hides them even
    /// when `showControls` is set.
    pub fn controls_shown(&self) -> bool {
        self.show_controls && !self.disable_default_ui
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(map_lat: Option<f64>, map_lng: Option<f64>) -> MapLocationInput {
        MapLocationInput {
            map_lat,
            map_lng,
            ..MapLocationInput::default()
        }
    }

    #[test]
    fn an_empty_location_is_new_york_at_zoom_12_with_the_marker_at_the_centre() {
        let location = MapLocation::normalise(MapLocationInput::default()).unwrap();
        assert_eq!(
            (location.map_lat, location.map_lng),
            MapLocation::DEFAULT_CENTRE
        );
        assert_eq!(location.map_zoom, 12);
        assert_eq!(location.marker(), MapLocation::DEFAULT_CENTRE);
    }

    #[test]
    fn the_marker_defaults_to_the_map_centre() {
        let location = MapLocation::normalise(at(Some(48.85), Some(2.35))).unwrap();
        assert_eq!(location.marker(), (48.85, 2.35));
    }

    #[test]
    fn a_marker_of_its_own_stays_where_it_was_put() {
        let location = MapLocation::normalise(MapLocationInput {
            marker_lat: Some(-33.9),
            marker_lng: Some(151.2),
            ..at(Some(-33.8), Some(151.1))
        })
        .unwrap();
        assert_eq!(location.marker(), (-33.9, 151.2));
    }

    #[test]
    fn a_marker_with_one_coordinate_is_refused() {
        let error = MapLocation::normalise(MapLocationInput {
            marker_lat: Some(10.0),
            ..MapLocationInput::default()
        })
        .unwrap_err();
        assert_eq!(error.field(), "markerLat");
        assert_eq!(
            error.to_string(),
            "expected markerLat and markerLng together or neither, found only markerLat"
        );
    }

    #[test]
    fn coordinates_off_the_globe_are_refused_with_the_field_named() {
        let cases = [
            (
                at(Some(90.5), None),
                "mapLat: expected a latitude from -90 to 90 degrees, found 90.5",
            ),
            (
                at(None, Some(-181.0)),
                "mapLng: expected a longitude from -180 to 180 degrees, found -181",
            ),
            (
                at(Some(f64::NAN), None),
                "mapLat: expected a latitude from -90 to 90 degrees, found NaN",
            ),
            (
                MapLocationInput {
                    marker_lat: Some(0.0),
                    marker_lng: Some(f64::INFINITY),
                    ..MapLocationInput::default()
                },
                "markerLng: expected a longitude from -180 to 180 degrees, found inf",
            ),
        ];
        for (input, expected) in cases {
            let error = MapLocation::normalise(input).unwrap_err();
            assert_eq!(format!("{}: {error}", error.field()), expected);
        }
    }

    #[test]
    fn a_zoom_outside_what_tiles_offer_is_refused() {
        for zoom in [0, 21] {
            let error = MapLocation::normalise(MapLocationInput {
                map_zoom: Some(zoom),
                ..MapLocationInput::default()
            })
            .unwrap_err();
            assert_eq!(error.field(), "mapZoom");
            assert_eq!(
                error.to_string(),
                format!("expected a zoom from 1 to 20, found {zoom}")
            );
        }
    }

    #[test]
    fn address_texts_are_trimmed() {
        let location = MapLocation::normalise(MapLocationInput {
            address_title: "  Vitrine Shop ".into(),
            address_country: "\tFrance\n".into(),
            ..MapLocationInput::default()
        })
        .unwrap();
        assert_eq!(location.address_title, "Vitrine Shop");
        assert_eq!(location.address_country, "France");
    }

    #[test]
    fn stored_options_without_a_switch_read_it_as_its_default() {
        let options: MapUiOptions = serde_json::from_str(r#"{"scrollwheel":true}"#).unwrap();
        assert_eq!(
            options,
            MapUiOptions {
                scrollwheel: true,
                ..MapUiOptions::default()
            }
        );
    }

    #[test]
    fn disabling_the_default_ui_hides_the_controls() {
        let bare = MapUiOptions {
            disable_default_ui: true,
            ..MapUiOptions::default()
        };
        assert!(MapUiOptions::default().controls_shown());
        assert!(!bare.controls_shown());
    }

    #[test]
    fn the_six_styles_have_the_spec_names() {
        let names: Vec<_> = MapStyle::ALL.iter().map(|style| style.name()).collect();
        assert_eq!(
            names,
            [
                "Original",
                "Grayscale",
                "Satellite",
                "MinimalDark",
                "MinimalLight",
                "MinimalBlue"
            ]
        );
    }
}
