//! Descriptions of the site-user calls (001 s3, s7). A signed-in browser holds the session
//! cookie (`__Host-siteuser` over TLS, `siteuser` over plain HTTP); its state-changing calls
//! repeat the session's XSRF token in `X-SiteUser-XSRF-Token`.

#![allow(dead_code)]

use serde::Deserialize;
use utoipa::ToSchema;

use super::schemas::ErrorAnswer;

#[derive(ToSchema, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SignInBody {
    pub email: String,
    pub password: String,
    /// Keep the session for 30 days instead of the browser session.
    #[schema(required = false)]
    pub remember_me: bool,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct SignedIn {
    /// Sent back as `X-SiteUser-XSRF-Token` on every later state-changing call.
    pub xsrf_token: String,
}

#[derive(ToSchema, Deserialize)]
pub struct CredentialsBody {
    pub email: String,
    /// At least 8 characters.
    pub password: String,
}

#[derive(ToSchema, Deserialize)]
pub struct EmailBody {
    pub email: String,
}

#[derive(ToSchema, Deserialize)]
pub struct TokenBody {
    /// The token of the mailed link.
    pub token: String,
}

#[derive(ToSchema, Deserialize)]
pub struct NewPasswordBody {
    pub token: String,
    pub password: String,
}

#[derive(ToSchema)]
pub struct CheckYourEmail {
    pub message: String,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct AccountAnswer {
    pub id: String,
    pub email: String,
    /// The member areas the account may enter now: a paid one only while a subscription to
    /// one of its plans is active or past due.
    pub member_areas: Vec<String>,
}

/// Signs in; the session cookie comes with the answer.
#[utoipa::path(
    post,
    path = "/api/site-users/account/session",
    tag = "site users",
    request_body(content = SignInBody, content_type = "application/json"),
    responses(
        (status = 200, description = "Signed in", body = SignedIn),
        (status = 400, description = "The body is not a sign-in request", body = ErrorAnswer),
        (status = 401, description = "The email or password is incorrect (the same answer for an unknown address)", body = ErrorAnswer),
        (status = 403, description = "The address is not confirmed yet", body = ErrorAnswer),
        (status = 429, description = "Too many attempts for this account or client; see `Retry-After`", body = ErrorAnswer),
    ),
)]
fn sign_in() {}

/// Signs out; without `cloneCart` the browser's cart cookie is cleared too.
#[utoipa::path(
    delete,
    path = "/api/site-users/account/session",
    tag = "site users",
    params(("cloneCart" = Option<bool>, Query, description = "Keep a copy of the cart in this browser")),
    responses(
        (status = 204, description = "Signed out"),
        (status = 400, description = "`cloneCart` is neither `true` nor `false`", body = ErrorAnswer),
        (status = 401, description = "Not signed in", body = ErrorAnswer),
        (status = 403, description = "`X-SiteUser-XSRF-Token` is missing or wrong", body = ErrorAnswer),
    ),
)]
fn sign_out() {}

/// The signed-in user's account.
#[utoipa::path(
    get,
    path = "/api/site-users/account",
    tag = "site users",
    responses(
        (status = 200, description = "The account", body = AccountAnswer),
        (status = 401, description = "Not signed in", body = ErrorAnswer),
    ),
)]
fn account() {}

/// Signs up and mails a confirmation link; the same answer when the address has an account.
#[utoipa::path(
    post,
    path = "/api/site-users/account",
    tag = "site users",
    request_body(content = CredentialsBody, content_type = "application/json"),
    responses(
        (status = 202, description = "Check your email", body = CheckYourEmail),
        (status = 400, description = "The address or password is not acceptable", body = ErrorAnswer),
    ),
)]
fn sign_up() {}

/// Erases the account, its sessions and saved data.
#[utoipa::path(
    delete,
    path = "/api/site-users/account",
    tag = "site users",
    responses(
        (status = 204, description = "Deleted and signed out"),
        (status = 401, description = "Not signed in", body = ErrorAnswer),
        (status = 403, description = "`X-SiteUser-XSRF-Token` is missing or wrong", body = ErrorAnswer),
    ),
)]
fn delete_account() {}

/// Confirms a new account's address from its mailed link.
#[utoipa::path(
    post,
    path = "/api/site-users/account/confirm",
    tag = "site users",
    request_body(content = TokenBody, content_type = "application/json"),
    responses(
        (status = 200, description = "Confirmed"),
        (status = 400, description = "The link is invalid or has expired", body = ErrorAnswer),
    ),
)]
fn confirm() {}

/// Mails a password reset link; the same answer when the address has no account.
#[utoipa::path(
    post,
    path = "/api/site-users/account/password-reset",
    tag = "site users",
    request_body(content = EmailBody, content_type = "application/json"),
    responses(
        (status = 202, description = "Check your email", body = CheckYourEmail),
        (status = 400, description = "Not an email address", body = ErrorAnswer),
    ),
)]
fn request_reset() {}

/// Sets a new password from a reset link; every session of the account ends.
#[utoipa::path(
    post,
    path = "/api/site-users/account/password",
    tag = "site users",
    request_body(content = NewPasswordBody, content_type = "application/json"),
    responses(
        (status = 200, description = "The password is set"),
        (status = 400, description = "The link is invalid or expired, or the password too short", body = ErrorAnswer),
    ),
)]
fn reset_password() {}

/// Mails a link to a new address that moves the account there.
#[utoipa::path(
    post,
    path = "/api/site-users/account/email",
    tag = "site users",
    request_body(content = EmailBody, content_type = "application/json"),
    responses(
        (status = 202, description = "Check your email", body = CheckYourEmail),
        (status = 400, description = "Not an email address", body = ErrorAnswer),
        (status = 403, description = "`X-SiteUser-XSRF-Token` is missing or wrong", body = ErrorAnswer),
    ),
)]
fn request_email_change() {}

/// Moves the account to the address the link was mailed to.
#[utoipa::path(
    post,
    path = "/api/site-users/account/email/confirm",
    tag = "site users",
    request_body(content = TokenBody, content_type = "application/json"),
    responses(
        (status = 200, description = "The address is changed"),
        (status = 400, description = "The link is invalid or has expired", body = ErrorAnswer),
        (status = 409, description = "Another account uses the address", body = ErrorAnswer),
    ),
)]
fn confirm_email_change() {}

/// Signs out everywhere: every session of the account ends.
#[utoipa::path(
    delete,
    path = "/api/site-users/account/sessions",
    tag = "site users",
    responses(
        (status = 204, description = "Every session ended"),
        (status = 401, description = "Not signed in", body = ErrorAnswer),
        (status = 403, description = "`X-SiteUser-XSRF-Token` is missing or wrong", body = ErrorAnswer),
    ),
)]
fn sign_out_everywhere() {}
