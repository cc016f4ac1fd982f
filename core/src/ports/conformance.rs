//! The conformance suite every [`SiteRepository`] must pass: the in-memory one, SQLite and
//! PostgreSQL run the same assertions through [`site_repository_conformance!`].

use crate::catalog::{Product, Sku, Variant};
use crate::enums::{CollectionType, ItemStatus, ItemType, ProductType, WebsiteStatus, WebsiteType};
use crate::money::Currency;
use crate::ports::{ItemQuery, SiteRepository};
use crate::site::*;

/// Generates one `#[tokio::test]` per conformance check; `$make` builds a fresh, empty
/// repository (it may use `.await`).
#[macro_export]
macro_rules! site_repository_conformance {
    ($make:expr) => {
        $crate::site_repository_conformance!(@tests $make;
            a_new_store_is_empty,
            a_replaced_site_reads_back_whole,
            replacing_a_site_removes_the_old_content,
            collections_are_found_by_slug_and_id_when_enabled,
            items_are_listed_published_only_in_position_order,
            item_queries_page_through_results,
            items_are_found_by_slug_within_their_collection,
            media_is_served_by_path,
            the_revision_changes_with_every_replacement_only,
        );
    };
    (@tests $make:expr; $($name:ident),* $(,)?) => {
        $(
            #[tokio::test]
            async fn $name() {
                let repository = $make;
                $crate::ports::conformance::$name(&repository).await;
            }
        )*
    };
}

fn id<T: TryFrom<String>>(value: &str) -> T
where
    T::Error: std::fmt::Debug,
{
    T::try_from(value.to_owned()).expect("fixture ids are valid")
}

