//! Media blocks: image, gallery, video and map, each as static HTML that works
//! without JavaScript (spec 001 s2 describes the widgets they stand for).

use askama::Template;
use vitrine_core::site::{GallerySlide, MapLocation, MapStyle, MediaRef};

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

/// A gallery as a grid of figures, each linking to its full-size image. The design value maps
/// to a layout as spec 001 s2 "Gallery layouts" says; without JavaScript every layout is a
/// grid or a single column, and slideshows and the lightbox come with their island.
#[derive(Debug, Template)]
#[template(path = "blocks/gallery.html", whitespace = "minimize")]
pub(crate) struct GalleryBlock<'a> {
    pub(crate) layout: &'static str,
    pub(crate) slides: Vec<SlideView<'a>>,
}

#[derive(Debug)]
pub(crate) struct SlideView<'a> {
    pub(crate) id: &'a str,
    pub(crate) href: &'a str,
    pub(crate) image: ImageView<'a>,
    pub(crate) title: Option<&'a str>,
    pub(crate) caption: Option<&'a str>,
}

impl<'a> GalleryBlock<'a> {
    pub(crate) fn new(scope: &RenderScope<'a>, design: &str, slides: &'a [GallerySlide]) -> Self {
        let slides = slides
            .iter()
            .filter_map(|slide| {
                let image = scope.image(&slide.image)?;
                Some(SlideView {
                    id: &slide.id,
                    href: image.src,
                    image,
                    title: slide.title.as_deref().filter(|t| !t.trim().is_empty()),
                    caption: slide.caption.as_deref().filter(|c| !c.trim().is_empty()),
                })
            })
            .collect();
        Self {
            layout: gallery_layout(design),
            slides,
        }
    }
}

/// Spec 001 s2: stacked and unknown designs use the base layout, slider is a thumbnail strip,
/// slideshow a stacked fade, and grid, autogrid, autocolumns, carousel and list are themselves.
pub(crate) fn gallery_layout(design: &str) -> &'static str {
    match design.trim().to_ascii_lowercase().as_str() {
        "slider" => "strip",
        "slideshow" => "slideshow",
        "grid" => "grid",
        "autogrid" => "autogrid",
        "autocolumns" => "autocolumns",
        "carousel" => "carousel",
        "list" => "list",
        _ => "base",
    }
}

/// A video as its thumbnail with a play mark, linking to the video itself; no third-party
/// player loads until the visitor asks for it.
#[derive(Debug, Template)]
#[template(path = "blocks/video.html", whitespace = "minimize")]
pub(crate) struct VideoBlock<'a> {
    pub(crate) href: &'a str,
    pub(crate) provider: &'a str,
    pub(crate) title: &'a str,
    pub(crate) thumbnail: Option<ImageView<'a>>,
}

impl<'a> VideoBlock<'a> {
    pub(crate) fn new(
        scope: &RenderScope<'a>,
        url: &'a str,
        provider: &'a str,
        title: &'a str,
        thumbnail: Option<&'a MediaRef>,
    ) -> Self {
        Self {
            href: urls::safe_href(url),
            provider: provider.trim(),
            title: if title.trim().is_empty() {
                "Video"
            } else {
                title
            },
            // The link's text names the video, so the thumbnail itself is decorative.
            thumbnail: thumbnail.and_then(|media| scope.image_with_alt(media, "")),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gallery_designs_map_to_the_spec_layouts() {
        let cases = [
            ("stacked", "base"),
            ("slider", "strip"),
            ("slideshow", "slideshow"),
            ("grid", "grid"),
            ("autogrid", "autogrid"),
            ("autocolumns", "autocolumns"),
            ("carousel", "carousel"),
            ("list", "list"),
            ("mosaic", "base"),
        ];
        for (design, layout) in cases {
            assert_eq!(gallery_layout(design), layout, "{design}");
        }
    }
}
