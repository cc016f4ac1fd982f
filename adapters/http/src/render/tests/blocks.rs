//! Block markup: the wrapper, the grid, and what each block type renders.

use super::*;
use crate::render::islands_on;

fn kitchen_sink() -> String {
    render("/kitchen-sink")
}

/// The inside of the block with this id, wrapper included.
fn block<'a>(html: &'a str, id: &str) -> &'a str {
    element_at(html, &format!("id=\"block-{id}\""))
}

#[test]
fn blocks_are_wrapped_with_their_kind_id_and_type_code() {
    let html = kitchen_sink();
    for (id, kind, code) in [
        ("text", "html", 2),
        ("hero", "image", 5),
        ("button", "button", 53),
        ("quote", "quote", 31),
        ("space", "spacer", 21),
        ("rule", "horizontalrule", 47),
        ("code", "code", 23),
        ("gallery", "gallery", 8),
        ("journal-summary", "summary-v2", 55),
        ("contact", "form", 9),
        ("newsletter", "newsletter", 51),
        ("ticker", "marquee", 70),
        ("highlight", "text-effect", 2),
        ("map", "map", 4),
        ("film", "video", 32),
        ("featured", "product", 43),
        ("social", "socialaccountlinks-v2", 54),
    ] {
        let wrapper = format!(
            "<div class=\"sqs-block {kind}-block\" id=\"block-{id}\" data-block-type=\"{code}\""
        );
        assert!(html.contains(&wrapper), "missing {wrapper}");
    }
}

#[test]
fn the_accordion_is_an_island_of_native_details() {
    let html = kitchen_sink();
    let accordion = block(&html, "faq");
    assert!(accordion.starts_with(
        "<div class=\"sqs-block accordion-block\" id=\"block-faq\" data-block-type=\"69\" data-island=\"accordion\" data-island-props=\"{&#34;allowMultiple&#34;:false,&#34;firstOpen&#34;:true}\">"
    ), "{accordion}");
    assert!(accordion.contains(
        "<details class=\"accordion-item\" name=\"accordion-faq\" open>\n<summary class=\"accordion-item__title\">Do you ship?</summary>\n<div class=\"accordion-item__body\"><p>Yes, <strong>worldwide</strong>.</p></div>\n</details>"
    ), "{accordion}");
    assert!(accordion.contains(
        "<details class=\"accordion-item\" name=\"accordion-faq\">\n<summary class=\"accordion-item__title\">Are pieces food safe?</summary>"
    ), "{accordion}");
}

#[test]
fn an_accordion_that_allows_several_open_items_is_not_grouped() {
    let mut site = site::studio();
    let page = site
        .collections
        .iter_mut()
        .find(|c| c.slug.as_str() == "kitchen-sink")
        .unwrap();
    let rows: Vec<_> = page.body.layout.rows().to_vec();
    let mut rows = rows;
    for column in rows.iter_mut().flat_map(|row| row.columns.iter_mut()) {
        for block in &mut column.blocks {
            if let vitrine_core::site::BlockContent::Accordion {
                allow_multiple,
                first_open,
                ..
            } = &mut block.content
            {
                *allow_multiple = true;
                *first_open = false;
            }
        }
    }
    page.body.layout = vitrine_core::site::Layout::new(rows).unwrap();
    let html = render_site(&site, "/kitchen-sink");
    let accordion = block(&html, "faq");
    assert!(accordion.contains(
        "data-island-props=\"{&#34;allowMultiple&#34;:true,&#34;firstOpen&#34;:false}\""
    ));
    assert!(
        !accordion.contains(" name=") && !accordion.contains(" open"),
        "{accordion}"
    );
}

