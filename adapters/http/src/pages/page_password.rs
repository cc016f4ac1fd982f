//! `POST /page-password`: the lock screen's password form (page type 103), without
//! JavaScript. Outside `/api`, so the same-origin check guards it as it guards the other
//! no-JavaScript forms. A right password sets the collection's unlock cookie (HttpOnly, for
//! the browser session) and goes back to the page; a wrong one shows the lock screen again
//! with the reason; too many attempts answer 429 with `Retry-After`.
//!
//! Decision: the unlock cookie's path is `/`, not the collection's: the collection's items
//! live under its path, but the media files only it shows live under `/media/`, and they
//! open with the same password. What the cookie opens is scoped by its name and signature to
//! that one collection.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::header::{CACHE_CONTROL, LOCATION, RETRY_AFTER, SET_COOKIE};
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use vitrine_core::pages::unlock::{PAGE_PASSWORD_PATH, UnlockKey};
use vitrine_core::people::{PagePasswordError, RetryAfter};

use crate::AppState;
use crate::pages::published::refused_lock_screen;
use crate::shared::client_address::ClientAddress;
use crate::shared::route_table::Routes;
use crate::shared::viewer::{now, page_viewer, unlock_cookie_name};

/// What the lock screen says when the site cannot check a password just now.
const UNAVAILABLE: &str = "This is not available just now. Please try again in a moment.";

pub(crate) fn routes() -> Routes {
    Routes::new().route(PAGE_PASSWORD_PATH, post(enter))
}

async fn enter(State(state): State<AppState>, parts: Parts, body: Bytes) -> Response {
    let fields: Vec<(String, String)> = url::form_urlencoded::parse(&body).into_owned().collect();
    let field = |name: &str| {
        fields
            .iter()
            .find(|(key, _)| key == name)
            .map_or("", |(_, value)| value.as_str())
    };
    let return_to = local_path(field("return")).unwrap_or("/").to_owned();
    let viewer = page_viewer(&state, &parts.headers).await;
    let password = match state.pages.page_password(&return_to).await {
        Ok(Some(password)) => password,
        // Nothing there to unlock (the page is open, or gone): back to what it shows.
        Ok(None) => return see_other(&return_to),
        Err(error) => {
            tracing::error!(%error, "reading a page password failed");
            return refused_lock_screen(
                &state,
                &return_to,
                &viewer,
                UNAVAILABLE,
                StatusCode::SERVICE_UNAVAILABLE,
            )
            .await;
        }
    };
    let client = ClientAddress::of(&parts, state.config.trusted_proxies)
        .bucket()
        .unwrap_or_else(|| "unknown".to_owned());
    let outcome = state
        .people
        .enter_page_password(&password, field("password"), &client, now())
        .await;
    let (status, retry_after) = match &outcome {
        Ok(()) => {
            let mut response = see_other(&return_to);
            let token = UnlockKey::derived_from(&state.order_links).token(&password);
            let secure = if state.config.secure_cookies {
                "; Secure"
            } else {
                ""
            };
            let cookie = format!(
                "{}={token}; Path=/; HttpOnly; SameSite=Lax{secure}",
                unlock_cookie_name(&state, &password.collection)
            );
            if let Ok(value) = HeaderValue::from_str(&cookie) {
                response.headers_mut().append(SET_COOKIE, value);
            }
            return response;
        }
        Err(PagePasswordError::Wrong) => (StatusCode::FORBIDDEN, None),
        Err(PagePasswordError::RateLimited(RetryAfter(seconds))) => {
            (StatusCode::TOO_MANY_REQUESTS, Some(*seconds))
        }
        Err(PagePasswordError::Unavailable(error)) => {
            tracing::error!(%error, "checking a page password failed");
            (StatusCode::SERVICE_UNAVAILABLE, None)
        }
    };
    let refusal = match outcome {
        Err(PagePasswordError::Unavailable(_)) => UNAVAILABLE.to_owned(),
        Err(error) => error.to_string(),
        Ok(()) => String::new(),
    };
    let mut response = refused_lock_screen(&state, &return_to, &viewer, &refusal, status).await;
    if let Some(seconds) = retry_after
        && let Ok(value) = HeaderValue::from_str(&seconds.to_string())
    {
        response.headers_mut().insert(RETRY_AFTER, value);
    }
    response
}

/// `path` when it is an address on this site, so the form cannot send a visitor elsewhere.
fn local_path(path: &str) -> Option<&str> {
    (path.starts_with('/') && !path.starts_with("//") && !path.contains('\\')).then_some(path)
}

/// 303 to `location`: after a form post, a reload does not post again.
fn see_other(location: &str) -> Response {
    let mut response = (StatusCode::SEE_OTHER, [(CACHE_CONTROL, "no-store")]).into_response();
    if let Ok(value) = HeaderValue::from_str(location) {
        response.headers_mut().insert(LOCATION, value);
    }
    response
}
