//! The static map of a map block: which tiles around the location make an image of
//! [`STATIC_MAP_WIDTH`] by [`STATIC_MAP_HEIGHT`] pixels, where each one is placed, and where
//! the marker stands, in the Web Mercator projection every OpenStreetMap-style tile server
//! uses.

use std::f64::consts::PI;

use thiserror::Error;

use super::TileCoordinate;
use crate::site::{MapLocation, MapLocationError, MapLocationInput};

/// The side of a tile in pixels.
pub const TILE_SIZE: u32 = 256;
/// The static map's width in pixels: a content column's width, so it is sharp there.
pub const STATIC_MAP_WIDTH: u32 = 640;
/// The static map's height in pixels (2:1, a map block's usual shape).
pub const STATIC_MAP_HEIGHT: u32 = 320;

/// The latitude where the Web Mercator world ends, north and south.
const MAX_MERCATOR_LATITUDE: f64 = 85.051_128_78;

/// Why a static map cannot be drawn for the asked location. The texts are answered as
/// they are.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum StaticMapError {
    #[error("A static map needs the parameter {0}.")]
    Missing(&'static str),
    #[error("The parameter {0} must be a number.")]
    NotANumber(&'static str),
    #[error("{field}: {0}.", field = .0.field())]
    Location(MapLocationError),
}

/// The location a static map shows: the map's centre, its zoom and the marker, validated by
/// the map block's own rules ([`MapLocation::normalise`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StaticMapRequest {
    centre: (f64, f64),
    marker: (f64, f64),
    zoom: u8,
}

impl StaticMapRequest {
    /// The closest zoom drawn: public tile servers stop at 19, so a map block set to 20 is
    /// drawn at 19.
    pub const MAX_ZOOM: u8 = 19;

    /// The static map of a map block.
    pub fn of(location: &MapLocation) -> Self {
        Self {
            centre: (round(location.map_lat), round(location.map_lng)),
            marker: {
                let (lat, lng) = location.marker();
                (round(lat), round(lng))
            },
            zoom: location.map_zoom.min(Self::MAX_ZOOM),
        }
    }

    /// A request from the parameters of a static map URL (the first of a repeated one
    /// counts): `lat`, `lng`, `zoom`, and `mlat` with `mlng` for a marker away from the centre.
    pub fn parse<'a>(
        parameters: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Self, StaticMapError> {
        let parameters: Vec<(&str, &str)> = parameters.into_iter().collect();
        let find = |name: &'static str| {
            parameters
                .iter()
                .find(|(key, _)| *key == name)
                .map(|(_, value)| value.trim())
                .filter(|value| !value.is_empty())
        };
        let degrees = |name: &'static str| -> Result<Option<f64>, StaticMapError> {
            find(name)
                .map(|value| {
                    value
                        .parse::<f64>()
                        .map_err(|_| StaticMapError::NotANumber(name))
                })
                .transpose()
        };
        let map_lat = degrees("lat")?.ok_or(StaticMapError::Missing("lat"))?;
        let map_lng = degrees("lng")?.ok_or(StaticMapError::Missing("lng"))?;
        let zoom = find("zoom").ok_or(StaticMapError::Missing("zoom"))?;
        // A zoom beyond a byte is as wrong as one beyond 20: both are refused as out of range.
        let map_zoom = match zoom.parse::<u64>() {
            Ok(zoom) => u8::try_from(zoom).unwrap_or(u8::MAX),
            Err(_) => return Err(StaticMapError::NotANumber("zoom")),
        };
        let location = MapLocation::normalise(MapLocationInput {
            map_lat: Some(map_lat),
            map_lng: Some(map_lng),
            marker_lat: degrees("mlat")?,
            marker_lng: degrees("mlng")?,
            map_zoom: Some(map_zoom),
            ..MapLocationInput::default()
        })
        .map_err(StaticMapError::Location)?;
        Ok(Self::of(&location))
    }

    /// The parameters of this request's URL, in one canonical order: equal requests have
    /// equal query strings, which is what caches key on. The marker is left out at the centre.
    pub fn query(&self) -> String {
        let mut query = format!(
            "lat={}&lng={}&zoom={}",
            decimal(self.centre.0),
            decimal(self.centre.1),
            self.zoom
        );
        if self.marker != self.centre {
            query.push_str(&format!(
                "&mlat={}&mlng={}",
                decimal(self.marker.0),
                decimal(self.marker.1)
            ));
        }
        query
    }

    pub fn zoom(&self) -> u8 {
        self.zoom
    }
}

