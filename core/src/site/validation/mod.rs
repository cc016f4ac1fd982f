//! Whole-site rules: every reference inside a [`Site`] resolves and what must be unique is.
//!
//! Some rules cannot be seen from one value alone ("a SKU is unique per site", "a summary
//! block lists an existing blog"), so a site is checked as a whole before it is stored. The
//! bundle importer runs these checks; any other producer of a [`Site`] should too.

mod problems;

use std::collections::{BTreeMap, BTreeSet};

use crate::catalog::{MAX_PRICE_CENTS, Sku};
use crate::enums::CollectionType;
use crate::site::index::{LinkProblem, SiteIndex};
use crate::site::{Block, BlockContent, BlockId, Body, CollectionId, Item, ItemId, MediaRef, Site};

pub use problems::{Menu, SiteError, SitePlace, SiteProblem};

/// At most this many items in one user-orderable collection (spec 001 s9).
pub const MAX_ITEMS_PER_COLLECTION: usize = 250;
/// At most this many products in one collection (spec 001 s9).
pub const MAX_PRODUCTS_PER_COLLECTION: usize = 200;
/// The longest tag (spec 001 s9).
pub const MAX_TAG_LEN: usize = 50;
/// The longest category (spec 001 s9).
pub const MAX_CATEGORY_LEN: usize = 25;

impl Site {
    /// Checks the whole-site rules and reports the first broken one.
    pub fn validate(&self) -> Result<(), SiteError> {
        match self.problems().into_iter().next() {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }

    /// Every broken whole-site rule, in a stable order: settings, navigation, collections,
    /// items, media.
    pub fn problems(&self) -> Vec<SiteError> {
        let mut check = Check {
            site: self,
            index: SiteIndex::new(self),
            block_ids: BTreeSet::new(),
            problems: Vec::new(),
        };
        check.settings();
        check.navigation();
        check.collections();
        check.items();
        check.media();
        check.problems
    }
}

struct Check<'a> {
    site: &'a Site,
    index: SiteIndex<'a>,
    block_ids: BTreeSet<&'a BlockId>,
    problems: Vec<SiteError>,
}

impl<'a> Check<'a> {
    fn report(&mut self, place: SitePlace, problem: SiteProblem) {
        self.problems.push(SiteError { place, problem });
    }

    fn settings(&mut self) {
        let settings = &self.site.settings;
        if self.index.collection(&settings.home_collection).is_none() {
            let problem = SiteProblem::UnknownCollection(settings.home_collection.clone());
            self.report(SitePlace::Settings("home_collection"), problem);
        }
        for (field, image) in [
            ("logo", &settings.logo),
            ("social_image", &settings.social_image),
        ] {
            if let Some(problem) = image.as_ref().and_then(|image| self.media_problem(image)) {
                self.report(SitePlace::Settings(field), problem);
            }
        }
    }

    fn navigation(&mut self) {
        let navigation = &self.site.navigation;
        let menus = [
            (Menu::Main, &navigation.main),
            (Menu::Footer, &navigation.footer),
            (Menu::Hidden, &navigation.hidden),
        ];
        for (menu, links) in menus {
            for (index, link) in links.iter().enumerate() {
                if let Some(problem) = self.link_problem(&link.href) {
                    self.report(SitePlace::Navigation { menu, index }, problem);
                }
            }
        }
    }

    fn collections(&mut self) {
        let mut ids = BTreeSet::new();
        let mut slugs = BTreeSet::new();
        for collection in &self.site.collections {
            let at = |field: &str| SitePlace::Collection {
                id: collection.id.clone(),
                field: field.to_owned(),
            };
            if !ids.insert(&collection.id) {
                let problem = SiteProblem::DuplicateCollectionId(collection.id.clone());
                self.report(at("id"), problem);
            }
            if !slugs.insert(&collection.slug) {
                let problem = SiteProblem::DuplicateCollectionSlug(collection.slug.clone());
                self.report(at("slug"), problem);
            }
            if let Some(problem) = collection
                .seo
                .image
                .as_ref()
                .and_then(|i| self.media_problem(i))
            {
                self.report(at("seo.image"), problem);
            }
            self.body(&collection.body);
        }
    }

