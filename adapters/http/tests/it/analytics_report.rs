//! The owner's analytics report through the router: page views with referrers, button clicks,
//! form conversion, errors and Web Vitals recorded by the real calls, flushed to the store and
//! read back as JSON behind the owner token.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use vitrine_core::analytics::{BatchPolicy, MemoryAnalyticsStore};
use vitrine_core::consent::MemoryConsentReceiptStore;
use vitrine_core::pages::PageService;
use vitrine_core::ports::SiteRepository;
use vitrine_core::ports::memory::MemorySiteRepository;
use vitrine_http::{AppState, CensusLog};

use crate::support::{config, fixture_assets, send, site};

const CRUMB: &str = "test-crumb";
const TOKEN: &str = "owner-secret";

fn post(path: &str, content_type: &str, body: String) -> Request<Body> {
    Request::post(format!("{path}?crumb={CRUMB}"))
        .header("cookie", format!("crumb={CRUMB}"))
        .header("content-type", content_type)
        .body(Body::from(body))
        .unwrap()
}

fn hit(path: &str, referrer: &str) -> Request<Body> {
    // The landing on /shop comes from a tagged link and a phone; the others from a desktop.
    let (tags, width) = if referrer.contains("news") {
        (
            "?utm_source=news&utm_medium=article&utm_campaign=spring",
            390,
        )
    } else {
        ("", 1440)
    };
    let data = serde_json::json!({
        "websiteId": "site", "pagePath": path, "contentSource": "c",
        "url": format!("https://shop.example{path}{tags}"), "referrer": referrer,
        "viewportInnerWidth": width,
    })
    .to_string();
    let body = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("event", "1")
        .append_pair("data", &data)
        .finish();
    post(
        "/api/census/RecordHit",
        "application/x-www-form-urlencoded",
        body,
    )
}

#[tokio::test]
async fn the_report_shows_what_the_calls_recorded_and_only_to_the_owner() {
    let repository = Arc::new(MemorySiteRepository::new());
    repository.replace_site(&site()).await.unwrap();
    let repository: Arc<dyn SiteRepository> = repository;
    let log = Arc::new(CensusLog::new(BatchPolicy::default(), false));
    let store = Arc::new(MemoryAnalyticsStore::new());
    let state = AppState::new(
        Arc::new(PageService::new(repository.clone())),
        repository,
        Arc::new(fixture_assets()),
        config(),
    )
    .with_census(log.clone())
    .with_analytics_store(store.clone())
    .with_consent_receipts(
        Arc::new(MemoryConsentReceiptStore::new()),
        Some(TOKEN.to_owned()),
    );
    let router = vitrine_http::router(state);
    for (path, referrer) in [
        ("/shop", "https://news.example/story?id=7"),
        ("/shop", "https://shop.example/"),
        ("/about", ""),
    ] {
        assert_eq!(
            send(&router, hit(path, referrer)).await.status,
            StatusCode::OK
        );
    }
    let json = "application/json";
    let calls = [
        (
            "/api/census/button-click",
            r#"{"buttonText":"Shop now","pagePath":"/"}"#,
        ),
        (
            "/api/census/form-render",
            r#"{"formId":"contact","pagePath":"/contact"}"#,
        ),
        (
            "/api/census/form-render",
            r#"{"formId":"contact","pagePath":"/contact"}"#,
        ),
        (
            "/api/events/RecordJavascriptErrors",
            r#"[{"event":"JavascriptError","timestamp":1,"data":{"message":"x is undefined","url":"https://shop.example/","userAgent":"t","app":"vitrine-web"}}]"#,
        ),
    ];
    for (path, body) in calls {
        let answer = send(&router, post(path, json, body.to_owned())).await;
        assert!(answer.status.is_success(), "{path}: {}", answer.status);
    }
    let records = r#"[{"pageLoadId":"p1","name":"LCP","value":1800,"pagePath":"/"},{"pageLoadId":"p2","name":"LCP","value":2600,"pagePath":"/"},{"pageLoadId":"p1","name":"CLS","value":0.02,"pagePath":"/"}]"#;
    let answer = send(
        &router,
        post(
            "/api/1/performance/records",
            "text/plain",
            records.to_owned(),
        ),
    )
    .await;
    assert_eq!(answer.status, StatusCode::NO_CONTENT);
    log.flush_due(&*store, i64::MAX).await.unwrap();

    let anonymous = send(
        &router,
        Request::get("/api/analytics/report")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(anonymous.status, StatusCode::NOT_FOUND);
    let answer = send(
        &router,
        Request::get("/api/analytics/report")
            .header("authorization", format!("Bearer {TOKEN}"))
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK);
    let mut report = answer.json();
    // The day depends on when the test runs.
    report["days"][0]["day"] = serde_json::json!(0);
    insta::assert_json_snapshot!(report);
}