/// One tile of a static map and where its top-left corner lands in the image (possibly
/// outside it: only the overlap is drawn).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlacedTile {
    pub tile: TileCoordinate,
    pub left: i64,
    pub top: i64,
}

/// The tiles of a static map and the marker's point in the image.
#[derive(Debug, Clone, PartialEq)]
pub struct StaticMapPlan {
    pub width: u32,
    pub height: u32,
    /// Every placed tile; the same tile may be placed twice where the world repeats
    /// sideways at low zooms. North and south of the world the image stays blank.
    pub tiles: Vec<PlacedTile>,
    /// The marker's tip, in image pixels.
    pub marker: (i64, i64),
}

impl StaticMapPlan {
    pub fn new(request: &StaticMapRequest) -> Self {
        let (width, height) = (STATIC_MAP_WIDTH, STATIC_MAP_HEIGHT);
        let zoom = request.zoom;
        let world = f64::from(TILE_SIZE) * f64::from(1u32 << zoom);
        let (centre_x, centre_y) = world_pixel(request.centre, world);
        let left = (centre_x - f64::from(width) / 2.0).floor() as i64;
        let top = (centre_y - f64::from(height) / 2.0).floor() as i64;
        let tile = i64::from(TILE_SIZE);
        let tiles_across = 1i64 << zoom;
        let mut tiles = Vec::new();
        for row in top.div_euclid(tile)..=(top + i64::from(height) - 1).div_euclid(tile) {
            if !(0..tiles_across).contains(&row) {
                continue;
            }
            for column in left.div_euclid(tile)..=(left + i64::from(width) - 1).div_euclid(tile) {
                let x = column.rem_euclid(tiles_across);
                // Both lie inside the world at this zoom, which `rem_euclid` and the row check ensure.
                let coordinate = TileCoordinate::new(zoom, x as u32, row as u32)
                    .expect("a tile inside the world");
                tiles.push(PlacedTile {
                    tile: coordinate,
                    left: column * tile - left,
                    top: row * tile - top,
                });
            }
        }
        let (mut marker_x, marker_y) = world_pixel(request.marker, world);
        // The world repeats sideways: the marker's copy nearest the centre is the one shown.
        if marker_x - centre_x > world / 2.0 {
            marker_x -= world;
        } else if centre_x - marker_x > world / 2.0 {
            marker_x += world;
        }
        Self {
            width,
            height,
            tiles,
            marker: (
                marker_x.round() as i64 - left,
                marker_y.round() as i64 - top,
            ),
        }
    }

    /// The distinct tiles to fetch, in a stable order.
    pub fn distinct_tiles(&self) -> Vec<TileCoordinate> {
        let mut tiles: Vec<_> = self.tiles.iter().map(|placed| placed.tile).collect();
        tiles.sort_unstable();
        tiles.dedup();
        tiles
    }
}

/// A point's pixel in the Web Mercator world of `world` pixels a side.
fn world_pixel((lat, lng): (f64, f64), world: f64) -> (f64, f64) {
    let lat = lat
        .clamp(-MAX_MERCATOR_LATITUDE, MAX_MERCATOR_LATITUDE)
        .to_radians();
    let x = (lng + 180.0) / 360.0 * world;
    let y = (1.0 - (lat.tan() + 1.0 / lat.cos()).ln() / PI) / 2.0 * world;
    (x, y)
}

/// Six decimals, about 10 cm: more precision only makes URLs that differ for one map.
fn round(degrees: f64) -> f64 {
    (degrees * 1e6).round() / 1e6
}

