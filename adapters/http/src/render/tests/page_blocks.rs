//! The embed, audio, shape, menu, calendar, table-reservation and markdown blocks, on a page of
//! their own added to the test site.

use vitrine_core::site::*;

use super::site::studio;
use super::*;
use crate::render::islands_on;

fn id<T: TryFrom<String>>(value: &str) -> T
where
    T::Error: std::fmt::Debug,
{
    T::try_from(value.to_owned()).expect("test ids are valid")
}

fn block(block_id: &str, content: BlockContent) -> Block {
    Block {
        id: id(block_id),
        content,
    }
}

fn embed(url: &str, essential: bool) -> BlockContent {
    BlockContent::Embed(EmbedBlock {
        url: url.into(),
        title: "Opening hours".into(),
        height: 420,
        essential,
    })
}

fn menu(titles: &[&str]) -> BlockContent {
    BlockContent::Menu(MenuBlock {
        tabs: titles
            .iter()
            .map(|title| MenuTab {
                title: (*title).into(),
                sections: vec![MenuSection {
                    title: "Plates".into(),
                    items: vec![MenuItem {
                        name: "Soup <of the day>".into(),
                        description: Some("Ask us".into()),
                        price: Some("5".into()),
                    }],
                }],
            })
            .collect(),
    })
}

fn blocks_site() -> Site {
    let mut site = studio();
    let blocks = vec![
        block(
            "notes",
            BlockContent::Markdown(MarkdownBlock {
                markdown: "## Notes\n\nFired *twice*.<script>x()</script>".into(),
            }),
        ),
        block(
            "hours",
            embed("https://hours.example:8443/embed?week=1", false),
        ),
        block("own", embed("/shipping", false)),
        block("booking-form", embed("https://book.example/form", true)),
        block(
            "sounds",
            BlockContent::Audio(AudioBlock {
                title: "Kiln sounds".into(),
                artist: Some("Clay & Co.".into()),
                tracks: vec![
                    AudioTrack {
                        title: "Hum".into(),
                        file: "/media/hum.mp3".into(),
                    },
                    AudioTrack {
                        title: "Crackle".into(),
                        file: "/media/crackle.ogg".into(),
                    },
                ],
            }),
        ),
        block(
            "arch",
            BlockContent::Shape(ShapeBlock {
                shape: ShapeName::ArchedWindow,
                color: Some("#8a3f22".into()),
                drop_shadow: Some(DropShadow {
                    angle: 90.0,
                    distance: ShadowLength {
                        value: 6.0,
                        unit: ShadowUnit::Px,
                    },
                    blur: ShadowLength {
                        value: 8.0,
                        unit: ShadowUnit::Px,
                    },
                }),
                label: None,
            }),
        ),
        block("menu", menu(&["Lunch", "Dinner"])),
        block("one-menu", menu(&["Drinks"])),
        block(
            "calendar",
            BlockContent::Calendar(CalendarBlock {
                collection: id("journal"),
                title: Some("Posts by day".into()),
                opening_month: YearMonth::parse("2026-12").ok(),
            }),
        ),
        block(
            "booking",
            BlockContent::TableReservation(TableReservationBlock {
                restaurant_id: 412,
                restaurant_name: "Casa Barro".into(),
            }),
        ),
    ];
    let mut layout_page = site.collections.last().expect("the kitchen sink").clone();
    layout_page.id = id("more-blocks");
    layout_page.slug = id("more-blocks");
    layout_page.title = "More blocks".into();
    layout_page.body.layout = Layout::stacked(blocks).expect("a valid layout");
    site.collections.push(layout_page);
    site
}

fn page() -> String {
    render_site(&blocks_site(), "/more-blocks")
}

fn block_html<'a>(html: &'a str, id: &str) -> &'a str {
    element_at(html, &format!("id=\"block-{id}\""))
}

#[test]
fn each_block_is_wrapped_with_its_spec_type_code() {
    let html = page();
    for (id, kind, code) in [
        ("notes", "markdown", 44),
        ("hours", "embed", 22),
        ("sounds", "audio", 41),
        ("arch", "shape", 71),
        ("menu", "menu", 18),
        ("calendar", "calendar", 26),
        ("booking", "opentable-v2", 66),
    ] {
        let wrapper = format!(
            "<div class=\"sqs-block {kind}-block\" id=\"block-{id}\" data-block-type=\"{code}\""
        );
        assert!(html.contains(&wrapper), "missing {wrapper}");
    }
}

