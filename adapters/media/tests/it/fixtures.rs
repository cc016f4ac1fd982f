//! Images the tests make: gradients (so resampling has something to do), with optional EXIF
//! orientation and ICC profile.

use image::codecs::jpeg::JpegEncoder;
use image::{ExtendedColorType, ImageEncoder, RgbImage, RgbaImage};

/// A `width` x `height` gradient.
pub fn gradient(width: u32, height: u32) -> RgbImage {
    RgbImage::from_fn(width, height, |x, y| {
        image::Rgb([
            (x * 255 / width.max(1)) as u8,
            (y * 255 / height.max(1)) as u8,
            128,
        ])
    })
}

pub fn jpeg(width: u32, height: u32) -> Vec<u8> {
    jpeg_of(&gradient(width, height), None)
}

/// One flat colour, tagged with an ICC profile when given.
pub fn flat_jpeg(width: u32, height: u32, rgb: [u8; 3], icc: Option<Vec<u8>>) -> Vec<u8> {
    jpeg_of(&RgbImage::from_pixel(width, height, image::Rgb(rgb)), icc)
}

fn jpeg_of(image: &RgbImage, icc: Option<Vec<u8>>) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = JpegEncoder::new_with_quality(&mut out, 95);
    if let Some(icc) = icc {
        encoder.set_icc_profile(icc).unwrap();
    }
    encoder
        .write_image(
            image.as_raw(),
            image.width(),
            image.height(),
            ExtendedColorType::Rgb8,
        )
        .unwrap();
    out
}

/// A JPEG with an EXIF block saying `orientation` (1 to 8), written right after SOI the way
/// cameras write it.
pub fn jpeg_with_orientation(width: u32, height: u32, orientation: u16) -> Vec<u8> {
    let plain = jpeg(width, height);
    let mut tiff = Vec::new();
    tiff.extend_from_slice(b"MM\0\x2a\0\0\0\x08"); // big-endian TIFF, first IFD at 8
    tiff.extend_from_slice(&1u16.to_be_bytes()); // one entry
    tiff.extend_from_slice(&0x0112u16.to_be_bytes()); // Orientation
    tiff.extend_from_slice(&3u16.to_be_bytes()); // SHORT
    tiff.extend_from_slice(&1u32.to_be_bytes()); // count
    tiff.extend_from_slice(&orientation.to_be_bytes());
    tiff.extend_from_slice(&[0, 0]);
    tiff.extend_from_slice(&0u32.to_be_bytes()); // no next IFD
    let mut app1 = b"Exif\0\0".to_vec();
    app1.extend_from_slice(&tiff);
    let mut out = plain[..2].to_vec();
    out.extend_from_slice(&[0xff, 0xe1]);
    out.extend_from_slice(&((app1.len() + 2) as u16).to_be_bytes());
    out.extend_from_slice(&app1);
    out.extend_from_slice(&plain[2..]);
    out
}

pub fn png_rgba(width: u32, height: u32) -> Vec<u8> {
    let image = RgbaImage::from_fn(width, height, |x, _| {
        image::Rgba([200, 40, 40, (x % 256) as u8])
    });
    let mut out = std::io::Cursor::new(Vec::new());
    image.write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

/// The width, height and format of encoded bytes, read back by the `image` crate.
pub fn read_back(bytes: &[u8]) -> (u32, u32, image::ImageFormat) {
    let reader = image::ImageReader::new(std::io::Cursor::new(bytes))
        .with_guessed_format()
        .unwrap();
    let format = reader.format().unwrap();
    let image = reader.decode().unwrap();
    (image.width(), image.height(), format)
}
