//! The gating check: generated sites (each collection public, password-protected or
//! members-only in some of two member areas, one free and one paid through a subscription
//! plan, with a secret in its description and items), viewers (anonymous, or signed in, having
//! joined some areas, with subscriptions to the paid one's plan that stand active, past due,
//! paused, cancelled or ended and belong to the account (bought with its address now or with
//! an address it had before), to another account of the same address, or to no account yet,
//! with some page passwords entered) and paths (collection
//! pages, item pages, unknown paths, blogs' feeds). A tiny reference model says who may see each
//! collection; no page and no search result shows a collection's secret to a viewer the model
//! refuses (a member whose subscription lapsed sees no paid item), and the sitemap and the
//! feeds (shared by everyone) never show a gated one.

use std::sync::Arc;

use proptest::prelude::*;
use std::collections::BTreeSet;

use vitrine_core::catalog::Sku;
use vitrine_core::checkout::subscription_conformance::fixture_subscription;
use vitrine_core::checkout::{Subscription, SubscriptionStatus};
use vitrine_core::pages::{PageService, Viewer};
use vitrine_core::people::open_areas;
use vitrine_core::ports::SiteRepository;
use vitrine_core::ports::conformance::fixture_site;
use vitrine_core::ports::memory::MemorySiteRepository;
use vitrine_core::search::SearchQuery;
use vitrine_core::site::{
    Item, MemberArea, MemberAreaAccess, PermissionType, SafeHtml, Site, Slug,
};

/// The member areas a generated site may have: the first free, the second paid.
const AREAS: [&str; 2] = ["patrons", "staff"];
/// The paid area's plan: the fixture's tote, sold as a subscription.
const PLAN: &str = "tote";

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

/// Who asks: signed in or not, the areas the account joined, the subscriptions to the paid
/// area's plan the store holds (their status and whose they are), and the page passwords
/// entered.
#[derive(Debug, Clone)]
struct Visitor {
    signed_in: bool,
    joined: BTreeSet<&'static str>,
    subscriptions: Vec<(SubscriptionStatus, Holder)>,
    unlocked: BTreeSet<&'static str>,
}

/// Whose a subscription is, and the address it was bought with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Holder {
    /// The visitor's account, bought with the address it has now.
    Account,
    /// The visitor's account, bought with an address it has changed since.
    AccountBeforeEmailChange,
    /// Another account that had the visitor's address before.
    OtherAccount,
    /// No account yet (bought signed out with an address nobody has confirmed).
    Nobody,
}

const ACCOUNT_ID: &str = "0123456789abcdef0123456789abcdef";

fn subscription() -> impl Strategy<Value = (SubscriptionStatus, Holder)> {
    (
        proptest::sample::select(SubscriptionStatus::ALL.to_vec()),
        proptest::sample::select(vec![
            Holder::Account,
            Holder::AccountBeforeEmailChange,
            Holder::OtherAccount,
            Holder::Nobody,
        ]),
    )
}

fn visitor() -> impl Strategy<Value = Visitor> {
    let anonymous = proptest::collection::btree_set(
        prop_oneof![Just("home"), Just("journal"), Just("drafts"), Just("shop")],
        0..3,
    )
    .prop_map(|unlocked| Visitor {
        signed_in: false,
        joined: BTreeSet::new(),
        subscriptions: Vec::new(),
        unlocked,
    });
    let member = (
        proptest::collection::btree_set(prop_oneof![Just(AREAS[0]), Just(AREAS[1])], 0..3),
        proptest::collection::vec(subscription(), 0..3),
        any::<bool>(),
    )
        .prop_map(|(joined, subscriptions, unlocked_journal)| Visitor {
            signed_in: true,
            joined,
            subscriptions,
            unlocked: if unlocked_journal {
                BTreeSet::from(["journal"])
            } else {
                BTreeSet::new()
            },
        });
    prop_oneof![anonymous, member]
}

