//! The event calls (000 s7, 001 s7): the tracker's `RecordEvent`, the events service
//! `/api/v1/events`, the marketing landing pixel `/api/track/Track`, the client error reporter
//! `RecordJavascriptErrors`, the logger's `Trace`, and the performance collector's settings and
//! records. Each parses its payload, checks its limits and hands rows to the census buffer.

use axum::Json;
use axum::extract::{Query, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Map, Value, json};
use vitrine_core::analytics::{MAX_SENDS_PER_PAGE, error_fingerprint, truncate_stack};

use crate::shared::bounded_body::{BoundedBody, bounded};
use crate::shared::census_log::CensusRow;
use crate::shared::route_table::Routes;
use crate::{ApiError, AppState};

pub(crate) fn routes() -> Routes {
    Routes::new()
        .route("/api/events/RecordEvent", post(record_event))
        .route("/api/v1/events", post(events_service))
        .route("/api/track/Track", get(track))
        .route("/api/events/RecordJavascriptErrors", post(record_errors))
        .route("/api/events/Trace", post(trace))
        .route("/api/1/performance/settings", get(performance_settings))
        .route("/api/1/performance/records", post(performance_records))
        .map(bounded)
}

/// The common fields of the events service with their declared types (001 s3): a value of
/// another type is logged and dropped. `true` in the second place means null is allowed.
const COMMON_FIELDS: [(&str, Kind, bool); 7] = [
    ("actor", Kind::String, false),
    ("action", Kind::String, false),
    ("object_type", Kind::String, false),
    ("object_id", Kind::String, true),
    ("product_area", Kind::String, false),
    ("user_session_id", Kind::String, true),
    ("timestamp", Kind::Number, true),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    String,
    Number,
}

fn form_fields(body: &[u8]) -> Map<String, Value> {
    url::form_urlencoded::parse(body)
        .map(|(k, v)| (k.into_owned(), Value::String(v.into_owned())))
        .collect()
}

fn json_object(text: &str) -> Option<Map<String, Value>> {
    match serde_json::from_str(text) {
        Ok(Value::Object(map)) => Some(map),
        _ => None,
    }
}

fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"))
}

fn record(state: &AppState, kind: &'static str, page_path: Option<String>, data: Value) {
    state.census.record(CensusRow {
        kind,
        visitor: None,
        page_path,
        data,
        recorded_at_ms: crate::shared::clock::now_ms(),
    });
}

