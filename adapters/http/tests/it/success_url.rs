//! Success URLs (000 s4): the island gets the form's checked success URL in its props, and
//! the no-JavaScript action redirects there with 303; an unsafe URL is never used.

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use vitrine_core::forms::memory::{MemoryFormStore, MemoryRateLimiter};
use vitrine_core::forms::{DeliveryKind, DeliveryOutbox, FormService};
use vitrine_core::pages::PageService;
use vitrine_core::ports::SiteRepository;
use vitrine_core::ports::memory::MemorySiteRepository;
use vitrine_core::site::{
    Block, BlockContent, Body as PageBody, Collection, CollectionId, FormBlock, FormField,
    FormFieldType, Layout, PermissionType, SafeHtml, Seo, Slug,
};
use vitrine_http::{AppState, router};

use crate::support::{config, fetch, fixture_assets, send, site};

fn form(form_id: &str, success_url: &str) -> Block {
    Block {
        id: format!("block-{form_id}").try_into().unwrap(),
        content: BlockContent::Form(FormBlock {
            form_id: form_id.into(),
            title: None,
            fields: vec![FormField {
                id: "message".into(),
                field_type: FormFieldType::Text,
                title: "Message".into(),
                description: String::new(),
                placeholder: String::new(),
                required: true,
                options: Vec::new(),
                max_length: None,
            }],
            submit_label: "Send".into(),
            post_submit_message: SafeHtml::sanitize("<p>Thanks!</p>"),
            success_url: Some(success_url.into()),
        }),
    }
}

async fn app() -> Router {
    app_and_store().await.0
}

async fn app_and_store() -> (Router, Arc<MemoryFormStore>) {
    let mut fixture = site();
    fixture.collections.push(Collection {
        id: CollectionId::try_from("book".to_owned()).unwrap(),
        collection_type: vitrine_core::enums::CollectionType::Page,
        title: "Book".into(),
        slug: Slug::parse("book").unwrap(),
        description: String::new(),
        permission_type: PermissionType::Public,
        body: PageBody {
            raw: false,
            layout: Layout::stacked(vec![
                form("booking", "/thanks?from=booking"),
                form("sneaky", "javascript:alert(1)"),
            ])
            .unwrap(),
        },
        seo: Seo::default(),
        enabled: true,
    });
    let repository = Arc::new(MemorySiteRepository::new());
    repository.replace_site(&fixture).await.unwrap();
    let repository: Arc<dyn SiteRepository> = repository;
    let store = Arc::new(MemoryFormStore::new());
    let forms = FormService::new(
        repository.clone(),
        store.clone(),
        store.clone(),
        Arc::new(MemoryRateLimiter::new()),
    )
    .with_deliveries(vec![DeliveryKind::OwnerEmail, DeliveryKind::Webhook], false);
    let pages = Arc::new(PageService::new(repository.clone()));
    let router = router(
        AppState::new(pages, repository, Arc::new(fixture_assets()), config())
            .with_forms(Arc::new(forms)),
    );
    (router, store)
}

fn no_script_post(form_id: &str) -> Request<Body> {
    Request::post("/form-submission")
        .header("host", "shop.example")
        .header("origin", "https://shop.example")
        .header("referer", "https://shop.example/book")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from(format!(
            "formId={form_id}&message=Table+for+two"
        )))
        .unwrap()
}

#[tokio::test]
async fn without_javascript_a_success_redirects_to_the_success_url_with_303() {
    let app = app().await;
    let answer = send(&app, no_script_post("booking")).await;
    assert_eq!(answer.status, StatusCode::SEE_OTHER, "{}", answer.text());
    assert_eq!(answer.header("location"), "/thanks?from=booking");
}

#[tokio::test]
async fn an_unsafe_success_url_is_ignored_and_the_message_shown() {
    let app = app().await;
    let answer = send(&app, no_script_post("sneaky")).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert!(answer.headers.get("location").is_none());
    assert!(answer.text().contains("Thanks!"));
}

#[tokio::test]
async fn a_failed_submission_never_redirects() {
    let app = app().await;
    let request = Request::post("/form-submission")
        .header("host", "shop.example")
        .header("origin", "https://shop.example")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from("formId=booking&message="))
        .unwrap();
    let answer = send(&app, request).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert!(answer.headers.get("location").is_none());
}

#[tokio::test]
async fn the_island_props_carry_only_a_safe_success_url() {
    let html = fetch(&app().await, "/book").await.text();
    assert!(
        html.contains("&#34;successUrl&#34;:&#34;/thanks?from=booking&#34;"),
        "{html}"
    );
    assert!(!html.contains("javascript:alert"), "{html}");
}

#[tokio::test]
async fn a_stored_submission_is_queued_for_the_owner_before_the_answer() {
    let (app, store) = app_and_store().await;
    let answer = send(&app, no_script_post("booking")).await;
    assert_eq!(answer.status, StatusCode::SEE_OTHER);
    let kinds: Vec<DeliveryKind> = store
        .deliveries()
        .await
        .unwrap()
        .iter()
        .map(|record| record.kind)
        .collect();
    assert_eq!(kinds, [DeliveryKind::OwnerEmail, DeliveryKind::Webhook]);
}
