//! One `<img>`: always with its intrinsic size (so the layout does not shift while it loads),
//! alt text, asynchronous decoding, and lazy loading for all but the page's first image.

use askama::Template;

#[derive(Debug, Clone, Template)]
#[template(path = "partials/image.html", whitespace = "minimize")]
pub(crate) struct ImageView<'a> {
    pub(crate) src: &'a str,
    pub(crate) alt: &'a str,
    pub(crate) width: u32,
    pub(crate) height: u32,
    /// The page's first image: fetched at once and with high priority.
    pub(crate) eager: bool,
}

super::markup::nested_templates!(ImageView);
