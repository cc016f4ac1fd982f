//! From parsed bundle files to a [`Site`]: ids are derived, references resolved, and each
//! DTO converted explicitly into the core's types, with every error placed in its file.

mod blocks;
mod body;
mod experiments;
mod items;
mod member_areas;
mod origins;
mod page_blocks;
mod page_passwords;
mod settings;
mod store_rules;
mod text_effect;
mod translations;
mod widgets;

use std::collections::BTreeMap;

use crate::bundle::dto::{CollectionFile, CollectionTypeDto, ImageDto, ItemFile, SiteFile};
use crate::bundle::error::At;
use crate::bundle::files::{ItemFormat, ItemSource, SITE_FILE, Sources, front_matter, utf8};
use crate::bundle::media::{MediaFacts, MediaLibrary};
use crate::bundle::text::derived_id;
use crate::bundle::{BundleError, BundleFiles};
use crate::site::{CollectionId, ItemId, MediaRef, Site, Slug};

use origins::Origins;

/// Parses and validates a whole bundle. Nothing is returned unless every file is valid and
/// every reference resolves.
pub(crate) fn parse(files: &BundleFiles) -> Result<Site, BundleError> {
    let sources = Sources::classify(files)?;
    let site_bytes = sources.site.ok_or_else(|| {
        BundleError::file(
            SITE_FILE,
            "missing; every bundle needs a site.toml at its root",
        )
    })?;
    let mut site_file: SiteFile = At::root(SITE_FILE).parse_toml(utf8(SITE_FILE, site_bytes)?)?;
    let member_areas = std::mem::take(&mut site_file.member_areas);
    let experiments = std::mem::take(&mut site_file.experiments);
    let member_area_links = std::mem::take(&mut site_file.navigation.member_areas);
    let media = MediaLibrary::read(&sources.media)?;
    let drafts = read_drafts(&sources)?;
    let mut converter = Converter::new(&drafts, &media)?;
    let language_name = site_file.settings.language_name.clone();
    let provider = site_file.settings.translation_provider.clone();
    let (website, mut settings, mut navigation) = converter.site_profile(site_file)?;
    let mut collections = Vec::new();
    let mut items = Vec::new();
    let mut passwords = Vec::new();
    for mut draft in drafts {
        let password = draft.collection.dto.password.take();
        let password_at = At::root(draft.collection.file).field("password");
        let collection = converter.collection(&draft.slug, draft.collection)?;
        passwords.extend(page_passwords::check(password_at, &collection, password)?);
        collections.push(collection);
        for item in draft.items {
            items.push(converter.item(&draft.slug, draft.kind, item)?);
        }
    }
    settings.languages = translations::read(
        &sources.translations,
        &settings.locale,
        language_name,
        provider,
        &collections,
    )?;
    settings.member_areas = converter.member_areas(member_areas, &collections, &items)?;
    navigation.member_areas =
        member_areas::member_area_links(member_area_links, &settings.member_areas, &collections)?;
    settings.page_passwords = page_passwords::hash(files, passwords)?;
    // After the collections, so every block a variant changes is known.
    settings.experiments = converter.experiments(experiments)?;
    let site = Site {
        website,
        settings,
        navigation,
        collections,
        items,
        media: media.files,
    };
    site.validate()
        .map_err(|error| converter.origins.locate(error))?;
    Ok(site)
}

/// A collection file read and parsed, with the items in its folder.
pub(crate) struct CollectionDraft<'a> {
    pub slug: Slug,
    pub kind: CollectionTypeDto,
    pub collection: Parsed<'a, CollectionFile>,
    pub items: Vec<ItemDraft<'a>>,
}

/// A parsed file and where it came from.
pub(crate) struct Parsed<'a, T> {
    pub file: &'a str,
    pub dto: T,
}

/// An item file read and parsed; `body` is the Markdown after the front matter, if any.
pub(crate) struct ItemDraft<'a> {
    pub slug: Slug,
    pub item: Parsed<'a, ItemFile>,
    pub body: Option<String>,
}

fn read_drafts<'a>(sources: &Sources<'a>) -> Result<Vec<CollectionDraft<'a>>, BundleError> {
    if let Some((name, items)) = sources
        .items
        .iter()
        .find(|(name, _)| !sources.collections.contains_key(*name))
    {
        return Err(BundleError::file(
            items[0].file,
            format!("an item needs its collection file collections/{name}.toml"),
        ));
    }
    let mut drafts = Vec::new();
    for (name, (file, bytes)) in &sources.collections {
        let slug = file_slug(file, name)?;
        let dto: CollectionFile = At::root(file).parse_toml(utf8(file, bytes)?)?;
        let mut items = Vec::new();
        for source in sources.items.get(name).into_iter().flatten() {
            if !dto.collection_type.lists_items() {
                return Err(BundleError::file(
                    source.file,
                    format!(
                        "collection '{name}' is a page, which holds no items; \
                         use type = \"generic\" or \"products\" to list items"
                    ),
                ));
            }
            items.push(read_item(source)?);
        }
        drafts.push(CollectionDraft {
            slug,
            kind: dto.collection_type,
            collection: Parsed { file, dto },
            items,
        });
    }
    Ok(drafts)
}

