//! Published pages (`core/src/pages`): pages by URL and the page cache in front of them, the
//! search page, the lock screen's password form, site media (with the media only locked content shows), and what crawlers and
//! browsers ask for unprompted (`sitemap.xml`, `robots.txt`, the favicon), and blogs' RSS feeds.

pub(crate) mod cache;
pub(crate) mod delivery;
pub(crate) mod experiments;
pub(crate) mod favicon;
pub(crate) mod feed;
pub(crate) mod image_variants;
pub(crate) mod locked_media;
pub(crate) mod media;
pub(crate) mod media_variant;
pub(crate) mod page_password;
pub(crate) mod published;
pub(crate) mod search_page;
pub(crate) mod seo;
pub(crate) mod shortcut;
