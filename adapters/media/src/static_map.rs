//! The static map of a map block, drawn on the server: tiles from the owner's tile server
//! laid out as the core's plan says (`vitrine_core::map_tiles::StaticMapPlan`), a marker at
//! the location, encoded as PNG. Nothing here fetches: the tiles come in as bytes.

use std::io::Cursor;

use image::imageops::{self, FilterType};
use image::{ImageFormat, ImageReader, Rgba, RgbaImage};

/// The side of a tile this drawing accepts, in pixels.
const TILE_SIDE: u32 = 256;
/// What shows where no tile is (north and south of the world): a pale map grey.
const BLANK: Rgba<u8> = Rgba([229, 227, 223, 255]);
/// The marker image's size (001 s9: 48x64), drawn at half size like the interactive map's.
const MARKER_WIDTH: u32 = 48;
const MARKER_HEIGHT: u32 = 64;
const MARKER_OUTLINE: Rgba<u8> = Rgba([120, 20, 20, 255]);
const MARKER_FILL: Rgba<u8> = Rgba([204, 41, 41, 255]);
const MARKER_DOT: Rgba<u8> = Rgba([255, 255, 255, 255]);

/// Why a static map could not be drawn. The texts are answered as they are.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StaticMapError {
    #[error("The tile server answered a tile that is not a PNG or JPEG image.")]
    TileNotAnImage,
    #[error(
        "The tile server answered a tile of {width} x {height} pixels; static maps need tiles of 256 x 256."
    )]
    TileSize { width: u32, height: u32 },
    #[error("The static map could not be encoded.")]
    Encode,
}

/// One tile's image and where its top-left corner lands in the map.
#[derive(Debug, Clone, Copy)]
pub struct TileImage<'a> {
    pub bytes: &'a [u8],
    pub left: i64,
    pub top: i64,
}

/// A `width` by `height` PNG of `tiles` with the marker's tip at `marker`.
pub fn draw_static_map(
    width: u32,
    height: u32,
    tiles: &[TileImage<'_>],
    marker: (i64, i64),
) -> Result<Vec<u8>, StaticMapError> {
    let mut canvas = RgbaImage::from_pixel(width, height, BLANK);
    for tile in tiles {
        let image = decode_tile(tile.bytes)?;
        imageops::overlay(&mut canvas, &image, tile.left, tile.top);
    }
    let pin = marker_image();
    let pin = imageops::resize(
        &pin,
        MARKER_WIDTH / 2,
        MARKER_HEIGHT / 2,
        FilterType::Triangle,
    );
    // The pin's tip, the middle of its bottom edge, stands on the location.
    imageops::overlay(
        &mut canvas,
        &pin,
        marker.0 - i64::from(pin.width() / 2),
        marker.1 - i64::from(pin.height()),
    );
    let mut png = Vec::new();
    image::DynamicImage::ImageRgba8(canvas)
        .to_rgb8()
        .write_to(&mut Cursor::new(&mut png), ImageFormat::Png)
        .map_err(|_| StaticMapError::Encode)?;
    Ok(png)
}

/// A tile, refused unless it is a 256-pixel PNG or JPEG; the size is read from the header
/// first, so a hostile tile server cannot make the server decode a huge image.
fn decode_tile(bytes: &[u8]) -> Result<RgbaImage, StaticMapError> {
    let reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|_| StaticMapError::TileNotAnImage)?;
    if !matches!(reader.format(), Some(ImageFormat::Png | ImageFormat::Jpeg)) {
        return Err(StaticMapError::TileNotAnImage);
    }
    let (width, height) = reader
        .into_dimensions()
        .map_err(|_| StaticMapError::TileNotAnImage)?;
    if (width, height) != (TILE_SIDE, TILE_SIDE) {
        return Err(StaticMapError::TileSize { width, height });
    }
    let image = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|_| StaticMapError::TileNotAnImage)?
        .decode()
        .map_err(|_| StaticMapError::TileNotAnImage)?;
    Ok(image.to_rgba8())
}

