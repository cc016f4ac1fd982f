//! The census calls (000 s7): page views (`RecordHit`, form-encoded) and the button, form and
//! overlay events (JSON). Hits pass the exclusions of 000 s6 and are counted with the visitor
//! cookie when the visitor allows tracking, or with the cookieless daily hash otherwise.
//! Rows go into the census log ([`CensusLog`](crate::shared::census_log::CensusLog)); the
//! client swallows every failure.

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde_json::json;
use vitrine_core::analytics::{
    DayRange, HitPayload, PageKind, PushOutcome, ViewerRole, build_report, hit_exclusion,
};

use crate::shared::bounded_body::{BoundedBody, bounded};
use crate::shared::census_log::{CensusRow, VisitorKey};
use crate::shared::clock::now_ms;
use crate::shared::route_table::Routes;
use crate::shared::visitors::visitor_key;
use crate::{ApiError, AppState};

pub(crate) fn routes() -> Routes {
    Routes::new()
        .route("/api/census/RecordHit", post(record_hit))
        .route(
            "/api/census/button-click",
            post(|s: State<AppState>, b: BoundedBody| event(s, b, "button-click")),
        )
        .route(
            "/api/census/button-render",
            post(|s: State<AppState>, b: BoundedBody| event(s, b, "button-render")),
        )
        .route(
            "/api/census/form-render",
            post(|s: State<AppState>, b: BoundedBody| event(s, b, "form-render")),
        )
        .route(
            "/api/census/overlay",
            post(|s: State<AppState>, b: BoundedBody| event(s, b, "overlay")),
        )
        .map(bounded)
        .route(REPORT_PATH, axum::routing::get(report))
}

/// `POST /api/census/RecordHit`: form fields `event`, `data` (the hit payload JSON) and
/// `ss_cvr` (the visitor cookie).
async fn record_hit(
    State(state): State<AppState>,
    address: crate::shared::client_address::ClientAddress,
    headers: HeaderMap,
    BoundedBody(body): BoundedBody,
) -> Result<Response, ApiError> {
    let mut data = None;
    let mut visitor_cookie = None;
    for (key, value) in url::form_urlencoded::parse(&body) {
        match &*key {
            "data" => data = Some(value.into_owned()),
            "ss_cvr" => visitor_cookie = Some(value.into_owned()),
            _ => {}
        }
    }
    let data = data.ok_or_else(|| ApiError::BadRequest("A hit needs its data.".into()))?;
    let hit = HitPayload::parse(&data).map_err(|error| ApiError::BadRequest(error.to_string()))?;
    let census = &state.census;
    // Site accounts arrive with a later issue: every caller is an anonymous visitor for now.
    if let Some(excluded) = hit_exclusion(
        census.disabled,
        PageKind::Normal,
        &hit.page_path,
        ViewerRole::Anonymous,
    ) {
        return Ok(Json(json!({ "recorded": false, "excluded": excluded })).into_response());
    }
    let now = now_ms();
    let visitor = visitor_key(&state, &headers, address, visitor_cookie.as_deref(), now).await;
    let cookieless = matches!(visitor, Some(VisitorKey::Cookieless(_)));
    let outcome = census.push(CensusRow {
        kind: "page-view",
        visitor,
        page_path: Some(hit.page_path.clone()),
        data: serde_json::to_value(&hit).unwrap_or_default(),
        recorded_at_ms: now,
    });
    let recorded = outcome != PushOutcome::Dropped;
    Ok(Json(json!({ "recorded": recorded, "cookieless": cookieless })).into_response())
}

/// The JSON census events: recorded as they come, refused only when not a JSON object.
async fn event(
    State(state): State<AppState>,
    BoundedBody(body): BoundedBody,
    kind: &'static str,
) -> Response {
    let Ok(serde_json::Value::Object(data)) = serde_json::from_slice::<serde_json::Value>(&body)
    else {
        return ApiError::BadRequest("A census event is a JSON object.".into()).into_response();
    };
    if state.census.disabled {
        return StatusCode::NO_CONTENT.into_response();
    }
    state.census.push(CensusRow {
        kind,
        visitor: None,
        page_path: data
            .get("pagePath")
            .and_then(|p| p.as_str())
            .map(str::to_owned),
        data: serde_json::Value::Object(data),
        recorded_at_ms: now_ms(),
    });
    StatusCode::NO_CONTENT.into_response()
}

/// The report path: page views and visitors per day, for the owner.
pub const REPORT_PATH: &str = "/api/analytics/report";

/// `GET /api/analytics/report`: the owner's daily figures as JSON, behind the same owner token
/// as the receipt export (404 without it). Cookieless figures are counted apart, so the report
/// can say which numbers are estimates.
async fn report(State(state): State<AppState>, headers: HeaderMap) -> Result<Response, ApiError> {
    let access =
        crate::shared::owner_access::owner_access(&state, &axum::http::Method::GET, &headers).await;
    if !matches!(access, Ok(Some(access)) if access.reads_analytics()) {
        return Err(ApiError::NotFound);
    }
    // The report lists the site's experiments in their order, against their controls.
    let experiments = state
        .repository
        .profile()
        .await
        .map_err(|error| ApiError::Unavailable(Box::new(error)))?
        .map(|profile| profile.settings.experiments)
        .unwrap_or_default();
    let report = build_report(&*state.analytics, &experiments, DayRange::ALL)
        .await
        .map_err(|error| ApiError::Unavailable(Box::new(error)))?;
    Ok(Json(report).into_response())
}
