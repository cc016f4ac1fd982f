//! The Meta Conversions API adapter against a local server speaking that protocol: events
//! posted as JSON to `/{version}/{pixel}/events` with the access token in the query; a bad
//! token answers 400 with an OAuth error, as the Graph API does.

use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::routing::post;
use vitrine_core::cart::Timestamp;
use vitrine_core::conversions::{AdPixel, AdPixelError, ConversionEvent, ConversionEventName};
use vitrine_core::money::Currency;
use vitrine_services::{META_API_VERSION, MetaConversionsApi, MetaEvents};

const PIXEL: &str = "1234567890";
const TOKEN: &str = "capi-access-token";

type Received = Arc<Mutex<Vec<serde_json::Value>>>;

async fn events(
    State(received): State<Received>,
    Path((version, pixel)): Path<(String, String)>,
    Query(query): Query<std::collections::HashMap<String, String>>,
    body: String,
) -> (StatusCode, String) {
    if version != META_API_VERSION || pixel != PIXEL {
        return (StatusCode::NOT_FOUND, "{}".into());
    }
    if query.get("access_token").map(String::as_str) != Some(TOKEN) {
        return (
            StatusCode::BAD_REQUEST,
            r#"{"error":{"message":"Invalid OAuth access token.","type":"OAuthException","code":190}}"#.into(),
        );
    }
    let Ok(json) = serde_json::from_str::<serde_json::Value>(&body) else {
        return (StatusCode::BAD_REQUEST, "{}".into());
    };
    let count = json["data"].as_array().map_or(0, Vec::len);
    received.lock().unwrap().push(json);
    (
        StatusCode::OK,
        format!(r#"{{"events_received":{count},"fbtrace_id":"x"}}"#),
    )
}

async fn graph_server() -> (String, Received) {
    let received: Received = Arc::default();
    let app = Router::new()
        .route("/{version}/{pixel}/events", post(events))
        .with_state(received.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (base, received)
}

fn purchase() -> ConversionEvent {
    ConversionEvent {
        name: ConversionEventName::Purchase,
        event_id: "order-1".into(),
        time: Timestamp(1_700_000_000_999),
        source_url: "https://shop.example/checkout".into(),
        value: Some((6_260, Currency::Usd)),
        content_ids: vec!["TLZ-MUG-L-SEA".into()],
        search_string: None,
    }
}

#[tokio::test]
async fn events_reach_the_pixel_in_its_format() {
    let (base, received) = graph_server().await;
    let pixel = MetaConversionsApi::new(&base, PIXEL, TOKEN);
    pixel.send(&[purchase()]).await.unwrap();
    let bodies = received.lock().unwrap().clone();
    assert_eq!(bodies.len(), 1);
    let event = &bodies[0]["data"][0];
    assert_eq!(event["event_name"], "Purchase");
    assert_eq!(event["event_time"], 1_700_000_000);
    assert_eq!(event["event_id"], "order-1");
    assert_eq!(event["action_source"], "website");
    assert_eq!(event["custom_data"]["value"], 62.6);
    assert_eq!(event["custom_data"]["currency"], "USD");
    assert_eq!(event["custom_data"]["content_ids"][0], "TLZ-MUG-L-SEA");
}

#[tokio::test]
async fn a_refused_token_and_an_unreachable_pixel_are_told_apart() {
    let (base, _) = graph_server().await;
    let refused = MetaConversionsApi::new(&base, PIXEL, "wrong")
        .send(&[purchase()])
        .await;
    assert!(
        matches!(&refused, Err(AdPixelError::Refused(detail)) if detail.contains("OAuthException") && !detail.contains("wrong")),
        "{refused:?}"
    );
    let down = MetaConversionsApi::new("http://127.0.0.1:9", PIXEL, TOKEN)
        .send(&[purchase()])
        .await;
    assert!(
        matches!(down, Err(AdPixelError::Unavailable(_))),
        "{down:?}"
    );
}

#[test]
fn the_wire_format_snapshot() {
    let events = [purchase()];
    insta::assert_json_snapshot!(MetaEvents::new(&events));
}
