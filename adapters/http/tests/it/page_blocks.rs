//! Pages with the embed, audio, table-reservation and follow-button blocks: their Content-Security-Policy
//! names exactly the third parties those blocks load from (fresh and from the page cache),
//! other pages keep the strict default, and the audio files are served from the site itself.
//! A calendar opens on the current month by the page service's clock, also from the cache.

use std::sync::Arc;

use axum::http::StatusCode;
use vitrine_core::pages::PageService;
use vitrine_core::ports::SiteRepository;
use vitrine_core::ports::memory::MemorySiteRepository;
use vitrine_core::site::{
    AudioBlock, AudioTrack, Block, BlockContent, CollectionId, EmbedBlock, FollowButtonBlock,
    Layout, MediaFile, Slug, TableReservationBlock,
};
use vitrine_http::AppState;
use vitrine_http::security_headers::CONTENT_SECURITY_POLICY_VALUE;

use crate::support::{self, fetch};

fn block(id: &str, content: BlockContent) -> Block {
    Block {
        id: id.to_owned().try_into().unwrap(),
        content,
    }
}

fn embed(url: &str) -> BlockContent {
    BlockContent::Embed(EmbedBlock {
        url: url.into(),
        title: "Opening hours".into(),
        height: 400,
        essential: false,
    })
}

async fn app(blocks: Vec<Block>) -> axum::Router {
    let mut site = support::site();
    let mut page = site.collections[0].clone();
    page.id = CollectionId::try_from("more".to_owned()).unwrap();
    page.slug = Slug::parse("more").unwrap();
    page.body.layout = Layout::stacked(blocks).unwrap();
    site.collections.push(page);
    site.media.push(MediaFile {
        path: "/media/hum.wav".into(),
        content_type: "audio/wav".into(),
        bytes: b"RIFF\0\0\0\0WAVEfmt ".to_vec(),
    });
    let repository = Arc::new(MemorySiteRepository::new());
    repository.replace_site(&site).await.unwrap();
    support::router_with(repository, support::fixture_assets(), support::config())
}

#[tokio::test]
async fn a_page_allows_only_the_frames_and_scripts_its_blocks_load() {
    let app = app(vec![
        block("hours", embed("https://hours.example/embed")),
        block("own", embed("/faq")),
        block(
            "booking",
            BlockContent::TableReservation(TableReservationBlock {
                restaurant_id: 412,
                restaurant_name: "Casa Barro".into(),
            }),
        ),
    ])
    .await;
    // The first answer is rendered, the second comes from the page cache: both say the same.
    for _ in 0..2 {
        let answer = fetch(&app, "/more").await;
        assert_eq!(answer.status, StatusCode::OK);
        let policy = answer.header("content-security-policy");
        assert!(
            policy.contains("script-src 'self' https://www.opentable.com;"),
            "{policy}"
        );
        assert!(
            policy.contains("frame-src https://hours.example https://www.opentable.com https://www.youtube-nocookie.com"),
            "{policy}"
        );
        assert!(
            !policy.contains("frame-src https://hours.example/"),
            "{policy}"
        );
    }
    let other = fetch(&app, "/faq").await;
    assert_eq!(
        other.header("content-security-policy"),
        CONTENT_SECURITY_POLICY_VALUE
    );
}

#[tokio::test]
async fn an_embed_stored_with_a_hostile_address_renders_nothing_and_widens_nothing() {
    let app = app(vec![
        block("bad", embed("javascript:alert(1)")),
        block("sneaky", embed("https://x.example/\" onload=\"alert(1)")),
    ])
    .await;
    let answer = fetch(&app, "/more").await;
    assert_eq!(answer.status, StatusCode::OK);
    let html = answer.text();
    assert!(!html.contains("javascript:alert"), "{html}");
    assert!(!html.contains("onload"), "{html}");
    assert!(!html.contains("<iframe"), "{html}");
    assert_eq!(
        answer.header("content-security-policy"),
        CONTENT_SECURITY_POLICY_VALUE
    );
}

fn follow(username: &str) -> BlockContent {
    BlockContent::FollowButton(FollowButtonBlock {
        username: username.into(),
    })
}

