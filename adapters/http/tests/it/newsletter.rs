//! Newsletter double opt-in and the unsubscribe page (page type 300) through the router: a
//! sign-up enqueues the confirmation mail, the links' pages change nothing on GET, their
//! buttons work without JavaScript, and the mail client's one-click POST unsubscribes.

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use vitrine_core::forms::memory::{MemoryFormStore, MemoryRateLimiter};
use vitrine_core::forms::newsletter::texts;
use vitrine_core::forms::{DeliveryKind, DeliveryOutbox, FormService, NewsletterService};
use vitrine_core::pages::PageService;
use vitrine_core::ports::SiteRepository;
use vitrine_core::ports::memory::MemorySiteRepository;
use vitrine_http::{AppState, router};

use crate::support::{config, fetch, fixture_assets, letter_page, send, site};

const CRUMB: &str = "test-crumb-BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB";

struct Harness {
    router: Router,
    store: Arc<MemoryFormStore>,
}

async fn harness(newsletter_pages: bool) -> Harness {
    let repository = Arc::new(MemorySiteRepository::new());
    let mut fixture = site();
    fixture.collections.push(letter_page());
    repository.replace_site(&fixture).await.unwrap();
    let repository: Arc<dyn SiteRepository> = repository;
    let store = Arc::new(MemoryFormStore::new());
    let forms = FormService::new(
        repository.clone(),
        store.clone(),
        store.clone(),
        Arc::new(MemoryRateLimiter::new()),
    )
    .with_deliveries(vec![DeliveryKind::Webhook], true);
    let pages = Arc::new(PageService::new(repository.clone()));
    let mut state = AppState::new(pages, repository, Arc::new(fixture_assets()), config())
        .with_forms(Arc::new(forms));
    if newsletter_pages {
        state = state.with_newsletter(Arc::new(NewsletterService::new(
            store.clone(),
            vec![DeliveryKind::Webhook],
        )));
    }
    Harness {
        router: router(state),
        store,
    }
}

