//! The tighter limits on checkout entry, coupon and donation attempts, per visitor and per
//! address, apart from the limits every state-changing request has.

use std::net::SocketAddr;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use vitrine_http::RequestLimits;

use crate::support::{Answer, config, send};

fn limits(per_address: u32, per_visitor: u32) -> RequestLimits {
    crate::support::rate_limits(per_address, per_visitor, 600)
}

async fn app(attempts: RequestLimits) -> axum::Router {
    let repository = crate::support::repository().await;
    let pages = std::sync::Arc::new(vitrine_core::pages::PageService::new(repository.clone()));
    vitrine_http::router(vitrine_http::AppState::new(
        pages,
        repository,
        std::sync::Arc::new(crate::support::fixture_assets()),
        config().with_attempt_limits(attempts),
    ))
}

/// A `POST` of `body` to `path` from `peer` as visitor `crumb`.
async fn post(app: &axum::Router, path: &str, peer: &str, crumb: &str, body: &str) -> Answer {
    let content_type = if path.starts_with("/api/") {
        "application/json"
    } else {
        "application/x-www-form-urlencoded"
    };
    let mut request = Request::post(format!("{path}?crumb={crumb}"))
        .header("cookie", format!("crumb={crumb}"))
        .header("sec-fetch-site", "same-origin")
        .header("content-type", content_type)
        .body(Body::from(body.to_owned()))
        .unwrap();
    request
        .extensions_mut()
        .insert(ConnectInfo(peer.parse::<SocketAddr>().unwrap()));
    send(app, request).await
}

#[tokio::test]
async fn checkout_entry_and_coupons_past_the_visitors_attempts_answer_429_with_retry_after() {
    let app = app(limits(100, 3)).await;
    let peer = "192.0.2.10:1";
    for round in 0..2 {
        let entered = post(&app, "/commerce/goto-checkout", peer, "shopperA", "").await;
        assert_ne!(entered.status, StatusCode::TOO_MANY_REQUESTS, "{round}");
    }
    let coupon = r#"{"code":"GUESS1"}"#;
    let tried = post(&app, "/api/commerce/cart/coupons", peer, "shopperA", coupon).await;
    assert_ne!(tried.status, StatusCode::TOO_MANY_REQUESTS);

    // The fourth attempt of any kind is refused: a page for the form, JSON for the API.
    let page = post(&app, "/commerce/goto-checkout", peer, "shopperA", "").await;
    assert_eq!(page.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(page.header("retry-after").parse::<u32>().unwrap() >= 1);
    assert!(page.header("content-type").starts_with("text/html"));
    let api = post(&app, "/api/commerce/cart/coupons", peer, "shopperA", coupon).await;
    assert_eq!(api.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(api.header("ratelimit-limit"), "3");
    assert_eq!(
        api.json()["error"],
        "Unable to submit form. Submission rate limit exceeded. Please try again later."
    );

    // Ordinary cart edits are not attempts, and another visitor has attempts of their own.
    let add = r#"{"itemId":"tote","sku":"TOTE-1","quantity":1}"#;
    let added = post(&app, "/api/commerce/cart/items", peer, "shopperA", add).await;
    assert_ne!(added.status, StatusCode::TOO_MANY_REQUESTS);
    let other = post(
        &app,
        "/commerce/goto-checkout",
        "192.0.2.11:1",
        "shopperB",
        "",
    )
    .await;
    assert_ne!(other.status, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn donations_from_one_address_are_stopped_whatever_the_crumb() {
    let app = app(limits(2, 100)).await;
    let peer = "198.51.100.20:1";
    for round in 0..2 {
        let crumb = format!("rotating{round}");
        let given = post(&app, "/checkout/donate", peer, &crumb, "amount=500").await;
        assert_ne!(given.status, StatusCode::TOO_MANY_REQUESTS, "{round}");
    }
    let refused = post(
        &app,
        "/checkout/donate",
        peer,
        "rotating-again",
        "amount=500",
    )
    .await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(refused.header("retry-after").parse::<u32>().unwrap() >= 1);
}

#[tokio::test]
async fn guessing_gift_card_codes_on_the_balance_page_is_stopped_by_the_attempt_limit() {
    let app = app(limits(100, 3)).await;
    let peer = "192.0.2.20:1";
    for guess in ["AAAA-AAAA-AAAA-AAAA", "AAAA-AAAA-AAAA-AAAB", "nonsense"] {
        let answer = post(
            &app,
            "/gift-cards/balance",
            peer,
            "guesser",
            &format!("code={guess}"),
        )
        .await;
        assert_eq!(answer.status, StatusCode::OK, "{guess}");
        assert!(
            answer
                .text()
                .contains(vitrine_core::checkout::GIFT_CARD_UNKNOWN)
        );
    }
    let refused = post(&app, "/gift-cards/balance", peer, "guesser", "code=AAAA").await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(refused.header("retry-after").parse::<u32>().unwrap() >= 1);
}
