//! Rate limits on state-changing requests, per client address and per visitor, with the
//! trusted-proxy setting deciding whether `X-Forwarded-For` names the client; the throttle on
//! failed owner tokens; and the router's time-out and concurrency limit, whose 503s carry the
//! security headers like every other answer.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use vitrine_core::pages::PageService;
use vitrine_http::{AppState, HttpConfig, RequestLimits, router};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use crate::support::{config, fixture_assets, get, repository, send};

fn limits(per_address: u32, per_visitor: u32) -> RequestLimits {
    crate::support::rate_limits(per_address, per_visitor, 60)
}

async fn app_with(config: HttpConfig, owner_token: Option<&str>) -> Router {
    let repository = repository().await;
    let pages = Arc::new(PageService::new(repository.clone()));
    let state = AppState::new(
        pages,
        repository.clone(),
        Arc::new(fixture_assets()),
        config,
    )
    .with_consent_receipts(
        Arc::new(vitrine_core::consent::MemoryConsentReceiptStore::new()),
        owner_token.map(str::to_owned),
    );
    router(state)
}

/// A census event from `peer`, as visitor `crumb`, forwarded as `forwarded` when given.
fn event(peer: &str, crumb: &str, forwarded: Option<&str>) -> Request<Body> {
    let mut request = Request::post(format!("/api/census/button-click?crumb={crumb}"))
        .header("cookie", format!("crumb={crumb}"))
        .header("content-type", "application/json");
    if let Some(forwarded) = forwarded {
        request = request.header("x-forwarded-for", forwarded);
    }
    let mut request = request.body(Body::from(r#"{"id":"b1"}"#)).unwrap();
    request
        .extensions_mut()
        .insert(ConnectInfo(peer.parse::<SocketAddr>().unwrap()));
    request
}

#[tokio::test]
async fn one_visitor_is_stopped_with_429_and_the_rate_limit_headers() {
    let app = app_with(config().with_request_limits(limits(100, 3)), None).await;
    for _ in 0..3 {
        let answer = send(&app, event("192.0.2.1:1000", "visitorA", None)).await;
        assert_ne!(answer.status, StatusCode::TOO_MANY_REQUESTS);
    }
    let refused = send(&app, event("192.0.2.1:1000", "visitorA", None)).await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(refused.header("ratelimit-limit"), "3");
    assert_eq!(refused.header("ratelimit-remaining"), "0");
    assert!(refused.header("retry-after").parse::<u32>().unwrap() >= 1);
    assert_eq!(
        refused.json()["error"],
        "Unable to submit form. Submission rate limit exceeded. Please try again later."
    );
    // Another visitor from another address is not affected.
    let other = send(&app, event("192.0.2.2:1000", "visitorB", None)).await;
    assert_ne!(other.status, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn a_client_rotating_its_crumb_is_still_stopped_by_its_address() {
    let app = app_with(config().with_request_limits(limits(5, 100)), None).await;
    for round in 0..5 {
        let crumb = format!("rotated{round}");
        let answer = send(&app, event("198.51.100.7:4000", &crumb, None)).await;
        assert_ne!(answer.status, StatusCode::TOO_MANY_REQUESTS, "{round}");
    }
    let refused = send(&app, event("198.51.100.7:4001", "rotated-again", None)).await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn x_forwarded_for_is_believed_only_from_trusted_proxies() {
    // Nothing trusted: a client writing its own header stays one address.
    let app = app_with(config().with_request_limits(limits(2, 100)), None).await;
    for (round, forged) in ["203.0.113.1", "203.0.113.2", "203.0.113.3"]
        .into_iter()
        .enumerate()
    {
        let answer = send(
            &app,
            event("198.51.100.9:1", &format!("c{round}"), Some(forged)),
        )
        .await;
        assert_eq!(
            answer.status == StatusCode::TOO_MANY_REQUESTS,
            round == 2,
            "{forged}"
        );
    }
    // One trusted proxy: the address it appended is the client, whatever came before it.
    let app = app_with(
        config()
            .with_request_limits(limits(2, 100))
            .with_trusted_proxies(1),
        None,
    )
    .await;
    for round in 0..3 {
        let forwarded = format!("6.6.6.6, 203.0.113.{round}");
        let answer = send(
            &app,
            event("10.0.0.2:1", &format!("p{round}"), Some(&forwarded)),
        )
        .await;
        assert_ne!(answer.status, StatusCode::TOO_MANY_REQUESTS, "{forwarded}");
    }
    let third = send(&app, event("10.0.0.2:1", "p9", Some("203.0.113.0"))).await;
    assert_ne!(third.status, StatusCode::TOO_MANY_REQUESTS);
    let over = send(
        &app,
        event("10.0.0.2:1", "p10", Some("1.2.3.4, 203.0.113.0")),
    )
    .await;
    assert_eq!(over.status, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn a_form_route_outside_the_api_answers_a_page_when_limited() {
    let app = app_with(config().with_request_limits(limits(1, 100)), None).await;
    let post = || {
        let mut request = Request::post("/cart")
            .header("sec-fetch-site", "same-origin")
            .header("content-type", "application/x-www-form-urlencoded")
            .body(Body::from("itemId=tote&sku=TOTE-1&quantity=1"))
            .unwrap();
        request
            .extensions_mut()
            .insert(ConnectInfo("192.0.2.50:1".parse::<SocketAddr>().unwrap()));
        request
    };
    assert_ne!(
        send(&app, post()).await.status,
        StatusCode::TOO_MANY_REQUESTS
    );
    let refused = send(&app, post()).await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(refused.header("content-type").starts_with("text/html"));
    assert!(refused.text().contains("Submission rate limit exceeded"));
}

const OWNER_TOKEN: &str = "0123456789abcdef0123456789abcdef";

fn export(peer: &str, token: &str) -> Request<Body> {
    let mut request = Request::get("/api/consent/receipts")
        .header("authorization", format!("Bearer {token}"))
        .body(Body::empty())
        .unwrap();
    request
        .extensions_mut()
        .insert(ConnectInfo(peer.parse::<SocketAddr>().unwrap()));
    request
}

#[tokio::test]
async fn ten_wrong_owner_tokens_lock_the_address_out_even_for_the_right_one() {
    let app = app_with(config(), Some(OWNER_TOKEN)).await;
    assert_eq!(
        send(&app, export("192.0.2.9:1", OWNER_TOKEN)).await.status,
        StatusCode::OK
    );
    for guess in 0..10 {
        let answer = send(&app, export("192.0.2.9:1", &format!("guess{guess}"))).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{guess}");
    }
    let locked = send(&app, export("192.0.2.9:1", "guess10")).await;
    assert_eq!(locked.status, StatusCode::TOO_MANY_REQUESTS);
    // A whole window from the refused guess, however close the counting window is to its end.
    assert_eq!(locked.header("retry-after"), "600");
    let right_but_locked = send(&app, export("192.0.2.9:1", OWNER_TOKEN)).await;
    assert_eq!(right_but_locked.status, StatusCode::TOO_MANY_REQUESTS);
    // The owner elsewhere is not locked out.
    assert_eq!(
        send(&app, export("198.51.100.1:1", OWNER_TOKEN))
            .await
            .status,
        StatusCode::OK
    );
}

/// Serves `app` on a local port, as the server binary does.
async fn serve(app: Router) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move {
        axum::serve(
            listener,
            app.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .await
        .unwrap();
    });
    address
}

/// Opens a connection and sends a census event's head, promising a body that never comes, so
/// the request stays in flight until the router gives up on it.
async fn stalled_event(address: SocketAddr) -> TcpStream {
    let mut connection = TcpStream::connect(address).await.unwrap();
    let head = "POST /api/census/button-click?crumb=slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\
                Cookie: crumb=slow\r\nContent-Type: application/json\r\n\
                Content-Length: 64\r\n\r\n";
    connection.write_all(head.as_bytes()).await.unwrap();
    connection
}

/// The security headers every answer carries (see `headers.rs` for their values).
const SECURITY_HEADERS: [&str; 5] = [
    "content-security-policy",
    "x-content-type-options",
    "referrer-policy",
    "x-frame-options",
    "permissions-policy",
];

#[tokio::test]
async fn a_request_past_the_time_out_answers_503_with_the_security_headers() {
    let app = app_with(
        config().with_request_timeout(Duration::from_millis(200)),
        None,
    )
    .await;
    let mut connection = stalled_event(serve(app).await).await;
    let mut answer = vec![0; 16 * 1024];
    let read = tokio::time::timeout(Duration::from_secs(10), connection.read(&mut answer))
        .await
        .expect("the server answers once the time-out passes")
        .unwrap();
    let head = String::from_utf8_lossy(&answer[..read]).to_ascii_lowercase();
    assert!(head.starts_with("http/1.1 503"), "{head}");
    for name in SECURITY_HEADERS {
        assert!(
            head.contains(&format!("\r\n{name}: ")),
            "{name} missing: {head}"
        );
    }
}

#[tokio::test]
async fn a_request_past_the_concurrency_limit_answers_503_with_the_security_headers() {
    let app = app_with(config().with_concurrency_limit(1), None).await;
    let _in_flight = stalled_event(serve(app.clone()).await).await;
    // The stalled request takes the only place once the server has read its head.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    let refused = loop {
        let answer = send(&app, get("/")).await;
        if answer.status == StatusCode::SERVICE_UNAVAILABLE {
            break answer;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the stalled request never took the place"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    };
    assert_eq!(refused.header("retry-after"), "1");
    for name in SECURITY_HEADERS {
        assert!(!refused.header(name).is_empty(), "{name} missing");
    }
}