/// The page viewer the HTTP adapter makes of `visitor`: the areas open to the account are
/// those [`open_areas`] keeps of the ones it joined, given the subscriptions read for it
/// (all of them here, so that those of others are seen to count for nothing).
fn page_viewer(site: &Site, visitor: &Visitor) -> Viewer {
    let unlocked = visitor.unlocked.iter().map(|id| (*id).to_owned()).collect();
    if !visitor.signed_in {
        return Viewer {
            unlocked,
            ..Viewer::default()
        };
    }
    let plans: Vec<Item> = site
        .items
        .iter()
        .filter(|item| item.id.as_str() == PLAN)
        .cloned()
        .collect();
    let sku = Sku::parse("TOTE-1").unwrap();
    let subscriptions: Vec<_> = visitor
        .subscriptions
        .iter()
        .map(|(status, holder)| {
            let (email, account) = match holder {
                Holder::Account => ("ada@example.com", Some(ACCOUNT_ID)),
                Holder::AccountBeforeEmailChange => ("ada.old@example.com", Some(ACCOUNT_ID)),
                Holder::OtherAccount => {
                    ("ada@example.com", Some("fedcba9876543210fedcba9876543210"))
                }
                Holder::Nobody => ("ada@example.com", None),
            };
            Subscription {
                account: account.map(str::to_owned),
                ..fixture_subscription(email, &sku, *status)
            }
        })
        .collect();
    let joined: Vec<String> = visitor.joined.iter().map(|id| (*id).to_owned()).collect();
    Viewer {
        account_id: Some(ACCOUNT_ID.into()),
        member_areas: open_areas(
            ACCOUNT_ID,
            &joined,
            &site.settings.member_areas,
            &plans,
            &subscriptions,
        ),
        unlocked,
        ..Viewer::default()
    }
}

/// The reference model: who may see a collection, written apart from the gate. A paid area
/// admits a member while one of their own subscriptions, whatever address it was bought
/// with, is paid up or being retried.
fn may_see(site: &Site, collection_index: usize, visitor: &Visitor) -> bool {
    let collection = &site.collections[collection_index];
    let paying = visitor.subscriptions.iter().any(|(status, holder)| {
        matches!(holder, Holder::Account | Holder::AccountBeforeEmailChange)
            && matches!(
                status,
                SubscriptionStatus::Active | SubscriptionStatus::PastDue
            )
    });
    match collection.permission_type {
        PermissionType::Public => true,
        PermissionType::PasswordProtected => visitor.unlocked.contains(collection.id.as_str()),
        PermissionType::MembersOnly => {
            visitor.signed_in
                && site.settings.member_areas.iter().any(|area| {
                    area.pages.contains(&collection.id)
                        && visitor.joined.contains(area.id.as_str())
                        && (area.id.as_str() == AREAS[0] || paying)
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
            access: if *id == AREAS[0] {
                MemberAreaAccess::Free
            } else {
                MemberAreaAccess::Paid {
                    plans: vec![PLAN.to_owned().try_into().unwrap()],
                }
            },
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

async fn check(locks: Vec<LockSpec>, visitor: Visitor) -> Result<(), TestCaseError> {
    let site = site(&locks);
    let repository = Arc::new(MemorySiteRepository::new());
    repository.replace_site(&site).await.unwrap();
    let pages = PageService::new(repository);
    let hidden_from = |visitor: &Visitor| {
        (0..site.collections.len())
            .filter(|index| !may_see(&site, *index, visitor))
            .map(|index| secret(site.collections[index].id.as_str()))
            .collect::<Vec<_>>()
    };
    let viewer = page_viewer(&site, &visitor);
    let hidden = hidden_from(&visitor);
    for path in paths(&site) {
        let shown = match pages.page(&path, &viewer).await {
            Ok(view) => format!("{view:?}"),
            Err(error) => format!("{error:?}"),
        };
        for word in &hidden {
            prop_assert!(
                !shown.contains(word.as_str()),
                "{path} showed {word} to {visitor:?}"
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
            "search showed {word} to {visitor:?}"
        );
    }
    let found_by_anyone = search(Viewer::default()).await;
    let anonymous = Visitor {
        signed_in: false,
        joined: BTreeSet::new(),
        subscriptions: Vec::new(),
        unlocked: BTreeSet::new(),
    };
    let hidden_from_anyone = hidden_from(&anonymous);
    let sitemap = format!("{:?}", pages.sitemap().await.unwrap());
    // Every collection's feed (only a public blog has one), and feeds asked for at paths
    // that name no collection.
    let mut feeds = String::new();
    for path in paths(&site) {
        let feed = pages.feed(&path).await.unwrap();
        if feed.is_some() {
            let index = site
                .collections
                .iter()
                .position(|collection| format!("/{}", collection.slug.as_str()) == path);
            prop_assert!(
                index.is_some_and(|index| may_see(&site, index, &anonymous)),
                "{path} has a feed though the model keeps it from anonymous readers"
            );
        }
        feeds.push_str(&format!("{feed:?}"));
    }
    for word in &hidden_from_anyone {
        prop_assert!(!feeds.contains(word.as_str()), "a feed showed {word}");
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
        visitor in visitor(),
    ) {
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        runtime.block_on(check(locks, visitor))?;
    }
}
