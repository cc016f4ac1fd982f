//! The gating check: generated sites (each collection public, password-protected or
//! members-only in some of two member areas, with a secret in its description and items),
//! viewers (anonymous, or signed in and a member of some areas, with some page passwords
//! entered) and paths (collection pages, item pages, unknown paths). A tiny reference model
//! says who may see each collection; no page and no search result shows a collection's secret
//! to a viewer the model refuses, and the sitemap (shared by everyone) never shows a gated one.

use std::sync::Arc;

use proptest::prelude::*;
use std::collections::BTreeSet;

use vitrine_core::pages::{PageService, Viewer};
use vitrine_core::ports::SiteRepository;
use vitrine_core::ports::conformance::fixture_site;
use vitrine_core::ports::memory::MemorySiteRepository;
use vitrine_core::search::SearchQuery;
use vitrine_core::site::{MemberArea, MemberAreaAccess, PermissionType, SafeHtml, Site, Slug};

/// The member areas a generated site may have.
const AREAS: [&str; 2] = ["patrons", "staff"];

/// A collection's lock: its permission and, for members-only, which areas list it.
#[derive(Debug, Clone)]
struct LockSpec {
    permission: PermissionType,
    areas: Vec<bool>,
}

fn lock_spec() -> impl Strategy<Value = LockSpec> {
    let permission = prop_oneof![
        Just(PermissionType::Public),
        Just(PermissionType::PasswordProtected),
        Just(PermissionType::MembersOnly),
    ];
    (
        permission,
        proptest::collection::vec(any::<bool>(), AREAS.len()),
    )
        .prop_map(|(permission, areas)| LockSpec { permission, areas })
}

fn viewer() -> impl Strategy<Value = Viewer> {
    let anonymous = proptest::collection::btree_set(
        prop_oneof![Just("home"), Just("journal"), Just("drafts"), Just("shop")],
        0..3,
    )
    .prop_map(|unlocked| Viewer {
        unlocked: unlocked.into_iter().map(str::to_owned).collect(),
        ..Viewer::default()
    });
    let member = (
        proptest::collection::btree_set(prop_oneof![Just(AREAS[0]), Just(AREAS[1])], 0..3),
        any::<bool>(),
    )
        .prop_map(|(areas, unlocked_journal)| Viewer {
            account_id: Some("0123456789abcdef0123456789abcdef".into()),
            member_areas: areas.into_iter().map(str::to_owned).collect(),
            unlocked: if unlocked_journal {
                BTreeSet::from(["journal".to_owned()])
            } else {
                BTreeSet::new()
            },
            ..Viewer::default()
        });
    prop_oneof![anonymous, member]
}

/// The reference model: who may see a collection, written apart from the gate.
fn may_see(site: &Site, collection_index: usize, viewer: &Viewer) -> bool {
    let collection = &site.collections[collection_index];
    match collection.permission_type {
        PermissionType::Public => true,
        PermissionType::PasswordProtected => viewer.unlocked.contains(collection.id.as_str()),
        PermissionType::MembersOnly => {
            viewer.account_id.is_some()
                && site.settings.member_areas.iter().any(|area| {
                    area.pages.contains(&collection.id)
                        && viewer.member_areas.contains(area.id.as_str())
                })
        }
    }
}

/// The secret word of a collection, put in its description and every item of it.
fn secret(collection: &str) -> String {
    format!("zqsecret{collection}")
}

/// The fixture site with the given locks, in collection order, and secrets in place.
fn site(locks: &[LockSpec]) -> Site {
    let mut site = fixture_site("Shop");
    let mut areas: Vec<MemberArea> = AREAS
        .iter()
        .map(|id| MemberArea {
            id: Slug::parse(*id).unwrap(),
            title: (*id).to_owned(),
            description: String::new(),
            access: MemberAreaAccess::Free,
            pages: Vec::new(),
        })
        .collect();
    for (collection, lock) in site.collections.iter_mut().zip(locks.iter().cycle()) {
        collection.permission_type = lock.permission;
        collection.description = secret(collection.id.as_str());
        if lock.permission == PermissionType::MembersOnly {
            for (area, listed) in areas.iter_mut().zip(&lock.areas) {
                if *listed {
                    area.pages.push(collection.id.clone());
                }
            }
        }
    }
    site.settings.member_areas = areas;
    for item in &mut site.items {
        let word = secret(item.collection_id.as_str());
        item.title = format!("{} {word}", item.title);
        item.excerpt = SafeHtml::sanitize(&format!("<p>{word}</p>"));
    }
    site
}

/// Paths to every collection and item of the site, and a few that name nothing.
fn paths(site: &Site) -> Vec<String> {
    let mut paths = vec!["/".to_owned(), "/nothing-here".to_owned()];
    for collection in &site.collections {
        paths.push(format!("/{}", collection.slug.as_str()));
        paths.push(format!("/{}/no-such-item", collection.slug.as_str()));
    }
    for item in &site.items {
        if let Some(collection) = site.collections.iter().find(|c| c.id == item.collection_id) {
            paths.push(format!(
                "/{}/{}",
                collection.slug.as_str(),
                item.slug.as_str()
            ));
        }
    }
    paths
}

async fn check(locks: Vec<LockSpec>, viewer: Viewer) -> Result<(), TestCaseError> {
    let site = site(&locks);
    let repository = Arc::new(MemorySiteRepository::new());
    repository.replace_site(&site).await.unwrap();
    let pages = PageService::new(repository);
    let hidden_from = |viewer: &Viewer| {
        (0..site.collections.len())
            .filter(|index| !may_see(&site, *index, viewer))
            .map(|index| secret(site.collections[index].id.as_str()))
            .collect::<Vec<_>>()
    };
    let hidden = hidden_from(&viewer);
    for path in paths(&site) {
        let shown = match pages.page(&path, &viewer).await {
            Ok(view) => format!("{view:?}"),
            Err(error) => format!("{error:?}"),
        };
        for word in &hidden {
            prop_assert!(
                !shown.contains(word.as_str()),
                "{path} showed {word} to {viewer:?}"
            );
        }
    }
    // Site search shows the viewer what the gate lets them see, and nothing else; the
    // sitemap is the same for everyone, so it shows nothing gated to anybody.
    let search = |viewer: Viewer| {
        let pages = &pages;
        async move {
            format!(
                "{:?}",
                pages
                    .search(&SearchQuery::parse("zqsecret").unwrap(), &viewer)
                    .await
                    .unwrap()
            )
        }
    };
    let found = search(viewer.clone()).await;
    for word in &hidden {
        prop_assert!(
            !found.contains(word.as_str()),
            "search showed {word} to {viewer:?}"
        );
    }
    let found_by_anyone = search(Viewer::default()).await;
    let hidden_from_anyone = hidden_from(&Viewer::default());
    let sitemap = format!("{:?}", pages.sitemap().await.unwrap());
    for word in &hidden_from_anyone {
        prop_assert!(
            !found_by_anyone.contains(word.as_str()),
            "search showed {word}"
        );
        prop_assert!(
            !sitemap.contains(word.as_str()),
            "the sitemap showed {word}"
        );
    }
    // The sitemap lists no path of a gated collection.
    for collection in &site.collections {
        if collection.permission_type != PermissionType::Public {
            let path = format!("\"/{}", collection.slug.as_str());
            prop_assert!(!sitemap.contains(&path), "the sitemap listed {path}");
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn no_path_shows_a_gated_collection_to_a_viewer_the_model_refuses(
        locks in proptest::collection::vec(lock_spec(), 1..6),
        viewer in viewer(),
    ) {
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        runtime.block_on(check(locks, viewer))?;
    }
}
