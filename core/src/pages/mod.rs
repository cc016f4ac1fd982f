//! Published pages: resolving a URL path to what a visitor sees, with its page context.

pub mod access;
mod context;
mod feed;
mod localized;
mod published_images;
mod service;
mod slide_page;
pub mod unlock;

pub use context::*;
pub use feed::{FEED_ENTRIES, FEED_QUERY, Feed, FeedEntry, feed_path};
pub use published_images::published_images;
pub use service::{
    PageContent, PageError, PageService, PageView, ResolvedBlocks, ResolvedProduct,
    SitemapAlternate, SitemapEntry, SummaryContent,
};
pub use slide_page::{SLIDES_SEGMENT, SlideInGallery, find_slide, slide_path};

#[cfg(test)]
mod tests;
