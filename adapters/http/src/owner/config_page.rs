//! The owner area at `/config/` (000 s2), server-rendered and working without JavaScript:
//! the sign-in form (argon2id, attempt limits answered 429 with `Retry-After`, the optional
//! TOTP code), the setup link's password form, and the first screen of a signed-in owner:
//! the live site in a preview frame (`frameUrl`), the account's signed-in browsers (each
//! revocable) and its API keys (created with scopes, revoked). Every form posts outside
//! `/api`, so the origin check guards it; a signed-in owner's forms also carry the session's
//! CSRF token.

use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::header::{RETRY_AFTER, SET_COOKIE, USER_AGENT};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use vitrine_core::enums::PermissionCode;
use vitrine_core::owners::{
    ApiKeyError, OWNER_SESSION_SECONDS, OwnerSignInError, OwnerSignedIn, OwnerViewer, SetupError,
    role_permits,
};
use vitrine_core::people::Unavailable;

use super::dashboard::{self, RangeQuery};
use super::markup::{self, FirstScreen};
use super::second_factor;
use crate::AppState;
use crate::shared::client_address::ClientAddress;
use crate::shared::owner_access::{expired_session_cookies, now, owner_viewer, session_cookies};
use crate::shared::request_parts::same_secret;
use crate::shared::route_table::Routes;

pub(crate) fn routes() -> Routes {
    Routes::new()
        .route("/config", get(to_config))
        .route("/config/", get(config))
        .route("/config/sign-in", post(sign_in))
        .route("/config/setup", get(setup_page).post(setup))
        .route("/config/sign-out", post(sign_out))
        .route("/config/sessions/revoke", post(revoke_session))
        .route("/config/api-keys", post(create_key))
        .route("/config/api-keys/revoke", post(revoke_key))
        .route(second_factor::START_PATH, post(second_factor::start))
        .route(second_factor::CONFIRM_PATH, post(second_factor::confirm))
        .route(second_factor::OFF_PATH, post(second_factor::turn_off))
}

/// What the owner area answers when the owner store cannot be read.
const UNAVAILABLE: &str = "The owner area is unavailable. Please try again in a moment.";

/// The preview frame's address: a path of this site, `/` for anything else (an absolute or
/// protocol-relative URL would frame another site).
pub(super) fn frame_path(given: Option<&str>) -> String {
    match given {
        Some(path) if path.starts_with('/') && !path.starts_with("//") && !path.contains('\\') => {
            path.to_owned()
        }
        _ => "/".to_owned(),
    }
}

/// The fields of a posted form, each name with every value it was given.
pub(super) fn form(body: &Bytes) -> Vec<(String, String)> {
    url::form_urlencoded::parse(body).into_owned().collect()
}

pub(super) fn field<'a>(fields: &'a [(String, String)], name: &str) -> Option<&'a str> {
    fields
        .iter()
        .find(|(found, _)| found == name)
        .map(|(_, value)| value.as_str())
}

pub(super) fn unavailable(error: &Unavailable) -> Response {
    tracing::error!(%error, "the owner store failed");
    markup::page(
        StatusCode::SERVICE_UNAVAILABLE,
        "Unavailable",
        &format!(
            "<main><h1>Unavailable</h1>{}</main>",
            markup::alert(Some(UNAVAILABLE))
        ),
    )
}

fn see_other(location: &str) -> Response {
    Redirect::to(location).into_response()
}

fn with_cookies(mut response: Response, cookies: &[String]) -> Response {
    for cookie in cookies {
        if let Ok(value) = HeaderValue::from_str(cookie) {
            response.headers_mut().append(SET_COOKIE, value);
        }
    }
    response
}

