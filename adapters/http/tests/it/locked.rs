//! Password-protected and members-only collections: their page, their items and the media only
//! they show answer the lock page (403, page type 103 or 106) with none of their content, are
//! never cached, and stay out of the sitemap and search.

use std::sync::Arc;

use axum::http::StatusCode;
use vitrine_core::ports::SiteRepository;
use vitrine_core::ports::memory::MemorySiteRepository;
use vitrine_core::site::PermissionType;

use crate::support::{self, Answer, fetch};

/// The fixture site with the journal (its posts, the tote and the image `/media/a.png`, which
/// only the journal shows) behind `permission`.
async fn app_with_locked_journal(permission: PermissionType) -> axum::Router {
    let mut site = support::site();
    for collection in &mut site.collections {
        if collection.id.as_str() == "journal" {
            collection.permission_type = permission;
        }
    }
    let repository = Arc::new(MemorySiteRepository::new());
    repository.replace_site(&site).await.unwrap();
    support::router_with(repository, support::fixture_assets(), support::config())
}

/// Asserts `answer` is the lock page headed `heading`, of `page_type`, showing nothing locked.
fn assert_lock_page(answer: &Answer, heading: &str, page_type: u16) {
    assert_eq!(answer.status, StatusCode::FORBIDDEN);
    assert_eq!(answer.header("content-type"), "text/html; charset=utf-8");
    let html = answer.text();
    assert!(
        html.contains(&format!("<h1 class=\"status-page__title\">{heading}</h1>")),
        "{html}"
    );
    assert_eq!(answer.page_context()["pageType"], page_type);
    assert_eq!(answer.page_context()["collection"], serde_json::Value::Null);
    for content in [
        "Post first",
        "An excerpt",
        "src=\"/media/a.png",
        "TOTE-1",
        "Ada",
    ] {
        assert!(!html.contains(content), "{content} leaked: {html}");
    }
    assert!(html.contains("noindex"), "{html}");
    assert!(
        !html.contains("data-vitrine-popup-overlay"),
        "no popup on a lock screen"
    );
}

#[tokio::test]
async fn a_password_protected_collection_its_items_and_media_show_the_lock_screen() {
    let app = app_with_locked_journal(PermissionType::PasswordProtected).await;
    for path in [
        "/journal",
        "/journal/first",
        "/journal/tote",
        "/journal/nothing",
        "/media/a.png",
    ] {
        // Twice: a lock page is never cached in place of the content, nor the content kept.
        for _ in 0..2 {
            assert_lock_page(&fetch(&app, path).await, "This page is locked", 103);
        }
    }
}

#[tokio::test]
async fn a_members_only_collection_its_items_and_media_show_access_denied() {
    let app = app_with_locked_journal(PermissionType::MembersOnly).await;
    for path in ["/journal", "/journal/first", "/media/a.png"] {
        assert_lock_page(
            &fetch(&app, path).await,
            "This page available only site members",
            106,
        );
    }
    // The rest of the site is served as before.
    let home = fetch(&app, "/").await;
    assert_eq!(home.status, StatusCode::OK);
    assert_eq!(fetch(&app, "/faq").await.status, StatusCode::OK);
}

#[tokio::test]
async fn the_same_paths_are_served_while_the_journal_is_public() {
    let app = app_with_locked_journal(PermissionType::Public).await;
    for path in ["/journal", "/journal/first", "/media/a.png"] {
        assert_eq!(fetch(&app, path).await.status, StatusCode::OK, "{path}");
    }
}

#[tokio::test]
async fn locked_collections_stay_out_of_the_sitemap_and_search() {
    let app = app_with_locked_journal(PermissionType::MembersOnly).await;
    let sitemap = fetch(&app, "/sitemap.xml").await.text();
    assert!(!sitemap.contains("/journal"), "{sitemap}");
    assert!(
        sitemap.contains("<loc>https://shop.example/faq</loc>"),
        "{sitemap}"
    );
    // The navigation may still link to the journal; no result may.
    let search = fetch(&app, "/search?q=post").await.text();
    assert!(!search.contains("/journal/"), "{search}");
    assert!(search.contains("No results for"), "{search}");
}