    fn items(&mut self) {
        let mut ids = BTreeSet::new();
        let mut slugs = BTreeSet::new();
        let mut skus: BTreeMap<&Sku, &ItemId> = BTreeMap::new();
        let mut counts: BTreeMap<&CollectionId, (usize, usize)> = BTreeMap::new();
        for item in &self.site.items {
            let at = |field: &str| SitePlace::Item {
                id: item.id.clone(),
                field: field.to_owned(),
            };
            if !ids.insert(&item.id) {
                self.report(at("id"), SiteProblem::DuplicateItemId(item.id.clone()));
            }
            if !slugs.insert((&item.collection_id, &item.slug)) {
                self.report(
                    at("slug"),
                    SiteProblem::DuplicateItemSlug(item.slug.clone()),
                );
            }
            let count = counts.entry(&item.collection_id).or_default();
            count.0 += 1;
            count.1 += usize::from(item.product.is_some());
            self.item_collection(item);
            self.product(item, &mut skus);
            for (field, image) in [("image", &item.image), ("seo.image", &item.seo.image)] {
                if let Some(problem) = image.as_ref().and_then(|i| self.media_problem(i)) {
                    self.report(at(field), problem);
                }
            }
            self.labels(item, "tags", &item.tags, MAX_TAG_LEN);
            self.labels(item, "categories", &item.categories, MAX_CATEGORY_LEN);
            self.body(&item.body);
        }
        for (collection, (items, products)) in counts {
            for (count, max) in [
                (items, MAX_ITEMS_PER_COLLECTION),
                (products, MAX_PRODUCTS_PER_COLLECTION),
            ] {
                if count > max {
                    let place = SitePlace::Collection {
                        id: collection.clone(),
                        field: String::new(),
                    };
                    self.report(place, SiteProblem::TooManyItems { count, max });
                }
            }
        }
    }

    /// The item's collection exists, lists items, and holds products exactly when it is a
    /// products collection.
    fn item_collection(&mut self, item: &Item) {
        let at = |field: &str| SitePlace::Item {
            id: item.id.clone(),
            field: field.to_owned(),
        };
        let Some(collection) = self.index.any_collection(&item.collection_id) else {
            let problem = SiteProblem::UnknownCollection(item.collection_id.clone());
            self.report(at("collection_id"), problem);
            return;
        };
        if !collection.lists_items() {
            let problem = SiteProblem::NotAList(collection.id.clone());
            self.report(at("collection_id"), problem);
            return;
        }
        let is_shop = collection.collection_type == CollectionType::Products;
        match (is_shop, item.product.is_some()) {
            (true, false) => self.report(at("product"), SiteProblem::MissingProduct),
            (false, true) => self.report(at("product"), SiteProblem::ProductOutsideShop),
            _ => {}
        }
    }

    fn product(&mut self, item: &'a Item, skus: &mut BTreeMap<&'a Sku, &'a ItemId>) {
        let Some(product) = &item.product else {
            return;
        };
        let at = |field: String| SitePlace::Item {
            id: item.id.clone(),
            field,
        };
        if product.variants.is_empty() {
            self.report(at("product.variants".into()), SiteProblem::NoVariants);
        }
        for (index, variant) in product.variants.iter().enumerate() {
            let field = |name: &str| format!("product.variants[{index}].{name}");
            for (name, price) in [("price", variant.price), ("sale_price", variant.sale_price)] {
                if !(0..=MAX_PRICE_CENTS).contains(&price) {
                    self.report(at(field(name)), SiteProblem::PriceOutOfRange(price));
                }
            }
            if let Some(first) = skus.insert(&variant.sku, &item.id) {
                // Keep the first owner so that every later duplicate names the same item.
                skus.insert(&variant.sku, first);
                let problem = SiteProblem::DuplicateSku {
                    sku: variant.sku.clone(),
                    first: first.clone(),
                };
                self.report(at(field("sku")), problem);
            }
        }
    }

    fn labels(&mut self, item: &Item, field: &str, labels: &[String], max: usize) {
        for (index, label) in labels.iter().enumerate() {
            if label.chars().count() > max {
                let place = SitePlace::Item {
                    id: item.id.clone(),
                    field: format!("{field}[{index}]"),
                };
                let problem = SiteProblem::TooLong {
                    value: label.clone(),
                    max,
                };
                self.report(place, problem);
            }
        }
    }

    fn body(&mut self, body: &'a Body) {
        for block in body.layout.blocks() {
            if !self.block_ids.insert(&block.id) {
                let place = SitePlace::Block {
                    id: block.id.clone(),
                    field: String::new(),
                };
                self.report(place, SiteProblem::DuplicateBlockId(block.id.clone()));
            }
            for (field, problem) in self.block_problems(block) {
                let place = SitePlace::Block {
                    id: block.id.clone(),
                    field,
                };
                self.report(place, problem);
            }
        }
    }