#[test]
fn markdown_is_rendered_and_sanitised_on_the_server() {
    let html = page();
    let notes = block_html(&html, "notes");
    assert!(
        notes.contains("<h2>Notes</h2>\n<p>Fired <em>twice</em>.</p>"),
        "{notes}"
    );
    assert!(!notes.contains("script"));
}

#[test]
fn a_third_party_embed_is_a_placeholder_and_link_until_the_island_loads_it() {
    let html = page();
    let hours = block_html(&html, "hours");
    assert!(hours.contains("data-island=\"embed\""), "{hours}");
    assert!(!hours.contains("<iframe"), "{hours}");
    assert!(hours.contains("<a class=\"button button--small button--secondary\" href=\"https://hours.example:8443/embed?week=1\" target=\"_blank\" rel=\"noopener noreferrer\">Open Opening hours on hours.example"));
    assert!(hours.contains("once you have accepted cookies"));
    assert!(hours.contains("&#34;sandbox&#34;:&#34;allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox allow-same-origin&#34;"));
    let essential = block_html(&html, "booking-form");
    assert!(!essential.contains("accepted cookies"), "{essential}");
    assert!(essential.contains("&#34;essential&#34;:true"));
}

#[test]
fn a_first_party_embed_is_a_sandboxed_frame_without_script() {
    let html = page();
    let own = block_html(&html, "own");
    assert!(!own.contains("data-island"), "{own}");
    assert!(own.contains(
        "<iframe class=\"embed__frame\" src=\"/shipping\" title=\"Opening hours\" height=\"420\" sandbox=\"allow-scripts allow-forms allow-popups\" loading=\"lazy\" referrerpolicy=\"strict-origin-when-cross-origin\"></iframe>"
    ), "{own}");
    assert!(own.contains("<figure class=\"embed embed--h400\">"));
}

#[test]
fn audio_tracks_are_native_players_that_fetch_nothing_until_played() {
    let html = page();
    let sounds = block_html(&html, "sounds");
    assert!(sounds.contains("data-island=\"audio\" data-island-props=\"{&#34;album&#34;:&#34;Kiln sounds&#34;,&#34;artist&#34;:&#34;Clay &#38; Co.&#34;}\""), "{sounds}");
    assert!(sounds.contains(
        "<audio class=\"audio__player\" controls preload=\"none\" aria-labelledby=\"audio-sounds-track-2\"><source src=\"/media/crackle.ogg\" type=\"audio/ogg\">"
    ), "{sounds}");
    assert_eq!(sounds.matches("<audio ").count(), 2);
}

#[test]
fn a_shape_carries_its_name_size_and_drop_shadow() {
    let html = page();
    let arch = block_html(&html, "arch");
    assert!(arch.contains(
        "<div class=\"shape shape--size-67\" data-shape-name=\"arched-window\" data-drop-shadow=\"{&#34;angle&#34;:90.0,&#34;distance&#34;:{&#34;value&#34;:6.0,&#34;unit&#34;:&#34;px&#34;},&#34;blur&#34;:{&#34;value&#34;:8.0,&#34;unit&#34;:&#34;px&#34;}}\">"
    ), "{arch}");
    assert!(
        arch.contains("<feDropShadow dx=\"0\" dy=\"6\" stdDeviation=\"4\" flood-opacity=\"0.35\">"),
        "{arch}"
    );
    assert!(arch.contains("aria-hidden=\"true\""));
    assert!(arch.contains("fill=\"#8a3f22\" filter=\"url(#shape-arch-shadow)\""));
}

#[test]
fn every_menu_is_shown_and_only_several_make_tabs() {
    let html = page();
    let menu = block_html(&html, "menu");
    assert!(menu.contains("data-island=\"menu\""), "{menu}");
    assert!(
        menu.contains(
            "<h2 class=\"menu__title\" id=\"menu-menu-tab-0\" data-menu-title>Lunch</h2>"
        ),
        "{menu}"
    );
    assert!(menu.contains("id=\"menu-menu-panel-1\""));
    assert!(menu.contains("<span class=\"menu__name\">Soup &#60;of the day&#62;</span>"));
    assert!(!block_html(&html, "one-menu").contains("data-island"));
}

