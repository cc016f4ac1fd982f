//! A gallery slide's own page (beyond the spec): `/{page}/slides/{slide id}` shows one picture
//! with its own title, canonical address and Open Graph image, so a shared link to one
//! photograph previews that photograph. The first gallery slide of that id on the page wins.

use crate::enums::PageType;
use crate::pages::{PageContent, PageContext, PageError, PageService, PageView, Viewer, access};
use crate::site::{BlockContent, Collection, GallerySlide, SiteProfile};

/// A slide with its place among its gallery's slides.
#[derive(Debug, Clone, PartialEq)]
pub struct SlideInGallery {
    pub slide: GallerySlide,
    /// 1-based.
    pub position: usize,
    pub count: usize,
    pub previous: Option<String>,
    pub next: Option<String>,
}

/// The segment between a page's path and a slide id.
pub const SLIDES_SEGMENT: &str = "slides";

/// The address of a slide's own page under the page at `page_path`.
pub fn slide_path(page_path: &str, slide_id: &str) -> String {
    format!(
        "{}/{SLIDES_SEGMENT}/{slide_id}",
        page_path.trim_end_matches('/')
    )
}

/// Finds the slide `id` among the galleries of a layout page.
pub fn find_slide(collection: &Collection, id: &str) -> Option<SlideInGallery> {
    collection.body.layout.blocks().find_map(|block| {
        let BlockContent::Gallery { slides, .. } = &block.content else {
            return None;
        };
        let at = slides.iter().position(|slide| slide.id == id)?;
        Some(SlideInGallery {
            slide: slides[at].clone(),
            position: at + 1,
            count: slides.len(),
            previous: at.checked_sub(1).map(|i| slides[i].id.clone()),
            next: slides.get(at + 1).map(|slide| slide.id.clone()),
        })
    })
}

impl PageService {
    pub(crate) async fn slide_page(
        &self,
        profile: &SiteProfile,
        viewer: &Viewer,
        collection_slug: &str,
        slide_id: &str,
    ) -> Result<Option<PageView>, PageError> {
        let Some(collection) = self.collection_by_slug(collection_slug).await? else {
            return Ok(None);
        };
        let path = format!("/{collection_slug}/{SLIDES_SEGMENT}/{slide_id}");
        let lock = access::Lock::of(&collection, &profile.settings.member_areas);
        let decision = access::gate(&lock, viewer);
        if !decision.is_allowed() {
            return Ok(Some(self.locked_page(profile, viewer, decision, &path)));
        }
        let Some(found) = find_slide(&collection, slide_id) else {
            return Ok(None);
        };
        let name = found
            .slide
            .title
            .clone()
            .filter(|t| !t.trim().is_empty())
            .unwrap_or_else(|| format!("Picture {} of {}", found.position, found.count));
        let description = found
            .slide
            .caption
            .clone()
            .filter(|c| !c.trim().is_empty())
            .unwrap_or_else(|| found.slide.image.alt.clone());
        let page_path = self.canonical_path(profile, &collection);
        let context = PageContext::build(profile, viewer, PageType::Page, Some(&collection), None);
        Ok(Some(PageView {
            page_type: PageType::Page,
            path: slide_path(&page_path, slide_id),
            title: super::service::titled(&format!("{name} — {}", collection.title), profile),
            description,
            image: Some(found.slide.image.clone()),
            profile: profile.clone(),
            context,
            content: PageContent::Slide {
                collection,
                page_path,
                slide: Box::new(found),
            },
            resolved: Default::default(),
        }))
    }
}
