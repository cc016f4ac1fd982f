//! Router tests of reviews: the reviews-request page (209) with and without JavaScript, the
//! review API with the texts of 000 s5 and s8, and reviews on the product page.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use vitrine_core::cart::Timestamp;
use vitrine_core::catalog::Sku;
use vitrine_core::checkout::{Order, OrderLine};
use vitrine_core::pages::PageService;
use vitrine_core::ports::SiteRepository;
use vitrine_core::ports::memory::MemorySiteRepository;
use vitrine_core::reviews::conformance::{fixture_order, fixture_token};
use vitrine_core::reviews::{InMemoryReviewStore, ReviewService};
use vitrine_http::AppState;

use crate::support::{config, fixture_assets, send, site};

const CRUMB: &str = "test-crumb";

/// An order of the fixture site's tote, and one of products that are not on the site.
fn tote_order() -> Order {
    let mut order = fixture_order("order-tote");
    order.lines = vec![OrderLine {
        sku: Sku::parse("TOTE-1").unwrap(),
        product_name: "Tote".into(),
        quantity: 1,
        unit_price_cents: 1_000,
        subscription_plan: None,
        answers: Default::default(),
    }];
    order
}

async fn app() -> axum::Router {
    let repository = Arc::new(MemorySiteRepository::new());
    repository.replace_site(&site()).await.unwrap();
    let pages = Arc::new(PageService::new(repository.clone()));
    let reviews = Arc::new(ReviewService::new(Arc::new(InMemoryReviewStore::new())));
    let now = Timestamp(
        i64::try_from(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_millis(),
        )
        .unwrap(),
    );
    reviews
        .request_for_order(&fixture_order("order-1"), fixture_token(1), "Ada", now)
        .await
        .unwrap();
    reviews
        .request_for_order(&tote_order(), fixture_token(2), "Grace", now)
        .await
        .unwrap();
    // Already over: made long enough ago that it has expired.
    reviews
        .request_for_order(
            &fixture_order("order-3"),
            fixture_token(3),
            "Ada",
            Timestamp(1),
        )
        .await
        .unwrap();
    let state = AppState::new(pages, repository, Arc::new(fixture_assets()), config())
        .with_reviews(reviews);
    vitrine_http::router(state)
}

fn api(body: serde_json::Value) -> Request<Body> {
    Request::post(format!("/api/commerce/reviews?crumb={CRUMB}"))
        .header("cookie", format!("crumb={CRUMB}"))
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap()
}

fn review(token: u32, sku: &str, rating: u8) -> serde_json::Value {
    serde_json::json!({
        "token": fixture_token(token).as_str(),
        "sku": sku,
        "rating": rating,
        "title": "Lovely",
        "body": "Holds <b>tea</b>."
    })
}

fn page(token: &str) -> Request<Body> {
    Request::get(format!("/commerce/review-request?token={token}"))
        .body(Body::empty())
        .unwrap()
}

fn form_post(body: &str) -> Request<Body> {
    Request::post("/commerce/review-request")
        .header("content-type", "application/x-www-form-urlencoded")
        .header("sec-fetch-site", "same-origin")
        .body(Body::from(body.to_owned()))
        .unwrap()
}

#[tokio::test]
async fn the_review_request_page_lists_the_products_with_a_star_rating() {
    let router = app().await;
    let answer = send(&router, page(fixture_token(1).as_str())).await;
    assert_eq!(answer.status, StatusCode::OK);
    let html = answer.text();
    assert!(html.contains("data-page-type=\"209\""), "{html}");
    assert!(html.contains("data-island=\"reviews\""));
    assert_eq!(html.matches("<form class=\"review-form\"").count(), 2);
    assert!(html.contains("<h2 id=\"review-0-name\">Mug</h2>"));
    assert!(html.contains("<fieldset class=\"star-rating\"><legend>Rating</legend>"));
    assert!(html.contains("<label for=\"review-1-star-5\">5 stars</label>"));
}

