//! The map block's static map through the router, the real tile source and a local tile
//! server that draws its tiles: the page shows the image, address and link; the image is
//! composed from fetched tiles once, kept in the data directory across restarts, and
//! revalidated by its entity tag; hostile locations are refused before any tile is asked
//! for; a tile server that is down leaves the page whole and the image answering a clear
//! error; a site without a tile server shows no image at all.

use std::io::Cursor;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use axum::Router;
use axum::body::Body;
use axum::extract::{Path as UrlPath, State};
use axum::http::{Request, StatusCode};
use axum::response::{IntoResponse, Response};
use vitrine_core::map_tiles::{TileServer, TileUrlTemplate};
use vitrine_core::pages::PageService;
use vitrine_core::ports::SiteRepository;
use vitrine_core::site::{
    Block, BlockContent, Body as PageBody, Collection, CollectionId, Layout, MapLocation, MapStyle,
    MapUiOptions, PermissionType, Seo, Slug,
};
use vitrine_http::{AppState, NO_TILE_SERVER_MESSAGE, StaticMaps, TILE_SERVER_DOWN_MESSAGE};
use vitrine_services::HttpTileSource;

use crate::support::{Answer, config, fetch, fixture_assets, send, site};

/// A tile server drawing each tile in a colour of its coordinates, counting the tiles it
/// serves; switched off, it answers 503.
struct TileFixture {
    template: String,
    served: Arc<AtomicUsize>,
    down: Arc<AtomicBool>,
}

#[derive(Clone)]
struct FixtureState {
    served: Arc<AtomicUsize>,
    down: Arc<AtomicBool>,
}

