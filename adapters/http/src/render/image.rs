//! One `<img>`, built by [`ImageView::new`] for every block, gallery, item and the logo:
//! always with its intrinsic size and `data-image-dimensions` (so the layout does not shift
//! while it loads), alt text, asynchronous decoding, a `srcset` over the spec's widths that
//! are narrower than the original plus the original itself (001 s9), `sizes` from where it is
//! laid out, and lazy loading for all but the page's first images.

use askama::Template;
use vitrine_core::site::{ImageWidth, MediaRef, SizeFormat, variant_url};

use super::urls;

#[derive(Debug, Clone, Template)]
#[template(path = "partials/image.html", whitespace = "minimize")]
pub(crate) struct ImageView<'a> {
    /// The original's path: what a browser without `srcset` loads, and what links to the
    /// full-size image use.
    pub(crate) src: &'a str,
    pub(crate) alt: &'a str,
    pub(crate) width: u32,
    pub(crate) height: u32,
    pub(crate) loading: Loading,
    /// `URL 500w, ...`; empty for images the server does not resize (SVG, GIF, icons, other
    /// hosts).
    pub(crate) srcset: String,
    pub(crate) sizes: ImageSizes,
    /// The file's content hash, for the image loader's own variant URLs
    /// (`data-image-version`); only on images with a `srcset`.
    pub(crate) version: Option<&'a str>,
}

/// When the browser fetches an image.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Loading {
    /// The page's hero (its first content image): at once, ahead of other images.
    Priority,
    /// At once, at normal priority (the logo in the header).
    Eager,
    /// When it comes near the viewport.
    Lazy,
}

/// How wide an image is drawn, for the browser to pick from `srcset` before layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ImageSizes {
    /// The width of the page's content column (72rem, the stylesheet's `--content-width`),
    /// all of a narrower window.
    Content,
    /// A tile of a gallery grid, carousel or strip (`minmax(14rem, 1fr)` columns).
    Tile,
    /// Drawn this many CSS pixels wide (the logo, 3rem tall).
    Pixels(u32),
}

impl ImageSizes {
    pub(crate) fn value(&self) -> String {
        match self {
            Self::Content => "(max-width: 72rem) 100vw, 72rem".to_owned(),
            Self::Tile => "(max-width: 36rem) 100vw, (max-width: 72rem) 50vw, 24rem".to_owned(),
            Self::Pixels(pixels) => format!("{pixels}px"),
        }
    }
}

/// The extensions of the originals the image pipeline resizes.
const RESIZED: [&str; 4] = [".jpg", ".jpeg", ".png", ".webp"];

impl<'a> ImageView<'a> {
    /// The image of `media` with `alt`, or none when its path is not a safe image source.
    pub(crate) fn new(
        media: &'a MediaRef,
        alt: &'a str,
        loading: Loading,
        sizes: ImageSizes,
    ) -> Option<Self> {
        let src = urls::safe_src(&media.path)?;
        Some(Self {
            src,
            alt,
            width: media.width,
            height: media.height,
            loading,
            srcset: srcset(src, media.width, media.version.as_deref()),
            sizes,
            version: media.version.as_deref(),
        })
    }

    /// The same image laid out at `sizes`.
    pub(crate) fn with_sizes(mut self, sizes: ImageSizes) -> Self {
        self.sizes = sizes;
        self
    }
}

/// Whether the image pipeline serves `src` in the spec's widths: a file of the site's own
/// media, in a format it resizes, asked for without a query of its own.
fn resizable(src: &str) -> bool {
    let lower = src.to_ascii_lowercase();
    src.starts_with(vitrine_core::site::MEDIA_PREFIX)
        && !src.contains('?')
        && RESIZED.iter().any(|extension| lower.ends_with(extension))
}

/// The width link previews (Open Graph, Twitter cards) are given: wide enough for the large
/// card every network draws, a fraction of the bytes of a camera original.
const SHARE_WIDTH: u32 = 1500;

/// The path and size of `media` to give link previews: its 1500w variant when it is wider
/// than that and resizable, the file itself otherwise.
pub(crate) fn share_image(media: &MediaRef) -> (String, u32, u32) {
    match ImageWidth::from_pixels(SHARE_WIDTH) {
        Some(width) if media.width > SHARE_WIDTH && resizable(&media.path) => {
            let height =
                (u64::from(media.height) * u64::from(SHARE_WIDTH)).div_ceil(u64::from(media.width));
            (
                variant_url(
                    &media.path,
                    width,
                    SizeFormat::QueryString,
                    media.version.as_deref(),
                ),
                SHARE_WIDTH,
                u32::try_from(height).unwrap_or(u32::MAX),
            )
        }
        _ => (media.path.clone(), media.width, media.height),
    }
}

/// Every spec width narrower than the original, then the original at its own width. With the
/// file's `version`, the variants' URLs carry it, so they are cached for good.
fn srcset(src: &str, width: u32, version: Option<&str>) -> String {
    if !resizable(src) || width == 0 {
        return String::new();
    }
    let mut candidates: Vec<String> = ImageWidth::below(width)
        .map(|w| {
            format!(
                "{} {w}",
                variant_url(src, w, SizeFormat::QueryString, version)
            )
        })
        .collect();
    if candidates.is_empty() {
        return String::new();
    }
    candidates.push(format!("{src} {width}w"));
    candidates.join(", ")
}

super::markup::nested_templates!(ImageView);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_previews_get_the_1500w_variant_of_a_wider_image_and_smaller_ones_as_they_are() {
        let media = |path: &str, width, height| MediaRef {
            path: path.into(),
            alt: String::new(),
            width,
            height,
            version: None,
        };
        assert_eq!(
            share_image(&media("/media/hall.jpg", 3000, 2001)),
            ("/media/hall.jpg?format=1500w".to_owned(), 1500, 1001)
        );
        assert_eq!(
            share_image(&media("/media/vase.jpg", 1200, 800)),
            ("/media/vase.jpg".to_owned(), 1200, 800)
        );
        assert_eq!(
            share_image(&media("/media/logo.svg", 3000, 3000)),
            ("/media/logo.svg".to_owned(), 3000, 3000)
        );
    }

    #[test]
    fn the_srcset_holds_the_narrower_widths_and_the_original() {
        assert_eq!(
            srcset("/media/a.jpg", 800, None),
            "/media/a.jpg?format=100w 100w, /media/a.jpg?format=300w 300w, \
             /media/a.jpg?format=500w 500w, /media/a.jpg?format=750w 750w, /media/a.jpg 800w"
        );
        assert_eq!(srcset("/media/a.jpg", 100, None), "");
        assert_eq!(srcset("/media/logo.svg", 800, None), "");
        assert_eq!(srcset("https://cdn.example/a.jpg", 800, None), "");
    }

    #[test]
    fn a_versioned_image_names_its_version_in_every_variant() {
        assert_eq!(
            srcset("/media/a.jpg", 400, Some("0123abcd")),
            "/media/a.jpg?format=100w&v=0123abcd 100w, /media/a.jpg?format=300w&v=0123abcd 300w, \
             /media/a.jpg 400w"
        );
    }
}
