//! What crawlers and browsers ask for on their own: the sitemap, robots.txt and the favicon.

use axum::http::StatusCode;

use crate::support::{self, fetch};

#[tokio::test]
async fn the_sitemap_lists_only_published_pages_with_absolute_urls() {
    let app = support::app().await;
    let answer = fetch(&app, "/sitemap.xml").await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(
        answer.header("content-type"),
        "application/xml; charset=utf-8"
    );
    let xml = answer.text();
    for published in [
        "<loc>https://shop.example/</loc>",
        "<loc>https://shop.example/journal</loc>",
        "<loc>https://shop.example/journal/first</loc><lastmod>2020-09-13</lastmod>",
        "<loc>https://shop.example/journal/tote</loc>",
        "<loc>https://shop.example/faq</loc>",
    ] {
        assert!(xml.contains(published), "{published} is listed: {xml}");
    }
    for hidden in ["/journal/draft<", "/drafts<"] {
        assert!(!xml.contains(hidden), "{hidden} is not listed: {xml}");
    }
}

#[tokio::test]
async fn robots_allow_everything_and_point_at_the_sitemap() {
    let app = support::app().await;
    let answer = fetch(&app, "/robots.txt").await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.header("content-type"), "text/plain; charset=utf-8");
    let text = answer.text();
    assert!(text.contains("User-agent: *\nAllow: /\n"), "{text}");
    assert!(
        text.contains("Sitemap: https://shop.example/sitemap.xml"),
        "{text}"
    );
}

#[tokio::test]
async fn the_favicon_is_an_svg_at_both_usual_paths() {
    let app = support::app().await;
    for path in ["/favicon.svg", "/favicon.ico"] {
        let answer = fetch(&app, path).await;
        assert_eq!(answer.status, StatusCode::OK, "{path}");
        assert_eq!(answer.header("content-type"), "image/svg+xml", "{path}");
        assert!(answer.text().starts_with("<svg"), "{path}");
    }
}