fn read_item<'a>(source: &ItemSource<'a>) -> Result<ItemDraft<'a>, BundleError> {
    let slug = file_slug(source.file, source.name)?;
    let text = utf8(source.file, source.bytes)?;
    let at = At::root(source.file);
    let (dto, body) = match source.format {
        ItemFormat::Toml => (at.parse_toml(text)?, None),
        ItemFormat::Markdown => {
            let (front, body) = front_matter(source.file, text)?;
            (at.parse_toml(&front)?, Some(body))
        }
    };
    Ok(ItemDraft {
        slug,
        item: Parsed {
            file: source.file,
            dto,
        },
        body,
    })
}

/// A collection's or an item's slug is its file name.
fn file_slug(file: &str, name: &str) -> Result<Slug, BundleError> {
    Slug::parse(name).map_err(|_| {
        BundleError::file(
            file,
            format!(
                "the file name '{name}' is not a valid slug; expected at most {} lowercase \
                 letters, digits and '-'",
                Slug::MAX_LEN
            ),
        )
    })
}

/// What content may refer to: collections and items by slug, media by path.
struct Known {
    collections: BTreeMap<Slug, (CollectionId, CollectionTypeDto)>,
    /// (collection slug, item slug) -> (id, is a product).
    items: BTreeMap<(Slug, Slug), (ItemId, bool)>,
    media: BTreeMap<String, MediaFacts>,
}

/// Turns drafts into core values, knowing every id in advance.
pub(crate) struct Converter {
    known: Known,
    origins: Origins,
    /// How many SKUs have been generated (`SQ` + 7 digits) for variants that name none, in
    /// file order, so an import always generates the same ones.
    generated_skus: std::cell::Cell<u32>,
}

impl Converter {
    fn new(drafts: &[CollectionDraft<'_>], media: &MediaLibrary) -> Result<Self, BundleError> {
        let mut known = Known {
            collections: BTreeMap::new(),
            items: BTreeMap::new(),
            media: media.facts.clone(),
        };
        let mut origins = Origins::default();
        for draft in drafts {
            let file = draft.collection.file;
            let id = chosen_id(
                At::root(file).field("id"),
                draft.collection.dto.id.as_deref(),
                draft.slug.as_str(),
            )?;
            origins.add_collection(&id, file)?;
            known
                .collections
                .insert(draft.slug.clone(), (id.clone(), draft.kind));
            for item in &draft.items {
                let default = derived_id(&[id.as_str(), item.slug.as_str()], ItemId::MAX_LEN);
                let item_id = chosen_id(
                    At::root(item.item.file).field("id"),
                    item.item.dto.id.as_deref(),
                    &default,
                )?;
                origins.add_item(&item_id, item.item.file)?;
                let is_product = item.item.dto.product.is_some();
                known.items.insert(
                    (draft.slug.clone(), item.slug.clone()),
                    (item_id, is_product),
                );
            }
        }
        Ok(Self {
            known,
            origins,
            generated_skus: std::cell::Cell::new(0),
        })
    }

    /// A media reference, sized from its file.
    fn image(&self, dto: &ImageDto, at: &At) -> Result<MediaRef, BundleError> {
        let Some(facts) = self.known.media.get(&dto.src) else {
            return Err(at.field("src").error(format!(
                "expected /media/<file> naming a file in the bundle's media folder, found '{}'",
                dto.src
            )));
        };
        Ok(MediaRef {
            path: dto.src.clone(),
            alt: dto.alt.clone(),
            width: facts.width,
            height: facts.height,
            version: Some(facts.version.clone()),
        })
    }

    fn optional_image(
        &self,
        dto: &Option<ImageDto>,
        at: &At,
    ) -> Result<Option<MediaRef>, BundleError> {
        dto.as_ref().map(|image| self.image(image, at)).transpose()
    }
}

/// An explicit id, checked, or the derived default.
fn chosen_id<T>(at: At, explicit: Option<&str>, default: &str) -> Result<T, BundleError>
where
    T: TryFrom<String, Error = crate::site::IdError>,
{
    let value = explicit.unwrap_or(default).to_owned();
    T::try_from(value.clone()).map_err(|error| {
        at.error(format!(
            "expected an id of at most 64 letters, digits, '-' and '_', found '{value}' ({error})"
        ))
    })
}

/// A text field that must say something.
fn non_empty(at: &At, value: &str) -> Result<(), BundleError> {
    if value.trim().is_empty() {
        Err(at.error("expected a non-empty text"))
    } else {
        Ok(())
    }
}
