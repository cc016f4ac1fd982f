//! The owner's dashboard (issue 18 s3): `GET /config/dashboard` shows the range the owner
//! picks (today, 7 days, 30 days or two dates) against the range before it, server-rendered
//! as tables that work without JavaScript, which the dashboard's own script (a Vite entry of
//! its own, never loaded by the site's pages) draws as charts. `GET /api/owner/dashboard`
//! answers the same figures as JSON. Both read [`build_dashboard`], the report behind
//! `vitrine analytics report`.
//!
//! `/config/` shows the same dashboard under the preview of the site ([`config_section`]);
//! the dashboard's own page stays as a link to the figures alone.
//!
//! Reading the analytics is for the admin, reporting and viewer roles (`role_reads_analytics`;
//! the viewer changes nothing here, since the dashboard only reads); another role gets 403,
//! and its `/config/` shows no dashboard.

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::header::CACHE_CONTROL;
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use serde_json::json;
use vitrine_core::analytics::{
    Dashboard, DayRange, DayRangeError, build_dashboard, chosen_range, day_number,
};
use vitrine_core::enums::ContributorRole;
use vitrine_core::owners::role_reads_analytics;

use super::dashboard_markup::{self, RangeForm};
use super::markup;
use crate::AppState;
use crate::shared::owner_access::{owner_access, owner_viewer};
use crate::shared::request_parts::escape_html;
use crate::shared::route_table::Routes;

/// The dashboard page.
pub const DASHBOARD_PATH: &str = "/config/dashboard";
/// The dashboard's figures as JSON.
pub const DASHBOARD_DATA_PATH: &str = "/api/owner/dashboard";
/// The dashboard script's entry in the web build's manifest.
pub const DASHBOARD_ENTRY: &str = "src/owner/dashboard/main.ts";

pub(crate) fn routes() -> Routes {
    Routes::new()
        .route(DASHBOARD_PATH, get(page))
        .route(DASHBOARD_DATA_PATH, get(data))
}

/// `?range=today|7d|30d|custom&from=YYYY-MM-DD&to=YYYY-MM-DD`.
#[derive(Debug, Default, serde::Deserialize)]
pub(super) struct RangeQuery {
    range: Option<String>,
    from: Option<String>,
    to: Option<String>,
}

impl RangeQuery {
    /// No range picked: the dashboard's default.
    pub(super) const DEFAULT: Self = Self {
        range: None,
        from: None,
        to: None,
    };

    /// The picker as this query left it, reloading `action` (with the preview frame's address
    /// on `/config/`).
    fn form<'a>(&'a self, action: &'a str, frame_url: Option<&'a str>) -> RangeForm<'a> {
        RangeForm {
            range: self.range.as_deref(),
            from: self.from.as_deref(),
            to: self.to.as_deref(),
            action,
            frame_url,
        }
    }

    fn chosen(&self, today: i64) -> Result<DayRange, DayRangeError> {
        chosen_range(
            self.range.as_deref(),
            self.from.as_deref(),
            self.to.as_deref(),
            today,
        )
    }
}

fn today() -> i64 {
    day_number(crate::shared::clock::now_ms())
}

/// The dashboard of `range`; the site's experiments are listed against their controls.
async fn dashboard_of(state: &AppState, range: DayRange) -> Result<Dashboard, String> {
    let experiments = state
        .repository
        .profile()
        .await
        .map_err(|error| error.to_string())?
        .map(|profile| profile.settings.experiments)
        .unwrap_or_default();
    build_dashboard(&*state.analytics, &experiments, range)
        .await
        .map_err(|error| error.to_string())
}

fn unavailable(cause: &str) -> Response {
    tracing::error!(error = %cause, "reading the dashboard failed");
    markup::page(
        StatusCode::SERVICE_UNAVAILABLE,
        "Unavailable",
        &format!(
            "<main><h1>Unavailable</h1>{}</main>",
            markup::alert(Some(dashboard_markup::UNAVAILABLE))
        ),
    )
}

