//! Cookie consent on the server: consent receipts (recorded per decision, exported by the
//! owner) and the clearing of refused tracking cookies (000 s9) with expired `Set-Cookie`
//! headers, so a refusal holds even for cookies set before it or by an old script.

use axum::Json;
use axum::extract::{Request, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, SET_COOKIE};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde::{Deserialize, Serialize};
use vitrine_core::consent::{
    BANNER_VERSION, CONSENT_COOKIE, ConsentChoice, ConsentReceipt, ConsentSource, ReceiptId,
    RecordReceiptError, TRACKING_COOKIES, effective_consent, receipts_csv,
    tracking_cookies_allowed,
};

use crate::render::banner_settings;
use crate::shared::clock::now_ms;
use crate::shared::request_parts::{request_cookies, sends_gpc};
use crate::shared::route_table::Routes;
use crate::{ApiError, AppState};

/// The receipts endpoint: `POST` records a decision, `GET` exports them all for the owner.
pub const RECEIPTS_PATH: &str = "/api/consent/receipts";

pub(crate) fn routes() -> Routes {
    Routes::new().route(RECEIPTS_PATH, post(record_receipt).get(export_receipts))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ReceiptRequest {
    choice: ConsentChoice,
    source: ConsentSource,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ReceiptAnswer {
    id: String,
    banner_version: u32,
    choice: ConsentChoice,
    source: ConsentSource,
    recorded_at_ms: i64,
}

fn new_receipt_id() -> ReceiptId {
    let mut bytes = [0u8; 16];
    rand::fill(&mut bytes);
    ReceiptId::new(hex::encode(bytes)).expect("32 hex digits are a valid receipt id")
}

/// Records one decision. The body is JSON `{choice: accepted|declined, source: banner|gpc}`;
/// the id, banner version and time are the server's, so a receipt cannot be back-dated.
async fn record_receipt(
    State(state): State<AppState>,
    body: axum::body::Bytes,
) -> Result<Response, ApiError> {
    let request: ReceiptRequest = serde_json::from_slice(&body).map_err(|_| {
        ApiError::BadRequest(
            "A receipt needs a choice (accepted or declined) and a source (banner or gpc).".into(),
        )
    })?;
    let receipt = ConsentReceipt {
        id: new_receipt_id(),
        banner_version: BANNER_VERSION,
        choice: request.choice,
        source: request.source,
        recorded_at_ms: now_ms(),
    };
    state
        .consent
        .receipts
        .record(&receipt)
        .await
        .map_err(|error| match error {
            RecordReceiptError::Unavailable(_) => ApiError::Unavailable(Box::new(error)),
            RecordReceiptError::Duplicate => ApiError::internal(error),
        })?;
    let answer = ReceiptAnswer {
        id: receipt.id.as_str().to_owned(),
        banner_version: receipt.banner_version,
        choice: receipt.choice,
        source: receipt.source,
        recorded_at_ms: receipt.recorded_at_ms,
    };
    Ok((StatusCode::CREATED, Json(answer)).into_response())
}

/// Every receipt as CSV, for the owner only: the request must carry the owner's export token
/// as `Authorization: Bearer <token>`. Without a configured token the export does not exist
/// (404), because site accounts arrive with a later issue and no visitor may read receipts.
async fn export_receipts(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    if !crate::shared::owner_access::owner_permits(
        &state,
        &axum::http::Method::GET,
        &headers,
        vitrine_core::enums::PermissionCode::Settings,
    )
    .await
    {
        return Err(ApiError::NotFound);
    }
    let receipts = state
        .consent
        .receipts
        .all()
        .await
        .map_err(|error| ApiError::Unavailable(Box::new(error)))?;
    Ok((
        [(
            CONTENT_TYPE,
            HeaderValue::from_static("text/csv; charset=utf-8"),
        )],
        receipts_csv(&receipts),
    )
        .into_response())
}

/// Runs the rest of the request (`next`, from the router's one middleware) and, when the visitor
/// brings tracking cookies (000 s9) that the site's policy and the visitor's decision do not
/// allow, makes its answer expire each of them, both host-only and on the site's domain, at `/`
/// and at the request's own directory (where a page script without a `path` would have set it).
pub(crate) async fn clear_refused_cookies(
    state: &AppState,
    request: Request,
    next: Next,
) -> Response {
    if !crate::shared::request_parts::carries_tracking_cookie(request.headers()) {
        return next.run(request).await;
    }
    let cookies = request_cookies(request.headers());
    let present: Vec<&'static str> = TRACKING_COOKIES
        .iter()
        .copied()
        .filter(|name| cookies.iter().any(|(cookie, _)| cookie == name))
        .collect();
    let consent_cookie = cookies
        .iter()
        .find(|(name, _)| name == CONSENT_COOKIE)
        .map(|(_, value)| value.clone());
    let consent = effective_consent(consent_cookie.as_deref(), sends_gpc(request.headers()));
    let path = request.uri().path().to_owned();
    let mut response = next.run(request).await;
    // A site that cannot be read keeps its cookies this time: the page failed anyway, and
    // guessing the policy could clear cookies a visitor agreed to.
    let Ok(Some(profile)) = state.repository.profile().await else {
        return response;
    };
    let settings = banner_settings(&profile.settings);
    if tracking_cookies_allowed(&settings, consent) {
        return response;
    }
    let domain = site_domain(&state.config.public_base_url);
    for header in expiring_cookies(&present, domain.as_deref(), &path) {
        if let Ok(value) = HeaderValue::from_str(&header) {
            response.headers_mut().append(SET_COOKIE, value);
        }
    }
    keep_from_shared_caches(response.headers_mut());
    response
}

/// A response that expires a visitor's cookies is theirs alone: a shared cache keeping it (a
/// page is public otherwise) would expire the cookies of every visitor it answered.
fn keep_from_shared_caches(headers: &mut HeaderMap) {
    let public = headers
        .get(CACHE_CONTROL)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.contains("public"));
    if public {
        headers.insert(CACHE_CONTROL, HeaderValue::from_static("private, no-cache"));
    }
}

fn site_domain(public_base_url: &str) -> Option<String> {
    let host = url::Url::parse(public_base_url)
        .ok()?
        .host_str()?
        .to_owned();
    // A cookie cannot carry an IP address or `localhost` as its domain; host-only headers
    // already cover those.
    let is_name = host.contains('.') && host.parse::<std::net::IpAddr>().is_err();
    is_name.then_some(host)
}

/// The `Set-Cookie` values that expire `names` for every domain and path combination.
pub(crate) fn expiring_cookies(names: &[&str], domain: Option<&str>, path: &str) -> Vec<String> {
    let mut paths = vec!["/".to_owned()];
    if let Some((directory, _)) = path.rsplit_once('/')
        && !directory.is_empty()
    {
        paths.push(directory.to_owned());
    }
    let mut headers = Vec::new();
    for name in names {
        for path in &paths {
            let expire =
                format!("{name}=; Path={path}; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT");
            if let Some(domain) = domain {
                headers.push(format!("{expire}; Domain={domain}"));
            }
            headers.push(expire);
        }
    }
    headers
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expiring_headers_cover_domain_and_paths() {
        let headers = expiring_cookies(&["ss_cvr"], Some("shop.example"), "/blog/post");
        assert_eq!(
            headers,
            vec![
                "ss_cvr=; Path=/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Domain=shop.example",
                "ss_cvr=; Path=/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT",
                "ss_cvr=; Path=/blog; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Domain=shop.example",
                "ss_cvr=; Path=/blog; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT",
            ]
        );
        assert_eq!(site_domain("http://127.0.0.1:8080"), None);
        assert_eq!(site_domain("http://localhost:8080"), None);
    }
}
