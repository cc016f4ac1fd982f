//! The captcha adapter against local servers speaking each provider's verify protocol: a
//! form-encoded POST of secret and response, answered with JSON carrying `success`.

use axum::Router;
use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use vitrine_core::forms::{CaptchaError, CaptchaVerifier};
use vitrine_services::{CaptchaProvider, HttpCaptcha};

const SECRET: &str = "provider-secret";
const SOLVED: &str = "token-solved-by-a-person";

/// The path each provider serves its verify API on.
fn path(provider: CaptchaProvider) -> &'static str {
    url::Url::parse(provider.verify_url())
        .unwrap()
        .path()
        .to_owned()
        .leak()
}

async fn siteverify(headers: HeaderMap, body: Bytes) -> (StatusCode, String) {
    let form_encoded = headers
        .get("content-type")
        .is_some_and(|v| v.as_bytes() == b"application/x-www-form-urlencoded");
    let pairs: Vec<(String, String)> = url::form_urlencoded::parse(&body).into_owned().collect();
    let field = |name: &str| {
        pairs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };
    if !form_encoded || field("secret") != Some(SECRET) {
        return (
            StatusCode::OK,
            r#"{"success":false,"error-codes":["invalid-input-secret"]}"#.into(),
        );
    }
    let answer = if field("response") == Some(SOLVED) {
        r#"{"success":true,"hostname":"shop.example","challenge_ts":"2026-01-01T00:00:00Z"}"#
    } else {
        r#"{"success":false,"error-codes":["invalid-input-response"]}"#
    };
    (StatusCode::OK, answer.into())
}

async fn provider_server(provider: CaptchaProvider) -> url::Url {
    let app = Router::new()
        .route(path(provider), post(siteverify))
        .route("/broken", post(|| async { (StatusCode::OK, "<html>") }))
        .route("/down", post(|| async { StatusCode::BAD_GATEWAY }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    base.parse().unwrap()
}

#[tokio::test]
async fn each_provider_protocol_accepts_a_solved_token_and_refuses_others() {
    for provider in [
        CaptchaProvider::ReCaptcha,
        CaptchaProvider::HCaptcha,
        CaptchaProvider::Turnstile,
    ] {
        let base = provider_server(provider).await;
        let verifier = HttpCaptcha::with_endpoint(base.join(path(provider)).unwrap(), SECRET);
        assert!(verifier.verify(SOLVED).await.unwrap(), "{provider:?}");
        assert!(!verifier.verify("made-up").await.unwrap(), "{provider:?}");
        let wrong_secret = HttpCaptcha::with_endpoint(base.join(path(provider)).unwrap(), "x");
        assert!(!wrong_secret.verify(SOLVED).await.unwrap(), "{provider:?}");
    }
}

#[tokio::test]
async fn a_provider_that_fails_is_unavailable_not_a_refusal() {
    let base = provider_server(CaptchaProvider::Turnstile).await;
    for broken in ["/broken", "/down"] {
        let verifier = HttpCaptcha::with_endpoint(base.join(broken).unwrap(), SECRET);
        assert!(
            matches!(
                verifier.verify(SOLVED).await,
                Err(CaptchaError::Unavailable(_))
            ),
            "{broken}"
        );
    }
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let verifier = HttpCaptcha::with_endpoint(format!("http://{closed}/").parse().unwrap(), SECRET);
    assert!(matches!(
        verifier.verify(SOLVED).await,
        Err(CaptchaError::Unavailable(_))
    ));
}
