//! The API description against the router: every `/api` route the router serves is described
//! with exactly the methods it answers, nothing described is missing from the router, and the
//! document is served as OpenAPI 3.1.

use std::collections::BTreeSet;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use vitrine_http::openapi::{OPENAPI_PATH, document};

use vitrine_core::forms::RateLimit;
use vitrine_http::RequestLimits;

use crate::support::{app, config, fetch, fixture_assets, repository, router_with, send};

const CRUMB: &str = "test-crumb";
const METHODS: [Method; 5] = [
    Method::GET,
    Method::POST,
    Method::PUT,
    Method::DELETE,
    Method::PATCH,
];

/// The `/api` paths of the router's own route table, the one the router is built from.
fn served_api_paths() -> BTreeSet<String> {
    vitrine_http::feature_routes()
        .paths()
        .iter()
        .filter(|path| path.starts_with("/api/"))
        .map(|path| (*path).to_owned())
        .collect()
}

fn described_paths() -> BTreeSet<String> {
    document().paths.paths.keys().cloned().collect()
}

#[test]
fn every_served_api_route_is_described_and_every_described_route_is_served() {
    let served = served_api_paths();
    let described = described_paths();
    // The table holds every feature's routes, so it can never be empty or hold only a few.
    assert!(
        served.len() >= 30,
        "the route table lost routes: {served:?}"
    );
    let undescribed: Vec<_> = served.difference(&described).collect();
    let unserved: Vec<_> = described.difference(&served).collect();
    assert!(
        undescribed.is_empty(),
        "served but missing from the API description: {undescribed:?}"
    );
    assert!(
        unserved.is_empty(),
        "described but not served: {unserved:?}"
    );
}

/// A path with each `{parameter}` filled, so the request reaches the route.
fn concrete(path: &str) -> String {
    path.split('/')
        .map(|segment| {
            if segment.starts_with('{') {
                "x"
            } else {
                segment
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

#[tokio::test]
async fn each_route_answers_exactly_the_methods_its_description_names() {
    // Every method of every route from one client: far more state-changing calls than a
    // visitor's rate limit lets through, and a 429 would hide whether the route answers.
    let unlimited = RateLimit {
        max: u32::MAX,
        window_seconds: 60,
    };
    let router = router_with(
        repository().await,
        fixture_assets(),
        config().with_request_limits(RequestLimits {
            per_address: unlimited,
            per_visitor: unlimited,
        }),
    );
    let document = document();
    for (path, item) in &document.paths.paths {
        let described: BTreeSet<Method> = [
            (Method::GET, item.get.is_some()),
            (Method::POST, item.post.is_some()),
            (Method::PUT, item.put.is_some()),
            (Method::DELETE, item.delete.is_some()),
            (Method::PATCH, item.patch.is_some()),
        ]
        .into_iter()
        .filter_map(|(method, present)| present.then_some(method))
        .collect();
        for method in METHODS {
            // With a valid crumb, so the crumb check does not answer before the route does.
            let request = Request::builder()
                .method(method.clone())
                .uri(concrete(path))
                .header("cookie", format!("crumb={CRUMB}"))
                .header("x-csrf-token", CRUMB)
                .body(Body::empty())
                .unwrap();
            let answer = send(&router, request).await;
            let served = answer.status != StatusCode::METHOD_NOT_ALLOWED;
            assert_eq!(
                served,
                described.contains(&method),
                "{method} {path}: served {served} ({}), described {}",
                answer.status,
                described.contains(&method)
            );
        }
    }
}

#[tokio::test]
async fn the_description_is_served_as_openapi_3_1_with_the_crumb_scheme() {
    let answer = fetch(&app().await, OPENAPI_PATH).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.header("content-type"), "application/json");
    let document = answer.json();
    assert_eq!(document["openapi"], "3.1.0");
    let schemes = &document["components"]["securitySchemes"];
    assert_eq!(schemes["crumbCookie"]["in"], "cookie");
    assert_eq!(schemes["crumbCookie"]["name"], "crumb");
    assert_eq!(schemes["crumbHeader"]["name"], "X-CSRF-Token");
    // A state-changing call needs both halves of the crumb; a read needs neither.
    let save = &document["paths"]["/api/form/SaveFormSubmission"]["post"];
    assert_eq!(
        save["security"],
        serde_json::json!([{"crumbCookie": [], "crumbHeader": []}])
    );
    assert!(save["responses"]["401"].is_object());
    let cart = &document["paths"]["/api/commerce/cart"]["get"];
    assert!(cart["security"].is_null(), "{cart}");
    // The owner's call needs the owner's token and, since it changes state, the crumb.
    let request = &document["paths"]["/api/commerce/orders/{id}/review-request"]["post"];
    assert_eq!(
        request["security"],
        serde_json::json!([{"ownerToken": [], "crumbCookie": [], "crumbHeader": []}])
    );
}
