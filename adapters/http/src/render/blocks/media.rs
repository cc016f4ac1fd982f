//! Media blocks: image and map (galleries and videos have modules of their own), each as static HTML that works
//! without JavaScript (spec 001 s2 describes the widgets they stand for).

use askama::Template;
use vitrine_core::site::{MapLocation, MapStyle, MediaRef};

use crate::render::image::ImageView;
use crate::render::scope::RenderScope;
use crate::render::urls;

#[derive(Debug, Template)]
#[template(path = "blocks/image.html", whitespace = "minimize")]
pub(crate) struct ImageBlock<'a> {
    pub(crate) image: Option<ImageView<'a>>,
    pub(crate) caption: Option<&'a str>,
    pub(crate) link: Option<&'a str>,
    /// What a linked image without alt text is announced as.
    pub(crate) link_label: &'a str,
}

impl<'a> ImageBlock<'a> {
    pub(crate) fn new(
        scope: &RenderScope<'a>,
        image: &'a MediaRef,
        caption: Option<&'a str>,
        link: Option<&'a str>,
    ) -> Self {
        let link = link.map(urls::safe_href);
        // A link needs a name: an image that has no alt text borrows its caption.
        let link_label = match (image.alt.trim().is_empty(), caption) {
            (true, Some(caption)) if !caption.trim().is_empty() => caption,
            (true, _) => "Open the linked page",
            (false, _) => "",
        };
        Self {
            image: scope.image(image),
            caption: caption.filter(|caption| !caption.trim().is_empty()),
            link,
            link_label,
        }
    }
}

/// A map as an address card with a link to OpenStreetMap and a decorative, CSS-only map
/// canvas: no tiles or scripts from another origin load with the page.
#[derive(Debug, Template)]
#[template(path = "blocks/map.html", whitespace = "minimize")]
pub(crate) struct MapBlock<'a> {
    pub(crate) style: &'static str,
    pub(crate) title: &'a str,
    pub(crate) lines: Vec<&'a str>,
    pub(crate) maps_url: Option<String>,
}

impl<'a> MapBlock<'a> {
    pub(crate) fn new(location: &'a MapLocation, style: MapStyle) -> Self {
        let lines = [
            &location.address_line1,
            &location.address_line2,
            &location.address_country,
        ]
        .into_iter()
        .map(|line| line.trim())
        .filter(|line| !line.is_empty())
        .collect();
        Self {
            style: match style {
                MapStyle::Original => "original",
                MapStyle::Grayscale => "grayscale",
                MapStyle::Satellite => "satellite",
                MapStyle::MinimalDark => "minimal-dark",
                MapStyle::MinimalLight => "minimal-light",
                MapStyle::MinimalBlue => "minimal-blue",
            },
            title: location.address_title.trim(),
            lines,
            maps_url: urls::openstreetmap_url(
                location.marker(),
                (location.map_lat, location.map_lng),
                location.map_zoom,
            ),
        }
    }
}