async fn tile_fixture() -> TileFixture {
    async fn tile(
        State(state): State<FixtureState>,
        UrlPath((z, x, y)): UrlPath<(u8, u32, String)>,
    ) -> Response {
        if state.down.load(Ordering::SeqCst) {
            return StatusCode::SERVICE_UNAVAILABLE.into_response();
        }
        state.served.fetch_add(1, Ordering::SeqCst);
        let y: u32 = y.trim_end_matches(".png").parse().unwrap();
        let colour = [(x % 7 * 30) as u8, (y % 7 * 30) as u8, z * 10];
        let image = image::RgbImage::from_pixel(256, 256, image::Rgb(colour));
        let mut png = Vec::new();
        image
            .write_to(&mut Cursor::new(&mut png), image::ImageFormat::Png)
            .unwrap();
        ([("content-type", "image/png")], png).into_response()
    }
    let state = FixtureState {
        served: Arc::new(AtomicUsize::new(0)),
        down: Arc::new(AtomicBool::new(false)),
    };
    let app = Router::new()
        .route("/tiles/{z}/{x}/{y}", axum::routing::get(tile))
        .with_state(state.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    TileFixture {
        template: format!("http://{address}/tiles/{{z}}/{{x}}/{{y}}.png"),
        served: state.served,
        down: state.down,
    }
}

fn tile_server(template: &str) -> TileServer {
    TileServer::new(
        TileUrlTemplate::parse(template).unwrap(),
        "© OpenStreetMap contributors",
    )
    .unwrap()
}

/// The fixture site plus `/visit`, a page with one map block in Lisbon.
async fn repository() -> Arc<vitrine_core::ports::memory::MemorySiteRepository> {
    let mut site = site();
    site.collections.push(Collection {
        id: CollectionId::try_from("visit".to_owned()).unwrap(),
        collection_type: vitrine_core::enums::CollectionType::Page,
        title: "Visit us".into(),
        slug: Slug::parse("visit").unwrap(),
        description: String::new(),
        permission_type: PermissionType::Public,
        body: PageBody {
            raw: false,
            layout: Layout::stacked(vec![Block {
                id: "studio-map".to_owned().try_into().unwrap(),
                content: BlockContent::Map {
                    location: MapLocation {
                        map_lat: 38.7172,
                        map_lng: -9.1313,
                        marker_lat: None,
                        marker_lng: None,
                        map_zoom: 15,
                        address_title: "Terraluz Studio".into(),
                        address_line1: "Rua da Argila Azul 14".into(),
                        address_line2: "1100-321 Lisboa".into(),
                        address_country: "Portugal".into(),
                    },
                    style: MapStyle::Original,
                    options: MapUiOptions::default(),
                },
            }])
            .unwrap(),
        },
        seo: Seo::default(),
        enabled: true,
    });
    let repository = Arc::new(vitrine_core::ports::memory::MemorySiteRepository::new());
    repository.replace_site(&site).await.unwrap();
    repository
}

/// The router with static maps from `template`, its tiles kept under `data_dir`.
async fn app(template: Option<&str>, data_dir: &Path) -> Router {
    let repository = repository().await;
    let pages = Arc::new(PageService::new(repository.clone()));
    let mut state = AppState::new(pages, repository, Arc::new(fixture_assets()), config());
    if let Some(template) = template {
        let server = tile_server(template);
        let source = HttpTileSource::new(server.clone(), data_dir);
        state = state.with_static_maps(Arc::new(StaticMaps::new(server, Arc::new(source))));
    }
    vitrine_http::router(state)
}

/// The `src` of the page's static map, as a request path.
fn image_src(page: &Answer) -> String {
    let html = page.text();
    let start = html
        .find("<img class=\"map-card__image\" src=\"")
        .expect("the page shows a static map")
        + "<img class=\"map-card__image\" src=\"".len();
    html[start..start + html[start..].find('"').unwrap()].replace("&#38;", "&")
}

#[tokio::test]
async fn the_page_shows_the_static_map_with_the_address_and_a_link_in_a_new_window() {
    let tiles = tile_fixture().await;
    let data = tempfile::tempdir().unwrap();
    let app = app(Some(&tiles.template), data.path()).await;
    let page = fetch(&app, "/visit").await;
    assert_eq!(page.status, StatusCode::OK);
    let html = page.text();
    let fingerprint = tile_server(&tiles.template).fingerprint();
    assert_eq!(
        image_src(&page),
        format!("/api/maps/static?lat=38.7172&lng=-9.1313&zoom=15&v={fingerprint}")
    );
    assert!(html.contains("alt=\"Map of Terraluz Studio\""), "{html}");
    assert!(html.contains("<strong class=\"map-card__title\">Terraluz Studio</strong>"));
    assert!(html.contains("<span class=\"map-card__line\">Rua da Argila Azul 14</span>"));
    assert!(html.contains(
        "href=\"https://www.openstreetmap.org/?mlat=38.7172&#38;mlon=-9.1313#map=15/38.7172/-9.1313\" target=\"_blank\" rel=\"noopener noreferrer\">Open in maps<span class=\"visually-hidden\"> (opens in a new tab)</span>"
    ), "{html}");
    assert!(html.contains("data-island=\"map\""), "{html}");
    // Rendering the page asked the tile server for nothing.
    assert_eq!(tiles.served.load(Ordering::SeqCst), 0);
    // The interactive map's tiles are images from the tile server, which the page allows.
    let origin = tiles.template.split("/tiles").next().unwrap();
    assert!(
        page.header("content-security-policy")
            .contains(&format!("img-src 'self' data: {origin};")),
        "{}",
        page.header("content-security-policy")
    );
}

#[tokio::test]
async fn the_image_is_composed_from_tiles_fetched_once_and_kept_in_the_data_directory() {
    let tiles = tile_fixture().await;
    let data = tempfile::tempdir().unwrap();
    let app = app(Some(&tiles.template), data.path()).await;
    let src = image_src(&fetch(&app, "/visit").await);

    let image = fetch(&app, &src).await;
    assert_eq!(
        image.status,
        StatusCode::OK,
        "{:?}",
        String::from_utf8_lossy(&image.body)
    );
    assert_eq!(image.header("content-type"), "image/png");
    assert_eq!(
        image.header("cache-control"),
        "public, max-age=31536000, immutable"
    );
    let decoded = image::load_from_memory(&image.body).unwrap();
    assert_eq!((decoded.width(), decoded.height()), (640, 320));
    let fetched = tiles.served.load(Ordering::SeqCst);
    assert!((6..=12).contains(&fetched), "{fetched} tiles");

    // Asked again, by this server or by one restarted on the same data directory, the
    // image is the same and the tile server is not asked again.
    let again = fetch(&app, &src).await;
    assert_eq!(again.body, image.body);
    let restarted = self::app(Some(&tiles.template), data.path()).await;
    let after_restart = fetch(&restarted, &src).await;
    assert_eq!(after_restart.status, StatusCode::OK);
    assert_eq!(after_restart.header("etag"), image.header("etag"));
    assert_eq!(tiles.served.load(Ordering::SeqCst), fetched);

    // A browser holding the image revalidates it for nothing.
    let revalidated = send(
        &app,
        Request::get(&src)
            .header("if-none-match", image.header("etag"))
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(revalidated.status, StatusCode::NOT_MODIFIED);
    assert!(revalidated.body.is_empty());
}

#[tokio::test]
async fn an_image_asked_for_under_an_old_tile_server_is_not_kept_for_a_year() {
    let tiles = tile_fixture().await;
    let data = tempfile::tempdir().unwrap();
    let app = app(Some(&tiles.template), data.path()).await;
    let image = fetch(
        &app,
        "/api/maps/static?lat=38.7172&lng=-9.1313&zoom=15&v=0123456789ab",
    )
    .await;
    assert_eq!(image.status, StatusCode::OK);
    assert_eq!(image.header("cache-control"), "public, max-age=3600");
}

#[tokio::test]
async fn hostile_locations_are_refused_before_any_tile_is_fetched() {
    let tiles = tile_fixture().await;
    let data = tempfile::tempdir().unwrap();
    let app = app(Some(&tiles.template), data.path()).await;
    let cases = [
        (
            "lat=0&lng=0&zoom=99999",
            "mapZoom: expected a zoom from 1 to 20, found 255.",
        ),
        (
            "lat=0&lng=0&zoom=0",
            "mapZoom: expected a zoom from 1 to 20, found 0.",
        ),
        (
            "lat=0&lng=0&zoom=1e9",
            "The parameter zoom must be a number.",
        ),
        (
            "lat=1000&lng=0&zoom=3",
            "mapLat: expected a latitude from -90 to 90 degrees, found 1000.",
        ),
        (
            "lat=0&lng=-180.5&zoom=3",
            "mapLng: expected a longitude from -180 to 180 degrees, found -180.5.",
        ),
        (
            "lat=NaN&lng=0&zoom=3",
            "mapLat: expected a latitude from -90 to 90 degrees, found NaN.",
        ),
        (
            "lat=%3Cscript%3E&lng=0&zoom=3",
            "The parameter lat must be a number.",
        ),
        ("lng=0&zoom=3", "A static map needs the parameter lat."),
        (
            "lat=0&lng=0&zoom=3&mlng=4",
            "markerLng: expected markerLat and markerLng together or neither, found only markerLng.",
        ),
    ];
    for (query, message) in cases {
        let answer = fetch(&app, &format!("/api/maps/static?{query}")).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{query}");
        assert_eq!(answer.json()["error"], message, "{query}");
    }
    assert_eq!(tiles.served.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn a_tile_server_that_is_down_leaves_the_page_whole_and_the_image_saying_so() {
    let tiles = tile_fixture().await;
    tiles.down.store(true, Ordering::SeqCst);
    let data = tempfile::tempdir().unwrap();
    let app = app(Some(&tiles.template), data.path()).await;
    let page = fetch(&app, "/visit").await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.text().contains("Rua da Argila Azul 14"));
    assert!(page.text().contains("Open in maps"));

    let src = image_src(&page);
    let image = fetch(&app, &src).await;
    assert_eq!(image.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(image.header("retry-after"), "60");
    assert_eq!(image.json()["error"], TILE_SERVER_DOWN_MESSAGE);

    // Nothing of the failure is kept: once the tile server is back, the image is drawn.
    tiles.down.store(false, Ordering::SeqCst);
    assert_eq!(fetch(&app, &src).await.status, StatusCode::OK);
}

#[tokio::test]
async fn without_a_tile_server_a_map_is_its_address_and_link_only() {
    let data = tempfile::tempdir().unwrap();
    let app = app(None, data.path()).await;
    let page = fetch(&app, "/visit").await;
    let html = page.text();
    assert!(!html.contains("map-card__image"), "{html}");
    assert!(!html.contains("data-island=\"map\""), "{html}");
    assert!(html.contains("Open in maps"));
    assert!(
        !page
            .header("content-security-policy")
            .contains("img-src 'self' data: http")
    );
    let image = fetch(&app, "/api/maps/static?lat=38.7172&lng=-9.1313&zoom=15").await;
    assert_eq!(image.status, StatusCode::NOT_FOUND);
    assert_eq!(image.json()["error"], NO_TILE_SERVER_MESSAGE);
}
