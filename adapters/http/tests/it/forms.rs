//! The form calls through the router: every status of 000 s8 with its verbatim message, the
//! key as an idempotency key, rate limits with their headers, the crumb, the honeypot, the
//! captcha, newsletters, the no-JavaScript action and the islands' markup.

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{Value, json};
use vitrine_core::forms::memory::{DeterministicCaptcha, MemoryFormStore, MemoryRateLimiter};
use vitrine_core::forms::ports::RateLimit;
use vitrine_core::forms::{FormService, RateLimits, SubmissionStore};
use vitrine_core::pages::PageService;
use vitrine_core::ports::SiteRepository;
use vitrine_core::ports::memory::MemorySiteRepository;
use vitrine_core::site::{
    Block, BlockContent, Body as PageBody, Collection, CollectionId, FormBlock, FormField,
    FormFieldType, Layout, PermissionType, SafeHtml, Seo, Site, Slug,
};
use vitrine_http::{AppState, router};

use crate::support::{Answer, config, fixture_assets, send, site};

const CRUMB: &str = "test-crumb-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

fn field(id: &str, field_type: FormFieldType, required: bool) -> FormField {
    FormField {
        id: id.into(),
        field_type,
        title: id.to_uppercase(),
        description: String::new(),
        placeholder: String::new(),
        required,
        options: Vec::new(),
        max_length: None,
    }
}

fn page(slug: &str, enabled: bool, blocks: Vec<Block>) -> Collection {
    Collection {
        id: CollectionId::try_from(slug.to_owned()).unwrap(),
        collection_type: vitrine_core::enums::CollectionType::Page,
        title: slug.into(),
        slug: Slug::parse(slug).unwrap(),
        description: String::new(),
        permission_type: PermissionType::Public,
        body: PageBody {
            raw: false,
            layout: Layout::stacked(blocks).unwrap(),
        },
        seo: Seo::default(),
        enabled,
    }
}

/// The fixture site plus a contact page (a form and a newsletter) and a disabled page whose
/// form is therefore not configured.
fn forms_site() -> Site {
    let mut site = site();
    let contact = FormBlock {
        form_id: "contact".into(),
        title: Some("Write to us".into()),
        fields: vec![
            field("name", FormFieldType::Name, true),
            field("email", FormFieldType::Email, true),
            FormField {
                max_length: Some(10),
                ..field("message", FormFieldType::Textarea, false)
            },
        ],
        submit_label: "Send".into(),
        post_submit_message: SafeHtml::sanitize(
            "<p onclick=\"steal()\">Thanks! <a href=\"javascript:alert(1)\">x</a></p><script>alert(1)</script>",
        ),
        success_url: None,
    };
    site.collections.push(page(
        "contact",
        true,
        vec![
            Block {
                id: "contact-form".to_owned().try_into().unwrap(),
                content: BlockContent::Form(contact.clone()),
            },
            Block {
                id: "letter".to_owned().try_into().unwrap(),
                content: BlockContent::Newsletter {
                    title: "Letter".into(),
                    description: String::new(),
                    button_label: "Sign up".into(),
                    placeholder: String::new(),
                },
            },
        ],
    ));
    site.collections.push(page(
        "draft",
        false,
        vec![Block {
            id: "draft-form".to_owned().try_into().unwrap(),
            content: BlockContent::Form(FormBlock {
                form_id: "draft".into(),
                ..contact
            }),
        }],
    ));
    site
}

struct Harness {
    router: Router,
    store: Arc<MemoryFormStore>,
}

async fn harness_with(limits: RateLimits, captcha: bool) -> Harness {
    let repository = Arc::new(MemorySiteRepository::new());
    repository.replace_site(&forms_site()).await.unwrap();
    let repository: Arc<dyn SiteRepository> = repository;
    let store = Arc::new(MemoryFormStore::new());
    let mut forms = FormService::new(
        repository.clone(),
        store.clone(),
        store.clone(),
        Arc::new(MemoryRateLimiter::new()),
    )
    .with_limits(limits);
    if captcha {
        forms = forms.with_captcha(Arc::new(DeterministicCaptcha));
    }
    let pages = Arc::new(PageService::new(repository.clone()));
    let state = AppState::new(pages, repository, Arc::new(fixture_assets()), config())
        .with_forms(Arc::new(forms));
    Harness {
        router: router(state),
        store,
    }
}

