//! From an original's bytes to one variant: what to make ([`plan`]) and making it
//! ([`render_variant`]).

use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::ImageError;
use crate::decode::decode;
use crate::encode::{OutputFormat, encode};
use crate::limits::{ImageHeader, ImageLimits, read_header};
use crate::resize::resize_upright;

/// A file's version in URLs, ETags and cache keys: the core's, which the importer writes
/// into the pages' image references.
pub use vitrine_core::site::content_hash;

/// Which variant: the original's content hash, the width asked for (`None`: full size) and
/// the format.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct VariantKey {
    pub hash: String,
    pub width: Option<u32>,
    pub format: OutputFormat,
}

impl VariantKey {
    /// A file name for the key, e.g. `0123456789abcdef-500w.webp` or `...-full.jpg`.
    pub fn file_name(&self) -> String {
        let width = self
            .width
            .map_or_else(|| "full".to_owned(), |pixels| format!("{pixels}w"));
        format!("{}-{width}.{}", self.hash, self.format.extension())
    }
}

/// One encoded variant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variant {
    pub bytes: Vec<u8>,
    pub format: OutputFormat,
    pub width: u32,
    pub height: u32,
}

/// What to answer a request for `width` pixels (`None`: full size) of an original with
/// `header`, for a browser that does or does not take WebP: the original's own bytes (an
/// animated image, a GIF, or the full size in its own format) or a variant in a format.
pub fn plan(header: &ImageHeader, width: Option<u32>, accepts_webp: bool) -> Option<OutputFormat> {
    let original = OutputFormat::original(header.kind)?;
    if header.animated {
        return None;
    }
    let format = if accepts_webp {
        OutputFormat::Webp
    } else {
        original
    };
    let full_size = width.is_none_or(|pixels| pixels >= header.width);
    (format != original || !full_size).then_some(format)
}

/// Makes a variant of `bytes` at most `width` pixels wide as shown (never wider than the
/// original), upright, in sRGB, without metadata, in `format`. A hostile or damaged file is
/// refused with the reason; a panic in a decoder is caught and refused as damage, so one file
/// can never take its caller down.
pub fn render_variant(
    bytes: &[u8],
    width: Option<u32>,
    format: OutputFormat,
    limits: &ImageLimits,
) -> Result<Variant, ImageError> {
    let header = read_header(bytes, limits)?;
    catch_unwind(AssertUnwindSafe(|| {
        let decoded = decode(bytes, &header, width, limits)?;
        let shown_width = width.unwrap_or(u32::MAX);
        let upright = resize_upright(decoded, shown_width)?;
        let bytes = encode(&upright, format)?;
        Ok(Variant {
            bytes,
            format,
            width: upright.width,
            height: upright.height,
        })
    }))
    .unwrap_or(Err(ImageError::Corrupt))
}