fn api(path: &str, body: String) -> Request<Body> {
    Request::post(format!("{path}?crumb={CRUMB}"))
        .header("cookie", format!("crumb={CRUMB}"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from(body))
        .unwrap()
}

/// Signs `email` up through the island's calls; answers the subscriber's two tokens.
async fn sign_up(harness: &Harness, email: &str) -> (String, String) {
    let answer = send(
        &harness.router,
        api("/api/form/FormSubmissionKey", String::new()),
    )
    .await;
    let key = answer.json()["key"].as_str().unwrap().to_owned();
    let form = serde_json::json!({ "email": email }).to_string();
    let body = url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs([
            ("key", key.as_str()),
            ("formId", "letter"),
            ("objectName", "letter"),
            ("form", form.as_str()),
        ])
        .finish();
    let answer = send(&harness.router, api("/api/form/SaveFormSubmission", body)).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    let claimed = harness.store.claim_due(i64::MAX / 4, 0, 100).await.unwrap();
    let subscriber = claimed
        .iter()
        .rev()
        .find_map(|due| due.subscriber().cloned())
        .expect("a confirmation mail is enqueued");
    (
        subscriber.confirm_token.unwrap(),
        subscriber.unsubscribe_token,
    )
}

/// A form POST as a browser without JavaScript (or a mail client) sends it: no crumb.
fn form_post(path: &str, body: &str) -> Request<Body> {
    Request::post(path)
        .header("content-type", "application/x-www-form-urlencoded")
        .header("sec-fetch-site", "same-origin")
        .body(Body::from(body.to_owned()))
        .unwrap()
}

async fn kinds(store: &MemoryFormStore) -> Vec<DeliveryKind> {
    store
        .deliveries()
        .await
        .unwrap()
        .iter()
        .map(|record| record.kind)
        .collect()
}

#[tokio::test]
async fn the_confirmation_link_shows_a_button_and_only_its_post_confirms() {
    let harness = harness(true).await;
    let (confirm, _) = sign_up(&harness, "Ada@Example.com").await;
    assert_eq!(
        kinds(&harness.store).await,
        [DeliveryKind::SubscriptionConfirmation]
    );

    let page = fetch(
        &harness.router,
        &format!("/newsletter/confirm?token={confirm}"),
    )
    .await;
    assert_eq!(page.status, StatusCode::OK);
    let html = page.text();
    assert!(html.contains(texts::CONFIRM_PROMPT), "{html}");
    assert!(html.contains("<button type=\"submit\">Confirm subscription</button>"));
    assert!(html.contains(&format!("action=\"/newsletter/confirm?token={confirm}\"")));
    assert_eq!(page.header("cache-control"), "no-store");
    assert_eq!(
        kinds(&harness.store).await.len(),
        1,
        "a GET changes nothing"
    );

    let done = send(
        &harness.router,
        form_post("/newsletter/confirm", &format!("token={confirm}")),
    )
    .await;
    assert_eq!(done.status, StatusCode::OK);
    assert!(done.text().contains(texts::CONFIRMED));
    assert_eq!(
        kinds(&harness.store).await,
        [
            DeliveryKind::SubscriptionConfirmation,
            DeliveryKind::Webhook
        ],
        "the owner hears of the subscriber once confirmed"
    );
    let again = send(
        &harness.router,
        form_post("/newsletter/confirm", &format!("token={confirm}")),
    )
    .await;
    assert_eq!(again.status, StatusCode::OK);
    assert_eq!(
        kinds(&harness.store).await.len(),
        2,
        "a second confirmation adds nothing"
    );
    let confirmed = fetch(
        &harness.router,
        &format!("/newsletter/confirm?token={confirm}"),
    )
    .await;
    assert!(confirmed.text().contains(texts::CONFIRMED));
}

#[tokio::test]
async fn the_unsubscribe_page_is_page_type_300_and_works_without_javascript() {
    let harness = harness(true).await;
    let (_, unsubscribe) = sign_up(&harness, "ada@example.com").await;
    let path = format!("/newsletter/unsubscribe?token={unsubscribe}");
    let page = fetch(&harness.router, &path).await;
    assert_eq!(page.status, StatusCode::OK);
    let html = page.text();
    assert!(html.contains("<body data-page-type=\"300\">"), "{html}");
    assert!(html.contains("<h1>Unsubscribe</h1>"));
    assert!(html.contains("Stop receiving this newsletter at <strong>ada@example.com</strong>."));
    assert!(html.contains("<button type=\"submit\">Unsubscribe</button>"));
    assert!(html.contains("<meta name=\"robots\" content=\"noindex\">"));

    let done = send(
        &harness.router,
        form_post("/newsletter/unsubscribe", &format!("token={unsubscribe}")),
    )
    .await;
    assert_eq!(done.status, StatusCode::OK);
    assert!(done.text().contains(texts::UNSUBSCRIBED));
    let after = fetch(&harness.router, &path).await;
    assert!(after.text().contains(texts::UNSUBSCRIBED));
    assert!(!after.text().contains("<button"), "nothing left to press");

    // The address can sign up again, and gets a fresh confirmation.
    let (confirm_again, unsubscribe_again) = sign_up(&harness, "ada@example.com").await;
    assert_ne!(unsubscribe_again, unsubscribe);
    assert!(!confirm_again.is_empty());
}

#[tokio::test]
async fn a_mail_clients_one_click_post_unsubscribes() {
    let harness = harness(true).await;
    let (_, unsubscribe) = sign_up(&harness, "ada@example.com").await;
    // RFC 8058: the token stays in the URL and the body says what was clicked.
    let request = form_post(
        &format!("/newsletter/unsubscribe?token={unsubscribe}"),
        "List-Unsubscribe=One-Click",
    );
    let done = send(&harness.router, request).await;
    assert_eq!(done.status, StatusCode::OK);
    assert!(done.text().contains(texts::UNSUBSCRIBED));
}

#[tokio::test]
async fn unknown_wrong_and_malformed_tokens_answer_404_with_the_invalid_link_text() {
    let harness = harness(true).await;
    let (confirm, unsubscribe) = sign_up(&harness, "ada@example.com").await;
    let unknown = "0".repeat(64);
    for path in [
        format!("/newsletter/unsubscribe?token={unknown}"),
        "/newsletter/unsubscribe?token=%3Cscript%3E".to_owned(),
        "/newsletter/unsubscribe".to_owned(),
        format!("/newsletter/confirm?token={unknown}"),
        // An unsubscribe token does not confirm.
        format!("/newsletter/confirm?token={unsubscribe}"),
    ] {
        let answer = fetch(&harness.router, &path).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{path}");
        assert!(answer.text().contains(texts::INVALID_LINK), "{path}");
        assert!(!answer.text().contains("<script>"), "{path}");
    }
    let post = send(
        &harness.router,
        form_post("/newsletter/confirm", &format!("token={unknown}")),
    )
    .await;
    assert_eq!(post.status, StatusCode::NOT_FOUND);
    assert_eq!(kinds(&harness.store).await.len(), 1, "nothing confirmed");
    assert!(!confirm.is_empty());
}

#[tokio::test]
async fn without_a_subscriber_list_the_pages_do_not_exist() {
    let harness = harness(false).await;
    let answer = fetch(
        &harness.router,
        &format!("/newsletter/unsubscribe?token={}", "a".repeat(64)),
    )
    .await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_bots_sign_up_sends_nothing_and_does_not_block_the_address() {
    let harness = harness(true).await;
    let answer = send(
        &harness.router,
        api("/api/form/FormSubmissionKey", String::new()),
    )
    .await;
    let key = answer.json()["key"].as_str().unwrap().to_owned();
    let body = url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs([
            ("key", key.as_str()),
            ("formId", "letter"),
            ("objectName", "letter"),
            ("form", r#"{"email":"ada@example.com"}"#),
            ("honeypot", "I am a bot"),
        ])
        .finish();
    let caught = send(&harness.router, api("/api/form/SaveFormSubmission", body)).await;
    assert_eq!(caught.status, StatusCode::OK);
    assert!(
        kinds(&harness.store).await.is_empty(),
        "spam is never delivered"
    );
    // The person the address belongs to still gets their confirmation.
    let (confirm, _) = sign_up(&harness, "ada@example.com").await;
    assert!(!confirm.is_empty());
}
