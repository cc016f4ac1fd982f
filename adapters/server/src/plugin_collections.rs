//! The `collections` capability of block plugins, backed by the site's repository: a snapshot
//! of every collection's published items, kept in memory because renders are synchronous, and
//! read again when the stored site changes.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use vitrine_core::ports::{ItemQuery, RepositoryError, SiteRepository};
use vitrine_core::site::{Collection, Item};
use vitrine_plugins::{CollectionItem, CollectionItems};

/// Items per collection the snapshot keeps: the capability answers at most 50.
const ITEMS_PER_COLLECTION: u32 = 50;

/// How often the repository's revision is compared, as the page cache does.
const RECHECK: Duration = Duration::from_secs(1);

const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// The site's published items by collection, as plugins see them.
#[derive(Default)]
pub struct SiteCollections {
    snapshot: RwLock<Snapshot>,
    /// Counts snapshots taken, so pages rendered from an older one are rendered again.
    refreshes: AtomicU64,
}

#[derive(Default)]
struct Snapshot {
    revision: Option<u64>,
    /// By collection id and by URL slug; items newest first, each with its date in ms.
    collections: HashMap<String, Arc<Vec<(i64, CollectionItem)>>>,
}

impl SiteCollections {
    /// How many snapshots have been taken; changes when the items plugins see change.
    pub fn refreshes(&self) -> u64 {
        self.refreshes.load(Ordering::Relaxed)
    }

    /// Reads the site again when its revision changed since the last snapshot.
    pub async fn refresh(&self, repository: &dyn SiteRepository) -> Result<(), RepositoryError> {
        let revision = repository.revision().await?;
        if self.read().revision == Some(revision) {
            return Ok(());
        }
        let mut collections = HashMap::new();
        // Plugins render on public pages, so a locked collection's items are not theirs to list.
        let public = repository
            .collections()
            .await?
            .into_iter()
            .filter(|collection| {
                collection.permission_type == vitrine_core::site::PermissionType::Public
            });
        for collection in public {
            let items = repository
                .items(&collection.id, ItemQuery::first(ITEMS_PER_COLLECTION))
                .await?;
            let entry = Arc::new(plugin_items(&collection, items));
            collections.insert(collection.slug.to_string(), Arc::clone(&entry));
            collections.insert(collection.id.to_string(), entry);
        }
        *self
            .snapshot
            .write()
            .unwrap_or_else(|poison| poison.into_inner()) = Snapshot {
            revision: Some(revision),
            collections,
        };
        self.refreshes.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    /// Keeps the snapshot current for as long as the server runs.
    pub async fn refresh_forever(self: Arc<Self>, repository: Arc<dyn SiteRepository>) {
        loop {
            if let Err(error) = self.refresh(repository.as_ref()).await {
                tracing::warn!(%error, "could not read the site's collections for plugins");
            }
            tokio::time::sleep(RECHECK).await;
        }
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, Snapshot> {
        self.snapshot
            .read()
            .unwrap_or_else(|poison| poison.into_inner())
    }

    fn collection(&self, id: &str) -> Arc<Vec<(i64, CollectionItem)>> {
        self.read().collections.get(id).cloned().unwrap_or_default()
    }

    /// Items dated on or after the day that holds `now_ms` (UTC), soonest first.
    fn upcoming_at(&self, collection_id: &str, limit: u32, now_ms: i64) -> Vec<CollectionItem> {
        let today = now_ms - now_ms.rem_euclid(DAY_MS);
        let items = self.collection(collection_id);
        let mut upcoming: Vec<&(i64, CollectionItem)> =
            items.iter().filter(|(date, _)| *date >= today).collect();
        upcoming.sort_by_key(|(date, _)| *date);
        upcoming
            .into_iter()
            .take(limit as usize)
            .map(|(_, item)| item.clone())
            .collect()
    }
}

impl CollectionItems for SiteCollections {
    fn items(&self, collection_id: &str, limit: u32) -> Vec<CollectionItem> {
        self.collection(collection_id)
            .iter()
            .take(limit as usize)
            .map(|(_, item)| item.clone())
            .collect()
    }

    fn upcoming(&self, collection_id: &str, limit: u32) -> Vec<CollectionItem> {
        let now_ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |since| {
                i64::try_from(since.as_millis()).unwrap_or(i64::MAX)
            });
        self.upcoming_at(collection_id, limit, now_ms)
    }

    fn version(&self) -> u64 {
        self.refreshes()
    }
}

/// A collection's published items as plugins receive them, newest first.
fn plugin_items(collection: &Collection, mut items: Vec<Item>) -> Vec<(i64, CollectionItem)> {
    items.retain(Item::is_public);
    items.sort_by_key(|item| std::cmp::Reverse(item.published_on));
    items
        .into_iter()
        .map(|item| {
            let excerpt = item.excerpt.plain_text();
            let plugin_item = CollectionItem {
                id: item.id.to_string(),
                url: format!("/{}/{}", collection.slug, item.slug),
                date: Some(iso_date(item.published_on)),
                excerpt: (!excerpt.is_empty()).then_some(excerpt),
                title: item.title,
            };
            (item.published_on, plugin_item)
        })
        .collect()
}

/// `YYYY-MM-DD` (UTC) of a time in milliseconds since the Unix epoch.
fn iso_date(ms: i64) -> String {
    let date = time::OffsetDateTime::from_unix_timestamp(ms.div_euclid(1000))
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH)
        .date();
    format!(
        "{:04}-{:02}-{:02}",
        date.year(),
        u8::from(date.month()),
        date.day()
    )
}

