//! A map location is accepted exactly when its latitudes lie within ±90 degrees, its
//! longitudes within ±180 and its zoom from 1 to 20, and what is accepted keeps the values
//! given, the marker following the centre when it has none of its own.

use proptest::prelude::*;
use vitrine_core::site::{MapLocation, MapLocationError, MapLocationInput};

/// Degrees around and beyond a limit, with the values that are no number at all.
fn degrees(limit: f64) -> impl Strategy<Value = f64> {
    prop_oneof![
        6 => -limit..=limit,
        2 => (limit * 1.5)..(limit * 4.0),
        2 => -(limit * 4.0)..-(limit * 1.5),
        1 => Just(limit),
        1 => Just(-limit),
        1 => Just(f64::NAN),
        1 => Just(f64::INFINITY),
    ]
}

fn in_range(value: Option<f64>, limit: f64) -> bool {
    value.is_none_or(|degrees| (-limit..=limit).contains(&degrees))
}

proptest! {
    #[test]
    fn a_location_is_accepted_exactly_within_the_ranges(
        map_lat in proptest::option::of(degrees(90.0)),
        map_lng in proptest::option::of(degrees(180.0)),
        marker in proptest::option::of((degrees(90.0), degrees(180.0))),
        map_zoom in proptest::option::of(any::<u8>()),
    ) {
        let input = MapLocationInput {
            map_lat,
            map_lng,
            marker_lat: marker.map(|(lat, _)| lat),
            marker_lng: marker.map(|(_, lng)| lng),
            map_zoom,
            ..MapLocationInput::default()
        };
        let valid = in_range(map_lat, 90.0)
            && in_range(map_lng, 180.0)
            && in_range(input.marker_lat, 90.0)
            && in_range(input.marker_lng, 180.0)
            && map_zoom.is_none_or(|zoom| (1..=20).contains(&zoom));
        match MapLocation::normalise(input) {
            Ok(location) => {
                prop_assert!(valid);
                prop_assert_eq!(location.map_lat, map_lat.unwrap_or(MapLocation::DEFAULT_CENTRE.0));
                prop_assert_eq!(location.map_lng, map_lng.unwrap_or(MapLocation::DEFAULT_CENTRE.1));
                prop_assert_eq!(location.map_zoom, map_zoom.unwrap_or(12));
                prop_assert_eq!(location.marker(), marker.unwrap_or((location.map_lat, location.map_lng)));
            }
            Err(error) => {
                prop_assert!(!valid, "refused a valid location: {error}");
                prop_assert!(["mapLat", "mapLng", "markerLat", "markerLng", "mapZoom"].contains(&error.field()));
            }
        }
    }

    #[test]
    fn a_marker_with_only_one_coordinate_is_always_refused(
        lat in -90.0f64..=90.0,
        lng in -180.0f64..=180.0,
        keep_lat in any::<bool>(),
    ) {
        let input = MapLocationInput {
            marker_lat: keep_lat.then_some(lat),
            marker_lng: (!keep_lat).then_some(lng),
            ..MapLocationInput::default()
        };
        let error = MapLocation::normalise(input).unwrap_err();
        prop_assert!(matches!(error, MapLocationError::HalfMarker { .. }), "{error}");
    }
}
