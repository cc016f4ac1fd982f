//! The page service over the in-memory repository: which page a path shows, and the page
//! context it carries.

use std::sync::Arc;

use crate::enums::PageType;
use crate::pages::access::{Access, Lock};
use crate::pages::{PageContent, PageError, PageService, Viewer};
use crate::ports::SiteRepository;
use crate::ports::conformance::fixture_site;
use crate::ports::memory::MemorySiteRepository;
use crate::site::{Block, BlockContent, PermissionType, SummaryDesign};

async fn service() -> PageService {
    let repository = Arc::new(MemorySiteRepository::new());
    repository
        .replace_site(&fixture_site("Fixture"))
        .await
        .unwrap();
    PageService::new(repository)
}

#[tokio::test]
async fn the_root_shows_the_home_collection_under_the_site_title() {
    let page = service().await.page("/", &Viewer::default()).await.unwrap();
    assert_eq!(page.page_type, PageType::Page);
    assert_eq!(page.path, "/");
    assert_eq!(page.title, "Fixture");
    assert_eq!(page.status_code(), 200);
    assert!(matches!(page.content, PageContent::Layout { .. }));
}

#[tokio::test]
async fn the_home_collection_by_its_slug_has_the_root_as_canonical_path() {
    let page = service()
        .await
        .page("/home", &Viewer::default())
        .await
        .unwrap();
    assert_eq!(page.path, "/");
}

#[tokio::test]
async fn a_blog_lists_its_published_items_and_an_item_has_its_own_page() {
    let pages = service().await;
    let blog = pages.page("/journal/", &Viewer::default()).await.unwrap();
    assert_eq!(blog.page_type, PageType::MainContent);
    assert_eq!(blog.title, "Journal — Fixture");
    let PageContent::ItemList { items, .. } = &blog.content else {
        panic!("a blog lists items: {:?}", blog.content);
    };
    assert_eq!(items.len(), 4, "the draft is not listed");

    let post = pages
        .page("/journal/first", &Viewer::default())
        .await
        .unwrap();
    assert_eq!(post.page_type, PageType::ContentItem);
    assert_eq!(post.description, "An excerpt");
    assert_eq!(post.context.item_id.as_deref(), Some("post-first"));
}

#[tokio::test]
async fn unknown_draft_and_malformed_paths_show_the_not_found_page() {
    let pages = service().await;
    for path in [
        "/nowhere",
        "/journal/draft",
        "/drafts",
        "/home/first",
        "/a/b/c",
        "/Journal",
    ] {
        let page = pages.page(path, &Viewer::default()).await.unwrap();
        assert_eq!(page.page_type, PageType::NotFound, "{path}");
        assert_eq!(page.status_code(), 404, "{path}");
        assert_eq!(page.context.page_type, 100, "{path}");
    }
}

#[tokio::test]
async fn the_error_page_is_page_type_101_with_status_500() {
    let page = service()
        .await
        .error_page("/x", &Viewer::default())
        .await
        .unwrap();
    assert_eq!(page.status_code(), 500);
    assert_eq!(page.context.page_type, 101);
}

#[tokio::test]
async fn an_empty_store_has_no_site_to_show() {
    let pages = PageService::new(Arc::new(MemorySiteRepository::new()));
    let error = pages.page("/", &Viewer::default()).await.unwrap_err();
    assert!(matches!(error, PageError::NoSite));
}

#[tokio::test]
async fn the_sitemap_lists_enabled_collections_and_published_items() {
    let entries = service().await.sitemap().await.unwrap();
    let paths: Vec<&str> = entries.iter().map(|entry| entry.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "/",
            "/journal",
            "/journal/tote",
            "/journal/first",
            "/journal/later",
            "/journal/second"
        ]
    );
    assert_eq!(entries[1].last_modified, Some(1_800_000_000_000));
}

#[tokio::test]
async fn the_page_context_of_an_item_page_keeps_the_spec_field_names() {
    let page = service()
        .await
        .page("/journal/first", &Viewer::default())
        .await
        .unwrap();
    insta::assert_json_snapshot!(page.context);
}

#[tokio::test]
async fn a_commerce_page_carries_its_page_type_in_the_context() {
    let pages = service().await;
    for (page_type, code) in [
        (PageType::CartV2, 205),
        (PageType::ShowCart, 200),
        (PageType::Checkout, 201),
        (PageType::OrderConfirmed, 202),
        (PageType::OrderReceived, 207),
        (PageType::OrderStatus, 211),
    ] {
        let page = pages
            .commerce_page(page_type, "/cart", "Cart", &Viewer::default())
            .await
            .unwrap();
        assert_eq!(page.context.page_type, code);
        assert_eq!(page.title, "Cart — Fixture");
        assert_eq!(page.status_code(), 200);
        assert!(matches!(page.content, PageContent::Commerce));
    }
}

