//! The site-user calls (001 s3, s7): signing in and out, signing up with a confirmed address,
//! password reset, email change, sign out everywhere and account deletion.
//!
//! Signing in answers `{"xsrfToken"}` and sets the session cookie: `HttpOnly`,
//! `SameSite=Lax`, `Secure` with the `__Host-` prefix over TLS (plain `siteuser` over plain
//! HTTP, as the crumb does), kept for the browser session or, with rememberMe, 30 days. Every
//! later state-changing call of a signed-in user repeats the token in
//! `X-SiteUser-XSRF-Token`, beside the crumb every state-changing call carries.

use std::sync::Arc;

use async_trait::async_trait;
use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::header::{CACHE_CONTROL, RETRY_AFTER, SET_COOKIE};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::json;
use vitrine_core::people::{
    MailRequestError, PasswordError, PasswordHasher, Passwords, REMEMBER_ME_SECONDS, RetryAfter,
    Secret, SecretSource, SignInError, SignUpError, TokenError, Unavailable, Viewer,
};

use crate::shared::client_address::ClientAddress;
use crate::shared::cookie_names::CART_COOKIE;
use crate::shared::paid_membership::join_areas_of_earlier_orders;
use crate::shared::route_table::Routes;
use crate::shared::viewer::{cookie_name, now, session_cookie, viewer};
use crate::{ApiError, AppState};

pub use crate::shared::viewer::{HOST_SESSION_COOKIE, SESSION_COOKIE};
/// The header that repeats the session's XSRF token.
pub const XSRF_HEADER: &str = "x-siteuser-xsrf-token";

pub const SESSION_PATH: &str = "/api/site-users/account/session";
pub const ACCOUNT_PATH: &str = "/api/site-users/account";
pub const CONFIRM_PATH: &str = "/api/site-users/account/confirm";
pub const RESET_REQUEST_PATH: &str = "/api/site-users/account/password-reset";
pub const PASSWORD_PATH: &str = "/api/site-users/account/password";
pub const EMAIL_PATH: &str = "/api/site-users/account/email";
pub const EMAIL_CONFIRM_PATH: &str = "/api/site-users/account/email/confirm";
pub const SESSIONS_PATH: &str = "/api/site-users/account/sessions";

/// What sign-up and a reset request answer, whether or not the address has an account.
pub const CHECK_YOUR_EMAIL: &str =
    "Check your email: if the address can be used, we sent it a link to continue.";
/// What a state-changing call without the session's XSRF token answers.
pub const XSRF_MISSING: &str = "Your sign-in could not be verified. Please reload the page.";
/// What a call that needs a signed-in user answers without one.
pub const SIGN_IN_REQUIRED: &str = "Please sign in.";

pub(crate) fn routes() -> Routes {
    Routes::new()
        .route(SESSION_PATH, post(sign_in).delete(sign_out))
        .route(
            ACCOUNT_PATH,
            get(account).post(sign_up).delete(delete_account),
        )
        .route(CONFIRM_PATH, post(confirm))
        .route(RESET_REQUEST_PATH, post(request_reset))
        .route(PASSWORD_PATH, post(reset_password))
        .route(EMAIL_PATH, post(request_email_change))
        .route(EMAIL_CONFIRM_PATH, post(confirm_email_change))
        .route(SESSIONS_PATH, delete(sign_out_everywhere))
}

/// Randomness for tokens, ids and salts from the operating system.
pub struct OsSecrets;

impl SecretSource for OsSecrets {
    fn secret(&self) -> Secret {
        let mut bytes = [0u8; 32];
        rand::fill(&mut bytes);
        Secret(bytes)
    }
}

/// argon2id on tokio's blocking threads, so a hash (tens of milliseconds at OWASP's cost)
/// never holds up an async worker.
pub struct BlockingPasswords(pub Arc<PasswordHasher>);

#[async_trait]
impl Passwords for BlockingPasswords {
    async fn hash(&self, password: String, salt: [u8; 16]) -> Result<String, PasswordError> {
        let hasher = self.0.clone();
        tokio::task::spawn_blocking(move || hasher.hash(&password, &salt))
            .await
            .map_err(|error| PasswordError::Hashing(error.to_string()))?
    }