    /// The broken references of one block, by field.
    fn block_problems(&self, block: &Block) -> Vec<(String, SiteProblem)> {
        let mut problems = Vec::new();
        let mut media = |field: String, image: &MediaRef| {
            if let Some(problem) = self.media_problem(image) {
                problems.push((field, problem));
            }
        };
        match &block.content {
            BlockContent::Image { image, .. } => media("image".into(), image),
            BlockContent::Video {
                thumbnail: Some(thumbnail),
                ..
            } => media("thumbnail".into(), thumbnail),
            BlockContent::Gallery { slides, .. } => {
                for (index, slide) in slides.iter().enumerate() {
                    media(format!("slides[{index}].image"), &slide.image);
                }
            }
            _ => {}
        }
        match &block.content {
            BlockContent::Image {
                link: Some(link), ..
            } => self.push_link(&mut problems, "link".into(), link),
            BlockContent::Button { href, .. } => {
                self.push_link(&mut problems, "href".into(), href);
            }
            BlockContent::SocialLinks { links } => {
                for (index, link) in links.iter().enumerate() {
                    self.push_link(&mut problems, format!("links[{index}].url"), &link.url);
                }
            }
            BlockContent::Gallery { slides, .. } => {
                let mut seen = BTreeSet::new();
                for (index, slide) in slides.iter().enumerate() {
                    if !seen.insert(slide.id.as_str()) {
                        let problem = SiteProblem::DuplicateSlideId(slide.id.clone());
                        problems.push((format!("slides[{index}].id"), problem));
                    }
                }
            }
            BlockContent::Summary { collection, .. } => {
                self.push_listing(&mut problems, collection);
            }
            BlockContent::MemberArea { area } => {
                let known = self
                    .site
                    .settings
                    .member_areas
                    .iter()
                    .any(|a| &a.id == area);
                if !known {
                    problems.push(("area".into(), SiteProblem::UnknownMemberArea(area.clone())));
                }
            }
            BlockContent::Calendar(calendar) => {
                self.push_listing(&mut problems, &calendar.collection);
            }
            BlockContent::Audio(audio) => {
                for (index, track) in audio.tracks.iter().enumerate() {
                    if let Some(problem) = self.audio_problem(&track.file) {
                        problems.push((format!("tracks[{index}].file"), problem));
                    }
                }
            }
            BlockContent::Embed(embed) if embed.url.starts_with('/') => {
                self.push_link(&mut problems, "url".into(), &embed.url);
            }
            BlockContent::Product { item } => match self.index.item(item) {
                None => problems.push(("item".into(), SiteProblem::UnknownItem(item.clone()))),
                Some(found) if found.product.is_none() => {
                    problems.push(("item".into(), SiteProblem::NotAProduct(item.clone())));
                }
                Some(_) => {}
            },
            _ => {}
        }
        problems
    }

    /// A block's `collection` must exist and list items.
    fn push_listing(&self, problems: &mut Vec<(String, SiteProblem)>, collection: &CollectionId) {
        match self.index.collection(collection) {
            None => problems.push((
                "collection".into(),
                SiteProblem::UnknownCollection(collection.clone()),
            )),
            Some(found) if !found.lists_items() => problems.push((
                "collection".into(),
                SiteProblem::NotAList(collection.clone()),
            )),
            Some(_) => {}
        }
    }

    /// An audio block's track must be a stored audio file: the page plays it from here.
    fn audio_problem(&self, path: &str) -> Option<SiteProblem> {
        match self.site.media.iter().find(|file| file.path == path) {
            None => Some(SiteProblem::MissingMedia(path.to_owned())),
            Some(file) if !file.content_type.starts_with("audio/") => {
                Some(SiteProblem::NotAudio(path.to_owned()))
            }
            Some(_) => None,
        }
    }

    fn push_link(&self, problems: &mut Vec<(String, SiteProblem)>, field: String, href: &str) {
        if let Some(problem) = self.link_problem(href) {
            problems.push((field, problem));
        }
    }

    fn link_problem(&self, href: &str) -> Option<SiteProblem> {
        match self.index.check_link(href) {
            Ok(()) => None,
            Err(LinkProblem::Malformed) => Some(SiteProblem::MalformedLink(href.to_owned())),
            Err(LinkProblem::Dangling) => Some(SiteProblem::DanglingLink(href.to_owned())),
        }
    }

    fn media_problem(&self, image: &MediaRef) -> Option<SiteProblem> {
        if !self.index.has_media(&image.path) {
            Some(SiteProblem::MissingMedia(image.path.clone()))
        } else if image.width == 0 || image.height == 0 {
            Some(SiteProblem::UnsizedMedia(image.path.clone()))
        } else {
            None
        }
    }

    fn media(&mut self) {
        let mut seen = BTreeSet::new();
        for file in &self.site.media {
            let at = || SitePlace::Media {
                path: file.path.clone(),
            };
            if !file.path.starts_with(crate::site::MEDIA_PREFIX) {
                self.report(at(), SiteProblem::MediaOutsidePrefix(file.path.clone()));
            }
            if !seen.insert(file.path.as_str()) {
                self.report(at(), SiteProblem::DuplicateMedia(file.path.clone()));
            }
        }
    }
}

#[cfg(test)]
mod tests;
