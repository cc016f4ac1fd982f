//! The demo storefront bundle in `adapters/demo-site` imports cleanly and every page it
//! promises resolves through the page service.

use std::path::Path;
use std::sync::Arc;

use vitrine_core::bundle::{self, BundleFiles};
use vitrine_core::enums::{CollectionType, PageType, ProductType};
use vitrine_core::pages::{PageContent, PageService, Viewer};
use vitrine_core::ports::memory::MemorySiteRepository;
use vitrine_core::site::{BlockContent, MediaRef, Site};

/// Reads a directory into bundle files, as the binary does.
fn read_dir(root: &Path, dir: &Path, files: &mut BundleFiles) {
    for entry in std::fs::read_dir(dir).expect("the demo bundle is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            read_dir(root, &path, files);
        } else {
            let relative = path.strip_prefix(root).expect("inside the bundle");
            let key = relative
                .components()
                .map(|part| part.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            files.insert(key, std::fs::read(&path).expect("a readable file"));
        }
    }
}

fn demo_files() -> BundleFiles {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../adapters/demo-site");
    let mut files = BundleFiles::new();
    read_dir(&root, &root, &mut files);
    files
}

fn demo_site() -> Site {
    bundle::parse(&demo_files())
        .unwrap_or_else(|error| panic!("the demo bundle is refused: {error}"))
}

/// Every image reference in the site, with where it is.
fn images(site: &Site) -> Vec<(String, MediaRef)> {
    let mut found = Vec::new();
    let settings = [&site.settings.logo, &site.settings.social_image];
    found.extend(
        settings
            .into_iter()
            .flatten()
            .map(|i| ("settings".to_owned(), i.clone())),
    );
    let bodies = site
        .collections
        .iter()
        .map(|c| (c.slug.to_string(), &c.body))
        .chain(site.items.iter().map(|i| (i.slug.to_string(), &i.body)));
    for (owner, body) in bodies {
        for block in body.layout.blocks() {
            match &block.content {
                BlockContent::Image { image, .. } => found.push((owner.clone(), image.clone())),
                BlockContent::Video {
                    thumbnail: Some(image),
                    ..
                } => {
                    found.push((owner.clone(), image.clone()));
                }
                BlockContent::Gallery { slides, .. } => {
                    found.extend(slides.iter().map(|s| (owner.clone(), s.image.clone())));
                }
                _ => {}
            }
        }
    }
    for item in &site.items {
        found.extend(
            item.image
                .iter()
                .map(|i| (item.slug.to_string(), i.clone())),
        );
    }
    found
}

/// The media paths the audio blocks play.
fn audio_tracks(site: &vitrine_core::site::Site) -> Vec<String> {
    site.collections
        .iter()
        .flat_map(|collection| collection.body.layout.blocks())
        .filter_map(|block| match &block.content {
            BlockContent::Audio(audio) => Some(audio.tracks.iter().map(|track| track.file.clone())),
            _ => None,
        })
        .flatten()
        .collect()
}

#[test]
fn the_demo_is_a_small_shop_with_every_kind_of_product() {
    let site = demo_site();
    let shop = site
        .collections
        .iter()
        .find(|c| c.collection_type == CollectionType::Products)
        .expect("a shop");
    let products: Vec<_> = site
        .items
        .iter()
        .filter(|i| i.collection_id == shop.id)
        .filter_map(|i| i.product.as_ref())
        .collect();
    for product_type in [
        ProductType::Physical,
        ProductType::Digital,
        ProductType::Service,
        ProductType::GiftCard,
    ] {
        assert!(
            products.iter().any(|p| p.product_type == product_type),
            "{product_type}"
        );
    }
    assert!(products.iter().any(|p| p.price_display().on_sale));
    assert!(products.iter().any(|p| p.price_display().sold_out));
    assert!(
        products
            .iter()
            .any(|p| p.variants.iter().any(|v| v.option_values.len() == 2))
    );
}

#[test]
fn every_demo_image_has_alt_text_and_the_media_stays_small() {
    let site = demo_site();
    let images = images(&site);
    assert!(images.len() > 20);
    for (owner, image) in &images {
        assert!(
            !image.alt.trim().is_empty(),
            "{owner}: {} has no alt text",
            image.path
        );
    }
    for file in &site.media {
        // The `-large` photographs show the image pipeline at 3000 px and more; the rest are
        // small WebP files.
        let cap = if file.path.contains("-large.") {
            500_000
        } else {
            80_000
        };
        assert!(
            file.bytes.len() < cap,
            "{} has {} bytes",
            file.path,
            file.bytes.len()
        );
        let played = audio_tracks(&site).contains(&file.path);
        assert!(
            played || images.iter().any(|(_, image)| image.path == file.path),
            "{} is unused",
            file.path
        );
    }
    let total: usize = site.media.iter().map(|f| f.bytes.len()).sum();
    assert!(total < 2_000_000, "the demo's media weigh {total} bytes");
}

