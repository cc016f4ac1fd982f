//! Each whole-site rule, broken once on an otherwise valid site.

use std::fmt;

use super::*;
use crate::catalog::{Product, Variant};
use crate::enums::{ItemStatus, ProductType};
use crate::ports::conformance::fixture_site;
use crate::site::{
    Collection, GallerySlide, Layout, MediaFile, NavLink, PermissionType, SafeHtml, Seo,
};

fn id<T: TryFrom<String>>(value: &str) -> T
where
    T::Error: fmt::Debug,
{
    T::try_from(value.to_owned()).unwrap()
}

fn image(path: &str) -> MediaRef {
    MediaRef {
        path: path.into(),
        alt: "An image".into(),
        width: 2,
        height: 1,
        version: None,
    }
}

fn block(block_id: &str, content: BlockContent) -> Block {
    Block {
        id: id(block_id),
        content,
    }
}

/// The conformance fixture with its product moved into a shop, as the rules require.
fn valid_site() -> Site {
    let mut site = fixture_site("Valid");
    let shop = Collection {
        id: id("shop"),
        collection_type: CollectionType::Products,
        title: "Shop".into(),
        slug: id("shop"),
        description: String::new(),
        permission_type: PermissionType::Public,
        body: Body::default(),
        seo: Seo::default(),
        enabled: true,
    };
    site.collections.push(shop);
    let tote = site
        .items
        .iter_mut()
        .find(|i| i.id.as_str() == "tote")
        .unwrap();
    tote.collection_id = id("shop");
    site
}

/// Puts `blocks` on the home page.
fn with_home_blocks(blocks: Vec<Block>) -> Site {
    let mut site = valid_site();
    site.collections[0].body.layout = Layout::stacked(blocks).unwrap();
    site
}

fn problems(site: &Site) -> Vec<String> {
    site.problems().iter().map(ToString::to_string).collect()
}

#[test]
fn the_valid_site_has_no_problems() {
    assert_eq!(problems(&valid_site()), Vec::<String>::new());
    assert_eq!(valid_site().validate(), Ok(()));
}

#[test]
fn the_home_collection_must_exist_and_be_enabled() {
    let mut site = valid_site();
    site.settings.home_collection = id("drafts");
    assert_eq!(
        problems(&site),
        ["settings.home_collection: there is no enabled collection with id 'drafts'"]
    );
}

#[test]
fn navigation_links_must_lead_somewhere() {
    let mut site = valid_site();
    let link = |href: &str| NavLink {
        title: "x".into(),
        href: href.into(),
    };
    site.navigation.main = vec![
        link("/"),
        link("/journal"),
        link("/journal/first?ref=nav#top"),
        link("/shop/tote"),
        link("/media/a.png"),
        link("https://elsewhere.example/x"),
        link("mailto:hello@example.com"),
        link("#newsletter"),
        link("/search?q=mug"),
        link("/cart"),
    ];
    assert_eq!(problems(&site), Vec::<String>::new());
    site.navigation.footer = vec![
        link("/drafts"),
        link("/journal/draft"),
        link("/home/first"),
        link("/media/b.png"),
        link("javascript:alert(1)"),
        link("journal"),
        link("/search/deep"),
    ];
    assert_eq!(
        problems(&site),
        [
            "navigation.footer[0].href: '/drafts' leads to no page or file of this site",
            "navigation.footer[1].href: '/journal/draft' leads to no page or file of this site",
            "navigation.footer[2].href: '/home/first' leads to no page or file of this site",
            "navigation.footer[3].href: '/media/b.png' leads to no page or file of this site",
            "navigation.footer[4].href: expected a site path starting with '/' or an http, \
             https, mailto or tel URL, found 'javascript:alert(1)'",
            "navigation.footer[5].href: expected a site path starting with '/' or an http, \
             https, mailto or tel URL, found 'journal'",
            "navigation.footer[6].href: '/search/deep' leads to no page or file of this site",
        ]
    );
}

#[test]
fn summary_and_product_blocks_must_resolve() {
    let summary = |collection: &str| BlockContent::Summary {
        collection: id(collection),
        title: None,
        design: crate::site::SummaryDesign::Grid,
        limit: 3,
    };
    let product = |item: &str| BlockContent::Product { item: id(item) };
    let site = with_home_blocks(vec![
        block("ok-summary", summary("journal")),
        block("ok-product", product("tote")),
        block("summary-of-page", summary("home")),
        block("summary-of-nothing", summary("blog")),
        block("product-post", product("post-first")),
        block("product-draft", product("post-draft")),
    ]);
    assert_eq!(
        problems(&site),
        [
            "block 'summary-of-page' collection: collection 'home' is a page, which lists no items",
            "block 'summary-of-nothing' collection: there is no enabled collection with id 'blog'",
            "block 'product-post' item: item 'post-first' is not a product",
            "block 'product-draft' item: there is no published item with id 'post-draft'",
        ]
    );
}

