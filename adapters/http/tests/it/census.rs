//! Router tests of the census calls: hits recorded or excluded per 000 s6, with the visitor
//! cookie or the cookieless hash, and the JSON events.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use vitrine_core::analytics::BatchPolicy;
use vitrine_core::pages::PageService;
use vitrine_core::ports::SiteRepository;
use vitrine_core::ports::memory::MemorySiteRepository;
use vitrine_http::{AppState, CensusLog, VisitorKey};

use crate::support::{config, fixture_assets, send, site};

const CRUMB: &str = "test-crumb";

async fn app(census: Arc<CensusLog>) -> axum::Router {
    let repository = Arc::new(MemorySiteRepository::new());
    repository.replace_site(&site()).await.unwrap();
    let pages = Arc::new(PageService::new(repository.clone()));
    let state =
        AppState::new(pages, repository, Arc::new(fixture_assets()), config()).with_census(census);
    vitrine_http::router(state)
}

fn post(path: &str, content_type: &str, body: String, cookies: &str) -> Request<Body> {
    Request::post(format!("{path}?crumb={CRUMB}"))
        .header("cookie", format!("crumb={CRUMB}; {cookies}"))
        .header("content-type", content_type)
        .header("user-agent", "Test/1.0")
        .header("x-forwarded-for", "203.0.113.9")
        .body(Body::from(body))
        .unwrap()
}

