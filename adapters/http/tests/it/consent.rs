//! Router tests of the cookie banner's markup, consent receipts and the clearing of refused
//! tracking cookies.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use vitrine_core::consent::MemoryConsentReceiptStore;
use vitrine_core::pages::PageService;
use vitrine_core::ports::SiteRepository;
use vitrine_core::ports::memory::MemorySiteRepository;
use vitrine_core::site::CookieSettings;
use vitrine_http::{AppState, RECEIPTS_PATH};

use crate::support::{config, fetch, fixture_assets, send, site};

const CRUMB: &str = "test-crumb";
const OWNER_TOKEN: &str = "owner-secret";

async fn app_with(cookies: CookieSettings) -> axum::Router {
    let mut site = site();
    site.settings.cookies = cookies;
    let repository = Arc::new(MemorySiteRepository::new());
    repository.replace_site(&site).await.unwrap();
    let pages = Arc::new(PageService::new(repository.clone()));
    let state = AppState::new(pages, repository, Arc::new(fixture_assets()), config())
        .with_consent_receipts(
            Arc::new(MemoryConsentReceiptStore::new()),
            Some(OWNER_TOKEN.to_owned()),
        );
    vitrine_http::router(state)
}

fn banner_on() -> CookieSettings {
    CookieSettings {
        is_cookie_banner_enabled: true,
        ..CookieSettings::default()
    }
}

fn restrictive() -> CookieSettings {
    CookieSettings {
        is_restrictive_cookie_policy_enabled: true,
        ..banner_on()
    }
}

fn page_with_cookies(cookies: &str, gpc: bool) -> Request<Body> {
    let mut request = Request::get("/").header("cookie", cookies);
    if gpc {
        request = request.header("sec-gpc", "1");
    }
    request.body(Body::empty()).unwrap()
}

fn receipt(body: &str) -> Request<Body> {
    Request::post(format!("{RECEIPTS_PATH}?crumb={CRUMB}"))
        .header("cookie", format!("crumb={CRUMB}"))
        .header("content-type", "application/json")
        .body(Body::from(body.to_owned()))
        .unwrap()
}

fn expired(answer: &crate::support::Answer) -> Vec<String> {
    answer
        .headers
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter(|v| v.contains("Max-Age=0"))
        .map(|v| v.split('=').next().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn pages_carry_the_banner_only_when_enabled() {
    let on = fetch(&app_with(banner_on()).await, "/").await;
    let html = on.text();
    assert!(html.contains("data-vitrine-cookie-banner"));
    assert!(html.contains("role=\"region\" aria-label=\"Cookie consent\""));
    assert!(html.contains("data-banner-version=\"2\""));
    let off = fetch(&app_with(CookieSettings::default()).await, "/").await;
    assert!(!off.text().contains("data-vitrine-cookie-banner"));
}

#[tokio::test]
async fn a_restrictive_policy_clears_tracking_cookies_until_consent() {
    let app = app_with(restrictive()).await;
    let answer = send(
        &app,
        page_with_cookies("ss_cvr=a|1|1|1|1; ss_cvt=5; other=1", false),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK);
    let cleared = expired(&answer);
    assert!(cleared.iter().any(|c| c == "ss_cvr") && cleared.iter().any(|c| c == "ss_cvt"));
    assert!(!cleared.iter().any(|c| c == "other"));
    // A domain-wide copy is cleared as well as the host-only one.
    assert!(
        answer
            .headers
            .get_all("set-cookie")
            .iter()
            .any(|v| v.to_str().unwrap().contains("Domain=shop.example"))
    );
    assert_eq!(
        answer.header("cache-control"),
        "private, no-cache",
        "a shared cache must not hand this visitor's expiry to others"
    );

    let accepted = send(
        &app,
        page_with_cookies("ss_cvr=a|1|1|1|1; ss_cookieAllowed=true", false),
    )
    .await;
    assert!(expired(&accepted).is_empty());
}

#[tokio::test]
async fn a_decline_or_gpc_clears_tracking_cookies_even_without_a_restrictive_policy() {
    let app = app_with(banner_on()).await;
    let declined = send(
        &app,
        page_with_cookies("SS_MID=x; ss_cookieAllowed=false", false),
    )
    .await;
    assert_eq!(expired(&declined), vec!["SS_MID"; 2]);
    let gpc = send(&app, page_with_cookies("SS_MID=x", true)).await;
    assert_eq!(expired(&gpc), vec!["SS_MID"; 2]);
    let accepted_over_gpc = send(
        &app,
        page_with_cookies("SS_MID=x; ss_cookieAllowed=true", true),
    )
    .await;
    assert!(expired(&accepted_over_gpc).is_empty());
}

#[tokio::test]
async fn receipts_are_recorded_and_exported_to_the_owner_only() {
    let app = app_with(banner_on()).await;
    let answer = send(&app, receipt(r#"{"choice":"declined","source":"gpc"}"#)).await;
    assert_eq!(answer.status, StatusCode::CREATED);
    let json = answer.json();
    assert_eq!(json["bannerVersion"], 2);
    assert_eq!(json["choice"], "declined");
    assert_eq!(json["source"], "gpc");
    assert_eq!(json["id"].as_str().unwrap().len(), 32);
    let bad = send(&app, receipt(r#"{"choice":"maybe","source":"banner"}"#)).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);

    let anonymous = fetch(&app, RECEIPTS_PATH).await;
    assert_eq!(anonymous.status, StatusCode::NOT_FOUND);
    let owner = send(
        &app,
        Request::get(RECEIPTS_PATH)
            .header("authorization", format!("Bearer {OWNER_TOKEN}"))
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(owner.status, StatusCode::OK);
    let csv = owner.text();
    assert!(csv.starts_with("id,bannerVersion,choice,source,recordedAtMs\n"));
    assert!(csv.contains(",2,declined,gpc,"));
}

#[tokio::test]
async fn receipts_need_the_crumb() {
    let app = app_with(banner_on()).await;
    let request = Request::post(RECEIPTS_PATH)
        .header("content-type", "application/json")
        .body(Body::from(r#"{"choice":"accepted","source":"banner"}"#))
        .unwrap();
    assert_eq!(send(&app, request).await.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn the_analytics_report_is_for_the_owner_only() {
    let app = app_with(banner_on()).await;
    assert_eq!(
        fetch(&app, vitrine_http::REPORT_PATH).await.status,
        StatusCode::NOT_FOUND
    );
    let owner = send(
        &app,
        Request::get(vitrine_http::REPORT_PATH)
            .header("authorization", format!("Bearer {OWNER_TOKEN}"))
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(owner.status, StatusCode::OK);
    assert_eq!(owner.json()["days"], serde_json::json!([]));
    assert!(owner.json()["note"].as_str().unwrap().contains("estimates"));
}