/// `/config` goes to `/config/`, keeping the query.
async fn to_config(parts: Parts) -> Response {
    let query = parts
        .uri
        .query()
        .map(|query| format!("?{query}"))
        .unwrap_or_default();
    see_other(&format!("/config/{query}"))
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct ConfigQuery {
    frame_url: Option<String>,
    /// The dashboard's range, as its own page takes it.
    #[serde(flatten)]
    range: RangeQuery,
}

/// `GET /config/`: the first screen for a signed-in owner, the sign-in form otherwise.
async fn config(
    State(state): State<AppState>,
    query: Result<Query<ConfigQuery>, QueryRejection>,
    headers: HeaderMap,
) -> Response {
    // A query that does not parse frames the home page rather than failing the page.
    let query = query.map(|Query(query)| query).unwrap_or_default();
    let frame = frame_path(query.frame_url.as_deref());
    match owner_viewer(&state, &headers).await {
        Ok(Some(viewer)) => {
            let screen = Screen {
                frame: &frame,
                range: &query.range,
                issued_key: None,
                error: None,
            };
            first_screen(&state, &viewer, &screen, StatusCode::OK).await
        }
        Ok(None) => markup::page(
            StatusCode::OK,
            "Sign in",
            &markup::sign_in_form(&frame, "", None),
        ),
        Err(error) => unavailable(&error),
    }
}

/// What the first screen shows besides the account's own lists.
pub(super) struct Screen<'a> {
    /// The preview frame's address.
    pub(super) frame: &'a str,
    /// The dashboard's range.
    pub(super) range: &'a RangeQuery,
    pub(super) issued_key: Option<&'a str>,
    pub(super) error: Option<&'a str>,
}

impl<'a> Screen<'a> {
    /// The screen after an action on the account itself: the site's root in the frame, the
    /// default range, and what the action has to say.
    pub(super) fn after_action(issued_key: Option<&'a str>, error: Option<&'a str>) -> Self {
        Self {
            frame: "/",
            range: &RangeQuery::DEFAULT,
            issued_key,
            error,
        }
    }
}

/// The first screen of a signed-in owner: the preview of the site with the dashboard under
/// it, then the account's sessions and API keys.
pub(super) async fn first_screen(
    state: &AppState,
    viewer: &OwnerViewer,
    screen: &Screen<'_>,
    status: StatusCode,
) -> Response {
    let Screen {
        frame,
        range,
        issued_key,
        error,
    } = *screen;
    if !role_permits(viewer.owner.role, PermissionCode::Config) {
        return markup::page(
            StatusCode::FORBIDDEN,
            "No access",
            &markup::no_access(viewer),
        );
    }
    let sessions = match state.owners.sessions(&viewer.owner.id, now()).await {
        Ok(sessions) => sessions,
        Err(error) => return unavailable(&error),
    };
    let keys = match state.owners.api_keys(&viewer.owner.id).await {
        Ok(keys) => keys,
        Err(error) => return unavailable(&error),
    };
    let second_factor = second_factor::section(viewer, &second_factor::issuer(state).await);
    let (dashboard_status, dashboard) =
        dashboard::config_section(state, viewer.owner.role, range, frame).await;
    let status = if status == StatusCode::OK {
        dashboard_status
    } else {
        status
    };
    markup::page_with_head(
        status,
        "Your site",
        &dashboard::head(state),
        &markup::first_screen(&FirstScreen {
            viewer,
            frame_url: frame,
            dashboard: &dashboard,
            sessions: &sessions,
            keys: &keys,
            issued_key,
            error,
            second_factor: &second_factor,
        }),
    )
}

pub(super) fn client(parts: &Parts, state: &AppState) -> String {
    ClientAddress::of(parts, state.config.trusted_proxies)
        .bucket()
        .unwrap_or_else(|| "unknown".to_owned())
}

fn user_agent(headers: &HeaderMap) -> &str {
    headers
        .get(USER_AGENT)
        .and_then(|value| value.to_str().ok())
        .unwrap_or("Unknown browser")
}

/// A new session's answer: its cookies and a redirect to the first screen.
fn signed_in(state: &AppState, signed_in: &OwnerSignedIn, frame: &str) -> Response {
    let location = vitrine_core::owners::config_url(frame);
    with_cookies(
        see_other(&location),
        &session_cookies(state, signed_in.token.as_str(), OWNER_SESSION_SECONDS),
    )
}