/// The marker at its full 48x64: a round pin head with a white dot, narrowing to a tip at the
/// bottom, outlined so it shows on light and dark tiles. Each pixel is sampled 4x4 times for
/// smooth edges.
fn marker_image() -> RgbaImage {
    RgbaImage::from_fn(MARKER_WIDTH, MARKER_HEIGHT, |x, y| {
        let mut sums = [0.0f32; 4];
        const SAMPLES: u32 = 4;
        for sub_y in 0..SAMPLES {
            for sub_x in 0..SAMPLES {
                let px = x as f32 + (sub_x as f32 + 0.5) / SAMPLES as f32;
                let py = y as f32 + (sub_y as f32 + 0.5) / SAMPLES as f32;
                let colour = if in_pin(px, py, 0.0) {
                    if (px - 24.0).hypot(py - 22.0) <= 7.0 {
                        MARKER_DOT
                    } else if in_pin(px, py, 3.0) {
                        MARKER_FILL
                    } else {
                        MARKER_OUTLINE
                    }
                } else {
                    Rgba([0, 0, 0, 0])
                };
                for (sum, channel) in sums.iter_mut().zip(colour.0) {
                    *sum += f32::from(channel);
                }
            }
        }
        let count = (SAMPLES * SAMPLES) as f32;
        Rgba(sums.map(|sum| (sum / count).round() as u8))
    })
}

/// Whether a point lies inside the pin shrunk by `inset` pixels: a circle of radius 20 at
/// (24, 22) over a triangle from (10, 36) and (38, 36) down to the tip at (24, 63).
fn in_pin(x: f32, y: f32, inset: f32) -> bool {
    if (x - 24.0).hypot(y - 22.0) <= 20.0 - inset {
        return true;
    }
    let tip = 63.0 - inset * 2.0;
    let top = 36.0;
    if !(top..=tip).contains(&y) {
        return false;
    }
    let half_width = (14.0 - inset) * (tip - y) / (tip - top);
    (x - 24.0).abs() <= half_width
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(width: u32, height: u32, colour: [u8; 3]) -> Vec<u8> {
        let image = image::RgbImage::from_pixel(width, height, image::Rgb(colour));
        let mut bytes = Vec::new();
        image
            .write_to(&mut Cursor::new(&mut bytes), ImageFormat::Png)
            .unwrap();
        bytes
    }

    fn pixel(png: &[u8], x: u32, y: u32) -> [u8; 3] {
        image::load_from_memory(png)
            .unwrap()
            .to_rgb8()
            .get_pixel(x, y)
            .0
    }

    #[test]
    fn tiles_land_where_placed_and_the_rest_stays_blank() {
        let green = png(256, 256, [0, 200, 0]);
        let map = draw_static_map(
            640,
            320,
            &[TileImage {
                bytes: &green,
                left: -100,
                top: -50,
            }],
            (600, 300),
        )
        .unwrap();
        assert_eq!(pixel(&map, 0, 0), [0, 200, 0]);
        assert_eq!(pixel(&map, 155, 205), [0, 200, 0]);
        assert_eq!(pixel(&map, 156, 100), [229, 227, 223]);
        assert_eq!(pixel(&map, 100, 206), [229, 227, 223]);
    }

    #[test]
    fn the_marker_is_drawn_at_half_size_with_its_tip_on_the_location() {
        let white = png(256, 256, [255, 255, 255]);
        let tiles: Vec<_> = (0..3)
            .flat_map(|column| (0..2).map(move |row| (column, row)))
            .map(|(column, row)| TileImage {
                bytes: &white,
                left: column * 256,
                top: row * 256,
            })
            .collect();
        let map = draw_static_map(640, 320, &tiles, (320, 160)).unwrap();
        // The pin's red body is just above the tip, its head about 21 pixels above.
        let [r, g, _] = pixel(&map, 320, 152);
        assert!(r > 150 && g < 100, "{:?}", pixel(&map, 320, 152));
        assert_eq!(pixel(&map, 320, 170), [255, 255, 255]);
        assert_eq!(pixel(&map, 340, 150), [255, 255, 255]);
        let decoded = image::load_from_memory(&map).unwrap();
        assert_eq!((decoded.width(), decoded.height()), (640, 320));
    }

    #[test]
    fn a_tile_of_another_size_or_no_image_is_refused() {
        let retina = png(512, 512, [0, 0, 0]);
        let error = draw_static_map(
            640,
            320,
            &[TileImage {
                bytes: &retina,
                left: 0,
                top: 0,
            }],
            (0, 0),
        )
        .unwrap_err();
        assert_eq!(
            error.to_string(),
            "The tile server answered a tile of 512 x 512 pixels; static maps need tiles of 256 x 256."
        );
        let html = b"<html>rate limited</html>";
        assert_eq!(
            draw_static_map(
                640,
                320,
                &[TileImage {
                    bytes: html,
                    left: 0,
                    top: 0
                }],
                (0, 0)
            )
            .unwrap_err(),
            StaticMapError::TileNotAnImage
        );
    }
}
