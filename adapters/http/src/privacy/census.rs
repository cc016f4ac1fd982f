//! The census calls (000 s7): page views (`RecordHit`, form-encoded) and the button, form and
//! overlay events (JSON). Hits pass the exclusions of 000 s6 and are counted with the visitor
//! cookie when the visitor allows tracking, or with the cookieless daily hash otherwise.
//! Rows go into a bounded buffer ([`CensusLog`]); the client swallows every failure.

use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use axum::Json;
use axum::extract::State;
use axum::http::header::USER_AGENT;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde::Serialize;
use serde_json::json;
use vitrine_core::analytics::{
    AnalyticsStore, BatchPolicy, DailySalt, HitBuffer, HitPayload, PageKind, PushOutcome,
    StoredHit, ViewerRole, VisitorCookie, bounded_hit, build_report, cookieless_visitor_hash,
    day_number, hit_exclusion, kept_data, metric_value_of, subject_of,
};
use vitrine_core::consent::{CONSENT_COOKIE, effective_consent, tracking_cookies_allowed};

use crate::privacy::consent::{request_cookies, sends_gpc};
use crate::render::banner_settings;
use crate::shared::bounded_body::{BoundedBody, bounded};
use crate::shared::route_table::Routes;
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

/// Who a counted row belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "key", rename_all = "kebab-case")]
pub enum VisitorKey {
    /// The visitor cookie's id: the visitor allowed tracking.
    Cookie(String),
    /// The daily salted hash: an estimate that cannot follow anyone across days.
    Cookieless(String),
}

/// One recorded census row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CensusRow {
    pub kind: &'static str,
    pub visitor: Option<VisitorKey>,
    pub page_path: Option<String>,
    pub data: serde_json::Value,
    pub recorded_at_ms: i64,
}

impl CensusRow {
    /// The row as the analytics store keeps it, every text cut to its limit.
    pub fn to_stored(&self) -> StoredHit {
        let (visitor_key, cookieless) = match &self.visitor {
            Some(VisitorKey::Cookie(key)) => (Some(key.clone()), false),
            Some(VisitorKey::Cookieless(key)) => (Some(key.clone()), true),
            None => (None, false),
        };
        bounded_hit(StoredHit {
            kind: self.kind.to_owned(),
            visitor_key,
            cookieless,
            page_path: self.page_path.clone(),
            data: kept_data(self.kind, &self.data).to_string(),
            recorded_at_ms: self.recorded_at_ms,
            subject: subject_of(self.kind, &self.data),
            metric_value: metric_value_of(self.kind, &self.data),
        })
    }
}

/// The census rows waiting to be written, the salt of the day, and the global switch.
pub struct CensusLog {
    rows: Mutex<HitBuffer<CensusRow>>,
    salt: Mutex<Option<DailySalt>>,
    pub(crate) disabled: bool,
    flush_interval_ms: i64,
}

impl Default for CensusLog {
    fn default() -> Self {
        Self::new(BatchPolicy::default(), false)
    }
}

impl CensusLog {
    /// `disabled` is the global census flag of 000 s6: no hit is recorded.
    pub fn new(policy: BatchPolicy, disabled: bool) -> Self {
        Self {
            rows: Mutex::new(HitBuffer::new(policy)),
            salt: Mutex::new(None),
            disabled,
            flush_interval_ms: policy.flush_interval_ms,
        }
    }

    /// Buffers a row unless census is disabled; a full buffer drops it (and counts the drop).
    pub(crate) fn record(&self, row: CensusRow) {
        if !self.disabled {
            self.push(row);
        }
    }

    fn push(&self, row: CensusRow) -> PushOutcome {
        let now = row.recorded_at_ms;
        match self.rows.lock() {
            Ok(mut rows) => rows.push(row, now),
            Err(_) => PushOutcome::Dropped,
        }
    }

    /// Takes the rows due for writing (all of a batch once it is due).
    pub fn take_due(&self, now_ms: i64) -> Vec<CensusRow> {
        match self.rows.lock() {
            Ok(mut rows) if rows.flush_due(now_ms) => rows.take_batch(now_ms),
            _ => Vec::new(),
        }
    }

    /// Writes the rows that are due, one transaction per batch, until none is due; returns how
    /// many were written. Rows of a failed batch are lost (and logged by the caller): analytics
    /// must never hold memory for a database that is down.
    pub async fn flush_due(
        &self,
        store: &dyn AnalyticsStore,
        now_ms: i64,
    ) -> Result<usize, vitrine_core::ports::RepositoryError> {
        let mut written = 0;
        loop {
            let batch: Vec<StoredHit> = self
                .take_due(now_ms)
                .iter()
                .map(CensusRow::to_stored)
                .collect();
            if batch.is_empty() {
                return Ok(written);
            }
            store.record_batch(&batch).await?;
            written += batch.len();
        }
    }

    /// The policy's flush interval, for the caller's timer.
    pub fn flush_interval_ms(&self) -> i64 {
        self.flush_interval_ms
    }

    /// Rows waiting, and rows dropped because the buffer was full.
    pub fn counts(&self) -> (usize, u64) {
        self.rows
            .lock()
            .map(|rows| (rows.len(), rows.dropped()))
            .unwrap_or_default()
    }

    /// Today's salt, made fresh (random) when the day changes; yesterday's is forgotten.
    fn salt(&self, now_ms: i64) -> Option<DailySalt> {
        let mut guard = self.salt.lock().ok()?;
        let day = day_number(now_ms);
        if guard.as_ref().is_none_or(|salt| salt.day != day) {
            let mut secret = [0u8; 32];
            rand::fill(&mut secret);
            *guard = Some(DailySalt { day, secret });
        }
        guard.clone()
    }
}

pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
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

/// The visitor cookie's id when the visitor allows tracking and the cookie is well-formed;
/// otherwise the cookieless hash of address, user agent and site.
pub(crate) async fn visitor_key(
    state: &AppState,
    headers: &HeaderMap,
    address: crate::shared::client_address::ClientAddress,
    visitor_cookie: Option<&str>,
    now: i64,
) -> Option<VisitorKey> {
    let cookies = request_cookies(headers);
    let consent_cookie = cookies
        .iter()
        .find(|(n, _)| n == CONSENT_COOKIE)
        .map(|(_, v)| v.as_str());
    let consent = effective_consent(consent_cookie, sends_gpc(headers));
    let profile = state.repository.profile().await.ok().flatten();
    let site = profile
        .as_ref()
        .map(|p| p.website.id.to_string())
        .unwrap_or_default();
    let allowed = profile
        .as_ref()
        .is_some_and(|p| tracking_cookies_allowed(&banner_settings(&p.settings), consent));
    if allowed && let Some(cookie) = visitor_cookie.and_then(|c| c.parse::<VisitorCookie>().ok()) {
        return Some(VisitorKey::Cookie(cookie.id.as_str().to_owned()));
    }
    let salt = state.census.salt(now)?;
    let address = address.text();
    let agent = headers
        .get(USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    Some(VisitorKey::Cookieless(cookieless_visitor_hash(
        &salt, &address, agent, &site,
    )))
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
    if !crate::privacy::consent::is_owner(&state, &headers) {
        return Err(ApiError::NotFound);
    }
    let report = build_report(&*state.analytics)
        .await
        .map_err(|error| ApiError::Unavailable(Box::new(error)))?;
    Ok(Json(report).into_response())
}
