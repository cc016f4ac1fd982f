//! One `<img>`: always with its intrinsic size (so the layout does not shift while it loads),
//! alt text, asynchronous decoding, and lazy loading for all but the page's first images.

use askama::Template;

#[derive(Debug, Clone, Template)]
#[template(path = "partials/image.html", whitespace = "minimize")]
pub(crate) struct ImageView<'a> {
    pub(crate) src: &'a str,
    pub(crate) alt: &'a str,
    pub(crate) width: u32,
    pub(crate) height: u32,
    pub(crate) loading: Loading,
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

super::markup::nested_templates!(ImageView);
