//! Galleries in every layout of spec 001 s2 as HTML that works without JavaScript: grids and
//! columns in CSS, the slider, slideshow and carousel as scroll-snapped tracks with a link per
//! slide, and the options the gallery island needs as its props. Options the stylesheet has
//! no class for (a gutter, a column width, a row height, an image aspect ratio) go into a
//! small stylesheet of the block's own, since pages allow no inline styles: a page without
//! JavaScript draws them too, and the island's arrival moves nothing.

use askama::Template;
use serde::Serialize;
use vitrine_core::gallery::{GalleryLayout, GalleryOptions, ResolvedGallery, VideoEmbed};
use vitrine_core::pages::{PageContent, slide_path};
use vitrine_core::plugins::PluginCss;
use vitrine_core::site::GallerySlide;

use crate::render::blocks::stylesheet_href;
use crate::render::image::{ImageSizes, ImageView};
use crate::render::scope::RenderScope;
use crate::render::urls;

#[derive(Debug, Template)]
#[template(path = "blocks/gallery.html", whitespace = "minimize")]
pub(crate) struct GalleryBlock<'a> {
    /// The block's id, the stem of every element id inside the gallery.
    pub(crate) id: &'a str,
    pub(crate) layout: &'static str,
    pub(crate) navigates: bool,
    pub(crate) pager: bool,
    pub(crate) thumbnails: bool,
    pub(crate) per_row: u8,
    pub(crate) autoplay: bool,
    pub(crate) lightbox: bool,
    pub(crate) slides: Vec<SlideView<'a>>,
    /// Where the block's own stylesheet is served, when an option differs from the layout's
    /// default that the site stylesheet draws.
    pub(crate) option_styles: Option<String>,
}

#[derive(Debug)]
pub(crate) struct SlideView<'a> {
    pub(crate) id: &'a str,
    /// Where the slide's link leads without JavaScript: its click-through url, or the
    /// slide's own page (the picture itself in a post's gallery).
    pub(crate) href: String,
    pub(crate) click_through: bool,
    pub(crate) image: ImageView<'a>,
    pub(crate) title: Option<&'a str>,
    pub(crate) caption: Option<&'a str>,
    /// A video slide's player address, loaded only when the visitor presses play.
    pub(crate) video: Option<SlideVideo<'a>>,
}

#[derive(Debug)]
pub(crate) struct SlideVideo<'a> {
    pub(crate) url: &'a str,
    pub(crate) player: String,
    pub(crate) provider: &'static str,
}

/// What the gallery island reads from `data-island-props`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct GalleryIslandProps {
    #[serde(flatten)]
    pub(crate) resolved: ResolvedGallery,
    pub(crate) lightbox: bool,
    /// The page's full url path, under which `itemId` goes (001 s2).
    pub(crate) collection_url: String,
}

impl<'a> GalleryBlock<'a> {
    pub(crate) fn new(
        scope: &RenderScope<'a>,
        id: &'a str,
        design: &str,
        slides: &'a [GallerySlide],
        lightbox: bool,
        autoplay: bool,
        options: &GalleryOptions,
    ) -> (Self, GalleryIslandProps) {
        let layout = GalleryLayout::from_design(design);
        // A slide of a page's own gallery links to its own page; one in a post, to its picture.
        let page_path = match &scope.view.content {
            PageContent::Layout { collection } | PageContent::ItemList { collection, .. } => {
                Some(collection.path())
            }
            _ => None,
        };
        let resolved = options.resolve(layout, autoplay);
        // Stacked layouts draw each slide the content's width; the others draw tiles.
        let sizes = match layout {
            GalleryLayout::Base | GalleryLayout::Slideshow | GalleryLayout::List => {
                ImageSizes::Content
            }
            _ => ImageSizes::Tile,
        };
        let slides = slides
            .iter()
            .filter_map(|slide| {
                let image = scope.image(&slide.image)?.with_sizes(sizes);
                let link = slide.link.as_deref().map(urls::safe_href);
                let href = match (link, &page_path) {
                    (Some(link), _) => link.to_owned(),
                    (None, Some(page)) => slide_path(page, &slide.id),
                    (None, None) => image.src.to_owned(),
                };
                Some(SlideView {
                    id: &slide.id,
                    href,
                    click_through: link.is_some(),
                    image,
                    title: slide.title.as_deref().filter(|t| !t.trim().is_empty()),
                    caption: slide.caption.as_deref().filter(|c| !c.trim().is_empty()),
                    video: slide.video.as_deref().and_then(|url| {
                        let embed = VideoEmbed::from_url(url)?;
                        Some(SlideVideo {
                            url: urls::safe_href(url),
                            player: embed.player_url(),
                            provider: embed.provider_name(),
                        })
                    }),
                })
            })
            .collect();
        let option_styles = option_styles(id, &resolved, layout, autoplay).map(|css| {
            let href = stylesheet_href(&css);
            scope.add_stylesheet(css);
            href
        });
        let props = GalleryIslandProps {
            resolved: resolved.clone(),
            lightbox,
            collection_url: full_url_path(&scope.view.path),
        };
        let block = Self {
            id,
            layout: layout.name(),
            navigates: layout.navigates(),
            pager: layout.shows_one_at_a_time(),
            thumbnails: layout == GalleryLayout::Strip,
            per_row: match layout {
                GalleryLayout::Carousel | GalleryLayout::Grid => {
                    resolved.slides_per_row.clamp(1, 12)
                }
                _ => 1,
            },
            autoplay: resolved.autoplay_ms.is_some(),
            lightbox,
            slides,
            option_styles,
        };
        (block, props)
    }
}

