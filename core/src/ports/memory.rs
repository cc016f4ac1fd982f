//! In-memory implementations of the ports, for tests and for services run without a database.

use std::sync::RwLock;
use std::sync::atomic::{AtomicU64, Ordering};

use async_trait::async_trait;

use crate::ports::{ItemQuery, RepositoryError, SiteRepository};
use crate::site::{Collection, CollectionId, Item, ItemId, MediaFile, Site, SiteProfile, Slug};

/// A [`SiteRepository`] holding one site in memory.
#[derive(Debug, Default)]
pub struct MemorySiteRepository {
    site: RwLock<Option<Site>>,
    revision: AtomicU64,
}

impl MemorySiteRepository {
    pub fn new() -> Self {
        Self::default()
    }

    fn read<T>(&self, f: impl FnOnce(&Site) -> T) -> Result<Option<T>, RepositoryError> {
        let guard = self
            .site
            .read()
            .map_err(|_| RepositoryError::Unavailable("a writer panicked".into()))?;
        Ok(guard.as_ref().map(f))
    }
}

#[async_trait]
impl SiteRepository for MemorySiteRepository {
    async fn replace_site(&self, site: &Site) -> Result<(), RepositoryError> {
        let mut guard = self
            .site
            .write()
            .map_err(|_| RepositoryError::Unavailable("a writer panicked".into()))?;
        *guard = Some(site.clone());
        self.revision.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }

    async fn revision(&self) -> Result<u64, RepositoryError> {
        Ok(self.revision.load(Ordering::SeqCst))
    }

    async fn is_empty(&self) -> Result<bool, RepositoryError> {
        Ok(self.read(|_| ())?.is_none())
    }

    async fn profile(&self) -> Result<Option<SiteProfile>, RepositoryError> {
        self.read(|site| SiteProfile {
            website: site.website.clone(),
            settings: site.settings.clone(),
            navigation: site.navigation.clone(),
            header_footer: crate::header_footer::HeaderFooter::from_footer_text(
                &site.settings.footer_text,
            ),
            languages: crate::languages::SiteLanguages::of(
                &site.settings.locale,
                &site.settings.languages,
            ),
        })
    }

    async fn collection_by_slug(&self, slug: &Slug) -> Result<Option<Collection>, RepositoryError> {
        Ok(self
            .read(|site| {
                site.collections
                    .iter()
                    .find(|c| c.enabled && &c.slug == slug)
                    .cloned()
            })?
            .flatten())
    }

    async fn collection(&self, id: &CollectionId) -> Result<Option<Collection>, RepositoryError> {
        Ok(self
            .read(|site| {
                site.collections
                    .iter()
                    .find(|c| c.enabled && &c.id == id)
                    .cloned()
            })?
            .flatten())
    }

    async fn collections(&self) -> Result<Vec<Collection>, RepositoryError> {
        Ok(self
            .read(|site| {
                site.collections
                    .iter()
                    .filter(|c| c.enabled)
                    .cloned()
                    .collect()
            })?
            .unwrap_or_default())
    }

    async fn item_by_slug(
        &self,
        collection: &CollectionId,
        slug: &Slug,
    ) -> Result<Option<Item>, RepositoryError> {
        Ok(self
            .read(|site| {
                site.items
                    .iter()
                    .find(|i| i.is_public() && &i.collection_id == collection && &i.slug == slug)
                    .cloned()
            })?
            .flatten())
    }

    async fn item(&self, id: &ItemId) -> Result<Option<Item>, RepositoryError> {
        Ok(self
            .read(|site| {
                site.items
                    .iter()
                    .find(|i| i.is_public() && &i.id == id)
                    .cloned()
            })?
            .flatten())
    }

    async fn items(
        &self,
        collection: &CollectionId,
        query: ItemQuery,
    ) -> Result<Vec<Item>, RepositoryError> {
        Ok(self
            .read(|site| {
                let mut items: Vec<Item> = site
                    .items
                    .iter()
                    .filter(|i| i.is_public() && &i.collection_id == collection)
                    .cloned()
                    .collect();
                items.sort_by(|a, b| {
                    a.position
                        .cmp(&b.position)
                        .then(b.published_on.cmp(&a.published_on))
                });
                items
                    .into_iter()
                    .skip(query.offset as usize)
                    .take(query.limit as usize)
                    .collect()
            })?
            .unwrap_or_default())
    }

    async fn media(&self, path: &str) -> Result<Option<MediaFile>, RepositoryError> {
        Ok(self
            .read(|site| site.media.iter().find(|m| m.path == path).cloned())?
            .flatten())
    }
}

#[cfg(test)]
mod tests {
    use super::MemorySiteRepository;

    crate::site_repository_conformance!(MemorySiteRepository::new());
}