#[tokio::test]
async fn every_demo_page_resolves_after_import() {
    let repository = Arc::new(MemorySiteRepository::new());
    let summary = bundle::import(&demo_files(), repository.as_ref())
        .await
        .unwrap();
    assert_eq!(summary.collections, 14);
    assert_eq!(summary.products, 12);
    let pages = PageService::new(repository);
    let viewer = Viewer::default();
    let expected = [
        ("/", PageType::Page, "Terraluz Studio"),
        ("/shop", PageType::MainContent, "Shop — Terraluz Studio"),
        (
            "/gallery-layouts",
            PageType::Page,
            "Gallery layouts — Terraluz Studio",
        ),
        (
            "/gallery-layouts/slides/grid-glaze-drips",
            PageType::Page,
            "Glaze drips — Gallery layouts — Terraluz Studio",
        ),
        (
            "/shop/sea-glass-mug",
            PageType::ContentItem,
            "Sea Glass Mug — Terraluz Studio",
        ),
        (
            "/shop/wheel-throwing-workshop",
            PageType::ContentItem,
            "Wheel Throwing Workshop — Terraluz Studio",
        ),
        (
            "/shop/studio-clay-club",
            PageType::ContentItem,
            "Studio Clay Club — Terraluz Studio",
        ),
        ("/gallery", PageType::Page, "Gallery — Terraluz Studio"),
        (
            "/journal",
            PageType::MainContent,
            "Journal — Terraluz Studio",
        ),
        (
            "/journal/lisbon-light",
            PageType::ContentItem,
            "What Lisbon Light Does to a Glaze — Terraluz Studio",
        ),
        ("/about", PageType::Page, "About — Terraluz Studio"),
        ("/contact", PageType::Page, "Contact — Terraluz Studio"),
        (
            "/events",
            PageType::MainContent,
            "Markets and events — Terraluz Studio",
        ),
        (
            "/shipping",
            PageType::Page,
            "Shipping & returns — Terraluz Studio",
        ),
        (
            "/widgets",
            PageType::Page,
            "Display widgets — Terraluz Studio",
        ),
        ("/blocks", PageType::Page, "More blocks — Terraluz Studio"),
        (
            "/studio-notes",
            PageType::MemberAreaAccessDenied,
            "This page available only site members — Terraluz Studio",
        ),
        (
            "/kiln-log",
            PageType::LockScreen,
            "This page is locked — Terraluz Studio",
        ),
        (
            "/glaze-lab",
            PageType::MemberAreaAccessDenied,
            "This page available only site members — Terraluz Studio",
        ),
        (
            "/nowhere",
            PageType::NotFound,
            "Page not found — Terraluz Studio",
        ),
    ];
    for (path, page_type, title) in expected {
        let view = pages.page(path, &viewer).await.unwrap();
        assert_eq!(
            (view.page_type, view.title.as_str()),
            (page_type, title),
            "{path}"
        );
    }

    let home = pages.page("/", &viewer).await.unwrap();
    let summaries: Vec<usize> = home
        .resolved
        .summaries
        .values()
        .map(|s| s.items.len())
        .collect();
    assert_eq!(summaries, [4, 3], "featured products, then recent posts");
    let journal = pages.page("/journal", &viewer).await.unwrap();
    let PageContent::ItemList { items, .. } = journal.content else {
        panic!("the journal lists its posts");
    };
    let newest_first: Vec<&str> = items.iter().map(|i| i.slug.as_str()).collect();
    assert_eq!(
        newest_first,
        [
            "caring-for-handmade-ceramics",
            "lisbon-light",
            "notes-on-glaze-tests",
            "first-firing-of-the-year",
        ]
    );
    // A slide's own page shows its picture as the page's image; an unknown slide is not found.
    let slide = pages
        .page("/gallery-layouts/slides/grid-glaze-drips", &viewer)
        .await
        .unwrap();
    assert_eq!(
        slide.image.map(|image| image.path),
        Some("/media/gallery-glaze-drips.webp".to_owned())
    );
    let missing = pages
        .page("/gallery-layouts/slides/no-such-slide", &viewer)
        .await
        .unwrap();
    assert_eq!(missing.page_type, PageType::NotFound);
    let sitemap = pages.sitemap().await.unwrap();
    assert_eq!(
        sitemap.len(),
        (11 + 12 + 4 + 3) * 2,
        "collections, products, posts, events, in English and French"
    );
    // The French translation serves every page under /fr, in French where it has the texts.
    let about = pages.page("/fr/about", &viewer).await.unwrap();
    assert_eq!(about.page_type, PageType::Page);
    assert_eq!(about.path, "/fr/about");
    assert_eq!(about.profile.settings.locale, "fr-FR");
    assert!(about.title.starts_with("À propos — "), "{}", about.title);
    assert_eq!(about.profile.navigation.main[0].title, "Boutique");
    assert_eq!(about.profile.navigation.main[0].href, "/fr/shop");
}