#[test]
fn media_references_must_name_stored_files() {
    let mut site = with_home_blocks(vec![
        block(
            "picture",
            BlockContent::Image {
                image: image("/media/missing.png"),
                caption: None,
                link: Some("/nowhere".into()),
            },
        ),
        block(
            "gallery",
            BlockContent::Gallery {
                design: "grid".into(),
                slides: ["a", "a"]
                    .into_iter()
                    .map(|slide| GallerySlide {
                        id: slide.into(),
                        image: image("/media/a.png"),
                        title: None,
                        caption: None,
                        video: None,
                        link: None,
                    })
                    .collect(),
                lightbox: true,
                autoplay: false,
                options: Default::default(),
            },
        ),
    ]);
    site.settings.logo = Some(MediaRef {
        width: 0,
        ..image("/media/a.png")
    });
    site.media.push(MediaFile {
        path: "/files/x.png".into(),
        content_type: "image/png".into(),
        bytes: vec![],
    });
    assert_eq!(
        problems(&site),
        [
            "settings.logo: image '/media/a.png' has no width or height",
            "block 'picture' image: there is no media file '/media/missing.png'",
            "block 'picture' link: '/nowhere' leads to no page or file of this site",
            "block 'gallery' slides[1].id: the slide id 'a' is used twice in one gallery",
            "media file '/files/x.png': a media path starts with /media/, found '/files/x.png'",
        ]
    );
}

#[test]
fn ids_slugs_and_block_ids_are_unique() {
    let html = || BlockContent::Html {
        html: SafeHtml::sanitize("<p>x</p>"),
    };
    let mut site = with_home_blocks(vec![block("intro", html()), block("intro", html())]);
    let mut copy = site.collections[1].clone();
    copy.body = Body::default();
    site.collections.push(copy);
    let mut twin = site.items[0].clone();
    twin.id = id("post-other");
    site.items.push(twin);
    assert_eq!(
        problems(&site),
        [
            "block 'intro': the block id 'intro' is used twice",
            "collection 'journal' id: the collection id 'journal' is used twice",
            "collection 'journal' slug: the slug 'journal' is used by two collections",
            "item 'post-other' slug: the slug 'second' is used by two items of the same collection",
        ]
    );
}

#[test]
fn products_live_in_shops_and_only_there() {
    let mut site = valid_site();
    site.items[0].product = site.items[4].product.clone();
    site.items[4].product = None;
    assert_eq!(
        problems(&site),
        [
            "item 'post-second' product: only items of a products collection may be products",
            "item 'tote' product: an item of a products collection needs a product",
        ]
    );
    let mut site = valid_site();
    site.items[0].collection_id = id("home");
    assert_eq!(
        problems(&site),
        ["item 'post-second' collection_id: collection 'home' is a page, which lists no items"]
    );
}

#[test]
fn skus_are_unique_per_site_and_prices_in_range() {
    let mut site = valid_site();
    let mut second = site.items[4].clone();
    second.id = id("bag");
    second.slug = id("bag");
    let mut variant: Variant = second.product.as_ref().unwrap().variants[0].clone();
    variant.sale_price = -1;
    second.product = Some(Product {
        product_type: ProductType::Physical,
        variants: vec![variant],
        subscription_plan: None,
        form: None,
    });
    site.items.push(second);
    assert_eq!(
        problems(&site),
        [
            "item 'bag' product.variants[0].sale_price: expected an integer number of cents \
             from 0 to 100000000, found -1",
            "item 'bag' product.variants[0].sku: SKU 'TOTE-1' is already used by item 'tote'",
        ]
    );
}

#[test]
fn collection_and_label_limits_of_the_spec_hold() {
    let mut site = valid_site();
    site.items[0].tags = vec!["t".repeat(MAX_TAG_LEN + 1)];
    site.items[0].categories = vec!["c".repeat(MAX_CATEGORY_LEN)];
    let template = site.items[1].clone();
    for n in 0..MAX_ITEMS_PER_COLLECTION {
        let mut item = template.clone();
        item.id = id(&format!("bulk-{n}"));
        item.slug = id(&format!("bulk-{n}"));
        item.status = ItemStatus::Draft;
        site.items.push(item);
    }
    assert_eq!(
        problems(&site),
        [
            format!(
                "item 'post-second' tags[0]: '{}' is longer than 50 characters",
                "t".repeat(51)
            ),
            "collection 'journal': the collection holds 254 items; at most 250 are allowed"
                .to_owned(),
        ]
    );
}

#[test]
fn calendars_audio_tracks_and_first_party_embeds_must_resolve() {
    use crate::site::{AudioBlock, AudioTrack, CalendarBlock, EmbedBlock};
    let calendar = |collection: &str| {
        BlockContent::Calendar(CalendarBlock {
            collection: id(collection),
            title: None,
            opening_month: None,
        })
    };
    let audio = BlockContent::Audio(AudioBlock {
        title: "Kiln sounds".into(),
        artist: None,
        tracks: ["/media/hum.mp3", "/media/a.png", "/media/gone.ogg"]
            .into_iter()
            .map(|file| AudioTrack {
                title: "A track".into(),
                file: file.into(),
            })
            .collect(),
    });
    let embed = |url: &str| {
        BlockContent::Embed(EmbedBlock {
            url: url.into(),
            title: "Hours".into(),
            height: 400,
            essential: false,
        })
    };
    let mut site = with_home_blocks(vec![
        block("events", calendar("journal")),
        block("missing-events", calendar("nowhere")),
        block("sounds", audio),
        block("own-page", embed("/journal")),
        block("lost-page", embed("/nowhere")),
        block("elsewhere", embed("https://hours.example/embed")),
    ]);
    site.media.push(MediaFile {
        path: "/media/hum.mp3".into(),
        content_type: "audio/mpeg".into(),
        bytes: b"ID3".to_vec(),
    });
    assert_eq!(
        problems(&site),
        [
            "block 'missing-events' collection: there is no enabled collection with id 'nowhere'",
            "block 'sounds' tracks[1].file: media file '/media/a.png' is not an .mp3, .ogg or .wav audio file",
            "block 'sounds' tracks[2].file: there is no media file '/media/gone.ogg'",
            "block 'lost-page' url: '/nowhere' leads to no page or file of this site",
        ]
    );
}