async fn harness() -> Harness {
    harness_with(RateLimits::default(), false).await
}

fn post(path: &str, body: &str) -> Request<Body> {
    Request::post(format!("{path}?crumb={CRUMB}"))
        .header("cookie", format!("crumb={CRUMB}"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from(body.to_owned()))
        .unwrap()
}

fn encode(pairs: &[(&str, &str)]) -> String {
    url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(pairs)
        .finish()
}

async fn key(router: &Router) -> String {
    let answer = send(router, post("/api/form/FormSubmissionKey", "")).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    answer.json()["key"].as_str().unwrap().to_owned()
}

fn contact_values(email: &str) -> Value {
    json!({"name": ["Ada", "Lovelace"], "email": email, "message": "Hello"})
}

async fn save(router: &Router, key: &str, form_id: &str, form: &Value) -> Answer {
    let form = form.to_string();
    let body = encode(&[
        ("key", key),
        ("formId", form_id),
        ("collectionId", "contact"),
        ("objectName", ""),
        ("isOverlayForm", "false"),
        ("submitButtonText", "Send"),
        ("form", &form),
    ]);
    send(router, post("/api/form/SaveFormSubmission", &body)).await
}

#[tokio::test]
async fn a_key_is_256_random_bits_in_data_key() {
    let harness = harness().await;
    let first = key(&harness.router).await;
    let second = key(&harness.router).await;
    assert_eq!(first.len(), 64);
    assert!(first.chars().all(|c| c.is_ascii_hexdigit()));
    assert_ne!(first, second);
}

#[tokio::test]
async fn a_valid_submission_is_stored_and_answers_success() {
    let harness = harness().await;
    let key = key(&harness.router).await;
    let answer = save(
        &harness.router,
        &key,
        "contact",
        &contact_values("ada@example.com"),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    assert_eq!(answer.json(), json!({"success": true}));
    let stored = harness.store.list().await.unwrap();
    assert_eq!(stored.len(), 1);
    assert_eq!(
        serde_json::from_str::<Value>(&stored[0].values_json).unwrap(),
        contact_values("ada@example.com")
    );
    assert_eq!(stored[0].collection_id.as_deref(), Some("contact"));
}

#[tokio::test]
async fn invalid_fields_answer_400_with_data_errors() {
    let harness = harness().await;
    let key = key(&harness.router).await;
    let values = json!({"name": ["", ""], "email": "not-an-email", "message": "far too long here"});
    let answer = save(&harness.router, &key, "contact", &values).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        answer.json(),
        json!({
            "error": "One or more fields is invalid, please check your entries.",
            "errors": {
                "email": "Email is not valid. Email addresses should follow the format name@example.com.",
                "message": "You have exceeded the character limit.",
                "name": "NAME is required."
            }
        })
    );
    assert!(harness.store.list().await.unwrap().is_empty());
    // The key was not consumed: the corrected form goes through with it.
    let fixed = save(
        &harness.router,
        &key,
        "contact",
        &contact_values("ada@example.com"),
    )
    .await;
    assert_eq!(fixed.status, StatusCode::OK);
}

#[tokio::test]
async fn a_form_on_no_published_page_answers_404() {
    let harness = harness().await;
    for form_id in ["nope", "draft"] {
        let key = key(&harness.router).await;
        let answer = save(&harness.router, &key, form_id, &contact_values("a@b.co")).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{form_id}");
        assert_eq!(
            answer.json()["error"],
            "This form has not been configured yet."
        );
    }
}

#[tokio::test]
async fn unreadable_form_json_answers_the_parse_message() {
    let harness = harness().await;
    let key = key(&harness.router).await;
    let body = encode(&[("key", &key), ("formId", "contact"), ("form", "{not json")]);
    let answer = send(&harness.router, post("/api/form/SaveFormSubmission", &body)).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        answer.json()["error"],
        "Could not parse the form fields, please check your entries."
    );
}