/// `POST /config/sign-in`: signs in, or shows the form again with why not.
async fn sign_in(State(state): State<AppState>, parts: Parts, body: Bytes) -> Response {
    let fields = form(&body);
    let email = field(&fields, "email").unwrap_or_default();
    let frame = frame_path(field(&fields, "frameUrl"));
    let outcome = state
        .owners
        .sign_in(
            email,
            field(&fields, "password").unwrap_or_default(),
            field(&fields, "code"),
            &client(&parts, &state),
            user_agent(&parts.headers),
            now(),
        )
        .await;
    let refusal = |status: StatusCode, error: &OwnerSignInError| {
        markup::page(
            status,
            "Sign in",
            &markup::sign_in_form(&frame, email, Some(&error.to_string())),
        )
    };
    match outcome {
        Ok(session) => signed_in(&state, &session, &frame),
        Err(error @ OwnerSignInError::RateLimited(after)) => {
            let mut response = refusal(StatusCode::TOO_MANY_REQUESTS, &error);
            if let Ok(value) = HeaderValue::from_str(&after.0.to_string()) {
                response.headers_mut().insert(RETRY_AFTER, value);
            }
            response
        }
        Err(OwnerSignInError::Unavailable(error)) => unavailable(&error),
        Err(error) => refusal(StatusCode::UNAUTHORIZED, &error),
    }
}

#[derive(Debug, Default, serde::Deserialize)]
struct SetupQuery {
    token: Option<String>,
}

const INVALID_LINK: &str = "This setup link is invalid or has expired.";

/// `GET /config/setup?token=`: the password form of a live setup link.
async fn setup_page(
    State(state): State<AppState>,
    query: Result<Query<SetupQuery>, QueryRejection>,
) -> Response {
    let token = query
        .ok()
        .and_then(|Query(query)| query.token)
        .unwrap_or_default();
    match state.owners.setup_owner(&token, now()).await {
        Ok(Some(owner)) => markup::page(
            StatusCode::OK,
            "Choose your password",
            &markup::setup_form(&token, owner.email.as_str(), None),
        ),
        Ok(None) => markup::page(
            StatusCode::NOT_FOUND,
            "Setup link",
            &format!(
                "<main><h1>Setup link</h1>{}</main>",
                markup::alert(Some(INVALID_LINK))
            ),
        ),
        Err(error) => unavailable(&error),
    }
}

/// `POST /config/setup`: sets the password and signs in.
async fn setup(State(state): State<AppState>, parts: Parts, body: Bytes) -> Response {
    let fields = form(&body);
    let token = field(&fields, "token").unwrap_or_default();
    let outcome = state
        .owners
        .complete_setup(
            token,
            field(&fields, "password").unwrap_or_default(),
            user_agent(&parts.headers),
            now(),
        )
        .await;
    match outcome {
        Ok(session) => signed_in(&state, &session, "/"),
        Err(SetupError::Unavailable(error)) => unavailable(&error),
        Err(SetupError::InvalidOrExpired) => markup::page(
            StatusCode::NOT_FOUND,
            "Setup link",
            &format!(
                "<main><h1>Setup link</h1>{}</main>",
                markup::alert(Some(INVALID_LINK))
            ),
        ),
        Err(error) => {
            let email = match state.owners.setup_owner(token, now()).await {
                Ok(owner) => owner
                    .map(|owner| owner.email.to_string())
                    .unwrap_or_default(),
                Err(error) => return unavailable(&error),
            };
            markup::page(
                StatusCode::BAD_REQUEST,
                "Choose your password",
                &markup::setup_form(token, &email, Some(&error.to_string())),
            )
        }
    }
}

/// The signed-in owner of a posted form that repeats the session's CSRF token; otherwise
/// the answer to give (the sign-in form, or 403).
pub(super) async fn acting_owner(
    state: &AppState,
    headers: &HeaderMap,
    fields: &[(String, String)],
) -> Result<OwnerViewer, Response> {
    let viewer = match owner_viewer(state, headers).await {
        Ok(Some(viewer)) => viewer,
        Ok(None) => return Err(see_other("/config/")),
        Err(error) => return Err(unavailable(&error)),
    };
    let given = field(fields, "csrf").unwrap_or_default();
    if !same_secret(given.as_bytes(), viewer.session.csrf_token.as_bytes()) {
        return Err(markup::page(
            StatusCode::FORBIDDEN,
            "Not verified",
            &format!(
                "<main><h1>Not verified</h1>{}<p><a href=\"/config/\">Back to the owner area</a></p></main>",
                markup::alert(Some(super::calls::CSRF_REFUSED))
            ),
        ));
    }
    Ok(viewer)
}