#[tokio::test]
async fn search_finds_published_items_and_pages_of_public_collections_only() {
    use crate::search::SearchQuery;
    let pages = service().await;
    let found = |text: &str| {
        let pages = &pages;
        let query = SearchQuery::parse(text).unwrap();
        async move {
            let results = pages.search(&query, &Viewer::default()).await.unwrap();
            results
                .into_iter()
                .map(|result| result.path)
                .collect::<Vec<_>>()
        }
    };
    // In the blog's order; the draft post and the disabled collection are never found.
    assert_eq!(
        found("post").await,
        [
            "/journal/tote",
            "/journal/first",
            "/journal/later",
            "/journal/second"
        ]
    );
    assert_eq!(found("draft").await, Vec::<String>::new());
    assert_eq!(found("drafts").await, Vec::<String>::new());
    // The home page answers at the root, found by its body text.
    assert_eq!(found("hello").await, ["/"]);
    assert_eq!(found("").await, Vec::<String>::new());
}

/// The fixture site with the journal (its posts and the product) behind `permission`.
async fn service_with_locked_journal(permission: PermissionType) -> PageService {
    let mut site = fixture_site("Fixture");
    for collection in &mut site.collections {
        if collection.id.as_str() == "journal" {
            collection.permission_type = permission;
        }
    }
    site.settings.member_areas = vec![crate::site::MemberArea {
        id: crate::site::Slug::parse("readers").unwrap(),
        title: "Readers".into(),
        description: String::new(),
        access: crate::site::MemberAreaAccess::Free,
        pages: vec!["journal".to_owned().try_into().unwrap()],
    }];
    // A public page that lists the journal and shows its product.
    let mut listing = site.collections[0].clone();
    listing.id = "listing".to_owned().try_into().unwrap();
    listing.slug = crate::site::Slug::parse("listing").unwrap();
    listing.body.layout = crate::site::Layout::stacked(vec![
        Block {
            id: "journal-summary".to_owned().try_into().unwrap(),
            content: BlockContent::Summary {
                collection: "journal".to_owned().try_into().unwrap(),
                title: None,
                design: SummaryDesign::List,
                limit: 5,
            },
        },
        Block {
            id: "tote-block".to_owned().try_into().unwrap(),
            content: BlockContent::Product {
                item: "tote".to_owned().try_into().unwrap(),
            },
        },
    ])
    .unwrap();
    site.collections.push(listing);
    let repository = Arc::new(MemorySiteRepository::new());
    repository.replace_site(&site).await.unwrap();
    PageService::new(repository)
}

#[tokio::test]
async fn a_public_page_lists_no_item_of_a_locked_collection() {
    let pages = service_with_locked_journal(PermissionType::MembersOnly).await;
    let page = pages.page("/listing", &Viewer::default()).await.unwrap();
    assert_eq!(page.status_code(), 200);
    assert!(page.resolved.summaries.is_empty());
    assert!(page.resolved.products.is_empty());

    let open = service_with_locked_journal(PermissionType::Public).await;
    let page = open.page("/listing", &Viewer::default()).await.unwrap();
    assert_eq!(page.resolved.summaries.len(), 1, "the test can fail");
    assert_eq!(page.resolved.products.len(), 1);
}

#[tokio::test]
async fn a_locked_collection_and_its_items_show_only_the_lock_page() {
    for (permission, page_type, heading, access) in [
        (
            PermissionType::PasswordProtected,
            PageType::LockScreen,
            "This page is locked",
            Access::LockScreen,
        ),
        (
            PermissionType::MembersOnly,
            PageType::MemberAreaAccessDenied,
            "This page available only site members",
            Access::SignInRequired,
        ),
    ] {
        let pages = service_with_locked_journal(permission).await;
        for path in ["/journal", "/journal/first", "/journal/no-such-post"] {
            let page = pages.page(path, &Viewer::default()).await.unwrap();
            assert_eq!(page.page_type, page_type, "{path}");
            assert_eq!(page.status_code(), 403, "{path}");
            assert_eq!(
                page.content,
                PageContent::Locked {
                    access,
                    refusal: None
                },
                "{path}"
            );
            assert_eq!(page.title, format!("{heading} — Fixture"));
            assert_eq!(page.context.collection, None, "the context names nothing");
            assert_eq!(page.context.item, None);
            assert_eq!(page.image, None);
        }
    }
}

#[tokio::test]
async fn only_media_that_no_public_content_shows_is_locked() {
    let pages = service_with_locked_journal(PermissionType::MembersOnly).await;
    let locked = pages.locked_media().await.unwrap();
    assert_eq!(
        locked.lock("/media/a.png"),
        Some(&Lock::Members(["readers".to_owned()].into())),
        "the posts' image"
    );
    let open = service().await.locked_media().await.unwrap();
    assert_eq!(open.lock("/media/a.png"), None);
}