/// The custom properties of the options that differ from the layout's defaults, scoped to
/// the block; none when every option is the default (the site stylesheet draws those).
fn option_styles(
    id: &str,
    resolved: &ResolvedGallery,
    layout: GalleryLayout,
    autoplay: bool,
) -> Option<PluginCss> {
    let defaults = GalleryOptions::default().resolve(layout, autoplay);
    let mut properties = Vec::new();
    if resolved.gutter != defaults.gutter {
        properties.push(format!("--gallery-gutter: {}px", resolved.gutter));
    }
    if resolved.column_width != defaults.column_width {
        properties.push(format!(
            "--gallery-column-width: {}px",
            resolved.column_width
        ));
    }
    if resolved.row_height != defaults.row_height {
        properties.push(format!("--gallery-row-height: {}px", resolved.row_height));
    }
    if let Some(percent) = resolved.aspect_ratio.filter(|percent| *percent > 0)
        && resolved.aspect_ratio != defaults.aspect_ratio
    {
        // 001 s2: the height as a percentage of the width.
        properties.push(format!("--gallery-aspect: 100 / {percent}"));
    }
    if properties.is_empty() {
        return None;
    }
    // The id comes from the bundle; one the scoping refuses gets no stylesheet, and its
    // gallery keeps the layout's defaults until the island sets the options.
    PluginCss::scope(&format!(".gallery {{ {} }}", properties.join("; ")), id).ok()
}

/// 001 s2: the `itemId` goes under the collection's full url, with a trailing slash added.
fn full_url_path(path: &str) -> String {
    if path.ends_with('/') {
        path.to_owned()
    } else {
        format!("{path}/")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn styles(layout: GalleryLayout, options: GalleryOptions) -> Option<String> {
        let resolved = options.resolve(layout, false);
        option_styles("g1", &resolved, layout, false).map(|css| css.as_str().to_owned())
    }

    #[test]
    fn a_gallery_at_its_layouts_defaults_needs_no_stylesheet() {
        for layout in [
            GalleryLayout::Strip,
            GalleryLayout::Carousel,
            GalleryLayout::Autorows,
            GalleryLayout::Grid,
        ] {
            assert_eq!(
                styles(layout, GalleryOptions::default()),
                None,
                "{layout:?}"
            );
        }
        // The slider's 50 is its default, written by the site stylesheet.
        let fifty = GalleryOptions {
            aspect_ratio: Some(50),
            ..GalleryOptions::default()
        };
        assert_eq!(styles(GalleryLayout::Strip, fifty), None);
    }

    #[test]
    fn options_other_than_the_defaults_become_the_blocks_custom_properties() {
        let options = GalleryOptions {
            gutter: Some(12),
            column_width: Some(320),
            row_height: Some(180),
            aspect_ratio: Some(75),
            ..GalleryOptions::default()
        };
        assert_eq!(
            styles(GalleryLayout::Slideshow, options).as_deref(),
            Some(
                "#block-g1 .gallery{--gallery-gutter:12px;--gallery-column-width:320px;\
                 --gallery-row-height:180px;--gallery-aspect:100 / 75;}\n"
            )
        );
    }

    #[test]
    fn a_block_id_that_cannot_be_a_selector_gets_no_stylesheet() {
        let layout = GalleryLayout::Grid;
        let resolved = GalleryOptions {
            gutter: Some(4),
            ..GalleryOptions::default()
        }
        .resolve(layout, false);
        assert!(option_styles("a b{}", &resolved, layout, false).is_none());
    }

    #[test]
    fn the_collection_url_gets_a_trailing_slash() {
        assert_eq!(full_url_path("/gallery"), "/gallery/");
        assert_eq!(full_url_path("/"), "/");
    }
}