/// A small site exercising every stored shape.
pub fn fixture_site(title: &str) -> Site {
    let home = Collection {
        id: id("home"),
        collection_type: CollectionType::Page,
        title: "Home".into(),
        slug: id("home"),
        description: "Welcome".into(),
        permission_type: PermissionType::Public,
        body: Body {
            raw: false,
            layout: Layout::stacked(vec![Block {
                id: id("intro"),
                content: BlockContent::Html {
                    html: SafeHtml::sanitize("<h1>Hello</h1>"),
                },
            }])
            .expect("fixture layout is valid"),
        },
        seo: Seo::default(),
        enabled: true,
    };
    let blog = Collection {
        id: id("journal"),
        collection_type: CollectionType::Generic,
        title: "Journal".into(),
        slug: id("journal"),
        description: String::new(),
        permission_type: PermissionType::Public,
        body: Body::default(),
        seo: Seo::default(),
        enabled: true,
    };
    let hidden = Collection {
        id: id("drafts"),
        slug: id("drafts"),
        title: "Drafts".into(),
        enabled: false,
        ..blog.clone()
    };
    let post = |slug: &str, position: u32, published_on: i64, status: ItemStatus| Item {
        id: id(&format!("post-{slug}")),
        collection_id: id("journal"),
        slug: id(slug),
        title: format!("Post {slug}"),
        record_type: ItemType::Text,
        status,
        published_on,
        position,
        excerpt: SafeHtml::sanitize("<p>An excerpt</p>"),
        body: Body::default(),
        author: Some("Ada".into()),
        tags: vec!["news".into()],
        categories: vec![],
        image: Some(MediaRef {
            path: "/media/a.png".into(),
            alt: "A".into(),
            width: 2,
            height: 1,
            version: None,
        }),
        seo: Seo::default(),
        product: None,
    };
    let mut product = post("tote", 0, 1_700_000_000_000, ItemStatus::Published);
    product.id = id("tote");
    product.record_type = ItemType::StoreItem;
    product.product = Some(
        Product::new(
            ProductType::Physical,
            vec![Variant {
                sku: Sku::parse("TOTE-1").expect("valid sku"),
                price: 2500,
                sale_price: 2000,
                on_sale: true,
                qty_in_stock: 3,
                unlimited: false,
                option_values: vec![],
            }],
        )
        .expect("valid product"),
    );
    Site {
        website: Website {
            id: id("site"),
            identifier: "fixture".into(),
            base_url: "http://localhost:8080".into(),
            website_type: WebsiteType::Commerce,
            site_status: WebsiteStatus::Paid,
            developer_mode: false,
            cloneable: false,
            typekit_id: None,
        },
        settings: WebsiteSettings {
            site_title: title.into(),
            site_description: "A fixture".into(),
            locale: "en-US".into(),
            home_collection: id("home"),
            logo: None,
            social_image: None,
            footer_text: "Footer".into(),
            comments_enabled: false,
            disqus_shortname: None,
            use_escape_key_to_login: false,
            store: StoreSettings {
                selected_currency: Currency::default(),
                ..StoreSettings::default()
            },
            store_rules: crate::cart::SiteStoreRules::default(),
            cookies: CookieSettings::default(),
            cookie_banner: crate::site::CookieBannerLook {
                text: Some(crate::site::SafeHtml::sanitize(
                    "<p>We bake <b>cookies</b>.</p>",
                )),
                variant: Some("POPUP".into()),
                ..Default::default()
            },
            popup_overlay: PopupOverlaySettings::default(),
            template: TemplateInfo {
                id: "t".into(),
                version: "1".into(),
                website_id: "tw".into(),
                website_identifier: "template".into(),
            },
            google_fonts: vec![],
            languages: Default::default(),
            member_areas: vec![],
            page_passwords: vec![],
            information_bar: None,
            experiments: Default::default(),
        },
        navigation: Navigation {
            main: vec![NavLink {
                title: "Journal".into(),
                href: "/journal".into(),
            }],
            footer: vec![],
            ..Navigation::default()
        },
        collections: vec![home, blog, hidden],
        items: vec![
            post("second", 1, 1_700_000_000_000, ItemStatus::Published),
            post("first", 0, 1_600_000_000_000, ItemStatus::Published),
            post("later", 1, 1_800_000_000_000, ItemStatus::Published),
            post("draft", 0, 1_800_000_000_000, ItemStatus::Draft),
            product,
        ],
        media: vec![MediaFile {
            path: "/media/a.png".into(),
            content_type: "image/png".into(),
            bytes: vec![137, 80, 78, 71, 0, 255],
        }],
    }
}

pub async fn a_new_store_is_empty(repository: &dyn SiteRepository) {
    assert!(repository.is_empty().await.unwrap());
    assert!(repository.profile().await.unwrap().is_none());
    assert!(repository.collections().await.unwrap().is_empty());
}

pub async fn a_replaced_site_reads_back_whole(repository: &dyn SiteRepository) {
    let site = fixture_site("First");
    repository.replace_site(&site).await.unwrap();
    assert!(!repository.is_empty().await.unwrap());
    let profile = repository.profile().await.unwrap().unwrap();
    assert_eq!(profile.website, site.website);
    assert_eq!(profile.settings, site.settings);
    assert_eq!(profile.navigation, site.navigation);
    let home = repository.collection(&id("home")).await.unwrap().unwrap();
    assert_eq!(home, site.collections[0]);
    let tote = repository.item(&id("tote")).await.unwrap().unwrap();
    assert_eq!(
        Some(&tote),
        site.items.iter().find(|i| i.id.as_str() == "tote")
    );
}

pub async fn replacing_a_site_removes_the_old_content(repository: &dyn SiteRepository) {
    repository
        .replace_site(&fixture_site("First"))
        .await
        .unwrap();
    let mut second = fixture_site("Second");
    second.collections.truncate(1);
    second.items.clear();
    second.media.clear();
    repository.replace_site(&second).await.unwrap();
    let profile = repository.profile().await.unwrap().unwrap();
    assert_eq!(profile.settings.site_title, "Second");
    assert!(
        repository
            .collection(&id("journal"))
            .await
            .unwrap()
            .is_none()
    );
    assert!(repository.item(&id("tote")).await.unwrap().is_none());
    assert!(repository.media("/media/a.png").await.unwrap().is_none());
}

