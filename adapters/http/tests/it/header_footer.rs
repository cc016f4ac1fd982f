//! `GET`/`PUT /api/site-header-footer` through the router: owner only, the crumb on the
//! change, validation and cleaning, and every page, cached ones included, showing the new
//! header and footer at once.

use crate::support::{Answer, fetch, owner_router, repository, send};
use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};

const CRUMB: &str = "test-crumb";
const TOKEN: &str = "owner-secret";
const PATH: &str = "/api/site-header-footer";

async fn owner_app() -> Router {
    owner_router(repository().await, TOKEN)
}

fn read(token: Option<&str>) -> Request<Body> {
    let mut request = Request::get(PATH);
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    request.body(Body::empty()).unwrap()
}

fn replace(body: &str, token: &str, crumb: bool) -> Request<Body> {
    let mut request = Request::put(PATH)
        .header("content-type", "application/json")
        .header("authorization", format!("Bearer {token}"));
    if crumb {
        request = request
            .header("cookie", format!("crumb={CRUMB}"))
            .header("x-csrf-token", CRUMB);
    }
    request.body(Body::from(body.to_owned())).unwrap()
}

async fn put(router: &Router, header: &str, footer: &str) -> Answer {
    let body = serde_json::json!({ "header": header, "footer": footer }).to_string();
    send(router, replace(&body, TOKEN, true)).await
}

#[tokio::test]
async fn only_the_owner_reads_the_header_and_footer() {
    let router = owner_app().await;
    assert_eq!(
        send(&router, read(None)).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        send(&router, read(Some("guess"))).await.status,
        StatusCode::NOT_FOUND
    );
    let answer = send(&router, read(Some(TOKEN))).await;
    assert_eq!(answer.status, StatusCode::OK);
    // Before the owner sets them: no header, and the site's footer text.
    let body = answer.json();
    assert_eq!(body["header"], "");
    assert!(
        body["footer"].as_str().unwrap().starts_with("<p>"),
        "{body}"
    );
}

#[tokio::test]
async fn a_change_needs_the_crumb_and_the_owner() {
    let router = owner_app().await;
    let body = r#"{"header":"<p>Hi</p>","footer":""}"#;
    let no_crumb = send(&router, replace(body, TOKEN, false)).await;
    assert_eq!(no_crumb.status, StatusCode::UNAUTHORIZED);
    assert_eq!(no_crumb.json()["crumbFail"], true);
    let stranger = send(&router, replace(body, "guess", true)).await;
    assert_eq!(stranger.status, StatusCode::NOT_FOUND);
    assert!(!fetch(&router, "/").await.text().contains("<p>Hi</p>"));
}

#[tokio::test]
async fn a_bad_body_or_too_much_html_is_refused_with_the_reason() {
    let router = owner_app().await;
    for body in [
        "",
        "{}",
        r#"{"header":"x"}"#,
        r#"{"header":1,"footer":""}"#,
        "nope",
    ] {
        let answer = send(&router, replace(body, TOKEN, true)).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(
            answer.json()["error"],
            "The body is {\"header\": HTML text, \"footer\": HTML text}."
        );
    }
    let answer = put(&router, &"a".repeat(16 * 1024 + 1), "").await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        answer.json()["error"],
        "The header is 16385 bytes; it may have at most 16384 bytes."
    );
}

#[tokio::test]
async fn a_change_is_cleaned_and_shown_on_every_page_at_once() {
    let router = owner_app().await;
    // Both pages are rendered and cached first.
    for path in ["/", "/faq"] {
        let page = fetch(&router, path).await;
        assert!(!page.text().contains("Free shipping"), "{path}");
        let again = fetch(&router, path).await;
        assert_eq!(again.body, page.body, "{path} is served from the cache");
    }
    let answer = put(
        &router,
        r#"<p onclick="steal()">Free shipping this week<script>x()</script></p>"#,
        r#"<p>Visit our <a href="/faq">letter</a></p>"#,
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.json()["header"], "<p>Free shipping this week</p>");
    assert_eq!(
        send(&router, read(Some(TOKEN))).await.json()["header"],
        "<p>Free shipping this week</p>"
    );
    for path in ["/", "/faq"] {
        let html = fetch(&router, path).await.text();
        assert!(
            html.contains(
                r#"<div class="site-header__content"><p>Free shipping this week</p></div>"#
            ),
            "{path}: {html}"
        );
        assert!(
            html.contains(r#"<div class="site-footer__text"><p>Visit our <a href="/faq" rel="noopener noreferrer">letter</a></p></div>"#),
            "{path}: {html}"
        );
        assert!(!html.contains("steal()") && !html.contains("x()"), "{path}");
    }
}
