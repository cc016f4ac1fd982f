//! The images published pages show, with the width they are stored at: what `vitrine media
//! warm` prepares variants of. Any value shaped like a [`MediaRef`] (a `/media/` path with a
//! width and height) in the site settings, a public enabled collection or its published
//! items counts, whatever block holds it, so new block types are covered without a change here.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::ports::{ItemQuery, RepositoryError, SiteRepository};
use crate::site::{MEDIA_PREFIX, MediaRef, PermissionType};

/// Every image path public pages show, with its stored width.
pub async fn published_images(
    repository: &dyn SiteRepository,
) -> Result<BTreeMap<String, u32>, RepositoryError> {
    let mut images = BTreeMap::new();
    let Some(profile) = repository.profile().await? else {
        return Ok(images);
    };
    collect(&profile.settings, &mut images);
    for collection in repository.collections().await? {
        if !collection.enabled || collection.permission_type != PermissionType::Public {
            continue;
        }
        collect(&collection, &mut images);
        if collection.lists_items() {
            for item in repository
                .items(&collection.id, ItemQuery::first(u32::MAX))
                .await?
            {
                collect(&item, &mut images);
            }
        }
    }
    Ok(images)
}

fn collect(content: &impl Serialize, images: &mut BTreeMap<String, u32>) {
    let value = serde_json::to_value(content).unwrap_or_default();
    let mut pending = vec![&value];
    while let Some(value) = pending.pop() {
        match value {
            serde_json::Value::Array(values) => pending.extend(values),
            serde_json::Value::Object(map) => {
                if let Ok(media) = serde_json::from_value::<MediaRef>(value.clone())
                    && media.path.starts_with(MEDIA_PREFIX)
                {
                    images.insert(media.path, media.width);
                }
                pending.extend(map.values());
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ports::conformance::fixture_site;
    use crate::ports::memory::MemorySiteRepository;

    #[tokio::test]
    async fn images_of_public_pages_are_found_in_any_block() {
        let repository = MemorySiteRepository::new();
        let mut site = fixture_site("Shop");
        repository.replace_site(&site).await.unwrap();
        let images = published_images(&repository).await.unwrap();
        assert_eq!(images.get("/media/a.png"), Some(&2), "{images:?}");
        // Behind a password, the journal's post image is not published.
        for collection in &mut site.collections {
            collection.permission_type = PermissionType::PasswordProtected;
        }
        repository.replace_site(&site).await.unwrap();
        assert_eq!(
            published_images(&repository)
                .await
                .unwrap()
                .get("/media/a.png"),
            None
        );
    }
}
