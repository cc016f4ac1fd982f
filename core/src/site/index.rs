//! Lookups over one [`Site`] and the resolution of the links its content holds.

use std::collections::{BTreeMap, BTreeSet};

use crate::site::{Collection, CollectionId, Item, ItemId, MEDIA_PREFIX, Site, Slug};

/// Why a link does not lead anywhere on the site.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LinkProblem {
    /// Neither a site path nor a URL of an accepted scheme.
    Malformed,
    /// A site path that names no enabled page, published item or media file.
    Dangling,
}

/// Pages the runtime serves on every site, which links in a site may lead to.
const RUNTIME_PAGES: [&str; 5] = [
    "/search",
    "/cart",
    crate::people::SIGN_IN_PATH,
    crate::people::ACCOUNT_PAGE_PATH,
    crate::people::MEMBER_ACCESS_PATH,
];

/// What a site contains, indexed the way visitors reach it: collections and items by id and
/// by slug, and media by path.
pub(crate) struct SiteIndex<'a> {
    collections: BTreeMap<&'a CollectionId, &'a Collection>,
    enabled_slugs: BTreeMap<&'a Slug, &'a Collection>,
    items: BTreeMap<&'a ItemId, &'a Item>,
    published_slugs: BTreeSet<(&'a CollectionId, &'a Slug)>,
    media: BTreeSet<&'a str>,
}

impl<'a> SiteIndex<'a> {
    pub(crate) fn new(site: &'a Site) -> Self {
        let mut collections = BTreeMap::new();
        let mut enabled_slugs = BTreeMap::new();
        for collection in &site.collections {
            collections.entry(&collection.id).or_insert(collection);
            if collection.enabled {
                enabled_slugs.entry(&collection.slug).or_insert(collection);
            }
        }
        let mut items = BTreeMap::new();
        let mut published_slugs = BTreeSet::new();
        for item in &site.items {
            items.entry(&item.id).or_insert(item);
            if item.is_public() {
                published_slugs.insert((&item.collection_id, &item.slug));
            }
        }
        Self {
            collections,
            enabled_slugs,
            items,
            published_slugs,
            media: site.media.iter().map(|file| file.path.as_str()).collect(),
        }
    }

    /// An enabled collection: one whose page exists.
    pub(crate) fn collection(&self, id: &CollectionId) -> Option<&'a Collection> {
        self.any_collection(id)
            .filter(|collection| collection.enabled)
    }

    /// A collection, enabled or not.
    pub(crate) fn any_collection(&self, id: &CollectionId) -> Option<&'a Collection> {
        self.collections.get(id).copied()
    }

    /// A published item.
    pub(crate) fn item(&self, id: &ItemId) -> Option<&'a Item> {
        self.items.get(id).copied().filter(|item| item.is_public())
    }

    pub(crate) fn has_media(&self, path: &str) -> bool {
        self.media.contains(path)
    }

    /// Accepts absolute http(s), mailto and tel URLs, in-page anchors, and site paths that
    /// lead to the home page, an enabled collection, a published item, a media file or one of
    /// the pages every Vitrine site has (search, cart).
    pub(crate) fn check_link(&self, href: &str) -> Result<(), LinkProblem> {
        const SCHEMES: [&str; 4] = ["https://", "http://", "mailto:", "tel:"];
        if let Some(scheme) = SCHEMES.iter().find(|scheme| href.starts_with(**scheme)) {
            let rest = &href[scheme.len()..];
            return if rest.is_empty() || rest.chars().any(char::is_whitespace) {
                Err(LinkProblem::Malformed)
            } else {
                Ok(())
            };
        }
        if href.starts_with('#') && href.len() > 1 {
            return Ok(());
        }
        if !href.starts_with('/') || href.starts_with("//") {
            return Err(LinkProblem::Malformed);
        }
        // The query and the fragment do not choose the page.
        let path = href.split(['?', '#']).next().unwrap_or_default();
        if path.starts_with(MEDIA_PREFIX) {
            return if self.has_media(path) {
                Ok(())
            } else {
                Err(LinkProblem::Dangling)
            };
        }
        if RUNTIME_PAGES.contains(&path) {
            return Ok(());
        }
        let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
        let found = match segments.as_slice() {
            [] => true,
            [collection] => self.collection_by_slug(collection).is_some(),
            [collection, item] => self.collection_by_slug(collection).is_some_and(|found| {
                found.lists_items()
                    && Slug::parse(*item)
                        .is_ok_and(|slug| self.published_slugs.contains(&(&found.id, &slug)))
            }),
            _ => false,
        };
        if found {
            Ok(())
        } else {
            Err(LinkProblem::Dangling)
        }
    }

    fn collection_by_slug(&self, slug: &str) -> Option<&'a Collection> {
        let slug = Slug::parse(slug).ok()?;
        self.enabled_slugs.get(&slug).copied()
    }
}
