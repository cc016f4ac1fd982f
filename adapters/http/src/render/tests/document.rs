//! The document around every page: head, metadata, page context, chrome, and rules that hold
//! on every page (no inline styles, unique ids, one `h1`, no skipped heading levels).

use vitrine_core::pages::{PageService, Viewer};
use vitrine_core::ports::SiteRepository;
use vitrine_core::ports::memory::MemorySiteRepository;

use super::*;
use crate::render::{islands_on, render_unavailable_page};

/// Every kind of page of the test site.
const PATHS: &[&str] = &[
    "/",
    "/kitchen-sink",
    "/shop",
    "/shop/vase",
    "/shop/mug",
    "/journal",
    "/journal/first",
    "/nowhere",
];

#[test]
fn the_head_carries_title_description_canonical_and_open_graph() {
    let html = render("/kitchen-sink");
    for expected in [
        "<!DOCTYPE html>\n<html lang=\"en-US\">",
        "<meta charset=\"utf-8\">",
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
        "<title>Everything — Clay &#38; Co.</title>",
        "<meta name=\"description\" content=\"A fixture\">",
        "<link rel=\"canonical\" href=\"https://studio.example/kitchen-sink\">",
        "<meta property=\"og:title\" content=\"Everything — Clay &#38; Co.\">",
        "<meta property=\"og:description\" content=\"A fixture\">",
        "<meta property=\"og:type\" content=\"website\">",
        "<meta property=\"og:url\" content=\"https://studio.example/kitchen-sink\">",
        "<meta property=\"og:image\" content=\"https://studio.example/media/social.jpg\">",
        "<meta property=\"og:image:alt\" content=\"The studio\">",
        "<meta property=\"og:site_name\" content=\"Clay &#38; Co.\">",
        "<meta name=\"twitter:card\" content=\"summary_large_image\">",
        "<link rel=\"icon\" href=\"/favicon.svg\" type=\"image/svg+xml\">",
        "<link rel=\"stylesheet\" href=\"/assets/site-abc123.css\">",
        "<link rel=\"modulepreload\" href=\"/assets/accordion-0a1b2c.js\">",
        "<script type=\"module\" src=\"/assets/main-def456.js\"></script>",
    ] {
        assert!(html.contains(expected), "missing {expected}");
    }
    assert!(!html.contains("noindex"));
}

#[test]
fn items_are_articles_or_products_to_open_graph() {
    assert!(render("/journal/first").contains("<meta property=\"og:type\" content=\"article\">"));
    let product = render("/shop/vase");
    assert!(product.contains("<meta property=\"og:type\" content=\"product\">"));
    assert!(product.contains(
        "<meta property=\"og:image\" content=\"https://studio.example/media/vase.jpg\">"
    ));
}

#[test]
fn a_wide_share_image_is_previewed_by_its_1500w_copy() {
    let mut site = site::studio();
    let mut wide = site::media("/media/hall.jpg", "The hall");
    (wide.width, wide.height) = (3000, 2000);
    site.settings.social_image = Some(wide);
    let html = render_site(&site, "/kitchen-sink");
    for expected in [
        "<meta property=\"og:image\" content=\"https://studio.example/media/hall.jpg?format=1500w\">",
        "<meta property=\"og:image:width\" content=\"1500\">",
        "<meta property=\"og:image:height\" content=\"1000\">",
    ] {
        assert!(html.contains(expected), "missing {expected}");
    }
}

#[test]
fn a_page_without_an_image_gets_a_summary_card() {
    let mut site = site::studio();
    site.settings.social_image = None;
    let html = render_site(&site, "/kitchen-sink");
    assert!(html.contains("<meta name=\"twitter:card\" content=\"summary\">"));
    assert!(!html.contains("og:image"));
}

#[test]
fn the_document_language_is_the_site_locale() {
    let mut site = site::studio();
    site.settings.locale = "fr-FR".into();
    let html = render_site(&site, "/");
    assert!(html.contains("<html lang=\"fr-FR\">"));
    assert!(html.contains("<meta property=\"og:locale\" content=\"fr_FR\">"));
    site.settings.locale = "\"><script>".into();
    assert!(render_site(&site, "/").contains("<html lang=\"en-US\">"));
}