/// `POST /config/sign-out`: ends this browser's session and goes to the site (or the
/// preview frame's page) with `logout=true`, where the notice of 000 s2 appears.
async fn sign_out(State(state): State<AppState>, parts: Parts, body: Bytes) -> Response {
    let fields = form(&body);
    let viewer = match acting_owner(&state, &parts.headers, &fields).await {
        Ok(viewer) => viewer,
        Err(response) => return response,
    };
    if let Err(error) = state
        .owners
        .end_session(&viewer.owner.id, &viewer.session.id)
        .await
    {
        return unavailable(&error);
    }
    let target = super::calls::after_logout(&frame_path(field(&fields, "frameUrl")));
    with_cookies(see_other(&target), &expired_session_cookies(&state))
}

/// `POST /config/sessions/revoke`: signs another browser of the account out.
async fn revoke_session(State(state): State<AppState>, parts: Parts, body: Bytes) -> Response {
    let fields = form(&body);
    let viewer = match acting_owner(&state, &parts.headers, &fields).await {
        Ok(viewer) => viewer,
        Err(response) => return response,
    };
    let id = field(&fields, "id").unwrap_or_default();
    match state.owners.end_session(&viewer.owner.id, id).await {
        Ok(_) => see_other("/config/"),
        Err(error) => unavailable(&error),
    }
}

/// `POST /config/api-keys`: issues a key and shows it once.
async fn create_key(State(state): State<AppState>, parts: Parts, body: Bytes) -> Response {
    let fields = form(&body);
    let viewer = match acting_owner(&state, &parts.headers, &fields).await {
        Ok(viewer) => viewer,
        Err(response) => return response,
    };
    let mut scopes = Vec::new();
    for (_, value) in fields.iter().filter(|(name, _)| name == "scope") {
        match value.parse::<u16>().ok().map(PermissionCode::from_code) {
            Some(Ok(scope)) => scopes.push(scope),
            _ => {
                let error = format!("{value:?} is not a permission code.");
                return first_screen(
                    &state,
                    &viewer,
                    &Screen::after_action(None, Some(&error)),
                    StatusCode::BAD_REQUEST,
                )
                .await;
            }
        }
    }
    let name = field(&fields, "name").unwrap_or_default();
    match state
        .owners
        .create_api_key(&viewer.owner, name, &scopes, now())
        .await
    {
        Ok(issued) => {
            first_screen(
                &state,
                &viewer,
                &Screen::after_action(Some(&issued.secret), None),
                StatusCode::CREATED,
            )
            .await
        }
        Err(ApiKeyError::Unavailable(error)) => unavailable(&error),
        Err(error @ ApiKeyError::ScopeNotHeld(_)) => {
            first_screen(
                &state,
                &viewer,
                &Screen::after_action(None, Some(&error.to_string())),
                StatusCode::FORBIDDEN,
            )
            .await
        }
        Err(error) => {
            first_screen(
                &state,
                &viewer,
                &Screen::after_action(None, Some(&error.to_string())),
                StatusCode::BAD_REQUEST,
            )
            .await
        }
    }
}

/// `POST /config/api-keys/revoke`: revokes one of the account's keys.
async fn revoke_key(State(state): State<AppState>, parts: Parts, body: Bytes) -> Response {
    let fields = form(&body);
    let viewer = match acting_owner(&state, &parts.headers, &fields).await {
        Ok(viewer) => viewer,
        Err(response) => return response,
    };
    let id = field(&fields, "id").unwrap_or_default();
    match state.owners.revoke_api_key(&viewer.owner.id, id).await {
        Ok(_) => see_other("/config/"),
        Err(error) => unavailable(&error),
    }
}

#[cfg(test)]
mod tests {
    use super::frame_path;

    #[test]
    fn the_preview_frames_only_paths_of_this_site() {
        assert_eq!(frame_path(Some("/shop?q=1")), "/shop?q=1");
        assert_eq!(frame_path(Some("//evil.example/")), "/");
        assert_eq!(frame_path(Some("https://evil.example/")), "/");
        assert_eq!(frame_path(Some("/\\evil.example")), "/");
        assert_eq!(frame_path(None), "/");
    }
}
