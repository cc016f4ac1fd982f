//! The gating check: generated sites (each collection public, password-protected or
//! members-only, with a secret in its description and items), viewers (anonymous or signed
//! in) and paths (collection pages, item pages, unknown paths). No page shows a collection's
//! secret to a viewer the gate refuses, and the shared outputs (sitemap, site search) never
//! show a gated one.

use std::sync::Arc;

use proptest::prelude::*;
use vitrine_core::pages::access::{Access, gate};
use vitrine_core::pages::{PageService, Viewer};
use vitrine_core::ports::SiteRepository;
use vitrine_core::ports::conformance::fixture_site;
use vitrine_core::ports::memory::MemorySiteRepository;
use vitrine_core::search::SearchQuery;
use vitrine_core::site::{PermissionType, SafeHtml, Site};

fn permission() -> impl Strategy<Value = PermissionType> {
    prop_oneof![
        Just(PermissionType::Public),
        Just(PermissionType::PasswordProtected),
        Just(PermissionType::MembersOnly),
    ]
}

fn viewer() -> impl Strategy<Value = Viewer> {
    prop_oneof![
        Just(Viewer::default()),
        Just(Viewer {
            account_id: Some("0123456789abcdef0123456789abcdef".into()),
            ..Viewer::default()
        }),
    ]
}

/// The secret word of a collection, put in its description and every item of it.
fn secret(collection: &str) -> String {
    format!("zqsecret{collection}")
}

/// The fixture site with the given permissions, in collection order, and secrets in place.
fn site(permissions: &[PermissionType]) -> Site {
    let mut site = fixture_site("Shop");
    for (collection, permission) in site.collections.iter_mut().zip(permissions.iter().cycle()) {
        collection.permission_type = *permission;
        collection.description = secret(collection.id.as_str());
    }
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

async fn check(permissions: Vec<PermissionType>, viewer: Viewer) -> Result<(), TestCaseError> {
    let site = site(&permissions);
    let repository = Arc::new(MemorySiteRepository::new());
    repository.replace_site(&site).await.unwrap();
    let pages = PageService::new(repository);
    let hidden_from = |viewer: &Viewer| {
        site.collections
            .iter()
            .filter(|collection| gate(collection.permission_type, viewer) != Access::Allowed)
            .map(|collection| secret(collection.id.as_str()))
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
    // The sitemap and site search are the same for everyone: nothing gated for anybody.
    let hidden_from_anyone = hidden_from(&Viewer::default());
    let sitemap = format!("{:?}", pages.sitemap().await.unwrap());
    let found = format!(
        "{:?}",
        pages
            .search(&SearchQuery::parse("zqsecret").unwrap())
            .await
            .unwrap()
    );
    for word in &hidden_from_anyone {
        prop_assert!(!found.contains(word.as_str()), "search showed {word}");
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
    fn no_path_shows_a_gated_collection_to_a_viewer_the_gate_refuses(
        permissions in proptest::collection::vec(permission(), 1..6),
        viewer in viewer(),
    ) {
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        runtime.block_on(check(permissions, viewer))?;
    }
}