#[test]
fn titles_are_escaped_everywhere() {
    let mut site = site::studio();
    site.settings.site_title = "<script>alert(1)</script>".into();
    site.collections[1].title = "Journal <img src=x onerror=alert(2)>".into();
    let vase = site
        .items
        .iter_mut()
        .find(|item| item.slug.as_str() == "vase")
        .unwrap();
    vase.title = "Vase\"><script>alert(1)</script>".into();
    vase.image.as_mut().unwrap().alt = vase.title.clone();
    for path in ["/", "/journal", "/shop", "/shop/vase"] {
        let html = render_site(&site, path);
        assert!(!html.contains("<script>alert(1)"), "{path}");
        assert!(!html.contains("<img src=x"), "{path}");
        assert!(
            html.contains("&#60;script&#62;alert(1)&#60;/script&#62;"),
            "{path}"
        );
    }
}

#[test]
fn the_page_context_is_json_that_cannot_break_out_of_its_script() {
    let mut site = site::studio();
    site.settings.site_title = "</script><script>alert('x')</script> & <!--".into();
    let view = view_of(&site, "/");
    let html = render_page(&view, &assets(), BASE_URL).unwrap();
    let open = "<script type=\"application/json\" id=\"vitrine-page-context\">";
    let start = html.find(open).expect("the context is embedded") + open.len();
    let json = &html[start..start + html[start..].find("</script>").unwrap()];
    assert!(!json.contains(['<', '>', '&']), "{json}");
    assert!(json.contains("\\u003c/script\\u003e"), "{json}");
    let parsed: serde_json::Value = serde_json::from_str(json).unwrap();
    assert_eq!(parsed, serde_json::to_value(&view.context).unwrap());
    assert_eq!(parsed["website"]["siteTitle"], site.settings.site_title);
}

#[test]
fn no_page_has_an_inline_style() {
    for path in PATHS {
        let html = render(path);
        assert!(!html.contains("style="), "{path} has an inline style");
        assert!(!html.contains("<style"), "{path} has a style element");
    }
}

#[test]
fn ids_are_unique_on_every_page() {
    for path in PATHS {
        let html = render(path);
        let mut ids = attribute_values(&html, "id");
        let count = ids.len();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), count, "{path} repeats an id");
    }
}

#[test]
fn every_page_has_one_h1_and_no_skipped_heading_levels() {
    for path in PATHS {
        let html = render(path);
        let levels: Vec<u8> = html
            .match_indices("<h")
            .filter_map(|(at, _)| {
                let digit = html.as_bytes().get(at + 2)?;
                (b'1'..=b'6').contains(digit).then(|| digit - b'0')
            })
            .collect();
        assert_eq!(
            levels.iter().filter(|level| **level == 1).count(),
            1,
            "{path}: {levels:?}"
        );
        assert_eq!(levels.first(), Some(&1), "{path}: {levels:?}");
        for pair in levels.windows(2) {
            assert!(pair[1] <= pair[0] + 1, "{path} skips a level: {levels:?}");
        }
    }
}

#[test]
fn landmarks_and_the_skip_link_frame_every_page() {
    for path in PATHS {
        let html = render(path);
        let skip = html
            .find("<a class=\"skip-link\" href=\"#main\">Skip to content</a>")
            .unwrap();
        let header = html.find("<header class=\"site-header\">").unwrap();
        let main = html
            .find("<main class=\"site-main\" id=\"main\" tabindex=\"-1\">")
            .unwrap();
        let footer = html.find("<footer class=\"site-footer\">").unwrap();
        assert!(skip < header && header < main && main < footer, "{path}");
        assert!(
            html.contains("<nav class=\"site-nav\" aria-label=\"Main\">"),
            "{path}"
        );
        assert!(
            html.contains("<p class=\"site-footer__powered\">Powered by Vitrine</p>"),
            "{path}"
        );
    }
}

#[test]
fn the_logo_links_home_and_is_named_after_the_site() {
    let html = render("/");
    assert!(html.contains(
        "<a class=\"site-logo\" href=\"/\"><img src=\"/media/logo.svg\" alt=\"Clay &#38; Co.\" width=\"1200\" height=\"800\" data-image-dimensions=\"1200x800\" decoding=\"async\"></a>"
    ));
    let mut site = site::studio();
    site.settings.logo = None;
    assert!(
        render_site(&site, "/").contains("<span class=\"site-logo__text\">Clay &#38; Co.</span>")
    );
}

#[test]
fn navigation_marks_the_current_page_and_its_section() {
    let shop = render("/shop");
    assert!(
        shop.contains("<a class=\"site-nav__link\" href=\"/shop\" aria-current=\"page\">Shop</a>")
    );
    assert!(shop.contains("<a class=\"site-nav__link\" href=\"/\">Home</a>"));
    let product = render("/shop/vase");
    assert!(
        product
            .contains("<a class=\"site-nav__link\" href=\"/shop\" aria-current=\"true\">Shop</a>")
    );
    assert!(
        render("/")
            .contains("<a class=\"site-nav__link\" href=\"/\" aria-current=\"page\">Home</a>")
    );
}