#[test]
fn the_demo_has_a_popup_with_a_newsletter_that_waits_a_week() {
    let site = demo_site();
    let popup = &site.settings.popup_overlay;
    assert!(vitrine_core::popup::popup_has_newsletter(popup));
    assert_eq!(popup.display_frequency, 7);
    assert!(popup.show_until_signup);
    assert_eq!(popup.content.title, "Studio letters");
    // The body is Markdown, rendered and sanitised like any owner text.
    assert!(
        popup
            .content
            .body
            .as_str()
            .starts_with("<p>One short letter a month")
    );
}

#[test]
fn the_demo_mug_asks_for_an_engraving_and_the_jug_for_gift_options() {
    let site = demo_site();
    let form_of = |title: &str| {
        site.items
            .iter()
            .find(|item| item.title == title)
            .and_then(|item| item.product.as_ref()?.form.clone())
            .unwrap_or_else(|| panic!("{title} has a form"))
    };
    let mug = form_of("Sea Glass Mug");
    assert_eq!(mug.title, "Engraving");
    assert!(
        mug.fields.iter().all(|field| !field.required),
        "the mug is bought without an engraving too"
    );
    let jug = form_of("Moss Pouring Jug");
    let ids: Vec<&str> = jug.fields.iter().map(|field| field.id.as_str()).collect();
    assert_eq!(ids, ["gift-wrap", "gift-message"]);
    assert!(jug.fields[0].required);
    let others = site
        .items
        .iter()
        .filter_map(|item| item.product.as_ref())
        .filter(|product| product.form.is_some())
        .count();
    assert_eq!(
        others, 2,
        "the gift card's recipient details are not a product form"
    );
}

#[tokio::test]
async fn the_demo_tests_its_home_headline_and_toggles_the_free_shipping_note() {
    use vitrine_core::experiments::{
        Assignment, ExperimentContext, ExperimentType, apply_variants, is_feature_enabled,
    };
    let experiments = demo_site().settings.experiments;
    let headline = experiments.get("home-headline").expect("the headline test");
    assert_eq!(headline.experiment_type, ExperimentType::AbTest);
    assert_eq!(headline.pages, vec!["/".to_owned()]);
    let toggle = experiments.get("free-shipping-note").expect("the toggle");
    assert_eq!(toggle.experiment_type, ExperimentType::FeatureToggle);

    let repository = Arc::new(MemorySiteRepository::new());
    bundle::import(&demo_files(), repository.as_ref())
        .await
        .unwrap();
    let service = PageService::new(repository);
    let chosen = |name: &str, experiment_type, variant: &str| Assignment {
        context: ExperimentContext {
            name: name.to_owned(),
            experiment_type,
            variant: variant.to_owned(),
            segment_name: None,
            contains_error: false,
        },
        error: None,
        exposed: true,
        cookieless: false,
    };
    let heading = |view: &vitrine_core::pages::PageView| match &view.content {
        PageContent::Layout { collection } | PageContent::ItemList { collection, .. } => collection
            .body
            .layout
            .blocks()
            .find(|block| block.id.as_str() == "home-headline")
            .map(|block| format!("{:?}", block.content)),
        _ => None,
    };
    let mut home = service.page("/", &Viewer::default()).await.unwrap();
    let control = heading(&home).expect("the headline block");
    assert!(
        control.contains("Made slowly, for everyday tables"),
        "{control}"
    );
    apply_variants(
        &mut home,
        &experiments,
        &[chosen("home-headline", ExperimentType::AbTest, "warm")],
    );
    let warm = heading(&home).expect("the replaced block keeps its id");
    assert!(warm.contains("Stoneware for long breakfasts"), "{warm}");
    assert_eq!(home.context.experiments[0].variant, "warm");

    let mut shop = service.page("/shop", &Viewer::default()).await.unwrap();
    let on = chosen("free-shipping-note", ExperimentType::FeatureToggle, "true");
    assert!(is_feature_enabled(&on.context));
    let note = |view: &vitrine_core::pages::PageView| match &view.content {
        PageContent::ItemList { collection, .. } => collection
            .body
            .layout
            .blocks()
            .any(|block| block.id.as_str() == "free-shipping-note"),
        _ => false,
    };
    assert!(note(&shop));
    apply_variants(
        &mut shop,
        &experiments,
        &[chosen(
            "free-shipping-note",
            ExperimentType::FeatureToggle,
            "false",
        )],
    );
    assert!(!note(&shop), "the toggle off hides the note");
}
