//! Collections (pages, blogs, shops) and the items they hold.

use serde::{Deserialize, Serialize};

use crate::catalog::Product;
use crate::enums::{CollectionType, ItemStatus, ItemType};
use crate::site::{Body, CollectionId, ItemId, MediaRef, SafeHtml, Slug};

/// Who may see a collection. The spec attaches a numeric permission type to tracking but does
/// not list its values; these three are the ones a visitor can meet (see ARCHITECTURE.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PermissionType {
    #[default]
    Public,
    PasswordProtected,
    MembersOnly,
}

impl PermissionType {
    pub fn code(self) -> u8 {
        match self {
            Self::Public => 1,
            Self::PasswordProtected => 2,
            Self::MembersOnly => 3,
        }
    }
}

/// Search-engine and sharing metadata a page may override.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Seo {
    pub title: Option<String>,
    pub description: Option<String>,
    pub image: Option<MediaRef>,
}

/// A navigable collection: a layout page, a blog, a shop.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Collection {
    pub id: CollectionId,
    pub collection_type: CollectionType,
    pub title: String,
    pub slug: Slug,
    pub description: String,
    pub permission_type: PermissionType,
    /// The page's blocks; for blogs and shops, the blocks above the item list.
    pub body: Body,
    pub seo: Seo,
    /// Whether it is reachable by URL and listed in the sitemap.
    pub enabled: bool,
}

impl Collection {
    /// Blogs, shops and other item lists; everything else is a single layout page.
    pub fn lists_items(&self) -> bool {
        !matches!(self.collection_type, CollectionType::Page)
    }

    pub fn path(&self) -> String {
        format!("/{}", self.slug)
    }
}

/// A content item (a blog post, a product) inside a collection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Item {
    pub id: ItemId,
    pub collection_id: CollectionId,
    pub slug: Slug,
    pub title: String,
    pub record_type: ItemType,
    pub status: ItemStatus,
    /// Publication time in milliseconds since the Unix epoch.
    pub published_on: i64,
    /// Lower positions list first.
    pub position: u32,
    pub excerpt: SafeHtml,
    pub body: Body,
    pub author: Option<String>,
    pub tags: Vec<String>,
    pub categories: Vec<String>,
    pub image: Option<MediaRef>,
    pub seo: Seo,
    pub product: Option<Product>,
}

impl Item {
    /// Only published items reach visitors.
    pub fn is_public(&self) -> bool {
        self.status == ItemStatus::Published
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permission_codes_are_stable() {
        let codes: Vec<u8> = [
            PermissionType::Public,
            PermissionType::PasswordProtected,
            PermissionType::MembersOnly,
        ]
        .into_iter()
        .map(PermissionType::code)
        .collect();
        assert_eq!(codes, [1, 2, 3]);
    }
}