/// `GET /config/dashboard`: the signed-in owner's dashboard; the sign-in form's page for
/// anyone else, and 403 for a role that may not read the analytics.
async fn page(
    State(state): State<AppState>,
    query: Result<Query<RangeQuery>, QueryRejection>,
    headers: HeaderMap,
) -> Response {
    let viewer = match owner_viewer(&state, &headers).await {
        Ok(Some(viewer)) => viewer,
        Ok(None) => return Redirect::to("/config/").into_response(),
        Err(error) => return unavailable(&error.to_string()),
    };
    if !role_reads_analytics(viewer.owner.role) {
        return markup::page(
            StatusCode::FORBIDDEN,
            "No access",
            &format!(
                "<main><h1>No access</h1><p>Your role ({}) does not read the site's analytics.</p>\
                 <p><a href=\"/config/\">Back to the owner area</a></p></main>",
                escape_html(viewer.owner.role.spec_name())
            ),
        );
    }
    let query = query.map(|Query(query)| query).unwrap_or_default();
    let form = query.form(DASHBOARD_PATH, None);
    let head = head(&state);
    let range = match query.chosen(today()) {
        Ok(range) => range,
        Err(error) => {
            return markup::page_with_head(
                StatusCode::BAD_REQUEST,
                "Dashboard",
                &head,
                &dashboard_markup::invalid_range(&form, &error.to_string()),
            );
        }
    };
    match dashboard_of(&state, range).await {
        Ok(dashboard) => markup::page_with_head(
            StatusCode::OK,
            "Dashboard",
            &head,
            &dashboard_markup::dashboard(&form, &dashboard),
        ),
        Err(cause) => unavailable(&cause),
    }
}

/// The dashboard script and its styles, for the head of a page showing the dashboard.
pub(super) fn head(state: &AppState) -> String {
    dashboard_markup::head(&state.assets.entry_assets(DASHBOARD_ENTRY))
}

/// The dashboard as `/config/` shows it under the preview of the site, for the range `query`
/// picks (the picker reloads `/config/`, keeping the preview's address `frame`): its status
/// (400 for a range that does not parse) and its section. When the analytics cannot be read
/// the section says so and the rest of the owner area still works.
pub(super) async fn config_section(
    state: &AppState,
    role: ContributorRole,
    query: &RangeQuery,
    frame: &str,
) -> (StatusCode, String) {
    if !role_reads_analytics(role) {
        return (StatusCode::OK, String::new());
    }
    let form = query.form("/config/", Some(frame));
    let (status, body) = match query.chosen(today()) {
        Err(error) => (
            StatusCode::BAD_REQUEST,
            dashboard_markup::invalid_range_body(&form, &error.to_string()),
        ),
        Ok(range) => match dashboard_of(state, range).await {
            Ok(dashboard) => (
                StatusCode::OK,
                dashboard_markup::dashboard_body(&form, &dashboard),
            ),
            Err(cause) => {
                tracing::error!(error = %cause, "reading the dashboard failed");
                (
                    StatusCode::OK,
                    markup::alert(Some(dashboard_markup::UNAVAILABLE)),
                )
            }
        },
    };
    (
        status,
        format!(
            "<section id=\"dashboard\" class=\"owner-dashboard\" aria-labelledby=\"dashboard-title\">\
             <h2 id=\"dashboard-title\">Dashboard</h2>{body}</section>"
        ),
    )
}

fn json_error(status: StatusCode, message: &str) -> Response {
    (
        status,
        [(CACHE_CONTROL, "no-store")],
        Json(json!({ "error": message })),
    )
        .into_response()
}

/// `GET /api/owner/dashboard?range=`: the dashboard's figures for a script or a signed-in
/// owner; 401 without an owner, 403 without the permission to read the analytics.
async fn data(
    State(state): State<AppState>,
    query: Result<Query<RangeQuery>, QueryRejection>,
    headers: HeaderMap,
) -> Response {
    let access = match owner_access(&state, &Method::GET, &headers).await {
        Ok(access) => access,
        Err(error) => {
            tracing::error!(%error, "reading owner access failed");
            return json_error(
                StatusCode::SERVICE_UNAVAILABLE,
                dashboard_markup::UNAVAILABLE,
            );
        }
    };
    let Some(access) = access else {
        return json_error(StatusCode::UNAUTHORIZED, "Sign in to read the dashboard.");
    };
    if !access.reads_analytics() {
        return json_error(
            StatusCode::FORBIDDEN,
            "Your role may not read the site's analytics.",
        );
    }
    let Ok(Query(query)) = query else {
        return json_error(StatusCode::BAD_REQUEST, "range, from and to are text.");
    };
    let range = match query.chosen(today()) {
        Ok(range) => range,
        Err(error) => return json_error(StatusCode::BAD_REQUEST, &error.to_string()),
    };
    match dashboard_of(&state, range).await {
        Ok(dashboard) => ([(CACHE_CONTROL, "no-store")], Json(dashboard)).into_response(),
        Err(cause) => {
            tracing::error!(error = %cause, "reading the dashboard failed");
            json_error(
                StatusCode::SERVICE_UNAVAILABLE,
                dashboard_markup::UNAVAILABLE,
            )
        }
    }
}