#[test]
fn islands_are_listed_only_where_they_appear() {
    let site = site::studio();
    assert_eq!(
        islands_on(&view_of(&site, "/kitchen-sink"))
            .into_iter()
            .collect::<Vec<_>>(),
        [
            "accordion",
            "button",
            "form",
            "gallery",
            "marquee",
            "newsletter",
            "product",
            "text-effect",
            "video"
        ]
    );
    assert_eq!(
        islands_on(&view_of(&site, "/shop/bowl"))
            .into_iter()
            .collect::<Vec<_>>(),
        ["product"]
    );
    assert!(islands_on(&view_of(&site, "/")).is_empty());
    assert!(islands_on(&view_of(&site, "/nowhere")).is_empty());
}

#[test]
fn columns_span_the_twelve_column_grid_by_class() {
    let html = kitchen_sink();
    assert!(html.contains("<div class=\"layout\">"));
    for span in [12, 6, 4, 8] {
        assert!(
            html.contains(&format!("<div class=\"layout-col col-span-{span}\">")),
            "{span}"
        );
    }
    assert_eq!(html.matches("<div class=\"layout-row\">").count(), 9);
}

#[test]
fn rich_text_is_the_sanitised_html() {
    let html = kitchen_sink();
    assert!(block(&html, "text").contains(
        "<div class=\"sqs-html\"><h2>Made by hand</h2><p>Small batches <a rel=\"noopener noreferrer\">x</a>.</p></div>"
    ));
}

#[test]
fn images_have_sizes_alt_text_and_load_lazily_after_the_first() {
    let html = kitchen_sink();
    let main = element_at(&html, "class=\"site-main\"");
    let images: Vec<&str> = main
        .match_indices("<img ")
        .map(|(at, _)| &main[at..at + main[at..].find('>').unwrap()])
        .collect();
    assert!(images.len() > 5);
    for (index, image) in images.iter().enumerate() {
        assert!(
            image.contains(" width=\"") && image.contains(" height=\""),
            "{image}"
        );
        assert!(
            image.contains(" alt=\"") && image.contains(" decoding=\"async\""),
            "{image}"
        );
        assert_eq!(image.contains("loading=\"lazy\""), index > 0, "{image}");
        assert_eq!(
            image.contains("fetchpriority=\"high\""),
            index == 0,
            "{image}"
        );
    }
    assert!(images[0].contains("src=\"/media/hero.jpg\""));
}

#[test]
fn a_linked_image_keeps_its_caption() {
    let html = kitchen_sink();
    let image = block(&html, "hero");
    assert!(image.contains("<a class=\"image-figure__link\" href=\"/shop\"><img src=\"/media/hero.jpg\" srcset=\"/media/hero.jpg?format=100w 100w, "));
    assert!(
        image.contains("sizes=\"(max-width: 72rem) 100vw, 72rem\" alt=\"A row of glazed bowls\"")
    );
    assert!(
        image.contains(
            "<figcaption class=\"image-figure__caption\">Fresh from the kiln</figcaption>"
        )
    );
}

#[test]
fn buttons_link_safely_and_say_when_they_open_a_tab() {
    let html = kitchen_sink();
    assert!(block(&html, "button").contains(
        "<p class=\"button-wrap button-wrap--center\"><a class=\"button button--large\" href=\"/shop\" aria-describedby=\"block-button-tooltip\" data-tooltip-target>Visit the shop</a><span class=\"tooltip\" id=\"block-button-tooltip\" role=\"tooltip\" hidden>Opens the shop</span></p>"
    ));
    // Only a button with a tooltip or a popup is an island.
    assert!(block(&html, "button").starts_with(
        "<div class=\"sqs-block button-block\" id=\"block-button\" data-block-type=\"53\" data-island=\"button\" data-island-props=\"{&#34;popup&#34;:null}\">"
    ));
    assert!(!block(&html, "evil-button").contains("data-island"));
    assert!(block(&html, "evil-button").contains(
        "<a class=\"button button--small\" href=\"#\" target=\"_blank\" rel=\"noopener noreferrer\">Win<span class=\"visually-hidden\"> (opens in a new tab)</span></a>"
    ));
}

