//! The shape block: the named shape drawn as inline SVG, with `data-shape-name` and the drop
//! shadow as `data-drop-shadow` JSON (001 s3), the shadow itself an SVG filter, since pages
//! allow no inline style. Needs no script.

use askama::Template;
use vitrine_core::site::ShapeBlock;

#[derive(Debug, Template)]
#[template(path = "blocks/shape.html", whitespace = "minimize")]
pub(crate) struct ShapeView<'a> {
    pub(crate) id: &'a str,
    pub(crate) name: &'static str,
    pub(crate) size: u16,
    pub(crate) path: &'static str,
    pub(crate) fill: &'a str,
    pub(crate) label: Option<&'a str>,
    pub(crate) shadow: Option<ShadowView>,
}

#[derive(Debug)]
pub(crate) struct ShadowView {
    /// The drop shadow as the block holds it, in JSON.
    pub(crate) json: String,
    pub(crate) dx: f64,
    pub(crate) dy: f64,
    /// The filter's standard deviation: half the blur, as CSS turns a blur radius into one.
    pub(crate) deviation: f64,
}

impl<'a> ShapeView<'a> {
    /// The view, or `None` for data that breaks the block's rules (a colour that is not one
    /// would otherwise reach an attribute).
    pub(crate) fn new(id: &'a str, block: &'a ShapeBlock) -> Option<Self> {
        block.check().ok()?;
        let shadow = block.drop_shadow.map(|shadow| {
            let (dx, dy) = shadow.offset();
            ShadowView {
                // Serialising plain numbers and units cannot fail.
                json: serde_json::to_string(&shadow).unwrap_or_default(),
                dx,
                dy,
                deviation: (shadow.blur.px() * 50.0).round() / 100.0,
            }
        });
        Some(Self {
            id,
            name: block.shape.name(),
            size: block.shape.size(),
            path: block.shape.path(),
            fill: block.color.as_deref().unwrap_or("currentColor"),
            label: block
                .label
                .as_deref()
                .filter(|label| !label.trim().is_empty()),
            shadow,
        })
    }
}