/// Regression: every signed-in site user passed a members-only gate, member of its area or
/// not. Each path under the collection (its page, an item, one that does not exist) refuses
/// a signed-in non-member with the access-denied page, and opens to a member.
#[tokio::test]
async fn a_signed_in_user_who_is_not_a_member_of_the_area_is_refused() {
    let pages = service_with_locked_journal(PermissionType::MembersOnly).await;
    let signed_in = |areas: &[&str]| Viewer {
        account_id: Some("0123456789abcdef0123456789abcdef".into()),
        member_areas: areas.iter().map(|area| (*area).to_owned()).collect(),
        ..Viewer::default()
    };
    for path in ["/journal", "/journal/first", "/journal/no-such-post"] {
        for outsider in [signed_in(&[]), signed_in(&["staff"])] {
            let page = pages.page(path, &outsider).await.unwrap();
            assert_eq!(page.page_type, PageType::MemberAreaAccessDenied, "{path}");
            assert_eq!(page.status_code(), 403, "{path}");
            assert_eq!(
                page.content,
                PageContent::Locked {
                    access: Access::NotAMember,
                    refusal: None
                }
            );
        }
    }
    let member = signed_in(&["readers"]);
    let page = pages.page("/journal/first", &member).await.unwrap();
    assert_eq!(page.status_code(), 200);
    assert!(format!("{page:?}").contains("Post first"));
}

#[tokio::test]
async fn locked_collections_stay_out_of_the_sitemap_and_search() {
    let pages = service_with_locked_journal(PermissionType::PasswordProtected).await;
    let paths: Vec<String> = pages
        .sitemap()
        .await
        .unwrap()
        .into_iter()
        .map(|entry| entry.path)
        .collect();
    assert_eq!(paths, ["/", "/listing"]);
    let query = crate::search::SearchQuery::parse("post").unwrap();
    assert!(
        pages
            .search(&query, &Viewer::default())
            .await
            .unwrap()
            .is_empty()
    );
}

/// A member of the journal's area, or a browser that entered its password, finds its posts
/// in search and sees them listed on a public page; the sitemap, shared by everyone, still
/// lists nothing locked; a signed-in non-member sees no more than an anonymous visitor.
#[tokio::test]
async fn listings_and_search_show_locked_content_to_the_viewers_the_gate_lets_in() {
    use crate::search::SearchQuery;
    let query = SearchQuery::parse("post").unwrap();
    let member = Viewer {
        account_id: Some("0123456789abcdef0123456789abcdef".into()),
        member_areas: ["readers".to_owned()].into(),
        ..Viewer::default()
    };
    let outsider = Viewer {
        account_id: Some("0123456789abcdef0123456789abcdef".into()),
        member_areas: ["staff".to_owned()].into(),
        ..Viewer::default()
    };
    let unlocked = Viewer {
        unlocked: ["journal".to_owned()].into(),
        ..Viewer::default()
    };
    for (permission, insider) in [
        (PermissionType::MembersOnly, &member),
        (PermissionType::PasswordProtected, &unlocked),
    ] {
        let pages = service_with_locked_journal(permission).await;
        let found = pages.search(&query, insider).await.unwrap();
        assert!(
            found.iter().any(|result| result.path == "/journal/first"),
            "{permission:?}: {found:?}"
        );
        let page = pages.page("/listing", insider).await.unwrap();
        assert_eq!(page.resolved.summaries.len(), 1, "{permission:?}");
        assert_eq!(page.resolved.products.len(), 1, "{permission:?}");
        for stranger in [&outsider, &Viewer::default()] {
            assert!(pages.search(&query, stranger).await.unwrap().is_empty());
            let page = pages.page("/listing", stranger).await.unwrap();
            assert!(page.resolved.summaries.is_empty(), "{permission:?}");
            assert!(page.resolved.products.is_empty(), "{permission:?}");
        }
        let sitemap = format!("{:?}", pages.sitemap().await.unwrap());
        assert!(!sitemap.contains("/journal"), "{sitemap}");
    }
}

#[tokio::test]
async fn the_page_password_of_a_path_is_its_collections_in_any_of_its_paths() {
    let mut site = fixture_site("Fixture");
    for collection in &mut site.collections {
        if collection.id.as_str() == "journal" {
            collection.permission_type = PermissionType::PasswordProtected;
        }
    }
    site.settings.page_passwords = vec![crate::site::PagePassword {
        collection: "journal".to_owned().try_into().unwrap(),
        hash: "$argon2id$journal".into(),
    }];
    let repository = Arc::new(MemorySiteRepository::new());
    repository.replace_site(&site).await.unwrap();
    let pages = PageService::new(repository);
    for path in [
        "/journal",
        "/journal/first",
        "/journal/slides/x",
        "/journal/",
    ] {
        let found = pages.page_password(path).await.unwrap();
        assert_eq!(
            found.map(|password| password.collection.to_string()),
            Some("journal".to_owned()),
            "{path}"
        );
    }
    for path in ["/", "/media/a.png", "/nothing", "/faq"] {
        assert!(pages.page_password(path).await.unwrap().is_none(), "{path}");
    }
}
