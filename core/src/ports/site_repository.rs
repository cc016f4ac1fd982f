//! The site repository port: where published content is stored and read from.

use async_trait::async_trait;

use crate::site::{Collection, CollectionId, Item, ItemId, MediaFile, Site, SiteProfile, Slug};

/// A failure of the storage behind a port. The message is for logs, never for visitors.
#[derive(Debug, thiserror::Error)]
pub enum RepositoryError {
    #[error("the store is unavailable: {0}")]
    Unavailable(String),
    #[error("stored data is unreadable ({what}): {reason}")]
    Corrupt { what: String, reason: String },
    /// The store refused a write that breaks one of its rules (two items with the same id,
    /// an item in a collection that does not exist); nothing was written.
    #[error("the store refused the data: {0}")]
    Rejected(String),
}

/// Which published items of a collection to list, in position order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ItemQuery {
    pub limit: u32,
    pub offset: u32,
}

impl ItemQuery {
    pub fn first(limit: u32) -> Self {
        Self { limit, offset: 0 }
    }
}

/// Stored site content. Reads return only what visitors may see unless stated otherwise.
#[async_trait]
pub trait SiteRepository: Send + Sync {
    /// Replaces the whole site in one transaction: on error nothing has changed.
    async fn replace_site(&self, site: &Site) -> Result<(), RepositoryError>;

    /// A number that changes whenever the stored site is replaced, by this process or another
    /// one sharing the database; 0 before the first import. Caches of rendered pages compare it
    /// to know when they are stale.
    async fn revision(&self) -> Result<u64, RepositoryError>;

    /// True when no site has been imported yet.
    async fn is_empty(&self) -> Result<bool, RepositoryError>;

    async fn profile(&self) -> Result<Option<SiteProfile>, RepositoryError>;

    /// An enabled collection by its URL slug.
    async fn collection_by_slug(&self, slug: &Slug) -> Result<Option<Collection>, RepositoryError>;

    async fn collection(&self, id: &CollectionId) -> Result<Option<Collection>, RepositoryError>;

    /// Every enabled collection, in the order they were imported.
    async fn collections(&self) -> Result<Vec<Collection>, RepositoryError>;

    /// A published item of a collection by its URL slug.
    async fn item_by_slug(
        &self,
        collection: &CollectionId,
        slug: &Slug,
    ) -> Result<Option<Item>, RepositoryError>;

    /// A published item by id.
    async fn item(&self, id: &ItemId) -> Result<Option<Item>, RepositoryError>;

    /// Published items of a collection, by position, then newest first.
    async fn items(
        &self,
        collection: &CollectionId,
        query: ItemQuery,
    ) -> Result<Vec<Item>, RepositoryError>;

    /// A media file by its site path (`/media/...`).
    async fn media(&self, path: &str) -> Result<Option<MediaFile>, RepositoryError>;
}