#[cfg(test)]
mod tests {
    use vitrine_core::ports::memory::MemorySiteRepository;

    use super::*;

    /// 2026-05-01T00:00:00Z, before every event of the demo site.
    const MAY_2026: i64 = 1_777_593_600_000;

    #[tokio::test]
    async fn the_demo_events_are_listed_soonest_first_from_the_repository() {
        let repository = MemorySiteRepository::new();
        crate::import::import_demo(&repository).await.unwrap();
        let collections = SiteCollections::default();
        collections.refresh(&repository).await.unwrap();
        assert_eq!(collections.refreshes(), 1);

        let upcoming = collections.upcoming_at("events", 10, MAY_2026);
        assert!(upcoming.len() >= 3, "{upcoming:?}");
        let dates: Vec<&str> = upcoming
            .iter()
            .map(|event| event.date.as_deref().unwrap())
            .collect();
        let mut sorted = dates.clone();
        sorted.sort_unstable();
        assert_eq!(dates, sorted, "soonest first");
        assert!(upcoming[0].url.starts_with("/events/"), "{upcoming:?}");

        // Past events drop off: from the day of the last one, only it is upcoming.
        let last = upcoming.last().unwrap();
        let last_day = collections.upcoming_at("events", 10, MAY_2026 + 3650 * DAY_MS);
        assert!(last_day.is_empty());
        let newest = collections.items("events", 1);
        assert_eq!(newest[0].id, last.id, "items are newest first");

        assert!(
            collections
                .upcoming_at("no-such-collection", 5, MAY_2026)
                .is_empty()
        );
        collections.refresh(&repository).await.unwrap();
        assert_eq!(
            collections.refreshes(),
            1,
            "an unchanged site is not read again"
        );
    }

    #[tokio::test]
    async fn plugins_never_see_the_items_of_a_locked_collection() {
        let mut site = vitrine_core::bundle::parse(&crate::import::demo_files()).unwrap();
        for collection in &mut site.collections {
            if collection.slug.as_str() == "events" {
                collection.permission_type = vitrine_core::site::PermissionType::MembersOnly;
            }
        }
        let repository = MemorySiteRepository::new();
        repository.replace_site(&site).await.unwrap();
        let collections = SiteCollections::default();
        collections.refresh(&repository).await.unwrap();
        assert!(collections.items("events", 10).is_empty());
        assert!(collections.upcoming_at("events", 10, MAY_2026).is_empty());
        assert!(
            !collections.items("journal", 10).is_empty(),
            "public ones stay"
        );
    }

    #[test]
    fn dates_are_iso_days_in_utc() {
        assert_eq!(iso_date(MAY_2026), "2026-05-01");
        assert_eq!(iso_date(MAY_2026 - 1), "2026-04-30");
    }
}
