//! Router tests of conversion events (000 s7): sent to the ad pixel only for visitors who
//! accepted cookies, in the pixel's own time.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use vitrine_core::conversions::{ConversionEventName, InMemoryAdPixel};
use vitrine_core::money::Currency;
use vitrine_core::pages::PageService;
use vitrine_core::ports::SiteRepository;
use vitrine_core::ports::memory::MemorySiteRepository;
use vitrine_http::AppState;

use crate::support::{config, fixture_assets, send, site};

const CRUMB: &str = "test-crumb";

async fn app(pixel: Arc<InMemoryAdPixel>) -> axum::Router {
    let repository = Arc::new(MemorySiteRepository::new());
    repository.replace_site(&site()).await.unwrap();
    let pages = Arc::new(PageService::new(repository.clone()));
    let state =
        AppState::new(pages, repository, Arc::new(fixture_assets()), config()).with_ad_pixel(pixel);
    vitrine_http::router(state)
}

fn event(name: &str, cookies: &str, body: serde_json::Value) -> Request<Body> {
    Request::post(format!("/api/conversions/{name}?crumb={CRUMB}"))
        .header("cookie", format!("crumb={CRUMB}; {cookies}"))
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap()
}

/// The pixel is called after the answer; give the background task a moment.
async fn sent_after_a_while(pixel: &InMemoryAdPixel, expected: usize) -> usize {
    for _ in 0..50 {
        if pixel.sent().len() >= expected {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    pixel.sent().len()
}

#[tokio::test]
async fn a_consenting_visitors_purchase_reaches_the_pixel() {
    let pixel = Arc::new(InMemoryAdPixel::new());
    let router = app(pixel.clone()).await;
    let body = serde_json::json!({
        "eventId": "order-1",
        "sourceUrl": "https://shop.example/checkout",
        "valueCents": 6260,
        "currency": "USD",
        "contentIds": ["TOTE-1"],
    });
    let answer = send(&router, event("Purchase", "ss_cookieAllowed=true", body)).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.json()["sent"], true);
    assert_eq!(sent_after_a_while(&pixel, 1).await, 1);
    let sent = &pixel.sent()[0];
    assert_eq!(sent.name, ConversionEventName::Purchase);
    assert_eq!(sent.value, Some((6260, Currency::Usd)));
}

#[tokio::test]
async fn without_marketing_consent_nothing_is_sent() {
    let pixel = Arc::new(InMemoryAdPixel::new());
    let router = app(pixel.clone()).await;
    let body = serde_json::json!({ "eventId": "e1", "searchString": "mug" });
    for cookies in ["", "ss_cookieAllowed=false"] {
        let answer = send(&router, event("Search", cookies, body.clone())).await;
        assert_eq!(answer.json()["sent"], false, "{cookies}");
    }
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(pixel.sent().is_empty());
}

#[tokio::test]
async fn only_the_spec_events_and_whole_bodies_are_taken() {
    let pixel = Arc::new(InMemoryAdPixel::new());
    let router = app(pixel).await;
    let body = serde_json::json!({ "eventId": "e1" });
    assert_eq!(
        send(&router, event("Subscribe", "ss_cookieAllowed=true", body))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    let half_value = serde_json::json!({ "eventId": "e1", "valueCents": 100 });
    assert_eq!(
        send(
            &router,
            event("AddToCart", "ss_cookieAllowed=true", half_value)
        )
        .await
        .status,
        StatusCode::BAD_REQUEST
    );
    for name in [
        "ViewContent",
        "AddToCart",
        "Search",
        "Lead",
        "CompleteRegistration",
        "Purchase",
        "Donate",
    ] {
        let body = serde_json::json!({ "eventId": format!("{name}-1") });
        assert_eq!(
            send(&router, event(name, "", body)).await.status,
            StatusCode::OK,
            "{name}"
        );
    }
}
