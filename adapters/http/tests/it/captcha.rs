//! The captcha in pages: the site key reaches the page context and the form's widget
//! container, the provider's script and hosts are allowed on pages, and a form posted without
//! JavaScript hands the widget's token to the verifier.

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use vitrine_core::forms::FormService;
use vitrine_core::forms::memory::{DeterministicCaptcha, MemoryFormStore, MemoryRateLimiter};
use vitrine_core::pages::{CaptchaSettingsContext, PageService};
use vitrine_core::ports::SiteRepository;
use vitrine_core::ports::memory::MemorySiteRepository;
use vitrine_core::site::{
    Block, BlockContent, Body as PageBody, Collection, CollectionId, FormBlock, FormField,
    FormFieldType, Layout, PermissionType, SafeHtml, Seo, Slug,
};
use vitrine_http::{AppState, router};

use crate::support::{config, fetch, fixture_assets, send, site};

async fn app() -> Router {
    let mut fixture = site();
    let form = FormBlock {
        form_id: "ask".into(),
        title: None,
        fields: vec![FormField {
            id: "question".into(),
            field_type: FormFieldType::Text,
            title: "Question".into(),
            description: String::new(),
            placeholder: String::new(),
            required: true,
            options: Vec::new(),
            max_length: None,
        }],
        submit_label: "Ask".into(),
        post_submit_message: SafeHtml::sanitize("<p>Asked.</p>"),
        success_url: None,
    };
    fixture.collections.push(Collection {
        id: CollectionId::try_from("ask".to_owned()).unwrap(),
        collection_type: vitrine_core::enums::CollectionType::Page,
        title: "Ask".into(),
        slug: Slug::parse("ask").unwrap(),
        description: String::new(),
        permission_type: PermissionType::Public,
        body: PageBody {
            raw: false,
            layout: Layout::stacked(vec![Block {
                id: "ask-form".to_owned().try_into().unwrap(),
                content: BlockContent::Form(form),
            }])
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
        store,
        Arc::new(MemoryRateLimiter::new()),
    )
    .with_captcha(Arc::new(DeterministicCaptcha));
    let pages = PageService::new(repository.clone()).with_captcha(CaptchaSettingsContext {
        provider: "turnstile".into(),
        site_key: "0x4AAAAAAA-site-key".into(),
    });
    router(
        AppState::new(
            Arc::new(pages),
            repository,
            Arc::new(fixture_assets()),
            config(),
        )
        .with_forms(Arc::new(forms)),
    )
}

#[tokio::test]
async fn the_site_key_is_in_the_page_context_and_the_forms_widget() {
    let page = fetch(&app().await, "/ask").await;
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(
        page.page_context()["captchaSettings"],
        serde_json::json!({"provider": "turnstile", "siteKey": "0x4AAAAAAA-site-key"})
    );
    let html = page.text();
    assert!(html.contains(
        "<div class=\"form__captcha cf-turnstile\" data-captcha-provider=\"turnstile\" \
         data-sitekey=\"0x4AAAAAAA-site-key\"></div>"
    ));
    // The submit button is bound to the widget: after a failed save it waits for a new solve.
    assert!(
        html.contains("type=\"submit\" data-captcha-bound>"),
        "{html}"
    );
    assert!(html.contains(
        "<script src=\"https://challenges.cloudflare.com/turnstile/v0/api.js\" async defer>"
    ));
    let policy = page.header("content-security-policy");
    assert!(
        policy.contains("script-src 'self' https://challenges.cloudflare.com"),
        "{policy}"
    );
    assert!(
        policy.contains("frame-src https://challenges.cloudflare.com"),
        "{policy}"
    );
}

#[tokio::test]
async fn pages_without_forms_do_not_load_the_providers_script() {
    let home = fetch(&app().await, "/").await;
    assert!(!home.text().contains("challenges.cloudflare.com"));
}

fn no_script_post(body: &str) -> Request<Body> {
    Request::post("/form-submission")
        .header("host", "shop.example")
        .header("origin", "https://shop.example")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from(body.to_owned()))
        .unwrap()
}

#[tokio::test]
async fn without_javascript_the_widgets_token_is_verified() {
    let app = app().await;
    let solved = send(
        &app,
        no_script_post("formId=ask&question=Why&cf-turnstile-response=pass"),
    )
    .await;
    assert_eq!(solved.status, StatusCode::OK, "{}", solved.text());
    let unsolved = send(&app, no_script_post("formId=ask&question=Why")).await;
    assert_eq!(unsolved.status, StatusCode::BAD_REQUEST);
    assert!(
        unsolved
            .text()
            .contains("Complete CAPTCHA before submitting.")
    );
}