#[tokio::test]
async fn too_many_submissions_answer_429_with_rate_limit_headers() {
    let limits = RateLimits {
        submissions_per_visitor: RateLimit {
            max: 2,
            window_seconds: 60,
        },
        ..RateLimits::default()
    };
    let harness = harness_with(limits, false).await;
    for _ in 0..2 {
        let key = key(&harness.router).await;
        let answer = save(&harness.router, &key, "contact", &contact_values("a@b.co")).await;
        assert_eq!(answer.status, StatusCode::OK);
    }
    let key = key(&harness.router).await;
    let answer = save(&harness.router, &key, "contact", &contact_values("a@b.co")).await;
    assert_eq!(answer.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(
        answer.json()["error"],
        "Unable to submit form. Submission rate limit exceeded. Please try again later."
    );
    assert_eq!(answer.header("ratelimit-limit"), "2");
    assert_eq!(answer.header("ratelimit-remaining"), "0");
    let retry: u64 = answer.header("retry-after").parse().unwrap();
    assert!((1..=60).contains(&retry));
    assert_eq!(
        answer.header("ratelimit-reset"),
        answer.header("retry-after")
    );
}

#[tokio::test]
async fn the_per_form_limit_holds_across_visitors() {
    let limits = RateLimits {
        submissions_per_form: RateLimit {
            max: 1,
            window_seconds: 60,
        },
        ..RateLimits::default()
    };
    let harness = harness_with(limits, false).await;
    let first = key(&harness.router).await;
    assert_eq!(
        save(
            &harness.router,
            &first,
            "contact",
            &contact_values("a@b.co")
        )
        .await
        .status,
        StatusCode::OK
    );
    // Another visitor: another crumb.
    let other = "other-crumb-BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB";
    let body = encode(&[("key", &first), ("formId", "contact"), ("form", "{}")]);
    let request = Request::post(format!("/api/form/SaveFormSubmission?crumb={other}"))
        .header("cookie", format!("crumb={other}"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from(body))
        .unwrap();
    assert_eq!(
        send(&harness.router, request).await.status,
        StatusCode::TOO_MANY_REQUESTS
    );
}

#[tokio::test]
async fn a_retry_with_the_same_key_gets_the_first_answer_and_stores_nothing_new() {
    let harness = harness().await;
    let key = key(&harness.router).await;
    let first = save(&harness.router, &key, "contact", &contact_values("a@b.co")).await;
    let retry = save(&harness.router, &key, "contact", &contact_values("a@b.co")).await;
    assert_eq!(
        (first.status, retry.status),
        (StatusCode::OK, StatusCode::OK)
    );
    assert_eq!(first.body, retry.body);
    assert_eq!(harness.store.list().await.unwrap().len(), 1);
}

#[tokio::test]
async fn a_key_reused_with_another_payload_is_refused() {
    let harness = harness().await;
    let key = key(&harness.router).await;
    save(&harness.router, &key, "contact", &contact_values("a@b.co")).await;
    let other = save(&harness.router, &key, "contact", &contact_values("z@b.co")).await;
    assert_eq!(other.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        other.json()["error"],
        "Error processing form submission. Please reload and try again."
    );
    assert_eq!(harness.store.list().await.unwrap().len(), 1);
}

#[tokio::test]
async fn an_unknown_key_is_refused() {
    let harness = harness().await;
    let answer = save(
        &harness.router,
        &"0".repeat(64),
        "contact",
        &contact_values("a@b.co"),
    )
    .await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert!(harness.store.list().await.unwrap().is_empty());
}

#[tokio::test]
async fn both_calls_need_the_crumb() {
    let harness = harness().await;
    for path in [
        "/api/form/FormSubmissionKey",
        "/api/form/SaveFormSubmission",
    ] {
        let request = Request::post(path)
            .header("cookie", format!("crumb={CRUMB}"))
            .body(Body::empty())
            .unwrap();
        let answer = send(&harness.router, request).await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{path}");
        assert_eq!(answer.json()["crumbFail"], true);
    }
}

#[tokio::test]
async fn a_filled_honeypot_is_accepted_silently_and_marked_spam() {
    let harness = harness().await;
    let key = key(&harness.router).await;
    let form = contact_values("bot@spam.biz").to_string();
    let body = encode(&[
        ("key", &key),
        ("formId", "contact"),
        ("form", &form),
        ("honeypot", "http://spam.example"),
    ]);
    let answer = send(&harness.router, post("/api/form/SaveFormSubmission", &body)).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.json(), json!({"success": true}));
    let stored = harness.store.list().await.unwrap();
    assert!(stored[0].spam);
}

#[tokio::test]
async fn an_unsolved_captcha_is_refused_with_its_message() {
    let harness = harness_with(RateLimits::default(), true).await;
    let key = key(&harness.router).await;
    let answer = save(&harness.router, &key, "contact", &contact_values("a@b.co")).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        answer.json()["error"],
        "Complete CAPTCHA before submitting."
    );
    let form = contact_values("a@b.co").to_string();
    let body = encode(&[
        ("key", &key),
        ("formId", "contact"),
        ("form", &form),
        ("captchaKey", DeterministicCaptcha::SOLVED),
    ]);
    let solved = send(&harness.router, post("/api/form/SaveFormSubmission", &body)).await;
    assert_eq!(solved.status, StatusCode::OK);
}