fn hit(path: &str, cookies: &str) -> Request<Body> {
    let data = format!(r#"{{"websiteId":"site","pagePath":"{path}","contentSource":"c"}}"#);
    let body = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("event", "1")
        .append_pair("data", &data)
        .append_pair("ss_cvr", "visitor-1|10|10|10|1")
        .finish();
    post(
        "/api/census/RecordHit",
        "application/x-www-form-urlencoded",
        body,
        cookies,
    )
}

fn census() -> Arc<CensusLog> {
    Arc::new(CensusLog::new(
        BatchPolicy {
            capacity: 3,
            flush_rows: 100,
            flush_interval_ms: 0,
        },
        false,
    ))
}

#[tokio::test]
async fn hits_use_the_visitor_cookie_only_with_consent() {
    let log = census();
    let router = app(log.clone()).await;
    let with_consent = send(&router, hit("/shop", "ss_cookieAllowed=true")).await;
    assert_eq!(with_consent.status, StatusCode::OK);
    assert_eq!(with_consent.json()["cookieless"], false);
    let without = send(&router, hit("/shop", "")).await;
    assert_eq!(without.json()["cookieless"], true);
    let rows = log.take_due(i64::MAX);
    assert_eq!(rows.len(), 2);
    assert_eq!(
        rows[0].visitor,
        Some(VisitorKey::Cookie("visitor-1".into()))
    );
    let Some(VisitorKey::Cookieless(hash)) = &rows[1].visitor else {
        panic!("{rows:?}")
    };
    assert_eq!(hash.len(), 32);
    assert!(!hash.contains("203.0.113.9"));
}

#[tokio::test]
async fn a_hit_from_the_native_app_is_stored_with_its_flag() {
    let log = census();
    let router = app(log.clone()).await;
    let data = r#"{"pagePath":"/shop","contentSource":"c","nativeApp":true}"#;
    let body = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("event", "1")
        .append_pair("data", data)
        .finish();
    let form = "application/x-www-form-urlencoded";
    send(&router, post("/api/census/RecordHit", form, body, "")).await;
    send(&router, hit("/shop", "")).await;
    let rows = log.take_due(i64::MAX);
    assert_eq!(rows[0].data["nativeApp"], true);
    assert!(
        rows[1].data.get("nativeApp").is_none(),
        "{:?}",
        rows[1].data
    );
}

#[tokio::test]
async fn search_and_config_pages_are_not_counted() {
    let log = census();
    let router = app(log.clone()).await;
    for path in ["/search", "/config/pages"] {
        let answer = send(&router, hit(path, "")).await;
        assert_eq!(answer.json()["recorded"], false, "{path}");
    }
    assert_eq!(log.counts(), (0, 0));
    let disabled = Arc::new(CensusLog::new(BatchPolicy::default(), true));
    let answer = send(&app(disabled).await, hit("/", "")).await;
    assert_eq!(answer.json()["excluded"], "census-disabled");
}

#[tokio::test]
async fn a_full_buffer_drops_and_counts() {
    let log = census();
    let router = app(log.clone()).await;
    for _ in 0..4 {
        send(&router, hit("/", "")).await;
    }
    assert_eq!(log.counts(), (3, 1));
}

#[tokio::test]
async fn malformed_hits_are_refused() {
    let router = app(census()).await;
    let answer = send(
        &router,
        post(
            "/api/census/RecordHit",
            "application/x-www-form-urlencoded",
            "data=%7B".into(),
            "",
        ),
    )
    .await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn json_events_are_recorded() {
    let log = census();
    let router = app(log.clone()).await;
    for path in [
        "/api/census/button-click",
        "/api/census/button-render",
        "/api/census/form-render",
        "/api/census/overlay",
    ] {
        let body = r#"{"id":"b1","pagePath":"/"}"#.to_owned();
        let answer = send(&router, post(path, "application/json", body, "")).await;
        assert_eq!(answer.status, StatusCode::NO_CONTENT, "{path}");
    }
    let kinds: Vec<_> = log.take_due(i64::MAX).iter().map(|r| r.kind).collect();
    assert_eq!(kinds, ["button-click", "button-render", "form-render"]);
    let refused = send(
        &router,
        post("/api/census/overlay", "application/json", "[]".into(), ""),
    )
    .await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn flushed_hits_reach_the_store_with_cookieless_estimates_marked() {
    use vitrine_core::analytics::{AnalyticsStore, MemoryAnalyticsStore};
    let log = census();
    let router = app(log.clone()).await;
    send(&router, hit("/", "ss_cookieAllowed=true")).await;
    send(&router, hit("/", "")).await;
    let store = MemoryAnalyticsStore::new();
    assert_eq!(log.flush_due(&store, i64::MAX).await.unwrap(), 2);
    assert_eq!(log.counts(), (0, 0));
    let days = store
        .daily_page_views(vitrine_core::analytics::DayRange::ALL)
        .await
        .unwrap();
    assert_eq!(days.len(), 1);
    assert_eq!(
        (days[0].views, days[0].visitors, days[0].cookieless_views),
        (2, 2, 1)
    );
}

mod events {
    use super::*;

    fn kinds(log: &CensusLog) -> Vec<&'static str> {
        log.take_due(i64::MAX).iter().map(|r| r.kind).collect()
    }

    #[tokio::test]
    async fn record_event_and_the_events_service_accept_their_payloads() {
        let log = census();
        let router = app(log.clone()).await;
        let body =
            "event=pageview&data=%7B%22eventName%22%3A%22x%22%2C%22pagePath%22%3A%22%2F%22%7D";
        let answer = send(
            &router,
            post(
                "/api/events/RecordEvent",
                "application/x-www-form-urlencoded",
                body.into(),
                "",
            ),
        )
        .await;
        assert_eq!(answer.status, StatusCode::NO_CONTENT);
        let bad = send(
            &router,
            post(
                "/api/events/RecordEvent",
                "application/x-www-form-urlencoded",
                "event=x".into(),
                "",
            ),
        )
        .await;
        assert_eq!(bad.status, StatusCode::BAD_REQUEST);

        let common = r#"{"actor":"visitor","action":7,"page_path":"/shop"}"#;
        let form = url::form_urlencoded::Serializer::new(String::new())
            .append_pair("analyticsId", "a1")
            .append_pair("commonData", common)
            .append_pair("customData", "{}")
            .append_pair("customSchemaName", "s")
            .finish();
        let beacon = send(
            &router,
            post(
                "/api/v1/events",
                "application/x-www-form-urlencoded",
                form,
                "",
            ),
        )
        .await;
        assert_eq!(beacon.status, StatusCode::ACCEPTED);
        let json_body = serde_json::json!({"analyticsId": "a1", "commonData": common}).to_string();
        let fallback = send(
            &router,
            post("/api/v1/events", "application/json", json_body, ""),
        )
        .await;
        assert_eq!(fallback.status, StatusCode::ACCEPTED);
        let rows = log.take_due(i64::MAX);
        assert_eq!(rows.len(), 3);
        // The wrongly typed common field was dropped, the others kept.
        assert_eq!(
            rows[1].data["commonData"],
            serde_json::json!({"actor": "visitor", "page_path": "/shop"})
        );
        assert_eq!(rows[1].page_path.as_deref(), Some("/shop"));
    }

    #[tokio::test]
    async fn the_landing_pixel_needs_a_landing_page() {
        let log = census();
        let router = app(log.clone()).await;
        let ok = crate::support::fetch(
            &router,
            "/api/track/Track?landing=https%3A%2F%2Fshop.example%2Fsale&refer=&rk=1&lang=en&screen=1x1&campaign=c",
        )
        .await;
        assert_eq!(ok.status, StatusCode::OK);
        assert_eq!(ok.header("content-type"), "image/gif");
        let rows = log.take_due(i64::MAX);
        assert_eq!(rows[0].data["campaign"], "c");
        assert_eq!(rows[0].page_path.as_deref(), Some("/sale"));
        let missing = crate::support::fetch(&router, "/api/track/Track?refer=x").await;
        assert_eq!(missing.status, StatusCode::BAD_REQUEST);
    }

    #[tokio::test]
    async fn error_reports_are_fingerprinted_capped_and_truncated() {
        let log = census();
        let router = app(log.clone()).await;
        let entry = |message: &str| {
            serde_json::json!({"event": "JavascriptError", "timestamp": 1, "data": {
                "url": "https://shop.example/about", "message": message,
                "stack": format!("Error: {message}\n    at f (main.js:1:1)\n{}", "x".repeat(6000)),
            }})
        };
        let body = serde_json::json!([entry("boom"), entry("boom")]).to_string();
        let answer = send(
            &router,
            post(
                "/api/events/RecordJavascriptErrors",
                "application/json",
                body,
                "",
            ),
        )
        .await;
        assert_eq!(answer.status, StatusCode::NO_CONTENT);
        let rows = log.take_due(i64::MAX);
        assert_eq!(rows[0].data["fingerprint"], rows[1].data["fingerprint"]);
        assert!(rows[0].data["siteVersion"].is_number());
        assert_eq!(
            rows[0].data["data"]["stack"]
                .as_str()
                .unwrap()
                .chars()
                .count(),
            5000
        );
        assert_eq!(rows[0].page_path.as_deref(), Some("/about"));

        let small = serde_json::json!({"event": "JavascriptError", "data": {"message": "x"}});
        let too_many = serde_json::Value::Array(vec![small; 21]).to_string();
        let refused = send(
            &router,
            post(
                "/api/events/RecordJavascriptErrors",
                "application/json",
                too_many,
                "",
            ),
        )
        .await;
        assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    }

    #[tokio::test]
    async fn trace_and_performance_calls_record_their_rows() {
        let log = census();
        let router = app(log.clone()).await;
        let batches = r#"[{"pageUrl":"/","type":"info","data":{"m":1}}]"#;
        let form = url::form_urlencoded::Serializer::new(String::new())
            .append_pair("data", batches)
            .finish();
        let trace = send(
            &router,
            post(
                "/api/events/Trace",
                "application/x-www-form-urlencoded",
                form,
                "",
            ),
        )
        .await;
        assert_eq!(trace.status, StatusCode::NO_CONTENT);
        let bad = send(
            &router,
            post(
                "/api/events/Trace",
                "application/json",
                r#"[{"type":"x"}]"#.into(),
                "",
            ),
        )
        .await;
        assert_eq!(bad.status, StatusCode::BAD_REQUEST);

        let settings = crate::support::fetch(&router, "/api/1/performance/settings").await;
        let id = settings.json()["pageLoadId"].as_str().unwrap().to_owned();
        assert_eq!(id.len(), 24);
        let records = format!(
            r#"[{{"pageLoadId":"{id}","name":"LCP","value":1200}},{{"pageLoadId":"{id}","name":"CLS","value":0.01}}]"#
        );
        let sent = send(
            &router,
            post("/api/1/performance/records", "text/plain", records, ""),
        )
        .await;
        assert_eq!(sent.status, StatusCode::NO_CONTENT);
        let orphan = send(
            &router,
            post(
                "/api/1/performance/records",
                "text/plain",
                r#"[{"name":"INP"}]"#.into(),
                "",
            ),
        )
        .await;
        assert_eq!(orphan.status, StatusCode::BAD_REQUEST);
        assert_eq!(kinds(&log), ["trace", "performance", "performance"]);
    }
}

/// Every analytics call that takes a body: census and events alike.
const BODY_ROUTES: [&str; 10] = [
    "/api/census/RecordHit",
    "/api/census/button-click",
    "/api/census/button-render",
    "/api/census/form-render",
    "/api/census/overlay",
    "/api/events/RecordEvent",
    "/api/v1/events",
    "/api/events/RecordJavascriptErrors",
    "/api/events/Trace",
    "/api/1/performance/records",
];

#[tokio::test]
async fn analytics_bodies_above_16_kib_are_refused_with_413() {
    use vitrine_core::analytics::MAX_BODY_BYTES;
    let log = census();
    let router = app(log.clone()).await;
    for path in BODY_ROUTES {
        // A JSON object just over the limit: the size alone refuses it.
        let padding = "x".repeat(MAX_BODY_BYTES);
        let body = format!(r#"{{"id":"b1","pad":"{padding}"}}"#);
        let answer = send(&router, post(path, "application/json", body, "")).await;
        assert_eq!(answer.status, StatusCode::PAYLOAD_TOO_LARGE, "{path}");
        assert_eq!(
            answer.json()["error"],
            "This analytics call is too large: send at most 16 KiB (16384 bytes).",
            "{path}"
        );
    }
    assert!(
        log.take_due(i64::MAX).is_empty(),
        "nothing refused is recorded"
    );
    for path in BODY_ROUTES {
        // At the limit, the size is not what decides.
        let padding = "x".repeat(MAX_BODY_BYTES - 40);
        let body = format!(r#"{{"id":"b1","pad":"{padding}"}}"#);
        assert!(body.len() <= MAX_BODY_BYTES);
        let answer = send(&router, post(path, "application/json", body, "")).await;
        assert_ne!(answer.status, StatusCode::PAYLOAD_TOO_LARGE, "{path}");
    }
}

#[tokio::test]
async fn stored_census_texts_are_cut_to_their_limits() {
    use vitrine_core::analytics::{MAX_PAGE_PATH_CHARS, MAX_SUBJECT_CHARS, MAX_TEXT_CHARS};
    let log = census();
    let router = app(log.clone()).await;
    let long = "y".repeat(MAX_TEXT_CHARS + 500);
    let body = format!(r#"{{"id":"b1","buttonText":"{long}","pagePath":"/{long}"}}"#);
    let answer = send(
        &router,
        post("/api/census/button-click", "application/json", body, ""),
    )
    .await;
    assert_eq!(answer.status, StatusCode::NO_CONTENT);
    let rows = log.take_due(i64::MAX);
    let stored = rows[0].to_stored();
    assert_eq!(
        stored.page_path.unwrap().chars().count(),
        MAX_PAGE_PATH_CHARS
    );
    assert_eq!(stored.subject.unwrap().chars().count(), MAX_SUBJECT_CHARS);
    let data: serde_json::Value = serde_json::from_str(&stored.data).unwrap();
    assert_eq!(
        data["buttonText"].as_str().unwrap().chars().count(),
        MAX_TEXT_CHARS
    );
    assert!(stored.data.len() < 2 * MAX_TEXT_CHARS + 2 * MAX_PAGE_PATH_CHARS);
}
