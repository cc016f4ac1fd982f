//! A repository under test bundled with what must outlive it (its temporary directory or its
//! schema), so that the conformance suite can take it as one value.

use std::sync::Arc;

use async_trait::async_trait;
use vitrine_core::ports::{ItemQuery, RepositoryError, SiteRepository};
use vitrine_core::site::{
    Collection, CollectionId, Item, ItemId, MediaFile, Site, SiteProfile, Slug,
};
use vitrine_sql::Database;

/// A migrated database, its repository, and `guard`, which is dropped last.
pub struct TestStore<Guard> {
    pub database: Database,
    pub repository: Arc<dyn SiteRepository>,
    pub guard: Guard,
}

impl<Guard> TestStore<Guard> {
    pub fn new(database: Database, guard: Guard) -> Self {
        Self {
            repository: database.repository(),
            database,
            guard,
        }
    }
}

// The suite takes `&dyn SiteRepository`; a `Deref` to the repository would not do, because
// the compiler tries to unsize `&TestStore` itself rather than dereference it first.
#[async_trait]
impl<Guard: Send + Sync> SiteRepository for TestStore<Guard> {
    async fn replace_site(&self, site: &Site) -> Result<(), RepositoryError> {
        self.repository.replace_site(site).await
    }

    async fn revision(&self) -> Result<u64, RepositoryError> {
        self.repository.revision().await
    }

    async fn is_empty(&self) -> Result<bool, RepositoryError> {
        self.repository.is_empty().await
    }

    async fn profile(&self) -> Result<Option<SiteProfile>, RepositoryError> {
        self.repository.profile().await
    }

    async fn collection_by_slug(&self, slug: &Slug) -> Result<Option<Collection>, RepositoryError> {
        self.repository.collection_by_slug(slug).await
    }

    async fn collection(&self, id: &CollectionId) -> Result<Option<Collection>, RepositoryError> {
        self.repository.collection(id).await
    }

    async fn collections(&self) -> Result<Vec<Collection>, RepositoryError> {
        self.repository.collections().await
    }

    async fn item_by_slug(
        &self,
        collection: &CollectionId,
        slug: &Slug,
    ) -> Result<Option<Item>, RepositoryError> {
        self.repository.item_by_slug(collection, slug).await
    }

    async fn item(&self, id: &ItemId) -> Result<Option<Item>, RepositoryError> {
        self.repository.item(id).await
    }

    async fn items(
        &self,
        collection: &CollectionId,
        query: ItemQuery,
    ) -> Result<Vec<Item>, RepositoryError> {
        self.repository.items(collection, query).await
    }

    async fn media(&self, path: &str) -> Result<Option<MediaFile>, RepositoryError> {
        self.repository.media(path).await
    }
}