#[tokio::test]
async fn a_second_newsletter_signup_gets_the_same_answer_and_no_new_row() {
    let harness = harness().await;
    for email in ["ada@example.com", "ADA@example.com "] {
        let key = key(&harness.router).await;
        let answer = save(&harness.router, &key, "letter", &json!({ "email": email })).await;
        assert_eq!(answer.status, StatusCode::OK);
        assert_eq!(answer.json(), json!({"success": true}));
    }
    assert_eq!(harness.store.list().await.unwrap().len(), 1);
}

fn no_script_post(body: &str, origin: Option<&str>) -> Request<Body> {
    let mut request = Request::post("/form-submission")
        .header("host", "shop.example")
        .header("referer", "https://shop.example/contact")
        .header("content-type", "application/x-www-form-urlencoded");
    if let Some(origin) = origin {
        request = request.header("origin", origin);
    }
    request.body(Body::from(body.to_owned())).unwrap()
}

#[tokio::test]
async fn without_javascript_a_post_gets_a_thank_you_page_with_the_sanitised_message() {
    let harness = harness().await;
    let body = encode(&[
        ("formId", "contact"),
        ("name-first", "Ada"),
        ("name-last", "Lovelace"),
        ("email", "ada@example.com"),
        ("message", "Hi"),
        ("honeypot", ""),
    ]);
    let answer = send(
        &harness.router,
        no_script_post(&body, Some("https://shop.example")),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    let html = answer.text();
    assert!(html.contains("Thanks!"), "{html}");
    assert!(
        html.contains("href=\"/contact\""),
        "a link back to the page"
    );
    for unsafe_part in ["<script", "onclick", "javascript:"] {
        assert!(!html.contains(unsafe_part), "{unsafe_part} in {html}");
    }
    let stored = harness.store.list().await.unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(&stored[0].values_json).unwrap(),
        json!({"name": ["Ada", "Lovelace"], "email": "ada@example.com", "message": "Hi"})
    );
}

#[tokio::test]
async fn without_javascript_errors_are_listed_by_field_title() {
    let harness = harness().await;
    let body = encode(&[("formId", "contact"), ("email", "nope")]);
    let answer = send(
        &harness.router,
        no_script_post(&body, Some("https://shop.example")),
    )
    .await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    let html = answer.text();
    assert!(html.contains("One or more fields is invalid, please check your entries."));
    assert!(
        html.contains("<strong>EMAIL</strong>: Email is not valid."),
        "{html}"
    );
}

#[tokio::test]
async fn a_cross_site_post_to_the_no_script_action_is_refused() {
    let harness = harness().await;
    let body = encode(&[("formId", "contact"), ("email", "a@b.co")]);
    for origin in [Some("https://evil.example"), None] {
        let answer = send(&harness.router, no_script_post(&body, origin)).await;
        assert_eq!(answer.status, StatusCode::FORBIDDEN, "{origin:?}");
    }
    assert!(harness.store.list().await.unwrap().is_empty());
}

#[tokio::test]
async fn the_blocks_are_islands_that_post_without_javascript_too() {
    let harness = harness().await;
    let answer = send(&harness.router, crate::support::get("/contact")).await;
    assert_eq!(answer.status, StatusCode::OK);
    let html = answer.text();
    assert!(html.contains("data-island=\"form\""), "{html}");
    assert!(html.contains("data-island=\"newsletter\""));
    assert!(html.contains("&quot;formId&quot;:&quot;contact&quot;") || html.contains("\"formId\""));
    assert!(html.contains("action=\"/form-submission\""));
    assert!(html.contains("name=\"honeypot\""));
    for unsafe_part in ["<script>alert", "onclick", "javascript:alert"] {
        assert!(!html.contains(unsafe_part), "{unsafe_part} in the page");
    }
}