    async fn verify(&self, password: String, stored: String) -> bool {
        let hasher = self.0.clone();
        tokio::task::spawn_blocking(move || hasher.verify(&password, &stored))
            .await
            .unwrap_or(false)
    }
}

fn unavailable(error: Unavailable) -> ApiError {
    ApiError::Unavailable(Box::new(error))
}

/// The viewer of a state-changing call: signed in, and repeating the session's XSRF token.
async fn acting_viewer(state: &AppState, headers: &HeaderMap) -> Result<Viewer, Response> {
    let viewer = viewer(state, headers)
        .await
        .map_err(|error| unavailable(error).into_response())?
        .ok_or_else(|| refusal(StatusCode::UNAUTHORIZED, SIGN_IN_REQUIRED))?;
    let given = headers
        .get(XSRF_HEADER)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default();
    if !crate::shared::request_parts::same_secret(
        given.as_bytes(),
        viewer.session.xsrf_token.as_bytes(),
    ) {
        return Err(refusal(StatusCode::FORBIDDEN, XSRF_MISSING));
    }
    Ok(viewer)
}

fn refusal(status: StatusCode, message: &str) -> Response {
    (status, no_store(), Json(json!({ "error": message }))).into_response()
}

fn no_store() -> [(axum::http::HeaderName, &'static str); 1] {
    [(CACHE_CONTROL, "no-store")]
}

fn too_many(RetryAfter(seconds): RetryAfter, message: &str) -> Response {
    let mut response = refusal(StatusCode::TOO_MANY_REQUESTS, message);
    if let Ok(value) = HeaderValue::from_str(&seconds.to_string()) {
        response.headers_mut().insert(RETRY_AFTER, value);
    }
    response
}

fn parse<T: DeserializeOwned>(body: &Bytes) -> Result<T, ApiError> {
    serde_json::from_slice(body)
        .map_err(|error| ApiError::BadRequest(format!("The request body is not valid: {error}")))
}

pub(super) fn client(parts: &Parts, state: &AppState) -> String {
    ClientAddress::of(parts, state.config.trusted_proxies)
        .bucket()
        .unwrap_or_else(|| "unknown".to_owned())
}

pub(super) fn set_cookie(response: &mut Response, cookie: &str) {
    if let Ok(value) = HeaderValue::from_str(cookie) {
        response.headers_mut().append(SET_COOKIE, value);
    }
}

pub(super) fn session_cookie_header(state: &AppState, token: &str, remember_me: bool) -> String {
    let secure = if state.config.secure_cookies {
        "; Secure"
    } else {
        ""
    };
    let lasting = if remember_me {
        format!("; Max-Age={REMEMBER_ME_SECONDS}")
    } else {
        String::new()
    };
    format!(
        "{}={token}; Path=/; HttpOnly; SameSite=Lax{secure}{lasting}",
        cookie_name(state)
    )
}

/// 204 with the session cookie removed.
pub(super) fn signed_out(state: &AppState) -> Response {
    let mut response = (StatusCode::NO_CONTENT, no_store()).into_response();
    set_cookie(
        &mut response,
        &expired_cookie_header(state, cookie_name(state)),
    );
    response
}

pub(super) fn expired_cookie_header(state: &AppState, name: &str) -> String {
    let secure = if state.config.secure_cookies {
        "; Secure"
    } else {
        ""
    };
    format!("{name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax{secure}")
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SignInBody {
    email: String,
    password: String,
    #[serde(default)]
    remember_me: bool,
}

/// `POST /api/site-users/account/session`.
async fn sign_in(State(state): State<AppState>, parts: Parts, body: Bytes) -> Response {
    let body: SignInBody = match parse(&body) {
        Ok(body) => body,
        Err(error) => return error.into_response(),
    };
    let previous =
        session_cookie(&state, &parts.headers).and_then(vitrine_core::people::BearerToken::parse);
    let outcome = state
        .people
        .sign_in(
            &body.email,
            &body.password,
            body.remember_me,
            previous.as_ref(),
            &client(&parts, &state),
            now(),
        )
        .await;
    match outcome {
        Ok(signed_in) => {
            let mut response = (
                StatusCode::OK,
                no_store(),
                Json(json!({ "xsrfToken": signed_in.session.xsrf_token })),
            )
                .into_response();
            let cookie = session_cookie_header(&state, signed_in.token.as_str(), body.remember_me);
            set_cookie(&mut response, &cookie);
            response
        }
        Err(SignInError::RateLimited(after)) => {
            too_many(after, &SignInError::RateLimited(after).to_string())
        }
        Err(error @ SignInError::InvalidCredentials) => {
            refusal(StatusCode::UNAUTHORIZED, &error.to_string())
        }
        Err(error @ SignInError::Unconfirmed) => refusal(StatusCode::FORBIDDEN, &error.to_string()),
        Err(SignInError::Unavailable(error)) => unavailable(error).into_response(),
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SignOutQuery {
    #[serde(default)]
    clone_cart: bool,
}

/// `DELETE /api/site-users/account/session?cloneCart=true|false`: ends the session. With
/// `cloneCart` the browser keeps the cart it had while signed in; without, its cart cookie
/// is cleared, so a shared computer does not show the next visitor the member's cart.
async fn sign_out(
    State(state): State<AppState>,
    query: Result<Query<SignOutQuery>, QueryRejection>,
    headers: HeaderMap,
) -> Response {
    let Query(query) = match query {
        Ok(query) => query,
        Err(_) => {
            return refusal(StatusCode::BAD_REQUEST, "cloneCart must be true or false");
        }
    };
    let viewer = match acting_viewer(&state, &headers).await {
        Ok(viewer) => viewer,
        Err(response) => return response,
    };
    if let Err(error) = state.people.sign_out_session(&viewer.session).await {
        return unavailable(error).into_response();
    }
    let mut response = signed_out(&state);
    if !query.clone_cart {
        set_cookie(&mut response, &expired_cookie_header(&state, CART_COOKIE));
    }
    response
}

#[derive(Deserialize)]
struct CredentialsBody {
    email: String,
    password: String,
}

/// `POST /api/site-users/account`: signs up; the same answer whether or not the address has
/// an account.
async fn sign_up(State(state): State<AppState>, parts: Parts, body: Bytes) -> Response {
    let body: CredentialsBody = match parse(&body) {
        Ok(body) => body,
        Err(error) => return error.into_response(),
    };
    let outcome = state
        .people
        .sign_up(&body.email, &body.password, &client(&parts, &state), now())
        .await;
    match outcome {
        Ok(()) => accepted(),
        Err(SignUpError::RateLimited(after)) => {
            too_many(after, &SignUpError::RateLimited(after).to_string())
        }
        Err(SignUpError::Unavailable(error)) => unavailable(error).into_response(),
        Err(error) => refusal(StatusCode::BAD_REQUEST, &error.to_string()),
    }
}

fn accepted() -> Response {
    (
        StatusCode::ACCEPTED,
        no_store(),
        Json(json!({ "message": CHECK_YOUR_EMAIL })),
    )
        .into_response()
}

#[derive(Deserialize)]
struct TokenBody {
    token: String,
}

fn token_refusal(error: TokenError) -> Response {
    match error {
        TokenError::Unavailable(error) => unavailable(error).into_response(),
        TokenError::EmailTaken => refusal(StatusCode::CONFLICT, &error.to_string()),
        other => refusal(StatusCode::BAD_REQUEST, &other.to_string()),
    }
}

/// `POST /api/site-users/account/confirm`: confirms a new account's address.
async fn confirm(State(state): State<AppState>, body: Bytes) -> Response {
    let body: TokenBody = match parse(&body) {
        Ok(body) => body,
        Err(error) => return error.into_response(),
    };
    match state.people.confirm_account(&body.token, now()).await {
        Ok(account) => {
            join_areas_of_earlier_orders(&state, &account).await;
            (
                StatusCode::OK,
                no_store(),
                Json(json!({ "confirmed": true })),
            )
                .into_response()
        }
        Err(error) => token_refusal(error),
    }
}

#[derive(Deserialize)]
struct EmailBody {
    email: String,
}

fn mail_request_refusal(error: MailRequestError) -> Response {
    match error {
        MailRequestError::RateLimited(after) => {
            too_many(after, &MailRequestError::RateLimited(after).to_string())
        }
        MailRequestError::Unavailable(error) => unavailable(error).into_response(),
        MailRequestError::InvalidEmail => refusal(StatusCode::BAD_REQUEST, &error.to_string()),
    }
}

/// `POST /api/site-users/account/password-reset`: mails a reset link.
async fn request_reset(State(state): State<AppState>, parts: Parts, body: Bytes) -> Response {
    let body: EmailBody = match parse(&body) {
        Ok(body) => body,
        Err(error) => return error.into_response(),
    };
    match state
        .people
        .request_password_reset(&body.email, &client(&parts, &state), now())
        .await
    {
        Ok(()) => accepted(),
        Err(error) => mail_request_refusal(error),
    }
}

#[derive(Deserialize)]
struct NewPasswordBody {
    token: String,
    password: String,
}

/// `POST /api/site-users/account/password`: sets a new password from a reset link.
async fn reset_password(State(state): State<AppState>, body: Bytes) -> Response {
    let body: NewPasswordBody = match parse(&body) {
        Ok(body) => body,
        Err(error) => return error.into_response(),
    };
    match state
        .people
        .reset_password(&body.token, &body.password, now())
        .await
    {
        Ok(_) => (StatusCode::OK, no_store(), Json(json!({ "reset": true }))).into_response(),
        Err(error) => token_refusal(error),
    }
}

/// `GET /api/site-users/account`: the signed-in user's account.
async fn account(State(state): State<AppState>, headers: HeaderMap) -> Response {
    match viewer(&state, &headers).await {
        Ok(Some(viewer)) => {
            let open =
                crate::shared::paid_membership::open_member_areas(&state, &viewer.account).await;
            (
                StatusCode::OK,
                no_store(),
                Json(json!({
                    "id": viewer.account.id.as_str(),
                    "email": viewer.account.email.as_str(),
                    "memberAreas": open,
                })),
            )
                .into_response()
        }
        Ok(None) => refusal(StatusCode::UNAUTHORIZED, SIGN_IN_REQUIRED),
        Err(error) => unavailable(error).into_response(),
    }
}

/// `POST /api/site-users/account/email`: mails a link to the new address.
async fn request_email_change(
    State(state): State<AppState>,
    parts: Parts,
    body: Bytes,
) -> Response {
    let viewer = match acting_viewer(&state, &parts.headers).await {
        Ok(viewer) => viewer,
        Err(response) => return response,
    };
    let body: EmailBody = match parse(&body) {
        Ok(body) => body,
        Err(error) => return error.into_response(),
    };
    match state
        .people
        .request_email_change(
            &viewer.account.id,
            &body.email,
            &client(&parts, &state),
            now(),
        )
        .await
    {
        Ok(()) => accepted(),
        Err(error) => mail_request_refusal(error),
    }
}

/// `POST /api/site-users/account/email/confirm`: moves the account to the new address.
async fn confirm_email_change(State(state): State<AppState>, body: Bytes) -> Response {
    let body: TokenBody = match parse(&body) {
        Ok(body) => body,
        Err(error) => return error.into_response(),
    };
    match state.people.confirm_email_change(&body.token, now()).await {
        Ok(account) => {
            join_areas_of_earlier_orders(&state, &account).await;
            (StatusCode::OK, no_store(), Json(json!({ "changed": true }))).into_response()
        }
        Err(error) => token_refusal(error),
    }
}

/// `DELETE /api/site-users/account/sessions`: signs out everywhere, this browser included.
async fn sign_out_everywhere(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let viewer = match acting_viewer(&state, &headers).await {
        Ok(viewer) => viewer,
        Err(response) => return response,
    };
    match state.people.sign_out_everywhere(&viewer.account.id).await {
        Ok(_) => signed_out(&state),
        Err(error) => unavailable(error).into_response(),
    }
}

/// `DELETE /api/site-users/account`: erases the account and signs out.
async fn delete_account(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let viewer = match acting_viewer(&state, &headers).await {
        Ok(viewer) => viewer,
        Err(response) => return response,
    };
    match state.people.delete_account(&viewer.account).await {
        Ok(_) => signed_out(&state),
        Err(error) => unavailable(error).into_response(),
    }
}
