//! Built assets: immutable caching, precompressed copies chosen by Accept-Encoding, and the
//! manifest deciding what a page loads.

use std::collections::BTreeSet;
use std::io::Read;

use axum::body::Body;
use axum::http::{Request, StatusCode};

use crate::support::{self, fetch, react_chunk, send};

const IMMUTABLE: &str = "public, max-age=31536000, immutable";

async fn fetch_encoded(path: &str, accept_encoding: &str) -> crate::support::Answer {
    let app = support::app().await;
    let request = Request::get(path)
        .header("accept-encoding", accept_encoding)
        .body(Body::empty())
        .unwrap();
    send(&app, request).await
}

#[tokio::test]
async fn brotli_is_sent_when_preferred_or_tied() {
    let answer = fetch_encoded("/assets/react-B1.js", "gzip, deflate, br").await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.header("content-encoding"), "br");
    assert_eq!(
        answer.header("content-type"),
        "text/javascript; charset=utf-8"
    );
    assert_eq!(answer.header("cache-control"), IMMUTABLE);
    assert_eq!(answer.header("vary"), "Accept-Encoding");
    let mut decoded = Vec::new();
    brotli::BrotliDecompress(&mut &answer.body[..], &mut decoded).unwrap();
    assert_eq!(decoded, react_chunk());
}

#[tokio::test]
async fn gzip_is_sent_when_its_q_value_is_higher() {
    let answer = fetch_encoded("/assets/react-B1.js", "br;q=0.5, gzip;q=1").await;
    assert_eq!(answer.header("content-encoding"), "gzip");
    assert_eq!(answer.header("vary"), "Accept-Encoding");
    let mut decoded = Vec::new();
    flate2::read::GzDecoder::new(&answer.body[..])
        .read_to_end(&mut decoded)
        .unwrap();
    assert_eq!(decoded, react_chunk());
}

#[tokio::test]
async fn the_original_is_sent_without_accept_encoding() {
    let app = support::app().await;
    let answer = fetch(&app, "/assets/react-B1.js").await;
    assert_eq!(answer.status, StatusCode::OK);
    assert!(answer.headers.get("content-encoding").is_none());
    assert_eq!(answer.header("vary"), "Accept-Encoding");
    assert_eq!(answer.header("cache-control"), IMMUTABLE);
    assert_eq!(answer.body, react_chunk());
}

#[tokio::test]
async fn compressed_formats_are_sent_as_they_are() {
    let answer = fetch_encoded("/assets/logo-L1.png", "br, gzip").await;
    assert_eq!(answer.status, StatusCode::OK);
    assert!(answer.headers.get("content-encoding").is_none());
    assert_eq!(answer.header("content-type"), "image/png");
    assert_eq!(answer.body, [137, 80, 78, 71, 13, 10, 26, 10]);
}

#[tokio::test]
async fn unknown_assets_and_the_manifest_are_not_served() {
    let app = support::app().await;
    assert_eq!(
        fetch(&app, "/assets/missing-Z9.js").await.status,
        StatusCode::NOT_FOUND
    );
    // The manifest lies outside /assets/; its path falls through to the not-found page.
    assert_eq!(
        fetch(&app, "/.vite/manifest.json").await.status,
        StatusCode::NOT_FOUND
    );
}

#[test]
fn the_manifest_decides_what_a_page_preloads() {
    let store = support::fixture_assets();
    assert!(store.has_build());
    let bare = store.page_assets(&BTreeSet::new(), &[]);
    assert_eq!(bare.stylesheets, ["/assets/site-S1.css"]);
    assert_eq!(bare.module_scripts, ["/assets/main-A1.js"]);
    assert!(bare.module_preloads.is_empty());

    let with_accordion = store.page_assets(&BTreeSet::from(["accordion", "unbuilt"]), &[]);
    assert_eq!(
        with_accordion.stylesheets,
        ["/assets/site-S1.css", "/assets/accordion-D1.css"]
    );
    assert_eq!(with_accordion.module_scripts, ["/assets/main-A1.js"]);
    assert_eq!(
        with_accordion.module_preloads,
        ["/assets/accordion-C1.js", "/assets/react-B1.js"]
    );
}

#[test]
fn an_empty_store_gives_pages_no_assets() {
    let store = vitrine_http::AssetStore::empty();
    assert!(!store.has_build());
    let assets = store.page_assets(&BTreeSet::from(["accordion"]), &[]);
    assert!(assets.stylesheets.is_empty());
    assert!(assets.module_scripts.is_empty());
    assert!(assets.module_preloads.is_empty());
}
