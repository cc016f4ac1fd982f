//! Limits on an original image, checked from its header before anything of its full size is
//! allocated: a 40-byte PNG may claim 100,000 x 100,000 pixels (a decompression bomb).

use crate::ImageError;

/// What the pipeline accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageLimits {
    /// Largest original file.
    pub max_bytes: usize,
    /// Widest and tallest original.
    pub max_side: u32,
    /// Most pixels in an original: 50 megapixels holds any camera photo a site shows (a 45 MP
    /// full-frame shot is 8192 x 5464) while capping a decode at 200 MB of RGBA.
    pub max_pixels: u64,
}

impl Default for ImageLimits {
    fn default() -> Self {
        Self {
            max_bytes: 25_000_000,
            max_side: 12_000,
            max_pixels: 50_000_000,
        }
    }
}

/// The formats the pipeline decodes; anything else is served as it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SourceKind {
    Jpeg,
    Png,
    Webp,
    Gif,
}

/// What an original's header says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageHeader {
    pub kind: SourceKind,
    /// Stored width and height (before EXIF orientation is applied).
    pub width: u32,
    pub height: u32,
    /// An animated GIF or WebP: served as it is, since a variant would keep one frame.
    pub animated: bool,
}

/// Reads the format and size from the first bytes of `bytes` and checks them against
/// `limits`; no pixel data is decoded.
pub fn read_header(bytes: &[u8], limits: &ImageLimits) -> Result<ImageHeader, ImageError> {
    if bytes.len() > limits.max_bytes {
        return Err(ImageError::FileTooLarge {
            bytes: bytes.len(),
            limit: limits.max_bytes,
        });
    }
    let kind = match imagesize::image_type(bytes) {
        Ok(imagesize::ImageType::Jpeg) => SourceKind::Jpeg,
        Ok(imagesize::ImageType::Png) => SourceKind::Png,
        Ok(imagesize::ImageType::Webp) => SourceKind::Webp,
        Ok(imagesize::ImageType::Gif) => SourceKind::Gif,
        Ok(_) | Err(imagesize::ImageError::NotSupported) => return Err(ImageError::NotAnImage),
        Err(_) => return Err(ImageError::Corrupt),
    };
    let size = imagesize::blob_size(bytes).map_err(|_| ImageError::Corrupt)?;
    let (width, height) = (size.width as u64, size.height as u64);
    let too_many = ImageError::TooManyPixels {
        width,
        height,
        max_side: limits.max_side,
        max_pixels: limits.max_pixels,
    };
    if width == 0 || height == 0 {
        return Err(ImageError::Corrupt);
    }
    if width > u64::from(limits.max_side)
        || height > u64::from(limits.max_side)
        || width * height > limits.max_pixels
    {
        return Err(too_many);
    }
    Ok(ImageHeader {
        kind,
        width: width as u32,
        height: height as u32,
        animated: kind == SourceKind::Gif || animated_webp(bytes),
    })
}

/// A WebP's extended header (`VP8X`) has a flag for animation.
fn animated_webp(bytes: &[u8]) -> bool {
    bytes.get(12..16) == Some(b"VP8X") && bytes.get(20).is_some_and(|flags| flags & 0x02 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A PNG signature and IHDR chunk claiming `width` x `height`, with no pixel data.
    fn png_header(width: u32, height: u32) -> Vec<u8> {
        let mut png = vec![0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13];
        png.extend_from_slice(b"IHDR");
        png.extend_from_slice(&width.to_be_bytes());
        png.extend_from_slice(&height.to_be_bytes());
        png.extend_from_slice(&[8, 2, 0, 0, 0, 0, 0, 0, 0]);
        png
    }

    #[test]
    fn a_bomb_is_refused_from_its_header() {
        let error = read_header(&png_header(100_000, 100_000), &ImageLimits::default());
        assert!(matches!(error, Err(ImageError::TooManyPixels { .. })));
        let error = read_header(&png_header(12_000, 12_000), &ImageLimits::default());
        assert!(
            matches!(error, Err(ImageError::TooManyPixels { .. })),
            "144 MP"
        );
        let header = read_header(&png_header(4000, 3000), &ImageLimits::default()).unwrap();
        assert_eq!(
            (header.kind, header.width, header.height),
            (SourceKind::Png, 4000, 3000)
        );
    }

    #[test]
    fn wrong_magic_and_size_are_refused() {
        assert_eq!(
            read_header(b"GIF89a", &ImageLimits::default()),
            Err(ImageError::Corrupt)
        );
        assert_eq!(
            read_header(b"%PDF-1.7 a document", &ImageLimits::default()),
            Err(ImageError::NotAnImage)
        );
        let small = ImageLimits {
            max_bytes: 10,
            ..ImageLimits::default()
        };
        assert!(matches!(
            read_header(&png_header(1, 1), &small),
            Err(ImageError::FileTooLarge { .. })
        ));
    }
}
