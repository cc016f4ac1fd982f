//! The widths images are served in (001 s9 "Image loading": 2500, 1500, 1000, 750, 500, 300
//! and 100, written with the suffix `w`) and the two ways a URL asks for one (001 s3 "size
//! format"): the query string (`/media/photo.jpg?format=500w`) or the file name
//! (`/media/photo-500w.jpg`). The server's image pipeline, the page HTML's `srcset` and the
//! browser's image loader all follow these rules.

use std::fmt;

/// The spec's image widths in pixels, largest first.
pub const IMAGE_WIDTHS: [u32; 7] = [2500, 1500, 1000, 750, 500, 300, 100];

/// One of the spec's image widths.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ImageWidth(u32);

impl ImageWidth {
    /// The width named by a size such as `500w`; `None` for any other text.
    pub fn parse(size: &str) -> Option<Self> {
        let digits = size.strip_suffix('w')?;
        if digits.starts_with('0')
            || !digits.bytes().all(|b| b.is_ascii_digit())
            || digits.len() > 4
        {
            return None;
        }
        let pixels: u32 = digits.parse().ok()?;
        IMAGE_WIDTHS.contains(&pixels).then_some(Self(pixels))
    }

    /// The spec width of exactly `pixels`, if it is one.
    pub fn from_pixels(pixels: u32) -> Option<Self> {
        IMAGE_WIDTHS.contains(&pixels).then_some(Self(pixels))
    }

    pub fn pixels(self) -> u32 {
        self.0
    }

    /// Every spec width, smallest first.
    pub fn all() -> impl Iterator<Item = Self> {
        IMAGE_WIDTHS.iter().rev().map(|&pixels| Self(pixels))
    }

    /// The spec widths strictly narrower than an original `original_width` pixels wide, smallest
    /// first: the only variants worth offering, since a wider one would be the original again.
    pub fn below(original_width: u32) -> impl Iterator<Item = Self> {
        Self::all().filter(move |width| width.0 < original_width)
    }
}

impl fmt::Display for ImageWidth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}w", self.0)
    }
}

/// How a URL names the width it wants (001 s3 "size format").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SizeFormat {
    /// `?format=500w` after the file's own path.
    QueryString,
    /// `-500w` before the file's extension.
    Filename,
}

/// The file a variant path such as `photo-500w.jpg` names, with its width: `("photo.jpg",
/// 500w)`. A name without a spec width before its extension names no variant.
pub fn split_filename_variant(name: &str) -> Option<(String, ImageWidth)> {
    let (stem, extension) = name.rsplit_once('.')?;
    let (base, size) = stem.rsplit_once('-')?;
    let width = ImageWidth::parse(size)?;
    if base.is_empty() || base.ends_with('/') {
        return None;
    }
    Some((format!("{base}.{extension}"), width))
}

/// The URL of `path` (a site path such as `/media/photo.jpg`) at `width`, in `format`.
/// `version` (the file's content hash) is added as `v=`, so the URL changes with the file
/// and may be cached for good.
pub fn variant_url(
    path: &str,
    width: ImageWidth,
    format: SizeFormat,
    version: Option<&str>,
) -> String {
    let mut url = match format {
        SizeFormat::QueryString => format!("{path}?format={width}"),
        SizeFormat::Filename => match path.rsplit_once('.') {
            Some((stem, extension)) if !extension.contains('/') => {
                format!("{stem}-{width}.{extension}")
            }
            _ => format!("{path}?format={width}"),
        },
    };
    if let Some(version) = version {
        url.push(if url.contains('?') { '&' } else { '?' });
        url.push_str("v=");
        url.push_str(version);
    }
    url
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_spec_widths_with_the_w_suffix_parse() {
        assert_eq!(ImageWidth::parse("500w").map(ImageWidth::pixels), Some(500));
        assert_eq!(
            ImageWidth::parse("2500w").map(ImageWidth::pixels),
            Some(2500)
        );
        for refused in ["500", "501w", "w", "0500w", "-500w", "500W", "99999w", ""] {
            assert_eq!(ImageWidth::parse(refused), None, "{refused}");
        }
    }

    #[test]
    fn file_name_variants_split_before_the_extension() {
        let split = split_filename_variant("tote-bag-500w.jpg").unwrap();
        assert_eq!((split.0.as_str(), split.1.pixels()), ("tote-bag.jpg", 500));
        assert_eq!(split_filename_variant("tote-bag.jpg"), None);
        assert_eq!(split_filename_variant("-500w.jpg"), None);
        assert_eq!(split_filename_variant("tote-123w.jpg"), None);
    }

    #[test]
    fn widths_below_the_original_leave_out_the_wider_ones() {
        let below: Vec<u32> = ImageWidth::below(1000).map(ImageWidth::pixels).collect();
        assert_eq!(below, [100, 300, 500, 750]);
    }

    #[test]
    fn variant_urls_in_both_formats() {
        let width = ImageWidth::parse("300w").unwrap();
        assert_eq!(
            variant_url("/media/a.jpg", width, SizeFormat::QueryString, Some("ab12")),
            "/media/a.jpg?format=300w&v=ab12"
        );
        assert_eq!(
            variant_url("/media/a.jpg", width, SizeFormat::Filename, None),
            "/media/a-300w.jpg"
        );
    }
}
