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

/// A location a map block can hold gives a static map whose tiles exist at its zoom, cover
/// every pixel of the image, and put the marker of a centred map in the middle; its URL's
/// parameters read back as the same request. Latitudes stay within ±60 from zoom 2, where the
/// image lies inside the world: nearer the poles it reaches beyond the world's edge and stays
/// blank there, as the core's unit test shows.
mod static_map {
    use proptest::prelude::*;
    use vitrine_core::map_tiles::{
        STATIC_MAP_HEIGHT, STATIC_MAP_WIDTH, StaticMapPlan, StaticMapRequest, TILE_SIZE,
    };
    use vitrine_core::site::{MapLocation, MapLocationInput};

    proptest! {
        #[test]
        fn the_tiles_cover_the_image_and_the_query_reads_back(
            lat in -60.0f64..=60.0,
            lng in -180.0f64..=180.0,
            zoom in 2..=MapLocation::MAX_ZOOM,
        ) {
            let location = MapLocation::normalise(MapLocationInput {
                map_lat: Some(lat),
                map_lng: Some(lng),
                map_zoom: Some(zoom),
                ..MapLocationInput::default()
            })
            .unwrap();
            let request = StaticMapRequest::of(&location);
            let query = request.query();
            let pairs: Vec<(&str, &str)> =
                query.split('&').filter_map(|pair| pair.split_once('=')).collect();
            prop_assert_eq!(StaticMapRequest::parse(pairs).unwrap(), request);

            let plan = StaticMapPlan::new(&request);
            let side = i64::from(TILE_SIZE);
            for placed in &plan.tiles {
                prop_assert_eq!(placed.tile.z, zoom.min(StaticMapRequest::MAX_ZOOM));
                prop_assert!(u64::from(placed.tile.x) < 1 << placed.tile.z);
            }
            prop_assert!(plan.tiles.len() <= 12);
            for x in (0..i64::from(STATIC_MAP_WIDTH)).step_by(37) {
                for y in (0..i64::from(STATIC_MAP_HEIGHT)).step_by(29) {
                    prop_assert!(plan.tiles.iter().any(|placed| {
                        (placed.left..placed.left + side).contains(&x)
                            && (placed.top..placed.top + side).contains(&y)
                    }), "({}, {}) uncovered at zoom {}", x, y, zoom);
                }
            }
            prop_assert!((plan.marker.0 - 320).abs() <= 1, "{:?}", plan.marker);
            prop_assert!((plan.marker.1 - 160).abs() <= 1, "{:?}", plan.marker);
        }
    }
}
