//! The search page, `GET /search?q=` (page type 102), over the fixture site: results as links
//! with excerpts, the no-results text, the form alone for an empty query, and a refusal of an
//! over-long query that keeps it.

use axum::http::StatusCode;

use crate::support::{app, fetch};

#[tokio::test]
async fn the_search_page_is_page_type_102_inside_the_site_chrome() {
    let answer = fetch(&app().await, "/search").await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.page_context()["pageType"], 102);
    let html = answer.text();
    assert!(
        html.contains("<title>Search — Fixture Shop</title>"),
        "{html}"
    );
    assert!(
        html.contains("<header"),
        "the site's header surrounds it: {html}"
    );
    assert_eq!(answer.header("cache-control"), "no-store");
}

#[tokio::test]
async fn an_empty_query_shows_only_the_labelled_search_form() {
    for path in ["/search", "/search?q=", "/search?q=++"] {
        let html = fetch(&app().await, path).await.text();
        assert!(html.contains(r#"role="search""#), "{path}: {html}");
        assert!(
            html.contains(r#"<label class="field__label" for="search-q">Search this site</label>"#)
        );
        assert!(html.contains(r#"name="q" type="search""#));
        assert!(!html.contains("search-results"), "{path}: nothing searched");
        assert!(!html.contains("No results"), "{path}: nothing searched");
    }
}

#[tokio::test]
async fn a_search_lists_the_pages_that_match_as_links_with_excerpts() {
    let answer = fetch(&app().await, "/search?q=POST+fi").await;
    assert_eq!(answer.status, StatusCode::OK);
    let html = answer.text();
    assert!(html.contains("1 result for “POST fi”."), "{html}");
    assert!(
        html.contains(r#"<a href="/journal/first">Post first</a>"#),
        "{html}"
    );
    assert!(html.contains(r#"<p class="search-results__excerpt">An excerpt</p>"#));
    assert!(
        html.contains(r#"value="POST fi""#),
        "the query stays in the field"
    );
    // An accordion's text is found too, its page's description shown.
    let html = fetch(&app().await, "/search?q=abroad").await.text();
    assert!(html.contains(r#"<a href="/faq">Questions</a>"#), "{html}");
    assert!(html.contains("Asked often"), "{html}");
}

#[tokio::test]
async fn a_search_without_results_says_so_with_the_query() {
    let answer = fetch(&app().await, "/search?q=%3Cb%3Eteapot").await;
    assert_eq!(answer.status, StatusCode::OK);
    let html = answer.text();
    assert!(
        html.contains("No results for “&#60;b&#62;teapot”."),
        "{html}"
    );
    assert!(!html.contains("<b>teapot"), "the query is escaped");
    assert!(!html.contains("search-results"));
}

#[tokio::test]
async fn a_query_over_200_characters_is_refused_with_the_reason_and_kept() {
    let long = "a".repeat(201);
    let answer = fetch(&app().await, &format!("/search?q={long}")).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    let html = answer.text();
    assert!(
        html.contains("Your search is too long. Use at most 200 characters."),
        "{html}"
    );
    assert!(html.contains(&format!(r#"value="{long}""#)));
    assert!(html.contains(r#"aria-invalid="true""#));
    let at_limit = fetch(&app().await, &format!("/search?q={}", "a".repeat(200))).await;
    assert_eq!(at_limit.status, StatusCode::OK);
}
