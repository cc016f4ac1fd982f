//! Broken bundles and the exact message each is refused with, plus the import's
//! all-or-nothing guarantee.

use crate::bundle::{BundleFiles, ImportError, ImportSummary, import, parse};
use crate::enums::{CollectionType, ItemType, ProductType};
use crate::ports::SiteRepository;
use crate::ports::memory::MemorySiteRepository;
use crate::site::{BlockContent, MapLocation, MapStyle, MapUiOptions, Site};
use crate::widgets::{
    PopupKind, TextEffect, TextEffectAnimation, TextEffectDirection, TextEffectLinecap,
    TextEffectShape,
};

/// A 4x3 PNG header: all a size probe reads.
fn png(width: u32, height: u32) -> Vec<u8> {
    let mut png = vec![0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13];
    png.extend_from_slice(b"IHDR");
    png.extend_from_slice(&width.to_be_bytes());
    png.extend_from_slice(&height.to_be_bytes());
    png.extend_from_slice(&[8, 6, 0, 0, 0, 0, 0, 0, 0]);
    png
}

const SITE: &str = r#"
[website]
identifier = "tiny-shop"
base_url = "https://tiny.example"
type = "commerce"

[settings]
title = "Tiny Shop"
home = "home"
logo = { src = "/media/logo.png", alt = "Tiny Shop" }

[settings.store]
currency = "EUR"
measurement_standard = "metric"

[[navigation.main]]
title = "Shop"
href = "/shop"

[[navigation.footer]]
title = "First post"
href = "/journal/first-post"
"#;

const HOME: &str = r#"
type = "page"
title = "Home"

[[blocks]]
type = "image"
image = { src = "/media/logo.png", alt = "A dot" }

[[blocks]]
type = "summary"
collection = "journal"

[[blocks]]
type = "product"
item = "shop/mug"
"#;

const JOURNAL: &str = "type = \"generic\"\ntitle = \"Journal\"\n";
const SHOP: &str = "type = \"products\"\ntitle = \"Shop\"\n";

const POST: &str = r#"+++
title = "First post"
published = 2025-03-14T09:30:00Z
tags = ["news"]
+++

Hello from the *studio*.
"#;

const MUG: &str = r#"
title = "Mug"
published = 2025-01-01

[product]
type = "physical"
options = ["Colour"]

[[product.variants]]
sku = "MUG-1"
price = 2800
stock = 3
options = { Colour = "Sand" }
"#;

fn valid() -> BundleFiles {
    let mut files = BundleFiles::new();
    let text = |path: &str, body: &str| (path.to_owned(), body.as_bytes().to_vec());
    files.extend([
        text("site.toml", SITE),
        text("README.md", "Not part of the site."),
        text("collections/home.toml", HOME),
        text("collections/journal.toml", JOURNAL),
        text("collections/journal/first-post.md", POST),
        text("collections/shop.toml", SHOP),
        text("collections/shop/mug.toml", MUG),
    ]);
    files.insert("media/logo.png".to_owned(), png(4, 3));
    files
}

/// Applies a textual change to one file of the valid bundle.
fn edited(path: &str, from: &str, to: &str) -> BundleFiles {
    let mut files = valid();
    let text = String::from_utf8(files[path].clone()).unwrap();
    assert!(text.contains(from), "{path} does not contain {from:?}");
    files.insert(path.to_owned(), text.replacen(from, to, 1).into_bytes());
    files
}

fn added(path: &str, body: &str) -> BundleFiles {
    let mut files = valid();
    files.insert(path.to_owned(), body.as_bytes().to_vec());
    files
}

fn removed(path: &str) -> BundleFiles {
    let mut files = valid();
    files.remove(path);
    files
}

fn parsed() -> Site {
    parse(&valid()).unwrap_or_else(|error| panic!("the valid bundle is refused: {error}"))
}

#[test]
fn the_valid_bundle_converts_every_part() {
    let site = parsed();
    assert_eq!(site.website.id.as_str(), "tiny-shop");
    assert_eq!(site.settings.home_collection.as_str(), "home");
    assert_eq!(site.settings.store.selected_currency.code(), "EUR");
    let logo = site.settings.logo.as_ref().unwrap();
    assert_eq!((logo.width, logo.height), (4, 3));
    let slugs: Vec<&str> = site.collections.iter().map(|c| c.slug.as_str()).collect();
    assert_eq!(slugs, ["home", "journal", "shop"]);
    assert_eq!(
        site.collections[2].collection_type,
        CollectionType::Products
    );

    let post = &site.items[0];
    assert_eq!(post.id.as_str(), "journal-first-post");
    assert_eq!(post.record_type, ItemType::Text);
    assert_eq!(post.published_on, 1_741_944_600_000);
    let body: Vec<_> = post.body.layout.blocks().collect();
    assert_eq!(body[0].id.as_str(), "journal-first-post-1");
    assert!(matches!(&body[0].content, BlockContent::Markdown(markdown)
        if markdown.html().as_str() == "<p>Hello from the <em>studio</em>.</p>\n"));

    let mug = &site.items[1];
    assert_eq!(mug.record_type, ItemType::StoreItem);
    let product = mug.product.as_ref().unwrap();
    assert_eq!(product.product_type, ProductType::Physical);
    assert_eq!(product.variants[0].option_values[0].value, "Sand");

    let home: Vec<_> = site.collections[0].body.layout.blocks().collect();
    assert!(
        matches!(&home[2].content, BlockContent::Product { item } if item.as_str() == "shop-mug")
    );
    assert_eq!(site.media[0].content_type, "image/png");
    site.validate().unwrap();
}

