//! Decoding an original into 8-bit RGB or RGBA pixels in its stored orientation, with the
//! EXIF orientation and ICC profile kept aside for after the resize (both are cheaper on the
//! smaller image). A JPEG is scaled by 1/2, 1/4 or 1/8 while it decodes when the target is
//! that much smaller: its inverse DCT then computes only the pixels needed, which is most of
//! a fast thumbnailer's speed.

use std::io::Cursor;

use image::metadata::Orientation;
use image::{DynamicImage, ImageDecoder, ImageFormat, ImageReader};

use crate::ImageError;
use crate::limits::{ImageHeader, ImageLimits, SourceKind};

/// Decoded pixels, rows top to bottom, `channels` bytes a pixel.
pub(crate) struct Decoded {
    pub pixels: Vec<u8>,
    pub width: u32,
    pub height: u32,
    /// 3 (RGB) or 4 (RGBA).
    pub channels: u8,
    pub orientation: Orientation,
    pub icc_profile: Option<Vec<u8>>,
}

impl Decoded {
    /// Width and height as shown, after the orientation is applied.
    pub fn shown_size(&self) -> (u32, u32) {
        shown_size(self.width, self.height, self.orientation)
    }
}

pub(crate) fn shown_size(width: u32, height: u32, orientation: Orientation) -> (u32, u32) {
    if turns_sideways(orientation) {
        (height, width)
    } else {
        (width, height)
    }
}

fn turns_sideways(orientation: Orientation) -> bool {
    matches!(
        orientation,
        Orientation::Rotate90
            | Orientation::Rotate270
            | Orientation::Rotate90FlipH
            | Orientation::Rotate270FlipH
    )
}

/// Decodes `bytes`, at least `shown_width` pixels wide as shown when given (the JPEG decoder
/// may stop at a fraction of the full size), otherwise at full size.
pub(crate) fn decode(
    bytes: &[u8],
    header: &ImageHeader,
    shown_width: Option<u32>,
    limits: &ImageLimits,
) -> Result<Decoded, ImageError> {
    if header.kind == SourceKind::Jpeg
        && let Some(decoded) = decode_jpeg_scaled(bytes, header, shown_width, limits)?
    {
        return Ok(decoded);
    }
    decode_any(bytes, header, limits)
}

/// The JPEG path with scaling; `None` for the JPEGs it does not handle (CMYK, 16-bit), which
/// the general decoder reads instead.
fn decode_jpeg_scaled(
    bytes: &[u8],
    header: &ImageHeader,
    shown_width: Option<u32>,
    limits: &ImageLimits,
) -> Result<Option<Decoded>, ImageError> {
    let mut decoder = jpeg_decoder::Decoder::new(Cursor::new(bytes));
    decoder.set_max_decoding_buffer_size(max_alloc(limits) as usize);
    decoder.read_info().map_err(|_| ImageError::Corrupt)?;
    let info = decoder.info().ok_or(ImageError::Corrupt)?;
    if !matches!(
        info.pixel_format,
        jpeg_decoder::PixelFormat::RGB24 | jpeg_decoder::PixelFormat::L8
    ) {
        return Ok(None);
    }
    if (u32::from(info.width), u32::from(info.height)) != (header.width, header.height) {
        return Err(ImageError::Corrupt);
    }
    let orientation = decoder
        .exif_data()
        .and_then(Orientation::from_exif_chunk)
        .unwrap_or(Orientation::NoTransforms);
    if let Some(target) = shown_width {
        let (shown_w, _) = shown_size(header.width, header.height, orientation);
        let scale = f64::from(target.min(shown_w)) / f64::from(shown_w);
        let want = |side: u32| ((f64::from(side) * scale).ceil() as u32).clamp(1, 65_535) as u16;
        decoder
            .scale(want(header.width), want(header.height))
            .map_err(|_| ImageError::Corrupt)?;
    }
    let pixels = decoder.decode().map_err(|_| ImageError::Corrupt)?;
    let info = decoder.info().ok_or(ImageError::Corrupt)?;
    let (width, height) = (u32::from(info.width), u32::from(info.height));
    let pixels = match info.pixel_format {
        jpeg_decoder::PixelFormat::L8 => pixels.iter().flat_map(|&l| [l, l, l]).collect(),
        _ => pixels,
    };
    if pixels.len() != width as usize * height as usize * 3 {
        return Err(ImageError::Corrupt);
    }
    Ok(Some(Decoded {
        pixels,
        width,
        height,
        channels: 3,
        orientation,
        icc_profile: decoder.icc_profile(),
    }))
}

/// Any supported format at full size, through the `image` crate with allocation limits.
fn decode_any(
    bytes: &[u8],
    header: &ImageHeader,
    limits: &ImageLimits,
) -> Result<Decoded, ImageError> {
    let format = match header.kind {
        SourceKind::Jpeg => ImageFormat::Jpeg,
        SourceKind::Png => ImageFormat::Png,
        SourceKind::Webp => ImageFormat::WebP,
        SourceKind::Gif => ImageFormat::Gif,
    };
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    let mut decode_limits = image::Limits::default();
    decode_limits.max_image_width = Some(limits.max_side);
    decode_limits.max_image_height = Some(limits.max_side);
    decode_limits.max_alloc = Some(max_alloc(limits));
    reader.limits(decode_limits);
    let mut decoder = reader.into_decoder().map_err(refusal)?;
    let (width, height) = decoder.dimensions();
    if (width, height) != (header.width, header.height) {
        return Err(ImageError::Corrupt);
    }
    let orientation = decoder.orientation().unwrap_or(Orientation::NoTransforms);
    let icc_profile = decoder.icc_profile().ok().flatten();
    let image = DynamicImage::from_decoder(decoder).map_err(refusal)?;
    let (pixels, channels) = if image.color().has_alpha() {
        (image.into_rgba8().into_raw(), 4)
    } else {
        (image.into_rgb8().into_raw(), 3)
    };
    Ok(Decoded {
        pixels,
        width,
        height,
        channels,
        orientation,
        icc_profile,
    })
}

/// The most a decode may allocate: the pixel limit in 16-bit RGBA, the widest pixel the
/// decoders produce, so a legal image always fits.
fn max_alloc(limits: &ImageLimits) -> u64 {
    limits.max_pixels * 8
}

fn refusal(error: image::ImageError) -> ImageError {
    match error {
        image::ImageError::Limits(_) => ImageError::NeedsTooMuchMemory,
        image::ImageError::Unsupported(_) => ImageError::NotAnImage,
        _ => ImageError::Corrupt,
    }
}
