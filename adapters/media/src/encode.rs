//! Encoding a variant. Only pixels are written: no EXIF, XMP or ICC profile (the pixels are
//! already sRGB and upright), so a variant tells nothing about the camera or place it came
//! from. WebP is lossy (libwebp, quality 80); JPEG quality 82; PNG stays lossless.

use std::io::Cursor;

use image::codecs::jpeg::JpegEncoder;
use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use image::{ExtendedColorType, ImageEncoder};

use crate::ImageError;
use crate::limits::SourceKind;
use crate::resize::Upright;

/// The formats variants are written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OutputFormat {
    Jpeg,
    Png,
    Webp,
}

impl OutputFormat {
    /// The format a source is kept in when the browser takes no better one; `None` for
    /// sources served as they are.
    pub fn original(kind: SourceKind) -> Option<Self> {
        match kind {
            SourceKind::Jpeg => Some(Self::Jpeg),
            SourceKind::Png => Some(Self::Png),
            SourceKind::Webp => Some(Self::Webp),
            SourceKind::Gif => None,
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            Self::Jpeg => "image/jpeg",
            Self::Png => "image/png",
            Self::Webp => "image/webp",
        }
    }

    pub fn extension(self) -> &'static str {
        match self {
            Self::Jpeg => "jpg",
            Self::Png => "png",
            Self::Webp => "webp",
        }
    }
}

pub(crate) const WEBP_QUALITY: f32 = 80.0;
pub(crate) const JPEG_QUALITY: u8 = 82;

pub(crate) fn encode(image: &Upright, format: OutputFormat) -> Result<Vec<u8>, ImageError> {
    let color = if image.channels == 4 {
        ExtendedColorType::Rgba8
    } else {
        ExtendedColorType::Rgb8
    };
    match format {
        OutputFormat::Webp => {
            let encoder = if image.channels == 4 {
                webp::Encoder::from_rgba(&image.pixels, image.width, image.height)
            } else {
                webp::Encoder::from_rgb(&image.pixels, image.width, image.height)
            };
            Ok(encoder.encode(WEBP_QUALITY).to_vec())
        }
        OutputFormat::Jpeg => {
            let mut out = Vec::new();
            let rgb;
            let (pixels, color) = if image.channels == 4 {
                rgb = without_alpha(&image.pixels);
                (&rgb[..], ExtendedColorType::Rgb8)
            } else {
                (&image.pixels[..], color)
            };
            JpegEncoder::new_with_quality(&mut out, JPEG_QUALITY)
                .write_image(pixels, image.width, image.height, color)
                .map_err(|_| ImageError::Corrupt)?;
            Ok(out)
        }
        OutputFormat::Png => {
            let mut out = Cursor::new(Vec::new());
            PngEncoder::new_with_quality(&mut out, CompressionType::Fast, FilterType::Adaptive)
                .write_image(&image.pixels, image.width, image.height, color)
                .map_err(|_| ImageError::Corrupt)?;
            Ok(out.into_inner())
        }
    }
}

/// RGBA to RGB over white, for a JPEG (which has no alpha).
fn without_alpha(rgba: &[u8]) -> Vec<u8> {
    rgba.chunks_exact(4)
        .flat_map(|p| {
            let a = u16::from(p[3]);
            let over_white = |c: u8| ((u16::from(c) * a + 255 * (255 - a) + 127) / 255) as u8;
            [over_white(p[0]), over_white(p[1]), over_white(p[2])]
        })
        .collect()
}
