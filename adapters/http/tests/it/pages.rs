//! Published pages: status codes, HTML, the page context and the assets each page links.

use axum::body::Body;
use axum::http::{Request, StatusCode};

use crate::support::{self, SITE_TITLE, fetch, send};

#[tokio::test]
async fn the_home_page_is_html_with_its_page_context() {
    let app = support::app().await;
    let answer = fetch(&app, "/").await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.header("content-type"), "text/html; charset=utf-8");
    assert_eq!(
        answer.header("cache-control"),
        "public, max-age=0, s-maxage=60, stale-while-revalidate=60"
    );
    let html = answer.text();
    assert!(
        html.contains("Hello"),
        "the home page shows its blocks: {html}"
    );
    let context = answer.page_context();
    assert_eq!(context["website"]["siteTitle"], SITE_TITLE);
    assert_eq!(context["collectionId"], "home");
}

#[tokio::test]
async fn an_item_page_is_served() {
    let app = support::app().await;
    let answer = fetch(&app, "/journal/first").await;
    assert_eq!(answer.status, StatusCode::OK);
    assert!(answer.text().contains("Post first"));
    let context = answer.page_context();
    assert_eq!(context["itemId"], "post-first");
    assert_eq!(context["collectionId"], "journal");
}

#[tokio::test]
async fn an_unknown_path_gets_the_not_found_page_with_404() {
    let app = support::app().await;
    let answer = fetch(&app, "/no/such/page").await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    assert_eq!(answer.header("content-type"), "text/html; charset=utf-8");
    assert_eq!(answer.page_context()["pageType"], 100);
}

#[tokio::test]
async fn drafts_and_disabled_collections_are_not_found() {
    let app = support::app().await;
    assert_eq!(
        fetch(&app, "/journal/draft").await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(fetch(&app, "/drafts").await.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn head_answers_the_headers_of_get_without_a_body() {
    let app = support::app().await;
    let request = Request::head("/journal").body(Body::empty()).unwrap();
    let answer = send(&app, request).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.header("content-type"), "text/html; charset=utf-8");
    assert!(answer.body.is_empty());
}

#[tokio::test]
async fn pages_are_not_served_to_other_methods() {
    let app = support::app().await;
    // From the site's own page, so the origin check lets it reach the routes.
    let request = Request::delete("/journal")
        .header("sec-fetch-site", "same-origin")
        .body(Body::empty())
        .unwrap();
    assert_eq!(
        send(&app, request).await.status,
        StatusCode::METHOD_NOT_ALLOWED
    );
}

#[tokio::test]
async fn every_page_links_the_runtime_and_site_styles_but_only_island_pages_load_react() {
    let app = support::app().await;
    let home = fetch(&app, "/").await.text();
    assert!(home.contains("/assets/main-A1.js"), "{home}");
    assert!(home.contains("/assets/site-S1.css"), "{home}");
    assert!(!home.contains("/assets/react-B1.js"), "{home}");
    assert!(!home.contains("/assets/accordion-C1.js"), "{home}");

    let faq = fetch(&app, "/faq").await;
    assert_eq!(faq.status, StatusCode::OK);
    let faq = faq.text();
    for url in [
        "/assets/main-A1.js",
        "/assets/site-S1.css",
        "/assets/accordion-C1.js",
        "/assets/react-B1.js",
        "/assets/accordion-D1.css",
    ] {
        assert!(faq.contains(url), "the accordion page links {url}: {faq}");
    }
}

#[tokio::test]
async fn pages_render_without_a_web_build() {
    let app = support::router_with(
        support::repository().await,
        vitrine_http::AssetStore::empty(),
        support::config(),
    );
    let answer = fetch(&app, "/faq").await;
    assert_eq!(answer.status, StatusCode::OK);
    assert!(!answer.text().contains("/assets/"));
}

#[tokio::test]
async fn pages_are_compressed_for_browsers_that_accept_brotli() {
    let app = support::app().await;
    let request = Request::get("/")
        .header("accept-encoding", "gzip, br")
        .body(Body::empty())
        .unwrap();
    let answer = send(&app, request).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.header("content-encoding"), "br");
    let mut html = Vec::new();
    brotli::BrotliDecompress(&mut answer.body.as_slice(), &mut html).unwrap();
    assert!(String::from_utf8(html).unwrap().contains("<html"));

    let plain = fetch(&app, "/").await;
    assert!(plain.headers.get("content-encoding").is_none());
}

#[tokio::test]
async fn rendered_pages_are_reused_until_the_site_changes() {
    use std::sync::Arc;
    use std::time::Duration;

    use vitrine_core::ports::SiteRepository;

    let repository = support::repository().await;
    let renamed = |title: &str| {
        let mut site = support::site();
        site.settings.site_title = title.to_owned();
        site
    };

    // With a long interval the cache keeps serving what it rendered, even after a change.
    let slow = support::router_with(
        repository.clone() as Arc<dyn SiteRepository>,
        support::fixture_assets(),
        support::config().with_revision_check_interval(Duration::from_secs(3600)),
    );
    assert!(fetch(&slow, "/").await.text().contains(SITE_TITLE));
    repository
        .replace_site(&renamed("Renamed Shop"))
        .await
        .unwrap();
    assert!(fetch(&slow, "/").await.text().contains(SITE_TITLE));

    // Checking the revision on every request shows every change at once.
    let eager = support::router_with(
        repository.clone() as Arc<dyn SiteRepository>,
        support::fixture_assets(),
        support::config().with_revision_check_interval(Duration::ZERO),
    );
    assert!(fetch(&eager, "/").await.text().contains("Renamed Shop"));
    repository
        .replace_site(&renamed("Third Shop"))
        .await
        .unwrap();
    assert!(fetch(&eager, "/").await.text().contains("Third Shop"));
}