#[tokio::test]
async fn the_api_answers_the_spec_texts() {
    let router = app().await;
    let missing = send(&router, api(review(1, "MUG-1", 0))).await;
    assert_eq!(missing.status, StatusCode::BAD_REQUEST);
    assert_eq!(missing.json()["error"], "Please select a star rating");

    let stored = send(&router, api(review(1, "MUG-1", 4))).await;
    assert_eq!(stored.status, StatusCode::OK);
    assert_eq!(stored.json()["message"], "Thanks for your feedback");

    let again = send(&router, api(review(1, "MUG-1", 5))).await;
    assert_eq!(again.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        again.json()["error"],
        "You have already reviewed this purchase"
    );

    let expired = send(&router, api(review(3, "MUG-1", 5))).await;
    assert_eq!(expired.json()["error"], "Your review request has expired");

    let unknown = send(&router, api(review(9, "MUG-1", 5))).await;
    assert_eq!(unknown.json()["error"], "Something went wrong");

    let wrong_types = send(&router, api(serde_json::json!({"token": 1}))).await;
    assert_eq!(wrong_types.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn the_page_says_when_a_request_has_expired_or_nothing_is_left() {
    let router = app().await;
    let expired = send(&router, page(fixture_token(3).as_str())).await;
    assert_eq!(expired.status, StatusCode::GONE);
    assert!(expired.text().contains("Your review request has expired"));

    let unknown = send(&router, page("not-a-token")).await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    assert!(unknown.text().contains("Something went wrong"));

    for sku in ["MUG-1", "BOWL-1"] {
        assert_eq!(
            send(&router, api(review(1, sku, 5))).await.status,
            StatusCode::OK
        );
    }
    let done = send(&router, page(fixture_token(1).as_str())).await;
    assert!(done.text().contains("There are no products to review"));
    assert!(!done.text().contains("<form class=\"review-form\""));
}

#[tokio::test]
async fn without_javascript_the_form_posts_and_the_page_answers() {
    let router = app().await;
    let token = fixture_token(1);
    let missing = send(
        &router,
        form_post(&format!("token={}&sku=MUG-1", token.as_str())),
    )
    .await;
    assert!(missing.text().contains("Please select a star rating"));
    let thanks = send(
        &router,
        form_post(&format!(
            "token={}&sku=MUG-1&rating=5&title=Nice",
            token.as_str()
        )),
    )
    .await;
    let html = thanks.text();
    assert!(html.contains("Thanks for your feedback"));
    assert_eq!(
        html.matches("<form class=\"review-form\"").count(),
        1,
        "{html}"
    );
}

#[tokio::test]
async fn reviews_appear_on_the_product_page_with_their_average() {
    let router = app().await;
    let before = send(
        &router,
        Request::get("/journal/tote").body(Body::empty()).unwrap(),
    )
    .await;
    assert!(
        before.text().contains("No reviews yet."),
        "{}",
        before.text()
    );
    assert!(!before.text().contains("aggregateRating"));

    assert_eq!(
        send(&router, api(review(2, "TOTE-1", 4))).await.status,
        StatusCode::OK
    );
    let after = send(
        &router,
        Request::get("/journal/tote").body(Body::empty()).unwrap(),
    )
    .await
    .text();
    assert!(after.contains("4.0 out of 5"), "{after}");
    assert!(after.contains("(1 review)"));
    assert!(
        after.contains("<p class=\"review__body\">Holds &#60;b&#62;tea&#60;/b&#62;.</p>"),
        "review text is escaped: {after}"
    );
    assert!(after.contains("\"aggregateRating\":{\"@type\":\"AggregateRating\",\"ratingValue\":\"4.0\",\"reviewCount\":1"));
    // The review's instant, to the second, for the browser's relative time (001 s9); the date
    // for readers without JavaScript.
    let meta = after
        .split("<p class=\"review__meta\">")
        .nth(1)
        .and_then(|rest| rest.split("</p>").next())
        .expect("the review's meta line");
    let (_, datetime) = meta
        .split_once("<time datetime=\"")
        .expect("a time element");
    let (instant, rest) = datetime.split_at(20);
    assert!(
        instant.len() == 20 && instant.as_bytes()[10] == b'T' && instant.ends_with('Z'),
        "{meta}"
    );
    assert!(rest.starts_with("\" data-relative>"), "{meta}");
}

#[tokio::test]
async fn review_requests_for_orders_are_the_owners_call() {
    let router = app().await;
    let answer = send(
        &router,
        Request::post(format!(
            "/api/commerce/orders/order-1/review-request?crumb={CRUMB}"
        ))
        .header("cookie", format!("crumb={CRUMB}"))
        .body(Body::empty())
        .unwrap(),
    )
    .await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
}
