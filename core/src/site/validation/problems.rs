//! What a whole-site check reports: where in the site ([`SitePlace`]) and what is wrong
//! ([`SiteProblem`]).

use std::fmt;

use crate::catalog::{MAX_PRICE_CENTS, Sku};
use crate::site::{BlockId, CollectionId, ItemId, Slug};

/// One of the site-wide navigation menus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Menu {
    Main,
    Footer,
    Hidden,
}

impl Menu {
    pub fn name(self) -> &'static str {
        match self {
            Self::Main => "main",
            Self::Footer => "footer",
            Self::Hidden => super::super::HIDDEN_NAVIGATION,
        }
    }
}

/// Where in a site a problem lies, named with the site model's own field names so that a
/// producer (such as the bundle importer) can translate it back to its own source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SitePlace {
    /// A field of the website settings, such as `home_collection`.
    Settings(&'static str),
    /// The `href` of one navigation link.
    Navigation { menu: Menu, index: usize },
    /// A field of a collection, such as `slug` or `seo.image`.
    Collection { id: CollectionId, field: String },
    /// A field of an item, such as `product.variants[0].sku`.
    Item { id: ItemId, field: String },
    /// A field of a block, wherever the block is placed; empty for the block itself.
    Block { id: BlockId, field: String },
    /// A stored media file.
    Media { path: String },
}

impl fmt::Display for SitePlace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Settings(field) => write!(f, "settings.{field}"),
            Self::Navigation { menu, index } => {
                write!(f, "navigation.{}[{index}].href", menu.name())
            }
            Self::Collection { id, field } => write!(f, "collection '{id}'{}", spaced(field)),
            Self::Item { id, field } => write!(f, "item '{id}'{}", spaced(field)),
            Self::Block { id, field } => write!(f, "block '{id}'{}", spaced(field)),
            Self::Media { path } => write!(f, "media file '{path}'"),
        }
    }
}

/// A field name after a space, or nothing for the thing as a whole.
fn spaced(field: &str) -> String {
    if field.is_empty() {
        String::new()
    } else {
        format!(" {field}")
    }
}

/// What is wrong at a [`SitePlace`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SiteProblem {
    #[error("there is no enabled collection with id '{0}'")]
    UnknownCollection(CollectionId),
    #[error("collection '{0}' is a page, which lists no items")]
    NotAList(CollectionId),
    #[error("there is no published item with id '{0}'")]
    UnknownItem(ItemId),
    #[error("item '{0}' is not a product")]
    NotAProduct(ItemId),
    #[error("there is no member area with id '{0}'")]
    UnknownMemberArea(Slug),
    #[error("there is no media file '{0}'")]
    MissingMedia(String),
    #[error("media file '{0}' is not an .mp3, .ogg or .wav audio file")]
    NotAudio(String),
    #[error("image '{0}' has no width or height")]
    UnsizedMedia(String),
    #[error("'{0}' leads to no page or file of this site")]
    DanglingLink(String),
    #[error(
        "expected a site path starting with '/' or an http, https, mailto or tel URL, found '{0}'"
    )]
    MalformedLink(String),
    #[error("the collection id '{0}' is used twice")]
    DuplicateCollectionId(CollectionId),
    #[error("the slug '{0}' is used by two collections")]
    DuplicateCollectionSlug(Slug),
    #[error("the item id '{0}' is used twice")]
    DuplicateItemId(ItemId),
    #[error("the slug '{0}' is used by two items of the same collection")]
    DuplicateItemSlug(Slug),
    #[error("the block id '{0}' is used twice")]
    DuplicateBlockId(BlockId),
    #[error("the slide id '{0}' is used twice in one gallery")]
    DuplicateSlideId(String),
    #[error("the media path '{0}' is used by two files")]
    DuplicateMedia(String),
    #[error("a media path starts with /media/, found '{0}'")]
    MediaOutsidePrefix(String),
    #[error("SKU '{sku}' is already used by item '{first}'", sku = .sku.as_str())]
    DuplicateSku { sku: Sku, first: ItemId },
    #[error("an item of a products collection needs a product")]
    MissingProduct,
    #[error("only items of a products collection may be products")]
    ProductOutsideShop,
    #[error("a product needs at least one variant")]
    NoVariants,
    #[error("expected an integer number of cents from 0 to {MAX_PRICE_CENTS}, found {0}")]
    PriceOutOfRange(i64),
    #[error("the collection holds {count} items; at most {max} are allowed")]
    TooManyItems { count: usize, max: usize },
    #[error("'{value}' is longer than {max} characters")]
    TooLong { value: String, max: usize },
}

/// A broken rule of a site: where, and what.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{place}: {problem}")]
pub struct SiteError {
    pub place: SitePlace,
    pub problem: SiteProblem,
}