/// Each broken bundle and the exact message it is refused with.
#[test]
fn broken_bundles_are_refused_with_file_field_and_expectation() {
    let cases: Vec<(&str, BundleFiles, &str)> = vec![
        (
            "missing site.toml",
            removed("site.toml"),
            "site.toml: missing; every bundle needs a site.toml at its root",
        ),
        (
            "unknown field",
            edited(
                "collections/journal.toml",
                "title",
                "colour = \"red\"\ntitle",
            ),
            "collections/journal.toml: field 'colour': unknown field 'colour'; the known fields \
             are 'id', 'type', 'title', 'description', 'enabled', 'permission', 'password', \
             'seo', 'blocks', 'rows'",
        ),
        (
            "unknown field in a block",
            edited(
                "collections/home.toml",
                "collection = \"journal\"",
                "collection = \"journal\"\nsize = 3",
            ),
            "collections/home.toml: field 'blocks[1].size': unknown field 'size'; the known \
             fields are 'collection', 'title', 'design', 'limit'",
        ),
        (
            "wrong type",
            edited(
                "collections/journal/first-post.md",
                "tags",
                "position = \"first\"\ntags",
            ),
            "collections/journal/first-post.md: field 'position': expected an integer from 0 \
             to 4294967295, found string \"first\"",
        ),
        (
            "missing field",
            edited("collections/shop/mug.toml", "title = \"Mug\"", ""),
            "collections/shop/mug.toml: field 'title': missing; this field is required",
        ),
        (
            "unknown block type",
            edited("collections/home.toml", "\"summary\"", "\"sumary\""),
            "collections/home.toml: field 'blocks[1].type': expected one of html, markdown, \
             heading, image, button, quote, spacer, horizontal-rule, code, gallery, summary, \
             form, newsletter, accordion, marquee, text-effect, map, video, product, social-links, \
             donation, embed, audio, shape, menu, calendar, table-reservation, follow-button, plugin, \
             found 'sumary'",
        ),
        (
            "plugin block with a code outside the specification",
            edited(
                "collections/home.toml",
                "type = \"summary\"",
                "type = \"plugin\"\nblock-type = 640\n[blocks.data]",
            ),
            "collections/home.toml: field 'blocks[1].block-type': expected a block type code of \
             the specification, such as 62 for chart, or the name of a custom type, found 640",
        ),
        (
            "plugin block with a custom type name that cannot be one",
            edited(
                "collections/home.toml",
                "type = \"summary\"",
                "type = \"plugin\"\nblock-type = \"<b>\"\n[blocks.data]",
            ),
            "collections/home.toml: field 'blocks[1].block-type': a custom block type name has 1 \
             to 60 letters, digits, spaces or hyphens, starting with a letter, found \"<b>\"",
        ),
        (
            "dangling summary collection",
            edited("collections/home.toml", "\"journal\"", "\"jornal\""),
            "collections/home.toml: field 'blocks[1].collection': expected the slug of a \
             collection that lists items (journal, shop), found 'jornal'",
        ),
        (
            "dangling product",
            edited("collections/home.toml", "shop/mug", "shop/jug"),
            "collections/home.toml: field 'blocks[2].item': expected '<collection>/<item>' \
             naming a product, such as 'shop/mug', found 'shop/jug'",
        ),
        (
            "dangling navigation link",
            edited("site.toml", "href = \"/shop\"", "href = \"/shopp\""),
            "site.toml: field 'navigation.main[0].href': '/shopp' leads to no page or file of \
             this site",
        ),
        (
            "unknown home collection",
            edited("site.toml", "home = \"home\"", "home = \"start\""),
            "site.toml: field 'settings.home': expected the slug of a collection in \
             collections/, found 'start'",
        ),
        (
            "duplicate SKU",
            added("collections/shop/vase.toml", &MUG.replace("Mug", "Vase")),
            "collections/shop/vase.toml: field 'product.variants[0].sku': SKU 'MUG-1' is \
             already used by item 'shop-mug'",
        ),
        (
            "missing media",
            edited(
                "collections/home.toml",
                "/media/logo.png",
                "/media/hero.webp",
            ),
            "collections/home.toml: field 'blocks[0].image.src': expected /media/<file> naming \
             a file in the bundle's media folder, found '/media/hero.webp'",
        ),
        (
            "invalid slug",
            added("collections/Shop-Two.toml", SHOP),
            "collections/Shop-Two.toml: the file name 'Shop-Two' is not a valid slug; expected \
             at most 100 lowercase letters, digits and '-'",
        ),
        (
            "layout row wider than 12",
            added(
                "collections/about.toml",
                "type = \"page\"\ntitle = \"About\"\n[[rows]]\ncolumns = [{ span = 8 }, { span = 6 }]\n",
            ),
            "collections/about.toml: field 'rows[0]': expected column spans adding up to at \
             most 12, found 14",
        ),
        (
            "negative price",
            edited("collections/shop/mug.toml", "2800", "-5"),
            "collections/shop/mug.toml: field 'product.variants[0].price': expected an integer \
             number of cents from 0 to 100000000, found -5",
        ),
        (
            "sale price above the price",
            edited(
                "collections/shop/mug.toml",
                "stock = 3",
                "stock = 3\non_sale = true\nsale_price = 3000",
            ),
            "collections/shop/mug.toml: field 'product.variants[0].sale_price': expected a sale \
             price below the price of 2800, found 3000",
        ),
        (
            "variant without stock",
            edited("collections/shop/mug.toml", "stock = 3", ""),
            "collections/shop/mug.toml: field 'product.variants[0]': expected either 'stock' \
             (how many are left) or 'unlimited = true'",
        ),
        (
            "undeclared option",
            edited(
                "collections/shop/mug.toml",
                "{ Colour = \"Sand\" }",
                "{ Colour = \"Sand\", Size = \"L\" }",
            ),
            "collections/shop/mug.toml: field 'product.variants[0].options.Size': unknown \
             option; the product's options are 'Colour'",
        ),
        (
            "product outside a shop",
            added("collections/journal/mug.toml", MUG),
            "collections/journal/mug.toml: field 'product': expected no product here; products \
             belong in a collection of type \"products\"",
        ),
        (
            "items in a page",
            added("collections/home/extra.md", POST),
            "collections/home/extra.md: collection 'home' is a page, which holds no items; use \
             type = \"generic\" or \"products\" to list items",
        ),
        (
            "TOML syntax error",
            edited(
                "collections/journal.toml",
                "title = \"Journal\"",
                "title = [\"Journal\"",
            ),
            "collections/journal.toml: TOML syntax error at line 2, column 19: unclosed array, \
             expected `]`",
        ),
        (
            "markdown without front matter",
            edited("collections/journal/first-post.md", "+++\ntitle", "title"),
            "collections/journal/first-post.md: expected the file to start with TOML front \
             matter between two '+++' lines",
        ),
        (
            "media of an unknown kind",
            added("media/notes.txt", "hello"),
            "media/notes.txt: expected one of the extensions webp, png, jpg, jpeg, gif, avif, \
             svg, ico, mp3, ogg, wav",
        ),
        (
            "duplicate block id",
            edited(
                "collections/home.toml",
                "type = \"summary\"",
                "type = \"summary\"\nid = \"home-1\"",
            ),
            "collections/home.toml: field 'blocks[1].id': the block id 'home-1' is already \
             used by collections/home.toml blocks[0]",
        ),
        (
            "text effect without highlighted words",
            added(
                "collections/effects.toml",
                "type = \"page\"\ntitle = \"E\"\n[[blocks]]\ntype = \"text-effect\"\ntext = \"Made slowly\"\n",
            ),
            "collections/effects.toml: field 'blocks[0].text': expected the highlighted words \
             between [[ and ]], as in \"Made [[slowly]]\"",
        ),
        (
            "text effect with an unknown shape",
            added(
                "collections/effects.toml",
                "type = \"page\"\ntitle = \"E\"\n[[blocks]]\ntype = \"text-effect\"\ntext = \"[[Slowly]]\"\nshape = \"squiggle\"\n",
            ),
            "collections/effects.toml: field 'blocks[0].shape': expected one of circle, cross, \
             enclose, jagged, scribble, strike, strikeDiagonal, underline, underlineCurve, \
             underlineDouble, wave, found \"squiggle\"",
        ),
        (
            "marquee standing still",
            added(
                "collections/effects.toml",
                "type = \"page\"\ntitle = \"E\"\n[[blocks]]\ntype = \"marquee\"\ntext = \"News\"\nspeed = 0\n",
            ),
            "collections/effects.toml: field 'blocks[0].speed': expected a number above 0 up to \
             10, found 0",
        ),
        (
            "stray folder",
            added("images/dot.png", "x"),
            "images/dot.png: unexpected file; a bundle holds site.toml, collections/, media/ and translations/",
        ),
    ];
    let mut failures = Vec::new();
    for (name, files, expected) in cases {
        match parse(&files) {
            Ok(_) => failures.push(format!("{name}: accepted")),
            Err(error) if error.to_string() != expected => {
                failures.push(format!(
                    "{name}:\n  expected {expected}\n  found    {error}"
                ));
            }
            Err(_) => {}
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[tokio::test]
async fn a_bad_bundle_imports_nothing() {
    let repository = MemorySiteRepository::new();
    let summary = import(&valid(), &repository).await.unwrap();
    assert_eq!(
        summary,
        ImportSummary {
            collections: 3,
            items: 2,
            products: 1,
            media_files: 1,
            media_bytes: 33,
        }
    );
    let before = repository.profile().await.unwrap();

    let broken = edited(
        "site.toml",
        "title = \"Tiny Shop\"",
        "title = \"Renamed\"\nhome = 5",
    );
    let error = import(&broken, &repository).await.unwrap_err();
    assert!(matches!(error, ImportError::Invalid(_)), "{error}");
    assert_eq!(repository.profile().await.unwrap(), before);
}

#[tokio::test]
async fn an_import_into_an_empty_repository_serves_the_site() {
    let repository = MemorySiteRepository::new();
    assert!(repository.is_empty().await.unwrap());
    import(&valid(), &repository).await.unwrap();
    let logo = repository.media("/media/logo.png").await.unwrap().unwrap();
    assert_eq!(logo.bytes, png(4, 3));
}

#[test]
fn banner_texts_and_looks_and_popup_content_come_from_site_toml() {
    let files = edited(
        "site.toml",
        "[settings.store]",
        r#"[settings.cookies]
banner_enabled = true
banner_text = "We use *cookies*. <script>steal()</script>"
cta_text = "OK"
variant = "POPUP"
position = "TOP_RIGHT"
theme = "LIGHT"

[settings.popup_overlay]
style = "full"
title = "News"
body = "Monthly <b>letters</b><img src=x onerror=steal()>"
newsletter = true

[settings.store]"#,
    );
    let site = parse(&files).unwrap();
    let look = &site.settings.cookie_banner;
    assert_eq!(
        look.text.as_ref().map(|t| t.as_str()),
        Some("<p>We use <em>cookies</em>. </p>\n")
    );
    assert_eq!(look.cta_text.as_deref(), Some("OK"));
    assert_eq!(look.variant.as_deref(), Some("POPUP"));
    assert_eq!(look.position.as_deref(), Some("TOP_RIGHT"));
    assert_eq!(look.theme.as_deref(), Some("LIGHT"));
    assert_eq!(look.accept_type, None);
    let popup = &site.settings.popup_overlay;
    assert_eq!(popup.content.title, "News");
    assert!(!popup.content.body.as_str().contains("onerror"));
    assert!(popup.content.newsletter);
}

#[test]
fn a_subscription_product_keeps_its_plan() {
    let files = edited(
        "collections/shop/mug.toml",
        "options = [\"Colour\"]",
        "options = [\"Colour\"]\nsubscription = { every = 2, unit = \"week\", cycles = 6 }",
    );
    let site = parse(&files).unwrap_or_else(|error| panic!("refused: {error}"));
    let plan = site
        .items
        .iter()
        .find_map(|item| item.product.as_ref()?.subscription_plan)
        .expect("the mug is a subscription");
    assert_eq!(plan.describe(), "Every 2 weeks, 6 payments");
    assert!(parsed().items.iter().all(|item| {
        item.product
            .as_ref()
            .is_none_or(|product| product.subscription_plan.is_none())
    }));
    let zero = edited(
        "collections/shop/mug.toml",
        "options = [\"Colour\"]",
        "options = [\"Colour\"]\nsubscription = { every = 0, unit = \"month\" }",
    );
    assert!(parse(&zero).is_err(), "a period of 0 is refused");
}

#[test]
fn variants_without_a_sku_get_generated_ones() {
    let files = edited("collections/shop/mug.toml", "sku = \"MUG-1\"\n", "");
    let site = parse(&files).unwrap_or_else(|error| panic!("refused: {error}"));
    let skus: Vec<&str> = site
        .items
        .iter()
        .filter_map(|item| item.product.as_ref())
        .flat_map(|product| product.variants.iter().map(|variant| variant.sku.as_str()))
        .collect();
    assert_eq!(skus, ["SQ0000001"]);
}

/// The mug with `form` as its `[product.form]` table.
fn mug_with_form(form: &str) -> BundleFiles {
    edited(
        "collections/shop/mug.toml",
        "options = [\"Colour\"]\n",
        &format!("options = [\"Colour\"]\n\n{form}\n"),
    )
}

#[test]
fn a_product_form_reads_as_the_sites_form_fields() {
    let files = mug_with_form(
        r#"[product.form]
title = "Engraving"

[[product.form.fields]]
type = "text"
title = "Name to engrave"
required = true
max_length = 20

[[product.form.fields]]
type = "select"
title = "Glaze notes"
options = ["Glossy", "Matte"]"#,
    );
    let site = parse(&files).unwrap_or_else(|error| panic!("refused: {error}"));
    let form = site
        .items
        .iter()
        .find_map(|item| item.product.as_ref()?.form.clone())
        .expect("the mug has a form");
    assert_eq!(form.title, "Engraving");
    let fields: Vec<(&str, bool, Option<u32>)> = form
        .fields
        .iter()
        .map(|field| (field.id.as_str(), field.required, field.max_length))
        .collect();
    assert_eq!(
        fields,
        [
            ("name-to-engrave", true, Some(20)),
            ("glaze-notes", false, None)
        ]
    );
    assert!(parsed().items.iter().all(|item| {
        item.product
            .as_ref()
            .is_none_or(|product| product.form.is_none())
    }));
}

#[test]
fn a_product_form_refuses_what_cannot_be_answered_in_one_text() {
    let cases = [
        (
            "[product.form]\n[[product.form.fields]]\ntype = \"date\"\ntitle = \"Delivery day\"",
            "collections/shop/mug.toml: field 'product.form': field 'delivery-day': a product \
             form takes text, textarea, email, select and radio fields, whose answer is one text",
        ),
        (
            "[product.form]\nfields = []",
            "collections/shop/mug.toml: field 'product.form.fields': expected at least one field",
        ),
        (
            "[product.form]\n[[product.form.fields]]\ntype = \"email\"\ntitle = \"Email\"\nmax_length = 5",
            "collections/shop/mug.toml: field 'product.form.fields[0].max_length': expected a \
             maximum length above 0 on a text field or a textarea field only, found 5",
        ),
        (
            "[product.form]\n[[product.form.fields]]\ntype = \"text\"\ntitle = \"Name\"\nmax_length = 5000",
            "collections/shop/mug.toml: field 'product.form': field 'name': a maximum length is 1 \
             to 1000",
        ),
    ];
    for (form, expected) in cases {
        let error = parse(&mug_with_form(form)).unwrap_err();
        assert_eq!(error.to_string(), expected, "{form}");
    }
}

#[test]
fn display_widgets_read_their_settings_and_defaults() {
    let files = added(
        "collections/effects.toml",
        r#"type = "page"
title = "Effects"

[[blocks]]
type = "text-effect"
text = "Made [[slowly]], by hand"
level = 2
shape = "strikeDiagonal"
animation = "fadeScale"
direction = "left"
linecap = "round"
duration = 1.5

[[blocks]]
type = "text-effect"
text = "[[Plain]]"

[[blocks]]
type = "button"
label = "Leave"
href = "/shop"
tooltip = "Goes to the shop"

[blocks.popup]
kind = "information"
title = "Hours"
message = "Open daily"
timer = 1500
"#,
    );
    let site = parse(&files).unwrap_or_else(|error| panic!("refused: {error}"));
    let page = site
        .collections
        .iter()
        .find(|c| c.slug.as_str() == "effects")
        .unwrap();
    let blocks: Vec<_> = page.body.layout.blocks().collect();
    let BlockContent::TextEffect(set) = &blocks[0].content else {
        panic!("{:?}", blocks[0])
    };
    assert_eq!(
        (
            set.before.as_str(),
            set.highlight.as_str(),
            set.after.as_str()
        ),
        ("Made ", "slowly", ", by hand")
    );
    assert_eq!(set.level, Some(2));
    assert_eq!(set.effect.shape, TextEffectShape::StrikeDiagonal);
    assert_eq!(set.effect.animation, TextEffectAnimation::FadeScale);
    assert_eq!(set.effect.direction, TextEffectDirection::Left);
    assert_eq!(set.effect.linecap, TextEffectLinecap::Round);
    assert_eq!(set.effect.duration_s, 1.5);
    let BlockContent::TextEffect(plain) = &blocks[1].content else {
        panic!("{:?}", blocks[1])
    };
    assert_eq!(plain.effect, TextEffect::default());
    assert_eq!(
        (plain.before.as_str(), plain.after.as_str(), plain.level),
        ("", "", None)
    );
    let BlockContent::Button { tooltip, popup, .. } = &blocks[2].content else {
        panic!("{:?}", blocks[2])
    };
    assert_eq!(tooltip.as_deref(), Some("Goes to the shop"));
    let popup = popup.as_ref().unwrap();
    assert_eq!(
        (popup.kind, popup.timer_ms),
        (PopupKind::Information, Some(1500))
    );
    site.validate().unwrap();
}

/// The valid bundle with the journal members-only and `areas` appended to site.toml.
fn with_member_areas(areas: &str) -> BundleFiles {
    let mut files = edited(
        "collections/journal.toml",
        "title",
        "permission = \"members-only\"\ntitle",
    );
    let site = format!("{SITE}\n{areas}");
    files.insert("site.toml".to_owned(), site.into_bytes());
    files
}

#[test]
fn member_areas_open_their_members_only_pages_free_or_by_subscription() {
    let subscribed = |files: &mut BundleFiles| {
        let mug = String::from_utf8(files["collections/shop/mug.toml"].clone()).unwrap();
        let mug = mug.replacen(
            "options = [\"Colour\"]",
            "options = [\"Colour\"]\nsubscription = { every = 1, unit = \"month\" }",
            1,
        );
        files.insert("collections/shop/mug.toml".to_owned(), mug.into_bytes());
    };
    let free = with_member_areas(
        "[[member_areas]]\nid = \"readers\"\ntitle = \"Readers\"\npages = [\"journal\"]\n",
    );
    let site = parse(&free).unwrap_or_else(|error| panic!("refused: {error}"));
    let [area] = site.settings.member_areas.as_slice() else {
        panic!("one area: {:?}", site.settings.member_areas)
    };
    assert_eq!(area.id.as_str(), "readers");
    assert!(area.is_free());
    assert_eq!(area.pages[0].as_str(), "journal");

    let mut paid = with_member_areas(
        "[[member_areas]]\nid = \"club\"\ntitle = \"Club\"\npages = [\"journal\"]\nplans = [\"shop/mug\"]\n",
    );
    subscribed(&mut paid);
    let site = parse(&paid).unwrap_or_else(|error| panic!("refused: {error}"));
    assert_eq!(
        site.settings.member_areas[0].access,
        crate::site::MemberAreaAccess::Paid {
            plans: vec![
                site.items
                    .iter()
                    .find(|i| i.slug.as_str() == "mug")
                    .unwrap()
                    .id
                    .clone()
            ]
        }
    );

    let refused = |files: BundleFiles| parse(&files).unwrap_err().to_string();
    assert_eq!(
        refused(with_member_areas("")),
        "site.toml: collection 'journal' is members-only but no [[member_areas]] lists it in its pages"
    );
    assert_eq!(
        refused(with_member_areas(
            "[[member_areas]]\nid = \"a\"\ntitle = \"A\"\npages = [\"journal\", \"shop\"]\n"
        )),
        "site.toml: field 'member_areas[0].pages[1]': collection 'shop' must say permission = \
         \"members-only\" to be in a member area"
    );
    assert_eq!(
        refused(with_member_areas(
            "[[member_areas]]\nid = \"a\"\ntitle = \"A\"\npages = [\"journal\"]\nplans = [\"shop/mug\"]\n"
        )),
        "site.toml: field 'member_areas[0].plans[0]': 'shop/mug' must be a product sold as a \
         subscription (with [product.subscription])"
    );
    assert_eq!(
        refused(with_member_areas(
            "[[member_areas]]\nid = \"a\"\ntitle = \"A\"\npages = [\"nope\"]\n"
        )),
        "site.toml: field 'member_areas[0].pages[0]': expected the slug of a collection in \
         collections/, found 'nope'"
    );
}

/// The valid bundle with `rules` added under `[settings.store]`.
fn with_store_rules(rules: &str) -> BundleFiles {
    edited(
        "site.toml",
        "measurement_standard = \"metric\"\n",
        &format!("measurement_standard = \"metric\"\n{rules}\n"),
    )
}

#[test]
fn store_rules_come_from_site_toml() {
    use crate::cart::{Coupon, CouponCode, CouponKind, ShippingRate, Timestamp};
    let files = with_store_rules(
        r#"minimum_subtotal_cents = 1000

[[settings.store.shipping_options]]
id = "standard"
name = "Standard shipping"
cost_cents = 500

[[settings.store.shipping_options]]
id = "parcel"
name = "Parcel by weight"
base_cents = 300
per_unit_cents = 150

[[settings.store.tax_rules]]
name = "IVA"
country = "pt"
rate_basis_points = 2300
applies_to_shipping = true

[[settings.store.coupons]]
code = "welcome10"
percent_off = 10

[[settings.store.coupons]]
code = "SPRING5"
amount_off_cents = 500
starts = 2026-03-01
ends = 2026-06-01T00:00:00Z
total_limit = 100
per_customer_limit = 1"#,
    );
    let site = parse(&files).unwrap_or_else(|error| panic!("refused: {error}"));
    let rules = &site.settings.store_rules;
    assert_eq!(rules.minimum_subtotal_cents, Some(1000));
    assert_eq!(
        rules.shipping_options[0].rate,
        ShippingRate::FlatRate { cost_cents: 500 }
    );
    assert_eq!(
        rules.shipping_options[1].rate,
        ShippingRate::ByWeight {
            base_cents: 300,
            per_unit_cents: 150
        }
    );
    assert_eq!(rules.tax_rules[0].country, "PT");
    assert!(rules.tax_rules[0].applies_to_shipping);
    assert_eq!(
        rules.coupons[0],
        Coupon::new(
            CouponCode::parse("WELCOME10").unwrap(),
            CouponKind::Percentage { basis_points: 1000 },
            None,
            None
        )
        .unwrap()
    );
    let spring = &rules.coupons[1];
    assert_eq!(spring.kind, CouponKind::FixedAmount { amount_cents: 500 });
    // 2026-03-01T00:00:00Z and 2026-06-01T00:00:00Z.
    assert_eq!(spring.starts_at, Some(Timestamp(1_772_323_200_000)));
    assert_eq!(spring.ends_at, Some(Timestamp(1_780_272_000_000)));
    assert_eq!(
        (spring.total_usage_limit, spring.per_customer_limit),
        (Some(100), Some(1))
    );
    let priced = rules.in_currency(site.settings.store.selected_currency);
    assert_eq!(priced.currency.code(), "EUR");
    assert_eq!(priced.coupons.len(), 2);
    assert!(parsed().settings.store_rules == crate::cart::SiteStoreRules::default());
}

#[test]
fn bad_store_rules_are_refused_with_the_field() {
    let cases = [
        (
            "[[settings.store.shipping_options]]\nid = \"a\"\nname = \"A\"",
            "site.toml: field 'settings.store.shipping_options[0]': expected either cost_cents \
             (a flat rate) or both base_cents and per_unit_cents (by weight)",
        ),
        (
            "[[settings.store.shipping_options]]\nid = \"a\"\nname = \"A\"\ncost_cents = 1\n\
             [[settings.store.shipping_options]]\nid = \"a\"\nname = \"B\"\ncost_cents = 2",
            "site.toml: field 'settings.store.shipping_options[1].id': the shipping option id \
             'a' is used twice",
        ),
        (
            "[[settings.store.tax_rules]]\nname = \"VAT\"\ncountry = \"Portugal\"\nrate_basis_points = 2300",
            "site.toml: field 'settings.store.tax_rules[0].country': expected a two-letter \
             country code such as PT or US, found 'Portugal'",
        ),
        (
            "[[settings.store.tax_rules]]\nname = \"VAT\"\ncountry = \"PT\"\nrate_basis_points = 23000",
            "site.toml: field 'settings.store.tax_rules[0].rate_basis_points': expected a rate \
             from 0 to 10000 basis points (8.25 % is 825), found 23000",
        ),
        (
            "[[settings.store.coupons]]\ncode = \"TEN\"\npercent_off = 150",
            "site.toml: field 'settings.store.coupons[0].percent_off': expected a percentage \
             from 1 to 100, found 150",
        ),
        (
            "[[settings.store.coupons]]\ncode = \"TEN\"",
            "site.toml: field 'settings.store.coupons[0]': expected either percent_off or \
             amount_off_cents",
        ),
        (
            "[[settings.store.coupons]]\ncode = \"ten off\"\npercent_off = 10",
            "site.toml: field 'settings.store.coupons[0].code': expected 1 to 40 letters, \
             digits, '-' or '_', found 'ten off'",
        ),
        (
            "[[settings.store.coupons]]\ncode = \"TEN\"\npercent_off = 10\n\
             [[settings.store.coupons]]\ncode = \"ten\"\npercent_off = 5",
            "site.toml: field 'settings.store.coupons[1].code': the coupon code 'TEN' is used \
             twice (codes ignore case)",
        ),
        (
            "[[settings.store.coupons]]\ncode = \"TEN\"\npercent_off = 10\nstarts = 2026-06-01\nends = 2026-03-01",
            "site.toml: field 'settings.store.coupons[0].ends': a coupon cannot end before it \
             starts",
        ),
        (
            "[[settings.store.coupons]]\ncode = \"TEN\"\npercent_off = 10\ntotal_limit = 0",
            "site.toml: field 'settings.store.coupons[0].total_limit': expected at least 1 \
             use; leave the limit out for a coupon without one",
        ),
    ];
    let mut failures = Vec::new();
    for (rules, expected) in cases {
        match parse(&with_store_rules(rules)) {
            Ok(_) => failures.push(format!("{rules}: accepted")),
            Err(error) if error.to_string() != expected => failures.push(format!(
                "{rules}:\n  expected {expected}\n  found    {error}"
            )),
            Err(_) => {}
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

fn map_page(block: &str) -> BundleFiles {
    added(
        "collections/visit.toml",
        &format!("type = \"page\"\ntitle = \"Visit\"\n\n[[blocks]]\ntype = \"map\"\n{block}"),
    )
}

#[test]
fn a_map_reads_its_ui_options_and_defaults_to_new_york() {
    let files = map_page("style = \"minimal-blue\"\nscrollwheel = true\nlink_on_click = false\n");
    let site = parse(&files).unwrap_or_else(|error| panic!("refused: {error}"));
    let page = site
        .collections
        .iter()
        .find(|c| c.slug.as_str() == "visit")
        .unwrap();
    let blocks: Vec<_> = page.body.layout.blocks().collect();
    let BlockContent::Map {
        location,
        style,
        options,
    } = &blocks[0].content
    else {
        panic!("{:?}", blocks[0])
    };
    assert_eq!(location.marker(), MapLocation::DEFAULT_CENTRE);
    assert_eq!(location.map_zoom, MapLocation::DEFAULT_ZOOM);
    assert_eq!(*style, MapStyle::MinimalBlue);
    assert_eq!(
        *options,
        MapUiOptions {
            scrollwheel: true,
            link_on_click: false,
            ..MapUiOptions::default()
        }
    );
}

#[test]
fn a_map_off_the_globe_is_refused_at_the_bundle_field() {
    let cases = [
        (
            "lat = 91.0\n",
            "collections/visit.toml: field 'blocks[0].lat': expected a latitude from -90 to 90 \
             degrees, found 91",
        ),
        (
            "marker_lng = 2.0\n",
            "collections/visit.toml: field 'blocks[0].marker_lng': expected markerLat and \
             markerLng together or neither, found only markerLng",
        ),
        (
            "zoom = 0\n",
            "collections/visit.toml: field 'blocks[0].zoom': expected a zoom from 1 to 20, found 0",
        ),
    ];
    for (block, expected) in cases {
        let error = parse(&map_page(block)).unwrap_err();
        assert_eq!(error.to_string(), expected, "{block}");
    }
}

/// The valid bundle with the journal password-protected by `password` (a TOML value), or
/// with `password` given to a public journal when `protected` is false.
fn with_journal_password(protected: bool, password: Option<&str>) -> BundleFiles {
    let mut fields = String::new();
    if protected {
        fields.push_str("permission = \"password-protected\"\n");
    }
    if let Some(password) = password {
        fields.push_str(&format!("password = {password}\n"));
    }
    edited(
        "collections/journal.toml",
        "title",
        &format!("{fields}title"),
    )
}

#[test]
fn a_page_password_is_kept_only_as_its_argon2id_hash() {
    let files = with_journal_password(true, Some("\"open the kiln\""));
    let site = parse(&files).unwrap_or_else(|error| panic!("refused: {error}"));
    let [password] = site.settings.page_passwords.as_slice() else {
        panic!("one password: {:?}", site.settings.page_passwords)
    };
    assert_eq!(password.collection.as_str(), "journal");
    assert!(
        password.hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
        "OWASP's cost: {}",
        password.hash
    );
    let hasher =
        crate::people::PasswordHasher::new(crate::people::PasswordCost::TESTS_ONLY).unwrap();
    assert!(hasher.verify("open the kiln", &password.hash));
    assert!(!hasher.verify("open the kiln ", &password.hash));
    assert!(
        !format!("{site:?}").contains("open the kiln"),
        "the plain password is nowhere in the site"
    );
    // The same bundle gives the same site; another bundle salts differently.
    assert_eq!(
        parse(&files).unwrap().settings.page_passwords,
        site.settings.page_passwords
    );
    let mut other = files.clone();
    other.insert("media/extra.png".to_owned(), png(2, 2));
    assert_ne!(
        parse(&other).unwrap().settings.page_passwords[0].hash,
        password.hash
    );
}

#[test]
fn a_page_password_must_be_given_exactly_where_the_permission_asks_for_one() {
    let refused = |files: BundleFiles| parse(&files).unwrap_err().to_string();
    assert_eq!(
        refused(with_journal_password(true, None)),
        "collections/journal.toml: field 'password': missing; a collection with permission = \
         \"password-protected\" needs the password that opens it"
    );
    assert_eq!(
        refused(with_journal_password(false, Some("\"secret\""))),
        "collections/journal.toml: field 'password': only a collection with permission = \
         \"password-protected\" has a password; remove it or change the permission"
    );
    assert_eq!(
        refused(with_journal_password(true, Some("\"  \""))),
        "collections/journal.toml: field 'password': expected a password, found an empty text"
    );
    let long = format!("\"{}\"", "x".repeat(crate::people::MAX_PASSWORD_BYTES + 1));
    assert!(
        refused(with_journal_password(true, Some(&long))).contains("expected at most 1024 bytes")
    );
    assert!(parse(&valid()).unwrap().settings.page_passwords.is_empty());
}

#[test]
fn special_navigations_and_the_member_area_block_are_read_and_checked() {
    let areas = "[[member_areas]]\nid = \"readers\"\ntitle = \"Readers\"\npages = [\"journal\"]\n";
    let mut files = with_member_areas(&format!(
        "{areas}\n[[navigation._hidden]]\ntitle = \"Shop\"\nhref = \"/shop\"\n"
    ));
    let site_toml = String::from_utf8(files["site.toml"].clone()).unwrap();
    let site_toml = site_toml.replacen(
        "[[navigation.main]]",
        "[navigation]\n_memberareas = [\"readers\"]\n\n[[navigation.main]]",
        1,
    );
    files.insert("site.toml".to_owned(), site_toml.into_bytes());
    let home = String::from_utf8(files["collections/home.toml"].clone()).unwrap();
    files.insert(
        "collections/home.toml".to_owned(),
        format!("{home}\n[[blocks]]\ntype = \"member-area\"\narea = \"readers\"\n").into_bytes(),
    );
    let site = parse(&files).unwrap_or_else(|error| panic!("refused: {error}"));
    assert_eq!(site.navigation.hidden[0].href, "/shop");
    let [link] = site.navigation.member_areas.as_slice() else {
        panic!("one member-area link: {:?}", site.navigation.member_areas)
    };
    assert_eq!(
        (link.area.as_str(), link.title.as_str(), link.href.as_str()),
        ("readers", "Readers", "/journal")
    );
    let home = site
        .collections
        .iter()
        .find(|c| c.id.as_str() == "home")
        .unwrap();
    assert!(home.body.layout.blocks().any(|block| block.content
        == BlockContent::MemberArea {
            area: crate::site::Slug::parse("readers").unwrap()
        }));

    let refused = |from: &str, to: &str| {
        let text = String::from_utf8(files["site.toml"].clone()).unwrap();
        let mut broken = files.clone();
        broken.insert(
            "site.toml".to_owned(),
            text.replacen(from, to, 1).into_bytes(),
        );
        parse(&broken).unwrap_err().to_string()
    };
    assert_eq!(
        refused(
            "_memberareas = [\"readers\"]",
            "_memberareas = [\"nobody\"]"
        ),
        "site.toml: field 'navigation._memberareas[0]': expected the id of a member area in \
         [[member_areas]], found 'nobody'"
    );
    assert_eq!(
        refused("href = \"/shop\"\n", "href = \"/shopp\"\n")
            .lines()
            .next()
            .unwrap(),
        "site.toml: field 'navigation.main[0].href': '/shopp' leads to no page or file of this site"
    );
    let mut hidden_dangling = files.clone();
    let text = String::from_utf8(files["site.toml"].clone()).unwrap();
    let at = text.rfind("href = \"/shop\"").unwrap();
    let mut text = text;
    text.replace_range(at..at + "href = \"/shop\"".len(), "href = \"/nowhere\"");
    hidden_dangling.insert("site.toml".to_owned(), text.into_bytes());
    assert_eq!(
        parse(&hidden_dangling).unwrap_err().to_string(),
        "site.toml: field 'navigation._hidden[0].href': '/nowhere' leads to no page or file of \
         this site"
    );
    let mut unknown_block_area = files.clone();
    let home = String::from_utf8(files["collections/home.toml"].clone()).unwrap();
    unknown_block_area.insert(
        "collections/home.toml".to_owned(),
        home.replacen("area = \"readers\"", "area = \"nobody\"", 1)
            .into_bytes(),
    );
    let error = parse(&unknown_block_area).unwrap_err().to_string();
    assert!(
        error.starts_with("collections/home.toml: field 'blocks[")
            && error.ends_with("].area': there is no member area with id 'nobody'"),
        "{error}"
    );
}

/// The valid bundle with a page `more` holding `blocks` (TOML `[[blocks]]` tables) and an
/// audio file, imported.
fn import_home_blocks(blocks: &str) -> Result<Site, crate::bundle::BundleError> {
    let mut files = added(
        "collections/more.toml",
        &format!("type = \"page\"\ntitle = \"More\"\n{blocks}"),
    );
    files.insert("media/hum.mp3".to_owned(), b"ID3\x04\0\0\0\0\0\0".to_vec());
    parse(&files)
}

fn home_blocks(site: &Site) -> Vec<crate::site::Block> {
    let more = site
        .collections
        .iter()
        .find(|c| c.slug.as_str() == "more")
        .expect("the page");
    more.body.layout.blocks().cloned().collect()
}

#[test]
fn audio_files_are_media_checked_by_their_first_bytes() {
    let site = import_home_blocks(
        "[[blocks]]\ntype = \"audio\"\ntitle = \"Sounds\"\ntracks = [{ title = \"Hum\", file = \"/media/hum.mp3\" }]\n",
    )
    .expect("an audio block of a stored mp3 imports");
    let hum = site
        .media
        .iter()
        .find(|file| file.path == "/media/hum.mp3")
        .unwrap();
    assert_eq!(hum.content_type, "audio/mpeg");
    let mut files = valid();
    files.insert("media/fake.ogg".to_owned(), png(2, 2));
    assert_eq!(
        parse(&files).unwrap_err().to_string(),
        "media/fake.ogg: expected a .ogg audio file, but the file holds another format"
    );
}

#[test]
fn the_remaining_block_types_import_with_their_rules() {
    let blocks = r##"
[[blocks]]
type = "markdown"
markdown = "Fired *twice*"

[[blocks]]
type = "embed"
url = "https://hours.example/embed"
title = "Opening hours"

[[blocks]]
type = "shape"
shape = "arched-window"
color = "#8a3f22"
drop-shadow = { angle = 45, distance = { value = 6 }, blur = { value = 0.5, unit = "em" } }

[[blocks]]
type = "menu"
tabs = [{ title = "Lunch", sections = [{ title = "Plates", items = [{ name = "Soup", price = "5" }] }] }]

[[blocks]]
type = "calendar"
collection = "journal"
month = "2025-03"

[[blocks]]
type = "table-reservation"
restaurant-id = 412
restaurant-name = "Casa Barro"

[[blocks]]
type = "follow-button"
username = "terraluz_studio"
"##;
    let site = import_home_blocks(blocks).unwrap_or_else(|error| panic!("{error}"));
    let home = home_blocks(&site);
    let codes: Vec<u16> = home.iter().map(|block| block.type_code()).collect();
    assert_eq!(codes, [44, 22, 71, 18, 26, 66, 6]);
    let BlockContent::Shape(shape) = &home[2].content else {
        panic!("a shape");
    };
    assert_eq!(shape.drop_shadow.map(|shadow| shadow.blur.px()), Some(8.0));
    let BlockContent::Calendar(calendar) = &home[4].content else {
        panic!("a calendar");
    };
    assert_eq!(
        calendar
            .opening_month
            .map(|month| month.to_string())
            .as_deref(),
        Some("2025-03")
    );
}

#[test]
fn the_remaining_block_types_refuse_bad_data_naming_the_field() {
    for (block, expected) in [
        (
            "type = \"embed\"\nurl = \"http://hours.example\"\ntitle = \"Hours\"",
            "field 'blocks[0].url': expected an https:// URL or a site path starting with '/', found 'http://hours.example'",
        ),
        (
            "type = \"shape\"\nshape = \"blob\"",
            "field 'blocks[0].shape': expected one of circle, square, rounded-square, triangle, diamond, hexagon, star, flower, heart, arched-window, tall-oval, oval, pill, found 'blob'",
        ),
        (
            "type = \"shape\"\nshape = \"circle\"\ndrop-shadow = { angle = 0, distance = { value = 2, unit = \"vw\" }, blur = { value = 1 } }",
            "field 'blocks[0].drop-shadow.distance.unit': expected px, em or rem, found 'vw'",
        ),
        (
            "type = \"menu\"\ntabs = []",
            "field 'blocks[0].tabs': a menu block needs at least one tab",
        ),
        (
            "type = \"calendar\"\ncollection = \"journal\"\nmonth = \"March\"",
            "field 'blocks[0].month': expected a month such as 2027-05, found 'March'",
        ),
        (
            "type = \"calendar\"\ncollection = \"nowhere\"",
            "field 'blocks[0].collection': expected the slug of a collection that lists items",
        ),
        (
            "type = \"table-reservation\"\nrestaurant-id = 0\nrestaurant-name = \"Casa\"",
            "field 'blocks[0].restaurant-id': expected the restaurant's id at the booking service, a number above 0",
        ),
        (
            "type = \"follow-button\"\nusername = \"@terraluz\"",
            "field 'blocks[0].username': expected a username of 1 to 15 letters, digits or underscores (without the @), found '@terraluz'",
        ),
        (
            &format!(
                "type = \"audio\"\ntitle = \"Sounds\"\ntracks = [{}]",
                vec!["{ title = \"T\", file = \"/media/t.mp3\" }"; 61].join(", ")
            ),
            "field 'blocks[0].tracks': an audio block lists at most 60 tracks, found 61",
        ),
    ] {
        let error = import_home_blocks(&format!("[[blocks]]\n{block}\n"))
            .expect_err(block)
            .to_string();
        assert!(
            error.contains(expected),
            "{block}\n  expected {expected}\n  found    {error}"
        );
    }
}
