//! The popup overlay through the router: pages carry it as a closed dialog with an overlay
//! newsletter form, status pages do not, and its form submits through the form calls while the
//! overlay shows one.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::json;
use vitrine_core::forms::memory::{MemoryFormStore, MemoryRateLimiter};
use vitrine_core::forms::{FormService, SubmissionStore};
use vitrine_core::pages::PageService;
use vitrine_core::ports::SiteRepository;
use vitrine_core::ports::memory::MemorySiteRepository;
use vitrine_core::site::{PopupContent, SafeHtml, Site};
use vitrine_http::{AppState, router};

use crate::support::{config, fetch, fixture_assets, send, site};

const CRUMB: &str = "test-crumb-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

fn popup_site(style: &str, newsletter: bool) -> Site {
    let mut site = site();
    let popup = &mut site.settings.popup_overlay;
    popup.style = style.to_owned();
    popup.content = PopupContent {
        title: "Studio letters".to_owned(),
        body: SafeHtml::sanitize("<p>News from the kiln.</p>"),
        newsletter,
        button_label: "Subscribe".to_owned(),
        placeholder: String::new(),
    };
    site
}

async fn harness(site: &Site) -> (axum::Router, Arc<MemoryFormStore>) {
    let repository = Arc::new(MemorySiteRepository::new());
    repository.replace_site(site).await.unwrap();
    let repository: Arc<dyn SiteRepository> = repository;
    let store = Arc::new(MemoryFormStore::new());
    let forms = FormService::new(
        repository.clone(),
        store.clone(),
        store.clone(),
        Arc::new(MemoryRateLimiter::new()),
    );
    let pages = Arc::new(PageService::new(repository.clone()));
    let state = AppState::new(pages, repository, Arc::new(fixture_assets()), config())
        .with_forms(Arc::new(forms));
    (router(state), store)
}

fn post(path: &str, body: String) -> Request<Body> {
    Request::post(format!("{path}?crumb={CRUMB}"))
        .header("cookie", format!("crumb={CRUMB}"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from(body))
        .unwrap()
}

async fn sign_up(router: &axum::Router, email: &str) -> StatusCode {
    let key = send(router, post("/api/form/FormSubmissionKey", String::new())).await;
    let key = key.json()["key"].as_str().unwrap().to_owned();
    let form = json!({ "email": email }).to_string();
    let body = url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs([
            ("key", key.as_str()),
            ("formId", "popup-overlay"),
            ("collectionId", ""),
            ("objectName", "popup-overlay"),
            ("isOverlayForm", "true"),
            ("submitButtonText", "Subscribe"),
            ("form", form.as_str()),
        ])
        .finish();
    send(router, post("/api/form/SaveFormSubmission", body))
        .await
        .status
}

#[tokio::test]
async fn pages_carry_the_popup_as_a_closed_dialog_and_status_pages_do_not() {
    let (router, _) = harness(&popup_site("full", true)).await;
    let home = fetch(&router, "/").await.text();
    assert!(home.contains("<dialog class=\"popup-overlay popup-overlay--full\" data-vitrine-popup-overlay data-overlay-form aria-labelledby=\"popup-overlay-title\">"));
    assert!(home.contains("<p>News from the kiln.</p>"));
    assert!(home.contains("data-popup-island=\"newsletter\""));
    // The newsletter island mounts only when the dialog opens.
    assert!(!home.contains("data-island=\"newsletter\""));
    let missing = fetch(&router, "/no-such-page").await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert!(!missing.text().contains("data-vitrine-popup-overlay"));
    let (off, _) = harness(&popup_site("none", true)).await;
    assert!(
        !fetch(&off, "/")
            .await
            .text()
            .contains("data-vitrine-popup-overlay")
    );
}

#[tokio::test]
async fn the_popup_newsletter_submits_as_an_overlay_form() {
    let (router, store) = harness(&popup_site("full", true)).await;
    assert_eq!(sign_up(&router, "ada@example.com").await, StatusCode::OK);
    let stored = store.list().await.unwrap();
    assert_eq!(stored.len(), 1);
    assert!(stored[0].is_overlay_form);
    assert_eq!(stored[0].form_id, "popup-overlay");
}

#[tokio::test]
async fn without_its_newsletter_the_popup_form_is_not_configured() {
    let (router, _) = harness(&popup_site("full", false)).await;
    assert_eq!(
        sign_up(&router, "ada@example.com").await,
        StatusCode::NOT_FOUND
    );
    let (off, _) = harness(&popup_site("none", true)).await;
    assert_eq!(
        sign_up(&off, "ada@example.com").await,
        StatusCode::NOT_FOUND
    );
}
