//! Page passwords through the router: the lock screen (103) offers a password form without
//! JavaScript; a right password sets an HttpOnly unlock cookie for the browser session that
//! opens the collection, its items and its media and nothing else; a wrong one shows the
//! lock screen again with the reason; a cross-site post is refused; too many attempts
//! answer 429 with `Retry-After`; a forged or copied-across cookie opens nothing.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use vitrine_core::people::{PasswordCost, PasswordHasher};
use vitrine_core::ports::SiteRepository;
use vitrine_core::ports::memory::MemorySiteRepository;
use vitrine_core::site::{CollectionId, PagePassword, PermissionType};

use crate::support::{self, Answer, cookie_value, send, set_cookie};

const PASSWORD: &str = "kiln and ash";

/// The fixture site with the journal (its posts and `/media/a.png`, which only it shows)
/// behind the password [`PASSWORD`], and the FAQ behind another.
async fn app() -> axum::Router {
    let mut site = support::site();
    let hasher = PasswordHasher::new(PasswordCost::TESTS_ONLY).unwrap();
    for collection in &mut site.collections {
        if ["journal", "faq"].contains(&collection.id.as_str()) {
            collection.permission_type = PermissionType::PasswordProtected;
        }
    }
    site.settings.page_passwords = vec![
        PagePassword {
            collection: CollectionId::parse("journal").unwrap(),
            hash: hasher.hash(PASSWORD, &[7; 16]).unwrap(),
        },
        PagePassword {
            collection: CollectionId::parse("faq").unwrap(),
            hash: hasher.hash("another one", &[8; 16]).unwrap(),
        },
    ];
    let repository = Arc::new(MemorySiteRepository::new());
    repository.replace_site(&site).await.unwrap();
    support::router_with(repository, support::fixture_assets(), support::config())
}

fn enter(password: &str, return_to: &str) -> Request<Body> {
    let body: String = url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs([("password", password), ("return", return_to)])
        .finish();
    Request::post("/page-password")
        .header("content-type", "application/x-www-form-urlencoded")
        .header("sec-fetch-site", "same-origin")
        .body(Body::from(body))
        .unwrap()
}

fn page(path: &str, cookie: Option<&str>) -> Request<Body> {
    let mut request = Request::get(path);
    if let Some(cookie) = cookie {
        request = request.header("cookie", cookie);
    }
    request.body(Body::empty()).unwrap()
}

fn assert_lock_screen(answer: &Answer, path: &str) {
    assert_eq!(answer.status, StatusCode::FORBIDDEN, "{path}");
    let html = answer.text();
    assert!(html.contains("This page is locked"), "{path}: {html}");
    assert_eq!(answer.page_context()["pageType"], 103, "{path}");
    for secret in ["Post first", "An excerpt", "src=\"/media/a.png"] {
        assert!(!html.contains(secret), "{path} leaked {secret}");
    }
}

#[tokio::test]
async fn the_lock_screen_offers_a_labelled_password_form_that_comes_back_to_the_page() {
    let app = app().await;
    for path in ["/journal", "/journal/first"] {
        let answer = send(&app, page(path, None)).await;
        assert_lock_screen(&answer, path);
        let html = answer.text();
        assert!(
            html.contains("method=\"post\" action=\"/page-password\""),
            "{html}"
        );
        assert!(
            html.contains(&format!(
                "<input type=\"hidden\" name=\"return\" value=\"{path}\">"
            )),
            "{html}"
        );
        assert!(
            html.contains("<label class=\"field__label\" for=\"page-password\">Password</label>")
        );
        assert!(html.contains("type=\"password\""));
    }
}

