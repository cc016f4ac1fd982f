//! A gallery slide's own page: the picture large, its title and caption, and links to the
//! slides before and after it and back to the gallery's page. Its canonical address and Open
//! Graph image come from the page view like any page's.

use askama::Template;
use vitrine_core::pages::{SlideInGallery, slide_path};
use vitrine_core::site::Collection;

use super::image::ImageView;
use super::scope::RenderScope;
use super::urls;

#[derive(Debug, Template)]
#[template(path = "pages/slide.html", whitespace = "minimize")]
pub(crate) struct SlidePage<'a> {
    pub(crate) heading: String,
    pub(crate) caption: Option<&'a str>,
    pub(crate) image: Option<ImageView<'a>>,
    pub(crate) video: Option<&'a str>,
    pub(crate) position: usize,
    pub(crate) count: usize,
    pub(crate) previous: Option<String>,
    pub(crate) next: Option<String>,
    pub(crate) back: (&'a str, &'a str),
}

impl<'a> SlidePage<'a> {
    pub(crate) fn new(
        scope: &RenderScope<'a>,
        collection: &'a Collection,
        page_path: &'a str,
        found: &'a SlideInGallery,
    ) -> Self {
        let slide = &found.slide;
        Self {
            heading: slide
                .title
                .clone()
                .filter(|t| !t.trim().is_empty())
                .unwrap_or_else(|| format!("Picture {} of {}", found.position, found.count)),
            caption: slide.caption.as_deref().filter(|c| !c.trim().is_empty()),
            image: scope.image(&slide.image),
            video: slide.video.as_deref().map(urls::safe_href),
            position: found.position,
            count: found.count,
            previous: found
                .previous
                .as_deref()
                .map(|id| slide_path(page_path, id)),
            next: found.next.as_deref().map(|id| slide_path(page_path, id)),
            back: (page_path, &collection.title),
        }
    }
}
