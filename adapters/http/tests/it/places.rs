//! The places calls (001 s7) through the router to the Photon adapter and a local fake of a
//! Photon server: predictions, details of a predicted place, the answers kept so a repeated
//! query asks the geocoder once, hostile inputs, a geocoder that is down or absent, and the
//! rate limit.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use axum::Router;
use axum::body::Body;
use axum::extract::{RawQuery, State};
use axum::http::{Request, StatusCode};
use axum::response::{IntoResponse, Response};
use vitrine_core::pages::PageService;
use vitrine_http::AppState;
use vitrine_services::PhotonGeocoder;

use crate::support::{config, fetch, fixture_assets, repository, send};

const AUTOCOMPLETE: &str = "/api/google-maps/places/autocomplete";
const DETAILS: &str = "/api/google-maps/places/details";
const CONTEXT: &str =
    "trackingContext=%7B%22productPage%22%3A%22editor%22%2C%22productSection%22%3A%22map%22%7D";

/// A Photon server that knows one studio, counts the searches it answers, and answers 500
/// to the query `broken`.
async fn fake_photon() -> (url::Url, Arc<AtomicUsize>) {
    async fn search(State(calls): State<Arc<AtomicUsize>>, RawQuery(query): RawQuery) -> Response {
        calls.fetch_add(1, Ordering::SeqCst);
        let query = query.unwrap_or_default();
        if query.contains("q=broken") {
            return StatusCode::INTERNAL_SERVER_ERROR.into_response();
        }
        assert!(query.contains("limit=5"), "{query}");
        let features = if query.contains("q=argila") {
            serde_json::json!([{
                "type": "Feature",
                "geometry": {"type": "Point", "coordinates": [-9.1313, 38.7172]},
                "properties": {"osm_type": "N", "osm_id": 42, "name": "Terraluz Studio",
                    "street": "Rua da Argila Azul", "housenumber": "14",
                    "postcode": "1100-321", "city": "Lisboa", "country": "Portugal"}
            }])
        } else {
            serde_json::json!([])
        };
        axum::Json(serde_json::json!({"type": "FeatureCollection", "features": features}))
            .into_response()
    }
    let calls = Arc::new(AtomicUsize::new(0));
    let app = Router::new()
        .route("/photon/api", axum::routing::get(search))
        .with_state(calls.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (
        url::Url::parse(&format!("http://{address}/photon")).unwrap(),
        calls,
    )
}

async fn app(geocoder: Option<&url::Url>) -> Router {
    let repository = repository().await;
    let pages = Arc::new(PageService::new(repository.clone()));
    let mut state = AppState::new(pages, repository, Arc::new(fixture_assets()), config());
    if let Some(base) = geocoder {
        state = state.with_geocoder(Arc::new(PhotonGeocoder::new(base).unwrap()));
    }
    vitrine_http::router(state)
}

#[tokio::test]
async fn predictions_come_from_the_geocoder_and_lead_to_their_details() {
    let (base, calls) = fake_photon().await;
    let app = app(Some(&base)).await;
    let answer = fetch(&app, &format!("{AUTOCOMPLETE}?input=argila&{CONTEXT}")).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    assert_eq!(answer.header("cache-control"), "private, max-age=300");
    assert_eq!(
        answer.json(),
        serde_json::json!({"predictions": [{
            "placeId": "N42",
            "description": "Terraluz Studio, Rua da Argila Azul 14, Lisboa, Portugal",
            "mainText": "Terraluz Studio",
            "secondaryText": "Rua da Argila Azul 14, Lisboa, Portugal",
        }]})
    );
    let details = fetch(&app, &format!("{DETAILS}?placeId=N42&{CONTEXT}")).await;
    assert_eq!(details.status, StatusCode::OK, "{}", details.text());
    assert_eq!(
        details.json(),
        serde_json::json!({"result": {
            "placeId": "N42",
            "name": "Terraluz Studio",
            "addressLine1": "Rua da Argila Azul 14",
            "addressLine2": "1100-321 Lisboa",
            "addressCountry": "Portugal",
            "lat": 38.7172,
            "lng": -9.1313,
        }})
    );
    assert_eq!(calls.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_repeated_query_is_answered_from_the_cache() {
    let (base, calls) = fake_photon().await;
    let app = app(Some(&base)).await;
    for input in ["argila", "Argila", "%20argila%20"] {
        let answer = fetch(&app, &format!("{AUTOCOMPLETE}?input={input}")).await;
        assert_eq!(answer.status, StatusCode::OK);
        assert_eq!(answer.json()["predictions"][0]["placeId"], "N42");
    }
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    let nothing = fetch(&app, &format!("{AUTOCOMPLETE}?input=nowhere")).await;
    assert_eq!(nothing.json(), serde_json::json!({"predictions": []}));
    assert_eq!(calls.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn hostile_inputs_are_refused_with_the_reason_before_the_geocoder_is_asked() {
    let (base, calls) = fake_photon().await;
    let app = app(Some(&base)).await;
    let long = "a".repeat(201);
    let cases = [
        (
            AUTOCOMPLETE.to_owned(),
            "Type part of an address to search for places.",
        ),
        (
            format!("{AUTOCOMPLETE}?input=%20%20"),
            "Type part of an address to search for places.",
        ),
        (
            format!("{AUTOCOMPLETE}?input={long}"),
            "A place search takes at most 200 characters.",
        ),
        (
            format!("{AUTOCOMPLETE}?input=a%00b"),
            "A place search cannot contain control characters.",
        ),
        (
            DETAILS.to_owned(),
            "A place id is 1 to 64 letters, digits, '-', '_' or ':'.",
        ),
        (
            format!("{DETAILS}?placeId=%3Cscript%3E"),
            "A place id is 1 to 64 letters, digits, '-', '_' or ':'.",
        ),
    ];
    for (path, message) in cases {
        let answer = fetch(&app, &path).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{path}");
        assert_eq!(
            answer.json(),
            serde_json::json!({"error": message}),
            "{path}"
        );
    }
    assert_eq!(calls.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn a_place_no_answer_named_is_not_found() {
    let (base, _) = fake_photon().await;
    let app = app(Some(&base)).await;
    let answer = fetch(&app, &format!("{DETAILS}?placeId=N7")).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    assert_eq!(answer.json()["error"], "Not found.");
}

#[tokio::test]
async fn a_geocoder_that_fails_answers_503_in_json() {
    let (base, _) = fake_photon().await;
    let app = app(Some(&base)).await;
    let answer = fetch(&app, &format!("{AUTOCOMPLETE}?input=broken")).await;
    assert_eq!(answer.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(
        answer.json()["error"],
        "This service is temporarily unavailable. Please try again later."
    );
}

#[tokio::test]
async fn without_a_geocoder_both_calls_say_so_in_a_503() {
    let app = app(None).await;
    for path in [
        format!("{AUTOCOMPLETE}?input=argila"),
        format!("{DETAILS}?placeId=N42"),
    ] {
        let answer = fetch(&app, &path).await;
        assert_eq!(answer.status, StatusCode::SERVICE_UNAVAILABLE, "{path}");
        assert_eq!(answer.header("content-type"), "application/json");
        assert_eq!(
            answer.json(),
            serde_json::json!({"error": "Place search is not available: this site has no geocoding service configured."})
        );
    }
}

#[tokio::test]
async fn a_visitor_typing_too_fast_is_stopped_at_60_calls_a_minute() {
    let (base, _) = fake_photon().await;
    let app = app(Some(&base)).await;
    let call = || {
        Request::get(format!("{AUTOCOMPLETE}?input=argila"))
            .header("cookie", "crumb=typist")
            .body(Body::empty())
            .unwrap()
    };
    for _ in 0..60 {
        assert_eq!(send(&app, call()).await.status, StatusCode::OK);
    }
    let refused = send(&app, call()).await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(refused.headers.contains_key("retry-after"));
}