#[tokio::test]
async fn a_follow_button_is_a_link_and_its_page_allows_only_the_platform() {
    let app = app(vec![block("follow", follow("terraluz"))]).await;
    for _ in 0..2 {
        let answer = fetch(&app, "/more").await;
        assert_eq!(answer.status, StatusCode::OK);
        let policy = answer.header("content-security-policy");
        assert!(
            policy.contains("script-src 'self' https://platform.twitter.com;"),
            "{policy}"
        );
        assert!(
            policy.contains(
                "frame-src https://platform.twitter.com https://www.youtube-nocookie.com"
            ),
            "{policy}"
        );
        let html = answer.text();
        // Type 6 (twitter), the follow island with the platform's script and its 10 s, and a
        // link that works without any script.
        assert!(
            html.contains(
                "id=\"block-follow\" data-block-type=\"6\" data-island=\"follow\" \
                 data-island-props=\"{&#34;script&#34;:&#34;https://platform.twitter.com/widgets.js&#34;,&#34;timeoutMs&#34;:10000}\""
            ),
            "{html}"
        );
        assert!(
            html.contains("href=\"https://twitter.com/terraluz\" target=\"_blank\" rel=\"noopener noreferrer\""),
            "{html}"
        );
        assert!(html.contains(">Follow @terraluz<span class=\"visually-hidden\"> on X (opens in a new tab)</span></a>"), "{html}");
        // Nothing of the platform is in the page itself: its script is the island's to add.
        assert!(
            !html.contains("<script src=\"https://platform.twitter.com"),
            "{html}"
        );
    }
}

#[tokio::test]
async fn a_follow_button_stored_with_a_hostile_username_is_escaped() {
    let app = app(vec![block(
        "follow",
        follow("x\"><script>alert(1)</script>"),
    )])
    .await;
    let html = fetch(&app, "/more").await.text();
    assert!(!html.contains("<script>alert(1)"), "{html}");
    assert!(
        html.contains("Follow @x&#34;&#62;&#60;script&#62;"),
        "{html}"
    );
}

#[tokio::test]
async fn audio_tracks_play_from_the_sites_own_media() {
    let app = app(vec![block(
        "sounds",
        BlockContent::Audio(AudioBlock {
            title: "Kiln sounds".into(),
            artist: None,
            tracks: vec![AudioTrack {
                title: "Hum".into(),
                file: "/media/hum.wav".into(),
            }],
        }),
    )])
    .await;
    let html = fetch(&app, "/more").await.text();
    assert!(
        html.contains("<source src=\"/media/hum.wav\" type=\"audio/wav\">"),
        "{html}"
    );
    let file = fetch(&app, "/media/hum.wav").await;
    assert_eq!(file.status, StatusCode::OK);
    assert_eq!(file.header("content-type"), "audio/wav");
}

/// 31 January 2027, 23:59 UTC.
const LAST_MINUTE_OF_JANUARY: i64 = 1_801_439_940_000;

#[tokio::test]
async fn a_cached_calendar_opens_on_the_new_month_after_midnight() {
    use vitrine_core::cart::Timestamp;
    use vitrine_core::ports::FixedClock;
    use vitrine_core::site::CalendarBlock;

    let mut site = support::site();
    let mut page = site.collections[0].clone();
    page.id = CollectionId::try_from("events".to_owned()).unwrap();
    page.slug = Slug::parse("events").unwrap();
    page.body.layout = Layout::stacked(vec![block(
        "dates",
        BlockContent::Calendar(CalendarBlock {
            collection: CollectionId::try_from("journal".to_owned()).unwrap(),
            title: None,
            opening_month: None,
        }),
    )])
    .unwrap();
    site.collections.push(page);
    let repository = Arc::new(MemorySiteRepository::new());
    repository.replace_site(&site).await.unwrap();
    let clock = Arc::new(FixedClock::at(Timestamp(LAST_MINUTE_OF_JANUARY)));
    let pages = Arc::new(PageService::new(repository.clone()).with_clock(clock.clone()));
    let app = vitrine_http::router(AppState::new(
        pages,
        repository,
        Arc::new(support::fixture_assets()),
        support::config(),
    ));
    let opening = |month: &str| {
        format!("calendar__month calendar__month--opening\" id=\"calendar-dates-{month}\"")
    };
    for _ in 0..2 {
        let january = fetch(&app, "/events").await;
        assert_eq!(january.status, StatusCode::OK);
        assert!(
            january.text().contains(&opening("2027-01")),
            "{}",
            january.text()
        );
    }
    clock.set(Timestamp(LAST_MINUTE_OF_JANUARY + 2 * 60 * 1000));
    let february = fetch(&app, "/events").await.text();
    assert!(february.contains(&opening("2027-02")), "{february}");
    assert!(!february.contains(&opening("2027-01")));
}
