//! Blogs' RSS feeds through the router: `/<blog>?format=rss` lists the newest posts with
//! absolute links, goes out like a cached page (entity tag, 304, the pages' caching), and the
//! blog's pages point to it from their head; a blog the gate keeps from anonymous visitors has
//! no feed, even for its members, and neither do other pages.

use axum::body::Body;
use axum::http::{Request, StatusCode};

use crate::members::{Members, members_over, members_site, page};
use crate::support::{self, fetch, send};

const FEED_LINK: &str = "<link rel=\"alternate\" type=\"application/rss+xml\" title=\"Journal\" \
     href=\"https://shop.example/journal?format=rss\">";

#[tokio::test]
async fn a_public_blog_has_an_rss_feed_of_its_newest_posts() {
    let app = support::app().await;
    let answer = fetch(&app, "/journal?format=rss").await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    assert_eq!(
        answer.header("content-type"),
        "application/rss+xml; charset=utf-8"
    );
    assert_eq!(
        answer.header("cache-control"),
        "public, max-age=0, s-maxage=60, stale-while-revalidate=60"
    );
    let xml = answer.text();
    assert!(
        xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\""),
        "{xml}"
    );
    for expected in [
        "<link>https://shop.example/journal</link>",
        "<title>Post first</title>",
        "<link>https://shop.example/journal/first</link>",
        "<pubDate>Sun, 13 Sep 2020 12:26:40 +0000</pubDate>",
        "<description>An excerpt</description>",
        "<atom:link href=\"https://shop.example/journal?format=rss\" rel=\"self\"",
    ] {
        assert!(xml.contains(expected), "{expected} is in the feed: {xml}");
    }
    assert!(
        !xml.contains("/journal/draft<"),
        "drafts are not listed: {xml}"
    );

    // A reader that holds the feed already gets 304.
    let etag = answer.header("etag").to_owned();
    assert!(etag.starts_with('"'), "a strong entity tag: {etag}");
    let again = send(
        &app,
        Request::get("/journal?format=rss")
            .header("if-none-match", &etag)
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
    assert!(again.body.is_empty());

    // The blog's page and its posts' pages point feed readers to it.
    for path in ["/journal", "/journal/first"] {
        let html = fetch(&app, path).await.text();
        assert!(html.contains(FEED_LINK), "{path}: {html}");
    }
    let faq = fetch(&app, "/faq").await.text();
    assert!(!faq.contains("application/rss+xml"), "{faq}");
}

#[tokio::test]
async fn only_a_blog_has_a_feed() {
    let app = support::app().await;
    for path in [
        "/faq?format=rss",
        "/nothing-here?format=rss",
        "/journal/first?format=rss",
    ] {
        let answer = fetch(&app, path).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{path}");
        assert!(!answer.text().contains("<rss"), "{path}");
    }
    // Another query is the page, not the feed.
    let page = fetch(&app, "/journal?format=rss2").await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.header("content-type").starts_with("text/html"));
}

/// The journal members-only: no feed for anyone, members included, and no link to one.
#[tokio::test]
async fn a_members_only_blog_has_no_feed_even_for_its_members() {
    let app: Members = members_over(&members_site()).await;
    let anonymous = app.send(page("/journal?format=rss", None)).await;
    assert_eq!(anonymous.status, StatusCode::NOT_FOUND);
    assert!(!anonymous.text().contains("Post first"));

    let session = app.member("ada@example.com").await;
    let joined = app
        .send(crate::members::form_post(
            "/account/member-access/join",
            &[("area", "readers"), ("xsrf", &app.xsrf(&session).await)],
            Some(&session),
        ))
        .await;
    assert_eq!(joined.status, StatusCode::SEE_OTHER, "{}", joined.text());
    let journal = app.send(page("/journal", Some(&session))).await;
    assert_eq!(journal.status, StatusCode::OK, "the member sees the blog");
    assert!(
        !journal.text().contains("application/rss+xml"),
        "{}",
        journal.text()
    );
    let feed = app.send(page("/journal?format=rss", Some(&session))).await;
    assert_eq!(feed.status, StatusCode::NOT_FOUND);
    assert!(!feed.text().contains("Post first"));
}
