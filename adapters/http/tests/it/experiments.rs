//! Experiments on pages: the visitor's variant is in the first HTML, stays the same for the
//! same visitor, each variant is cached apart (never served to a visitor of another), the
//! answer is private, and each view records an exposure with its visitor key.

use std::collections::BTreeSet;
use std::sync::Arc;

use axum::body::Body;
use axum::http::Request;
use vitrine_core::analytics::BatchPolicy;
use vitrine_core::experiments::{
    BlockChange, Experiment, ExperimentType, Experiments, Variant, bucket, pick_variant,
};
use vitrine_core::pages::PageService;
use vitrine_core::ports::SiteRepository;
use vitrine_core::ports::memory::MemorySiteRepository;
use vitrine_core::site::{Block, BlockContent, SafeHtml};
use vitrine_http::{AppState, CensusLog, VisitorKey};

use crate::support::{Answer, config, fixture_assets, send, site};

const CONSENTED: &str = "ss_cookieAllowed=true";
const VARIANT_B: &str = "Shipping everywhere, twice a week.";

fn faq_test() -> Experiment {
    Experiment {
        name: "faq-answer".to_owned(),
        experiment_type: ExperimentType::AbTest,
        variants: vec![
            Variant {
                name: "control".to_owned(),
                weight: 50,
                changes: Vec::new(),
            },
            Variant {
                name: "b".to_owned(),
                weight: 50,
                changes: vec![BlockChange::Replace(Block {
                    id: "faq-accordion".to_owned().try_into().unwrap(),
                    content: BlockContent::Html {
                        html: SafeHtml::sanitize(&format!("<p>{VARIANT_B}</p>")),
                    },
                })],
            },
        ],
        segment: None,
        pages: vec!["/faq".to_owned()],
    }
}

async fn app() -> (axum::Router, Arc<CensusLog>) {
    let mut site = site();
    site.settings.experiments = Experiments(vec![faq_test()]);
    let repository = Arc::new(MemorySiteRepository::new());
    repository.replace_site(&site).await.unwrap();
    let pages = Arc::new(PageService::new(repository.clone()));
    let census = Arc::new(CensusLog::new(
        BatchPolicy {
            capacity: 1000,
            flush_rows: 1000,
            flush_interval_ms: 0,
        },
        false,
    ));
    let state = AppState::new(pages, repository, Arc::new(fixture_assets()), config())
        .with_census(census.clone());
    (vitrine_http::router(state), census)
}

fn page(path: &str, cookies: &str) -> Request<Body> {
    let mut request = Request::get(path).header("user-agent", "Test/1.0");
    if !cookies.is_empty() {
        request = request.header("cookie", cookies);
    }
    request.body(Body::empty()).unwrap()
}

/// The variant the page shows, told by its HTML and checked against its page context.
fn shown_variant(answer: &Answer) -> String {
    let html = answer.text();
    let context = answer.page_context();
    let experiment = &context["experiments"][0];
    assert_eq!(experiment["name"], "faq-answer");
    assert_eq!(experiment["experimentType"], "AB_TEST");
    assert_eq!(experiment["containsError"], false);
    let variant = experiment["variant"].as_str().unwrap().to_owned();
    assert_eq!(
        html.contains(VARIANT_B),
        variant == "b",
        "the HTML shows the variant its context names"
    );
    assert_eq!(html.contains("Do you ship abroad?"), variant == "control");
    variant
}

fn expected_variant(visitor_id: &str) -> &'static str {
    match pick_variant(bucket("faq-answer", visitor_id), &[50, 50]) {
        Some(0) => "control",
        _ => "b",
    }
}

fn set_cookie(answer: &Answer, name: &str) -> Option<String> {
    answer
        .headers
        .get_all("set-cookie")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .find_map(|cookie| cookie.strip_prefix(&format!("{name}=")))
        .map(|rest| rest.split(';').next().unwrap_or_default().to_owned())
}

#[tokio::test]
async fn a_consenting_visitor_gets_a_visitor_cookie_and_keeps_the_variant_it_was_bucketed_by() {
    let (router, _) = app().await;
    let first = send(&router, page("/faq", CONSENTED)).await;
    assert_eq!(first.header("cache-control"), "private, no-cache");
    let cookie = set_cookie(&first, "ss_cvr").expect("a first visit is given its visitor cookie");
    assert!(
        set_cookie(&first, "ss_cvt").is_some(),
        "and its visit cookie"
    );
    let id = cookie.split('|').next().unwrap().to_owned();
    let variant = shown_variant(&first);
    assert_eq!(variant, expected_variant(&id));
    for _ in 0..5 {
        let again = send(
            &router,
            page("/faq", &format!("{CONSENTED}; ss_cvr={cookie}")),
        )
        .await;
        assert_eq!(
            shown_variant(&again),
            variant,
            "the same visitor sees the same variant"
        );
        assert_eq!(
            set_cookie(&again, "ss_cvr"),
            None,
            "an existing cookie is left alone"
        );
    }
}

#[tokio::test]
async fn each_variant_is_cached_apart_and_never_served_to_another_visitor() {
    let (router, _) = app().await;
    let mut seen = BTreeSet::new();
    for round in 0..3 {
        for n in 0..20 {
            let id = format!("visitor-{n}");
            let cookies = format!("{CONSENTED}; ss_cvr={id}|10|10|10|2");
            let answer = send(&router, page("/faq", &cookies)).await;
            let variant = shown_variant(&answer);
            assert_eq!(variant, expected_variant(&id), "round {round}, {id}");
            seen.insert(variant);
        }
    }
    assert_eq!(seen.len(), 2, "twenty visitors meet both variants");
}

#[tokio::test]
async fn a_visitor_without_consent_gets_a_cookieless_daily_bucket_and_no_cookie() {
    let (router, census) = app().await;
    let first = send(&router, page("/faq", "")).await;
    assert_eq!(
        set_cookie(&first, "ss_cvr"),
        None,
        "no tracking cookie without consent"
    );
    let variant = shown_variant(&first);
    for _ in 0..3 {
        assert_eq!(
            shown_variant(&send(&router, page("/faq", "")).await),
            variant
        );
    }
    let rows = census.take_due(i64::MAX);
    let exposures: Vec<_> = rows
        .iter()
        .filter(|row| row.kind == "experiment-exposure")
        .collect();
    assert_eq!(exposures.len(), 4, "one exposure per view");
    assert!(
        exposures
            .iter()
            .all(|row| matches!(row.visitor, Some(VisitorKey::Cookieless(_)))),
        "counted by the daily key"
    );
    assert_eq!(exposures[0].data["experiment"], "faq-answer");
    assert_eq!(exposures[0].data["variant"], variant.as_str());
    assert_eq!(exposures[0].page_path.as_deref(), Some("/faq"));
}

#[tokio::test]
async fn pages_without_experiments_stay_shared_and_prefetches_are_not_exposures() {
    let (router, census) = app().await;
    let home = send(&router, page("/", CONSENTED)).await;
    assert!(home.header("cache-control").starts_with("public"));
    assert_eq!(set_cookie(&home, "ss_cvr"), None);
    assert!(home.page_context().get("experiments").is_none());

    let prefetch = Request::get("/faq")
        .header("sec-purpose", "prefetch")
        .body(Body::empty())
        .unwrap();
    send(&router, prefetch).await;
    assert!(
        census
            .take_due(i64::MAX)
            .iter()
            .all(|row| row.kind != "experiment-exposure")
    );
}