/// A coordinate as map URLs write it: six decimals (about 10 cm), trailing zeros dropped, and
/// never `-0`.
pub fn decimal(degrees: f64) -> String {
    let text = format!("{degrees:.6}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".to_owned()
    } else {
        text.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(query: &str) -> Result<StaticMapRequest, StaticMapError> {
        StaticMapRequest::parse(query.split('&').filter_map(|pair| pair.split_once('=')))
    }

    #[test]
    fn a_map_block_gives_a_canonical_query() {
        let location = MapLocation::normalise(MapLocationInput {
            map_lat: Some(38.717_212_345),
            map_lng: Some(-9.131_3),
            ..MapLocationInput::default()
        })
        .unwrap();
        let request = StaticMapRequest::of(&location);
        assert_eq!(request.query(), "lat=38.717212&lng=-9.1313&zoom=12");
        assert_eq!(
            crate::map_tiles::StaticMapRequest::parse([
                ("lat", "38.717212"),
                ("lng", "-9.1313"),
                ("zoom", "12")
            ])
            .unwrap(),
            request
        );
    }

    #[test]
    fn a_marker_away_from_the_centre_is_kept() {
        let request = request("lat=10&lng=20&zoom=5&mlat=10.5&mlng=20.25").unwrap();
        assert_eq!(request.query(), "lat=10&lng=20&zoom=5&mlat=10.5&mlng=20.25");
    }

    #[test]
    fn zoom_20_is_drawn_at_19() {
        assert_eq!(request("lat=0&lng=0&zoom=20").unwrap().zoom(), 19);
    }

    #[test]
    fn hostile_parameters_are_refused_with_a_reason() {
        let cases = [
            ("lng=0&zoom=3", "A static map needs the parameter lat."),
            ("lat=0&lng=0", "A static map needs the parameter zoom."),
            (
                "lat=north&lng=0&zoom=3",
                "The parameter lat must be a number.",
            ),
            (
                "lat=0&lng=0&zoom=-1",
                "The parameter zoom must be a number.",
            ),
            (
                "lat=0&lng=0&zoom=99999999999999999999999",
                "The parameter zoom must be a number.",
            ),
            (
                "lat=0&lng=0&zoom=4000000000",
                "mapZoom: expected a zoom from 1 to 20, found 255.",
            ),
            (
                "lat=0&lng=0&zoom=0",
                "mapZoom: expected a zoom from 1 to 20, found 0.",
            ),
            (
                "lat=91&lng=0&zoom=3",
                "mapLat: expected a latitude from -90 to 90 degrees, found 91.",
            ),
            (
                "lat=NaN&lng=0&zoom=3",
                "mapLat: expected a latitude from -90 to 90 degrees, found NaN.",
            ),
            (
                "lat=0&lng=inf&zoom=3",
                "mapLng: expected a longitude from -180 to 180 degrees, found inf.",
            ),
            (
                "lat=0&lng=0&zoom=3&mlat=1",
                "markerLat: expected markerLat and markerLng together or neither, found only markerLat.",
            ),
        ];
        for (query, expected) in cases {
            assert_eq!(request(query).unwrap_err().to_string(), expected, "{query}");
        }
    }

    #[test]
    fn the_centre_is_the_middle_of_the_image_and_the_marker_stands_on_it() {
        let plan = StaticMapPlan::new(&request("lat=38.7172&lng=-9.1313&zoom=12").unwrap());
        assert_eq!((plan.width, plan.height), (640, 320));
        assert!(
            (plan.marker.0 - 320).abs() <= 1 && (plan.marker.1 - 160).abs() <= 1,
            "{:?}",
            plan.marker
        );
        // 640 by 320 pixels over 256-pixel tiles touch 3 to 4 columns and 2 to 3 rows.
        assert!((6..=12).contains(&plan.tiles.len()), "{}", plan.tiles.len());
        for placed in &plan.tiles {
            assert_eq!(placed.tile.z, 12);
            assert!(placed.left > -256 && placed.left < 640);
            assert!(placed.top > -256 && placed.top < 320);
        }
    }

    #[test]
    fn the_tiles_cover_the_whole_image() {
        let plan = StaticMapPlan::new(&request("lat=51.5&lng=-0.12&zoom=15").unwrap());
        for (x, y) in [(0, 0), (639, 0), (0, 319), (639, 319), (320, 160)] {
            assert!(
                plan.tiles
                    .iter()
                    .any(|placed| (placed.left..placed.left + 256).contains(&x)
                        && (placed.top..placed.top + 256).contains(&y)),
                "({x}, {y}) uncovered"
            );
        }
    }

    #[test]
    fn the_world_repeats_across_the_antimeridian_and_stays_blank_beyond_the_poles() {
        let plan = StaticMapPlan::new(&request("lat=85&lng=179.9&zoom=1").unwrap());
        assert!(
            plan.tiles
                .iter()
                .all(|placed| placed.tile.y < 2 && placed.tile.x < 2)
        );
        // At zoom 1 the world is 512 pixels wide, narrower than the image: a tile repeats.
        assert!(plan.distinct_tiles().len() < plan.tiles.len());
        let east =
            StaticMapPlan::new(&request("lat=0&lng=179.99&zoom=3&mlat=0&mlng=-179.99").unwrap());
        assert!((east.marker.0 - 320).abs() <= 2, "{:?}", east.marker);
    }
}