pub async fn collections_are_found_by_slug_and_id_when_enabled(repository: &dyn SiteRepository) {
    repository
        .replace_site(&fixture_site("First"))
        .await
        .unwrap();
    let journal = repository.collection_by_slug(&id("journal")).await.unwrap();
    assert_eq!(journal.map(|c| c.title), Some("Journal".to_owned()));
    assert!(
        repository
            .collection_by_slug(&id("drafts"))
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        repository
            .collection(&id("drafts"))
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        repository
            .collection_by_slug(&id("nowhere"))
            .await
            .unwrap()
            .is_none()
    );
    let slugs: Vec<String> = repository
        .collections()
        .await
        .unwrap()
        .into_iter()
        .map(|c| c.slug.to_string())
        .collect();
    assert_eq!(slugs, ["home", "journal"]);
}

pub async fn items_are_listed_published_only_in_position_order(repository: &dyn SiteRepository) {
    repository
        .replace_site(&fixture_site("First"))
        .await
        .unwrap();
    let slugs: Vec<String> = repository
        .items(&id("journal"), ItemQuery::first(10))
        .await
        .unwrap()
        .into_iter()
        .map(|i| i.slug.to_string())
        .collect();
    // Position first; within a position the newest first. Drafts never appear.
    assert_eq!(slugs, ["tote", "first", "later", "second"]);
}

pub async fn item_queries_page_through_results(repository: &dyn SiteRepository) {
    repository
        .replace_site(&fixture_site("First"))
        .await
        .unwrap();
    let page = repository
        .items(
            &id("journal"),
            ItemQuery {
                limit: 2,
                offset: 1,
            },
        )
        .await
        .unwrap();
    let slugs: Vec<&str> = page.iter().map(|i| i.slug.as_str()).collect();
    assert_eq!(slugs, ["first", "later"]);
    let empty = repository
        .items(
            &id("journal"),
            ItemQuery {
                limit: 2,
                offset: 10,
            },
        )
        .await
        .unwrap();
    assert!(empty.is_empty());
}

pub async fn items_are_found_by_slug_within_their_collection(repository: &dyn SiteRepository) {
    repository
        .replace_site(&fixture_site("First"))
        .await
        .unwrap();
    let found = repository
        .item_by_slug(&id("journal"), &id("first"))
        .await
        .unwrap();
    assert_eq!(found.map(|i| i.title), Some("Post first".to_owned()));
    assert!(
        repository
            .item_by_slug(&id("home"), &id("first"))
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        repository
            .item_by_slug(&id("journal"), &id("draft"))
            .await
            .unwrap()
            .is_none()
    );
}

pub async fn media_is_served_by_path(repository: &dyn SiteRepository) {
    repository
        .replace_site(&fixture_site("First"))
        .await
        .unwrap();
    let file = repository.media("/media/a.png").await.unwrap().unwrap();
    assert_eq!(file.content_type, "image/png");
    assert_eq!(file.bytes, vec![137, 80, 78, 71, 0, 255]);
    assert!(
        repository
            .media("/media/missing.png")
            .await
            .unwrap()
            .is_none()
    );
}

pub async fn the_revision_changes_with_every_replacement_only(repository: &dyn SiteRepository) {
    let before = repository.revision().await.unwrap();
    assert_eq!(before, 0, "nothing imported yet");
    repository
        .replace_site(&fixture_site("First"))
        .await
        .unwrap();
    let first = repository.revision().await.unwrap();
    assert_ne!(first, before);
    repository.profile().await.unwrap();
    assert_eq!(
        repository.revision().await.unwrap(),
        first,
        "reads change nothing"
    );
    repository
        .replace_site(&fixture_site("First"))
        .await
        .unwrap();
    let second = repository.revision().await.unwrap();
    assert!(
        second != first && second != before,
        "the same site again is still a change"
    );
}