#[test]
fn the_footer_shows_links_social_accounts_and_its_text() {
    let html = render("/");
    let footer = element_at(&html, "class=\"site-footer\"");
    assert!(footer.contains("<nav class=\"footer-nav\" aria-label=\"Footer\">"));
    assert!(footer.contains("<a class=\"footer-nav__link\" href=\"/shipping\">Shipping</a>"));
    assert!(footer.contains("<a class=\"footer-nav__link\" href=\"#\">Trick</a>"));
    let social = element_at(footer, "aria-label=\"Social media\"");
    assert!(social.contains(
        "<a class=\"social-links__link\" href=\"https://www.instagram.com/clayco\" rel=\"me noopener\">Instagram</a>"
    ));
    assert!(footer.contains("<div class=\"site-footer__text\"><p>© 2026 Clay &amp; Co.</p></div>"));
}

#[test]
fn no_unsafe_link_reaches_any_page() {
    for path in PATHS {
        let html = render(path);
        assert!(!html.to_ascii_lowercase().contains("javascript:"), "{path}");
    }
}

#[test]
fn the_not_found_page_helps_the_visitor_home() {
    let html = render("/nowhere/at/all");
    let main = element_at(&html, "class=\"site-main\"");
    assert!(main.contains("<h1 class=\"status-page__title\">Page not found</h1>"));
    assert!(
        main.contains("<a class=\"button button--primary\" href=\"/\">Go to the home page</a>")
    );
    assert!(!main.contains("search"));
    assert!(html.contains("<title>Page not found — Clay &#38; Co.</title>"));
    assert!(html.contains("<meta name=\"robots\" content=\"noindex\">"));
    assert!(!html.contains("rel=\"canonical\""));
}

#[test]
fn the_error_page_says_something_went_wrong() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let view = runtime.block_on(async {
        let repository = std::sync::Arc::new(MemorySiteRepository::new());
        repository.replace_site(&site::studio()).await.unwrap();
        PageService::new(repository)
            .error_page("/broken", &Viewer::default())
            .await
            .unwrap()
    });
    let html = render_page(&view, &assets(), BASE_URL).unwrap();
    assert!(html.contains("<h1 class=\"status-page__title\">Something went wrong</h1>"));
    assert!(html.contains("<meta name=\"robots\" content=\"noindex\">"));
    assert!(islands_on(&view).is_empty());
}

#[test]
fn the_unavailable_page_stands_alone() {
    let html = render_unavailable_page(&assets());
    assert!(html.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
    assert!(
        html.contains("<h1 class=\"status-page__title\">This site is unavailable right now</h1>")
    );
    assert!(html.contains("<link rel=\"stylesheet\" href=\"/assets/site-abc123.css\">"));
    assert!(!html.contains("<script"));
    assert!(!html.contains("style="));
}

#[test]
fn templates_never_switch_escaping_off() {
    // Unescaped output goes through `Markup` only; a `safe` filter in a template would be a
    // second, unreviewed way around escaping.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("templates");
    let mut pending = vec![root];
    let mut checked = 0;
    while let Some(path) = pending.pop() {
        if path.is_dir() {
            pending.extend(
                std::fs::read_dir(&path)
                    .unwrap()
                    .map(|entry| entry.unwrap().path()),
            );
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        for forbidden in ["|safe", "escape=\"none\"", "|e(\"none\")"] {
            assert!(
                !compact.contains(forbidden),
                "{} uses {forbidden}",
                path.display()
            );
        }
        checked += 1;
    }
    assert!(checked > 20, "only {checked} templates found");
}

#[test]
fn the_kitchen_sink_page_snapshot() {
    insta::assert_snapshot!(render("/kitchen-sink"));
}

#[test]
fn the_banner_and_popup_modules_are_started_only_where_the_page_shows_them() {
    use crate::assets::StartModule;
    use crate::render::started_modules;

    let plain = site::studio();
    assert_eq!(started_modules(&view_of(&plain, "/")), []);

    let mut overlays = site::studio();
    overlays.settings.cookies.is_cookie_banner_enabled = true;
    overlays.settings.popup_overlay.style = "lightbox".to_owned();
    assert_eq!(
        started_modules(&view_of(&overlays, "/")),
        [StartModule::CookieBanner, StartModule::PopupOverlay]
    );
    // A not-found page shows the banner but never the popup (000 s3).
    assert_eq!(
        started_modules(&view_of(&overlays, "/nowhere")),
        [StartModule::CookieBanner]
    );
}