#[test]
fn simple_blocks_render_their_content() {
    let html = kitchen_sink();
    assert!(
        block(&html, "quote")
            .contains("<blockquote class=\"quote__text\"><p>The best mug I own.</p></blockquote>")
    );
    assert!(
        block(&html, "quote")
            .contains("<figcaption class=\"quote__source\">A customer</figcaption>")
    );
    assert!(block(&html, "space").contains("<div class=\"spacer spacer--12\"></div>"));
    assert!(block(&html, "rule").contains("<hr>"));
    assert!(block(&html, "code").contains(
        "<pre class=\"code\"><code>&#60;script&#62;alert(&#39;code&#39;)&#60;/script&#62;</code></pre>"
    ));
}

#[test]
fn a_gallery_is_a_grid_of_linked_figures() {
    let html = kitchen_sink();
    let gallery = block(&html, "gallery");
    assert!(gallery.contains("data-island=\"gallery\""), "{gallery}");
    assert!(gallery.contains("<div class=\"gallery gallery--grid gallery--cols-4\" id=\"gallery-gallery\" data-gallery-layout=\"grid\" role=\"group\""));
    assert!(gallery.contains("<ul class=\"gallery__grid\">"));
    // At its layout's defaults a gallery needs no stylesheet of its own.
    assert!(!gallery.contains("<link rel=\"stylesheet\""), "{gallery}");
    assert!(gallery.contains("<li class=\"gallery__slide\" id=\"gallery-slide-1\" data-slide-id=\"slide-1\" data-index=\"0\" data-type=\"image\" aria-roledescription=\"slide\" aria-label=\"1 of 2\">"));
    assert!(gallery.contains("<a class=\"gallery__link\" href=\"/kitchen-sink/slides/slide-1\" data-full-src=\"/media/bowl.jpg\" data-image-dimensions=\"1200x800\" aria-haspopup=\"dialog\"><img src=\"/media/bowl.jpg\" srcset=\""), "{gallery}");
    // Grid tiles are drawn narrower than the content column.
    assert!(gallery.contains(
        "sizes=\"(max-width: 36rem) 100vw, (max-width: 72rem) 50vw, 24rem\" alt=\"Blue bowl\""
    ));
    assert!(gallery.contains("<span class=\"visually-hidden\"> (full-size image)</span></a>"));
    assert!(gallery.contains("<span class=\"visually-hidden\"> (full-size image 2)</span></a>"));
    assert!(gallery.contains("<span class=\"gallery__title\">Blue bowl</span> <span class=\"gallery__text\">Stoneware</span>"));
    // The island gets the layout's defaults (grid: four a row) and the collection's url.
    assert!(gallery.contains("&#34;slidesPerRow&#34;:4"), "{gallery}");
    assert!(
        gallery.contains("&#34;collectionUrl&#34;:&#34;/kitchen-sink/&#34;"),
        "{gallery}"
    );
}

#[test]
fn summaries_list_the_other_collections_items() {
    let html = kitchen_sink();
    let journal = block(&html, "journal-summary");
    assert!(journal.contains("<h2 class=\"summary__title\">From the journal</h2>"));
    assert!(journal.contains("<ul class=\"cards cards--grid\">"));
    assert!(journal.contains("<h3 class=\"card__title\"><a class=\"card__link\" href=\"/journal/tote\">Post tote</a></h3>"));
    assert!(journal.contains("<h3 class=\"card__title\"><a class=\"card__link\" href=\"/journal/first\">Post first</a></h3>"));
    assert!(journal.contains(
        "<p class=\"card__meta\"><time datetime=\"2020-09-13\">September 13, 2020</time></p>"
    ));
    assert!(journal.contains("<p class=\"card__excerpt\">An excerpt</p>"));
    let shop = block(&html, "shop-summary");
    assert!(!shop.contains("summary__title"));
    assert!(shop.contains(
        "<h2 class=\"card__title\"><a class=\"card__link\" href=\"/shop/vase\">Tall vase</a></h2>"
    ));
}

