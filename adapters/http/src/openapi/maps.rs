//! Description of the map block's static map image (issue 15 §1).

#![allow(dead_code)]

use super::schemas::ErrorAnswer;

/// The static map of a map block: a PNG of 640 x 320 pixels composed on this server from the
/// configured tile server's tiles, with the marker drawn at the location. Pages name it in
/// their map blocks; with `v` equal to the tile server's current fingerprint it is
/// `immutable` for a year, otherwise it may be kept for an hour. `If-None-Match` with its
/// ETag answers 304.
#[utoipa::path(
    get,
    path = "/api/maps/static",
    tag = "maps",
    params(
        ("lat" = f64, Query, description = "The map's centre latitude, -90 to 90"),
        ("lng" = f64, Query, description = "The map's centre longitude, -180 to 180"),
        ("zoom" = u8, Query, description = "1 to 20 (drawn at 19 at most)"),
        ("mlat" = Option<f64>, Query, description = "The marker's latitude, with `mlng`; the centre without them"),
        ("mlng" = Option<f64>, Query, description = "The marker's longitude, with `mlat`"),
        ("v" = Option<String>, Query, description = "The tile server's fingerprint the page was rendered with"),
    ),
    responses(
        (status = 200, description = "The map image", content_type = "image/png", body = Vec<u8>),
        (status = 304, description = "The image the client holds is current"),
        (status = 400, description = "A parameter is missing, not a number, or outside its range", body = ErrorAnswer),
        (status = 404, description = "This site has no tile server configured", body = ErrorAnswer),
        (status = 503, description = "The tile server did not give the tiles; try again after `Retry-After`", body = ErrorAnswer),
    ),
)]
fn static_map() {}