#[tokio::test]
async fn the_right_password_opens_the_collection_its_items_and_media_for_the_session() {
    let app = app().await;
    let entered = send(&app, enter(PASSWORD, "/journal/first")).await;
    assert_eq!(entered.status, StatusCode::SEE_OTHER, "{}", entered.text());
    assert_eq!(entered.header("location"), "/journal/first");
    let set = set_cookie(&entered, "unlock-journal").expect("an unlock cookie");
    assert!(set.contains("HttpOnly"), "{set}");
    assert!(set.contains("SameSite=Lax"), "{set}");
    assert!(set.contains("Path=/"), "{set}");
    assert!(
        !set.contains("Max-Age") && !set.contains("Expires"),
        "for the session: {set}"
    );
    let cookie = format!("unlock-journal={}", cookie_value(set));
    for path in ["/journal", "/journal/first", "/media/a.png"] {
        let answer = send(&app, page(path, Some(&cookie))).await;
        assert_eq!(answer.status, StatusCode::OK, "{path}");
        assert!(
            answer.header("cache-control").starts_with("private"),
            "{path}: an unlocked page never goes into a shared cache"
        );
    }
    assert!(
        send(&app, page("/journal/first", Some(&cookie)))
            .await
            .text()
            .contains("Post first")
    );
    // It opens the journal alone: the FAQ has its own password.
    assert_lock_screen(&send(&app, page("/faq", Some(&cookie))).await, "/faq");
    // And an anonymous visitor still sees the lock screen afterwards.
    assert_lock_screen(&send(&app, page("/journal", None)).await, "/journal");
}

#[tokio::test]
async fn a_wrong_password_shows_the_lock_screen_again_with_the_reason_and_no_cookie() {
    let app = app().await;
    let answer = send(&app, enter("kiln and ash!", "/journal")).await;
    assert_lock_screen(&answer, "/journal");
    let html = answer.text();
    assert!(
        html.contains("That password is not right. Please try again."),
        "{html}"
    );
    assert!(html.contains("role=\"alert\""), "{html}");
    assert!(set_cookie(&answer, "unlock-journal").is_none());
    // The password of another collection is not the journal's.
    let other = send(&app, enter("another one", "/journal")).await;
    assert_lock_screen(&other, "/journal");
    assert!(set_cookie(&other, "unlock-journal").is_none());
    assert!(set_cookie(&other, "unlock-faq").is_none());
}

#[tokio::test]
async fn a_forged_or_moved_unlock_cookie_opens_nothing() {
    let app = app().await;
    let entered = send(&app, enter("another one", "/faq")).await;
    let faq_token = cookie_value(set_cookie(&entered, "unlock-faq").unwrap());
    for cookie in [
        format!("unlock-journal={faq_token}"),
        format!("unlock-journal={}", "0".repeat(64)),
        "unlock-journal=".to_owned(),
        "unlock-journal=not-hex".to_owned(),
    ] {
        assert_lock_screen(&send(&app, page("/journal", Some(&cookie))).await, &cookie);
    }
}

#[tokio::test]
async fn a_cross_site_password_post_is_refused() {
    let app = app().await;
    let mut request = enter(PASSWORD, "/journal");
    request
        .headers_mut()
        .insert("sec-fetch-site", "cross-site".parse().unwrap());
    let answer = send(&app, request).await;
    assert_eq!(answer.status, StatusCode::FORBIDDEN);
    assert!(set_cookie(&answer, "unlock-journal").is_none());
}

#[tokio::test]
async fn guessing_is_rate_limited_with_retry_after_even_for_the_right_password() {
    let app = app().await;
    let mut refused = None;
    for attempt in 0..20 {
        let answer = send(&app, enter(&format!("guess {attempt}"), "/journal")).await;
        if answer.status == StatusCode::TOO_MANY_REQUESTS {
            refused = Some(answer);
            break;
        }
        assert_eq!(answer.status, StatusCode::FORBIDDEN);
    }
    let refused = refused.expect("guessing is limited");
    assert!(refused.header("retry-after").parse::<u64>().unwrap() > 0);
    assert!(
        refused
            .text()
            .contains("Too many attempts. Please try again later.")
    );
    let right = send(&app, enter(PASSWORD, "/journal")).await;
    assert_eq!(right.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(set_cookie(&right, "unlock-journal").is_none());
}

#[tokio::test]
async fn a_return_address_elsewhere_or_to_an_open_page_unlocks_nothing() {
    let app = app().await;
    for return_to in ["//evil.example/journal", "https://evil.example/", "/"] {
        let answer = send(&app, enter(PASSWORD, return_to)).await;
        assert_eq!(answer.status, StatusCode::SEE_OTHER, "{return_to}");
        assert_eq!(answer.header("location"), "/", "{return_to}");
        assert!(set_cookie(&answer, "unlock-journal").is_none());
    }
}