#[test]
fn a_map_without_a_tile_server_is_its_address_and_an_openstreetmap_link() {
    let html = kitchen_sink();
    let map = block(&html, "map");
    assert!(
        map.starts_with(
            "<div class=\"sqs-block map-block\" id=\"block-map\" data-block-type=\"4\">"
        ),
        "{map}"
    );
    assert!(map.contains("<div class=\"map-card map-card--minimal-light\">"));
    assert!(!map.contains("<img"), "{map}");
    assert!(!map.contains("map-card__canvas"), "{map}");
    assert!(map.contains("<strong class=\"map-card__title\">Clay &#38; Co. Studio</strong>"));
    assert!(map.contains("<span class=\"map-card__line\">12 Kiln Street</span>"));
    assert!(map.contains(
        "<a class=\"button button--small button--secondary\" href=\"https://www.openstreetmap.org/?mlat=40.7128&#38;mlon=-74.006#map=14/40.7/-74\" target=\"_blank\" rel=\"noopener noreferrer\">Open in maps<span class=\"visually-hidden\"> (opens in a new tab)</span></a>"
    ), "{map}");
}

#[test]
fn a_map_with_a_tile_server_shows_its_static_map_and_becomes_an_island() {
    use vitrine_core::map_tiles::{TileServer, TileUrlTemplate};
    let template = TileUrlTemplate::parse("https://tiles.example/{z}/{x}/{y}.png").unwrap();
    let server = TileServer::new(template, "© OpenStreetMap contributors").unwrap();
    let html = crate::render::render_page_with_lifetime(
        &view_of(&site::studio(), "/kitchen-sink"),
        &assets(),
        BASE_URL,
        &*crate::render::NO_PLUGINS,
        None,
        Some(&server),
    )
    .unwrap()
    .html;
    let map = block(&html, "map");
    let fingerprint = server.fingerprint();
    assert!(map.contains(&format!(
        "<div class=\"map-card__canvas\" data-map-canvas>\n<img class=\"map-card__image\" src=\"/api/maps/static?lat=40.7&#38;lng=-74&#38;zoom=14&#38;mlat=40.7128&#38;mlng=-74.006&#38;v={fingerprint}\" alt=\"Map of Clay &#38; Co. Studio\" width=\"640\" height=\"320\" loading=\"lazy\" decoding=\"async\">\n</div>"
    )), "{map}");
    assert!(
        map.contains("<p class=\"map-card__attribution\">© OpenStreetMap contributors</p>"),
        "{map}"
    );
    assert!(map.contains("target=\"_blank\""), "{map}");
    let props = attribute_values(map, "data-island-props");
    let props: serde_json::Value =
        serde_json::from_str(&props[0].replace("&#34;", "\"").replace("&#38;", "&")).unwrap();
    insta::assert_json_snapshot!(props, @r#"
    {
      "attribution": "© OpenStreetMap contributors",
      "draggable": true,
      "lat": 40.7,
      "linkOnClick": true,
      "lng": -74.0,
      "mapsUrl": "https://www.openstreetmap.org/?mlat=40.7128&mlon=-74.006#map=14/40.7/-74",
      "markerDraggable": false,
      "markerLabel": "Clay & Co. Studio",
      "markerLat": 40.7128,
      "markerLng": -74.006,
      "scrollwheel": false,
      "showControls": true,
      "style": "minimal-light",
      "tileHost": "tiles.example",
      "tileUrl": "https://tiles.example/{z}/{x}/{y}.png",
      "zoom": 14
    }
    "#);
}

#[test]
fn a_video_is_a_thumbnail_linking_to_the_video() {
    let html = kitchen_sink();
    let video = block(&html, "film");
    assert!(video.contains("<a class=\"video__link\" href=\"https://www.youtube.com/watch?v=abc123\"><img src=\"/media/film.jpg\" srcset=\""), "{video}");
    assert!(video.contains(" alt=\"\" width=\"1200\" height=\"800\" data-image-dimensions=\"1200x800\" loading=\"lazy\""), "{video}");
    assert!(video.contains("<span class=\"video__play\" aria-hidden=\"true\"></span><span class=\"visually-hidden\">Play video: Throwing a vase</span></a>"));
    assert!(video.contains("<figcaption class=\"video__caption\">Throwing a vase <span class=\"video__provider\">(YouTube)</span></figcaption>"));
}

#[test]
fn a_marquee_is_still_text_until_its_island_runs_it() {
    let html = kitchen_sink();
    let marquee = block(&html, "ticker");
    assert!(marquee.starts_with(
        "<div class=\"sqs-block marquee-block\" id=\"block-ticker\" data-block-type=\"70\" data-island=\"marquee\" data-island-props=\"{&#34;waveFrequency&#34;:1.0,&#34;waveIntensity&#34;:0.0,&#34;animationDirection&#34;:&#34;left&#34;,&#34;animationSpeed&#34;:1.0,&#34;pausedOnHover&#34;:false}\">"
    ), "{marquee}");
    assert!(marquee.contains(
        "<div class=\"marquee marquee--left\" data-marquee>\n<p class=\"marquee__text\">Open studio Saturday</p>\n</div>"
    ), "{marquee}");
    assert_eq!(marquee.matches("Open studio Saturday").count(), 1);
}

#[test]
fn a_text_effect_draws_its_shape_behind_the_words_without_javascript() {
    let html = kitchen_sink();
    let effect = block(&html, "highlight");
    assert!(effect.starts_with(
        "<div class=\"sqs-block text-effect-block\" id=\"block-highlight\" data-block-type=\"2\" data-island=\"text-effect\" data-island-props=\"{&#34;shape&#34;:&#34;wave&#34;,&#34;animation&#34;:&#34;draw&#34;,&#34;direction&#34;:&#34;right&#34;,&#34;linecap&#34;:&#34;square&#34;,&#34;duration&#34;:0.75}\">"
    ), "{effect}");
    assert!(effect.contains(
        "<h2 class=\"text-effect-block__text\">Made <span class=\"text-effect text-effect--wave\" data-text-effect data-animation=\"draw\">slowly<svg class=\"text-effect__shape\" viewBox=\"0 0 200 40\" preserveAspectRatio=\"none\" aria-hidden=\"true\" focusable=\"false\"><path d=\"M2 35Q14 29 26 35T50 35T74 35T98 35T122 35T146 35T170 35T194 35\" pathLength=\"1\" stroke-linecap=\"square\" vector-effect=\"non-scaling-stroke\"></path></svg></span>, by hand</h2>"
    ), "{effect}");
}

#[test]
fn social_link_blocks_name_their_services() {
    let html = kitchen_sink();
    let social = block(&html, "social");
    assert!(social.contains("<a class=\"social-links__link\" href=\"https://instagram.com/clayco\" rel=\"me noopener\">Instagram</a>"));
    assert!(social.contains(">Pinterest</a>"));
}

#[test]
fn forms_post_to_the_submission_call_with_every_field_type() {
    let html = kitchen_sink();
    let form = block(&html, "contact");
    assert!(form.contains("<form class=\"form\" method=\"post\" action=\"/form-submission\" data-form-id=\"contact-form\">"));
    assert!(form.contains("<h2 class=\"form__title\">Get in touch</h2>"));
    assert!(form.contains("<input type=\"hidden\" name=\"formId\" value=\"contact-form\">"));
    for expected in [
        "name=\"email\" type=\"email\" autocomplete=\"email\" placeholder=\"you@example.com\" required>",
        "name=\"number\" type=\"number\" step=\"any\">",
        "name=\"website\" type=\"url\" autocomplete=\"url\">",
        "name=\"budget\" type=\"number\" inputmode=\"decimal\" step=\"0.01\">",
        "name=\"secret\" type=\"password\" autocomplete=\"off\">",
        "<span class=\"field__prefix\" aria-hidden=\"true\">@</span>",
        "maxlength=\"500\" data-max-length=\"500\"",
        "aria-describedby=\"block-contact-field-2-description\"",
        "<p class=\"field__description\" id=\"block-contact-field-2-description\">Tell us about your project.</p>",
        "name=\"name-first\" type=\"text\" autocomplete=\"given-name\" required>",
        "name=\"date-month\" type=\"text\" autocomplete=\"off\" inputmode=\"numeric\">",
        "<option value=\"PM\">PM</option>",
        "name=\"address-line1\" type=\"text\" autocomplete=\"address-line1\">",
        "name=\"phone-areacode\" type=\"text\" autocomplete=\"tel-area-code\" inputmode=\"numeric\">",
        "<h3 class=\"form__section-title\">About the piece</h3>",
        "name=\"glaze\" type=\"radio\" value=\"Matte\" required>",
        "name=\"uses\" type=\"checkbox\" value=\"Flowers\">",
        "<option value=\"\">Select an option</option>",
        "<option value=\"Large\">Large</option>",
        "<legend class=\"likert__statement\">The studio was easy to find</legend>",
        "name=\"likert-0\" type=\"radio\" value=\"-2\">",
        "Strongly Agree</label>",
        "<input type=\"hidden\" id=\"block-contact-field-18\" name=\"source\" value=\"\">",
        "<button class=\"button button--primary\" type=\"submit\">Send</button>",
        "<div class=\"form__success\" hidden><p>Thank you!</p></div>",
    ] {
        assert!(form.contains(expected), "missing {expected}");
    }
}

#[test]
fn every_visible_form_control_has_a_label() {
    let html = kitchen_sink();
    let labelled: Vec<&str> = attribute_values(&html, "for");
    for tag in ["<input ", "<select ", "<textarea "] {
        for (at, _) in html.match_indices(tag) {
            let element = &html[at..at + html[at..].find('>').unwrap()];
            if element.contains("type=\"hidden\"") {
                continue;
            }
            let id = attribute_values(element, "id");
            assert_eq!(id.len(), 1, "{element}");
            assert!(labelled.contains(&id[0]), "no label for {element}");
        }
    }
}

#[test]
fn a_newsletter_is_a_labelled_email_form() {
    let html = kitchen_sink();
    let newsletter = block(&html, "newsletter");
    assert!(
        newsletter
            .contains("<form class=\"newsletter\" method=\"post\" action=\"/form-submission\">")
    );
    assert!(newsletter.contains("<h2 class=\"newsletter__title\">Studio letters</h2>"));
    assert!(newsletter.contains(
        "<label class=\"visually-hidden\" for=\"block-newsletter-email\">Email address</label>"
    ));
    assert!(newsletter.contains("<input class=\"field__control\" id=\"block-newsletter-email\" name=\"email\" type=\"email\" autocomplete=\"email\" placeholder=\"Email address\" required>"));
    assert!(
        newsletter.contains(
            "<button class=\"button button--primary\" type=\"submit\">Subscribe</button>"
        )
    );
}

#[test]
fn a_text_effect_heading_of_level_one_is_the_pages_only_h1() {
    let html = kitchen_sink();
    assert!(
        html.contains("<h1 class=\"page-title\">"),
        "a level-2 effect leaves the title"
    );
    let mut site = site::studio();
    let page = site
        .collections
        .iter_mut()
        .find(|collection| collection.slug.as_str() == "kitchen-sink")
        .unwrap();
    let mut rows = page.body.layout.rows().to_vec();
    for column in rows.iter_mut().flat_map(|row| row.columns.iter_mut()) {
        for block in &mut column.blocks {
            if let vitrine_core::site::BlockContent::TextEffect(effect) = &mut block.content {
                effect.level = Some(1);
            }
        }
    }
    page.body.layout = vitrine_core::site::Layout::new(rows).unwrap();
    let html = render_site(&site, "/kitchen-sink");
    assert_eq!(html.matches("<h1").count(), 1, "{html}");
    assert!(html.contains("<h1 class=\"text-effect-block__text\">Made <span"));
}