#[test]
fn the_calendar_shows_months_with_links_that_need_no_script() {
    let html = page();
    let calendar = block_html(&html, "calendar");
    assert!(!calendar.contains("data-island"));
    assert!(calendar.contains("<section class=\"calendar__month calendar__month--opening\" id=\"calendar-calendar-2026-12\" aria-label=\"December 2026\">"), "{calendar}");
    assert!(calendar.contains("<a class=\"calendar__next\" href=\"#calendar-calendar-2027-01\">Next month<span class=\"visually-hidden\"> (January 2027)</span></a>"), "{calendar}");
    assert!(
        calendar.contains("<a class=\"calendar__previous\" href=\"#calendar-calendar-2026-12\">")
    );
    // The post of 15 January 2027, linked on its day.
    assert!(calendar.contains("<span class=\"calendar__date\">15</span>\n<ul class=\"calendar__entries\"><li><a href=\"/journal/later\">Post later</a></li>"), "{calendar}");
    assert!(!calendar.contains("Post second"));
}

#[test]
fn the_reservation_block_links_to_the_booking_page_and_never_holds_the_preview_alert() {
    let html = page();
    let booking = block_html(&html, "booking");
    assert!(
        booking.contains("href=\"https://www.opentable.com/restref/client/?rid=412\""),
        "{booking}"
    );
    assert!(booking.contains("&#34;wideScript&#34;:&#34;https://www.opentable.com/widget/reservation/loader?rid=412&#38;type=standard&#38;theme=wide&#38;overlay=false&#38;iframe=true&#34;"), "{booking}");
    assert!(!html.contains("Preview Only"));
    assert!(!html.contains("<script src=\"https://www.opentable.com"));
}

#[test]
fn the_islands_and_third_parties_of_the_page_are_listed() {
    let site = blocks_site();
    let view = view_of(&site, "/more-blocks");
    let islands = islands_on(&view);
    for name in ["embed", "audio", "menu", "reservation"] {
        assert!(islands.contains(name), "{name}");
    }
    let sources = crate::render::ThirdPartySources::of(&view);
    assert_eq!(
        sources
            .frames
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
        [
            "https://book.example",
            "https://hours.example:8443",
            "https://www.opentable.com"
        ]
    );
    assert_eq!(
        sources
            .scripts
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
        ["https://www.opentable.com"]
    );
}

#[test]
fn the_information_bar_links_to_call_write_and_find_the_place() {
    let mut site = blocks_site();
    site.settings.information_bar = Some(InformationBar {
        phone: Some("+351 21 000 0000".into()),
        email: Some("ola@studio.example".into()),
        address: Some("Rua da Argila 14, Lisboa".into()),
        hours: Some("Tue–Sat 10–18".into()),
    });
    let html = render_site(&site, "/more-blocks");
    let bar = element_at(&html, "class=\"information-bar\"");
    assert!(
        bar.starts_with("<aside class=\"information-bar\" aria-label=\"Visit or contact us\">"),
        "{bar}"
    );
    assert!(bar.contains("<a class=\"information-bar__link\" href=\"tel:+351210000000\"><span class=\"information-bar__label\">Call</span> <span class=\"information-bar__value\">+351 21 000 0000</span></a>"), "{bar}");
    assert!(bar.contains("href=\"mailto:ola@studio.example\""));
    assert!(bar.contains("href=\"https://www.openstreetmap.org/search?query=Rua+da+Argila+14%2C+Lisboa\" target=\"_blank\""), "{bar}");
    assert!(bar.contains("<span class=\"information-bar__label\">Open</span> Tue–Sat 10–18"));
    // A site without one, or with data that breaks its rules, shows none.
    site.settings.information_bar = Some(InformationBar::default());
    assert!(!render_site(&site, "/more-blocks").contains("information-bar"));
    assert!(!page().contains("information-bar"));
}
