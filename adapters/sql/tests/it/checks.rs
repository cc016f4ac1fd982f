//! Checks beyond the core's conformance suite that every SQL backend must pass.

use vitrine_core::ports::conformance::fixture_site;
use vitrine_core::ports::{ItemQuery, RepositoryError, SiteRepository};
use vitrine_core::site::CollectionId;
use vitrine_sql::Database;

fn journal() -> CollectionId {
    CollectionId::parse("journal").unwrap()
}

async fn journal_slugs(repository: &dyn SiteRepository) -> Vec<String> {
    repository
        .items(&journal(), ItemQuery::first(100))
        .await
        .unwrap()
        .into_iter()
        .map(|item| item.slug.to_string())
        .collect()
}

/// A replacement that breaks a unique key halfway through (after the website, the
/// collections and the first items were written) must leave the previous site untouched.
pub async fn a_failed_replacement_keeps_the_previous_site(repository: &dyn SiteRepository) {
    repository
        .replace_site(&fixture_site("First"))
        .await
        .unwrap();
    let slugs_before = journal_slugs(repository).await;

    let mut broken = fixture_site("Second");
    let duplicate = broken.items[0].clone();
    broken.items.push(duplicate);
    let error = repository.replace_site(&broken).await.unwrap_err();

    assert!(
        matches!(&error, RepositoryError::Rejected(message) if message.contains("writing an item")),
        "{error:?}"
    );
    let profile = repository
        .profile()
        .await
        .unwrap()
        .expect("the first site is still there");
    assert_eq!(profile.settings.site_title, "First");
    assert_eq!(journal_slugs(repository).await, slugs_before);
    assert!(repository.media("/media/a.png").await.unwrap().is_some());
}

/// An item in a collection the site does not have is refused, not silently stored.
pub async fn an_item_outside_any_collection_is_refused(repository: &dyn SiteRepository) {
    let mut orphaned = fixture_site("Orphans");
    orphaned.items[0].collection_id = CollectionId::parse("nowhere").unwrap();
    let error = repository.replace_site(&orphaned).await.unwrap_err();
    assert!(matches!(error, RepositoryError::Rejected(_)), "{error:?}");
    assert!(repository.is_empty().await.unwrap());
}

/// Migrating an up-to-date database changes nothing and keeps its content.
pub async fn migrations_can_run_again(database: &Database) {
    let repository = database.repository();
    repository
        .replace_site(&fixture_site("Kept"))
        .await
        .unwrap();
    database.migrate().await.unwrap();
    database.migrate().await.unwrap();
    let profile = repository.profile().await.unwrap().unwrap();
    assert_eq!(profile.settings.site_title, "Kept");
}