/// `POST /api/events/RecordEvent`: form-encoded `event` and `data` (the tracker payload).
async fn record_event(
    State(state): State<AppState>,
    BoundedBody(body): BoundedBody,
) -> Result<Response, ApiError> {
    let fields = form_fields(&body);
    let event = fields.get("event").and_then(Value::as_str).unwrap_or("");
    let data = fields
        .get("data")
        .and_then(Value::as_str)
        .and_then(json_object)
        .ok_or_else(|| ApiError::BadRequest("An event needs its data as a JSON object.".into()))?;
    if event.is_empty() {
        return Err(ApiError::BadRequest("An event needs its name.".into()));
    }
    let path = data
        .get("pagePath")
        .and_then(Value::as_str)
        .map(str::to_owned);
    record(
        &state,
        "event",
        path,
        json!({ "event": event, "data": data }),
    );
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// Drops common fields of the wrong type, with a warning, as the events service does.
fn checked_common_data(mut common: Map<String, Value>) -> Map<String, Value> {
    for (name, kind, nullable) in COMMON_FIELDS {
        let Some(value) = common.get(name) else {
            continue;
        };
        let fits = match (value, kind) {
            (Value::Null, _) => nullable,
            (Value::String(_), Kind::String) | (Value::Number(_), Kind::Number) => true,
            _ => false,
        };
        if !fits {
            tracing::warn!(
                field = name,
                "events service: a common field has the wrong type and is dropped"
            );
            common.remove(name);
        }
    }
    common
}

/// `POST /api/v1/events`: `analyticsId`, `commonData` and `customData` (JSON strings) and
/// `customSchemaName`, form-encoded (the beacon) or JSON (the fallback). Answers 202.
async fn events_service(
    State(state): State<AppState>,
    headers: HeaderMap,
    BoundedBody(body): BoundedBody,
) -> Result<Response, ApiError> {
    let fields = if is_json(&headers) {
        serde_json::from_slice::<Map<String, Value>>(&body)
            .map_err(|_| ApiError::BadRequest("The event is not a JSON object.".into()))?
    } else {
        form_fields(&body)
    };
    let text = |name: &str| fields.get(name).and_then(Value::as_str).map(str::to_owned);
    let analytics_id = text("analyticsId").filter(|id| !id.is_empty());
    let common = text("commonData").and_then(|c| json_object(&c));
    let (Some(analytics_id), Some(common)) = (analytics_id, common) else {
        return Err(ApiError::BadRequest(
            "An event needs analyticsId and commonData.".into(),
        ));
    };
    let custom = text("customData")
        .and_then(|c| json_object(&c))
        .unwrap_or_default();
    let common = checked_common_data(common);
    let path = common
        .get("page_path")
        .and_then(Value::as_str)
        .map(str::to_owned);
    record(
        &state,
        "events-service",
        path,
        json!({
            "analyticsId": analytics_id,
            "commonData": common,
            "customData": custom,
            "customSchemaName": text("customSchemaName"),
        }),
    );
    Ok(StatusCode::ACCEPTED.into_response())
}

/// The marketing landing fields (000 s3): required first, optional after.
const LANDING_REQUIRED: [&str; 5] = ["landing", "refer", "rk", "lang", "screen"];
const LANDING_OPTIONAL: [&str; 7] = [
    "source",
    "campaign",
    "subcampaign",
    "channel",
    "subchannel",
    "variation",
    "mkwid",
];

/// A transparent 1x1 GIF: what an image pixel must answer so the browser sees no error.
const PIXEL: &[u8] = &[
    0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00,
    0xff, 0xff, 0xff, 0x21, 0xf9, 0x04, 0x01, 0x00, 0x00, 0x00, 0x00, 0x2c, 0x00, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3b,
];

/// `GET /api/track/Track`: the landing pixel. `landing` is required; the other fields are
/// kept when present. Unknown parameters are ignored.
async fn track(
    State(state): State<AppState>,
    Query(query): Query<std::collections::BTreeMap<String, String>>,
) -> Result<Response, ApiError> {
    let landing = query
        .get("landing")
        .filter(|l| !l.is_empty())
        .ok_or_else(|| ApiError::BadRequest("The landing pixel needs the landing page.".into()))?;
    let mut data = Map::new();
    for name in LANDING_REQUIRED.iter().chain(LANDING_OPTIONAL.iter()) {
        if let Some(value) = query.get(*name) {
            data.insert((*name).to_owned(), Value::String(value.clone()));
        }
    }
    let path = url::Url::parse(landing).map(|u| u.path().to_owned()).ok();
    record(&state, "landing", path, Value::Object(data));
    Ok((
        [
            (CONTENT_TYPE, HeaderValue::from_static("image/gif")),
            (CACHE_CONTROL, HeaderValue::from_static("no-store")),
        ],
        PIXEL,
    )
        .into_response())
}

/// `POST /api/events/RecordJavascriptErrors`: a JSON array of {event, data, timestamp}. A page
/// sends at most 20 entries, so a longer array is refused; stacks are cut at 5000 characters.
/// Each entry is tagged with its group's fingerprint and the published site version.
async fn record_errors(
    State(state): State<AppState>,
    BoundedBody(body): BoundedBody,
) -> Result<Response, ApiError> {
    let entries: Vec<Map<String, Value>> = serde_json::from_slice(&body)
        .map_err(|_| ApiError::BadRequest("Error reports are a JSON array of objects.".into()))?;
    if entries.len() > MAX_SENDS_PER_PAGE {
        return Err(ApiError::BadRequest(format!(
            "At most {MAX_SENDS_PER_PAGE} error reports are accepted from one page."
        )));
    }
    let site_version = state.repository.revision().await.ok();
    for entry in entries {
        let mut data = match entry.get("data") {
            Some(Value::Object(data)) => data.clone(),
            _ => {
                return Err(ApiError::BadRequest(
                    "Each error report needs its data.".into(),
                ));
            }
        };
        let message = data
            .get("message")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        let stack = data
            .get("stack")
            .and_then(Value::as_str)
            .map(|s| truncate_stack(s).to_owned());
        let fingerprint = error_fingerprint(&message, stack.as_deref());
        if let Some(stack) = stack {
            data.insert("stack".into(), Value::String(stack));
        }
        let path = data
            .get("url")
            .and_then(Value::as_str)
            .and_then(|u| url::Url::parse(u).ok())
            .map(|u| u.path().to_owned());
        record(
            &state,
            "js-error",
            path,
            json!({
                "event": entry.get("event"),
                "timestamp": entry.get("timestamp"),
                "fingerprint": fingerprint,
                "siteVersion": site_version,
                "data": data,
            }),
        );
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// `POST /api/events/Trace`: `data`, a JSON string of log batches {pageUrl, type, data}, sent
/// form-encoded (or as the whole JSON body by a beacon).
async fn trace(
    State(state): State<AppState>,
    headers: HeaderMap,
    BoundedBody(body): BoundedBody,
) -> Result<Response, ApiError> {
    let text = if is_json(&headers) {
        String::from_utf8_lossy(&body).into_owned()
    } else {
        form_fields(&body)
            .get("data")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .unwrap_or_default()
    };
    let batches: Vec<Map<String, Value>> = serde_json::from_str(&text)
        .map_err(|_| ApiError::BadRequest("Trace data is a JSON array of log batches.".into()))?;
    for batch in batches {
        let valid = batch.get("pageUrl").is_some_and(Value::is_string)
            && batch.get("type").is_some_and(Value::is_string);
        if !valid {
            return Err(ApiError::BadRequest(
                "A log batch needs pageUrl and type.".into(),
            ));
        }
        record(&state, "trace", None, Value::Object(batch));
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// `GET /api/1/performance/settings`: a fresh pageLoadId for the collector.
async fn performance_settings() -> Response {
    let mut bytes = [0u8; 12];
    rand::fill(&mut bytes);
    Json(json!({ "pageLoadId": hex::encode(bytes) })).into_response()
}

/// `POST /api/1/performance/records`: a JSON array of records (sent as text/plain by beacon or
/// XHR), each carrying the pageLoadId it belongs to.
async fn performance_records(
    State(state): State<AppState>,
    BoundedBody(body): BoundedBody,
) -> Result<Response, ApiError> {
    let records: Vec<Map<String, Value>> = serde_json::from_slice(&body).map_err(|_| {
        ApiError::BadRequest("Performance records are a JSON array of objects.".into())
    })?;
    for record_data in records {
        if !record_data.get("pageLoadId").is_some_and(Value::is_string) {
            return Err(ApiError::BadRequest(
                "Each performance record needs its pageLoadId.".into(),
            ));
        }
        // The page is kept as the row's page path, so the dashboard can show each page's
        // Web Vitals.
        let page_path = record_data
            .get("pagePath")
            .and_then(Value::as_str)
            .map(str::to_owned);
        record(&state, "performance", page_path, Value::Object(record_data));
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}
