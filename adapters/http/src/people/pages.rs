//! The site-user pages that work without JavaScript: sign in, sign up, the confirmation
//! of a mailed link, and the password reset (asking for a link, then setting a password).
//! Each form posts here, outside `/api`, so the same-origin check guards it; the answers
//! are the same as the JSON calls' (the same service, the same texts), as pages.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::request::Parts;
use axum::http::{StatusCode, Uri};
use axum::response::Response;
use axum::routing::get;
use vitrine_core::people::{
    ACCOUNT_PAGE_PATH, CONFIRM_ACCOUNT_PATH, MailRequestError, RESET_PASSWORD_PATH,
    RESET_REQUEST_PAGE_PATH, SIGN_IN_PATH, SIGN_UP_PATH, SignInError, SignUpError, TokenError,
};

use super::forms::{
    Posted, form_page, query_value, return_query, see_other, signed_in, with_return,
};
use super::site_users::{CHECK_YOUR_EMAIL, client, session_cookie_header, set_cookie};
use crate::AppState;
use crate::render::people_pages::{FormMain, Input, Link, Notice};
use crate::shared::paid_membership::join_areas_of_earlier_orders;
use crate::shared::route_table::Routes;
use crate::shared::viewer::{now, session_cookie};

/// What the confirmation page says once the address is confirmed.
pub const ACCOUNT_CONFIRMED: &str = "Your email address is confirmed. You can sign in now.";
/// What the reset page says once the new password is set.
pub const PASSWORD_CHANGED: &str = "Your password has been changed. Please sign in.";

pub(crate) fn routes() -> Routes {
    Routes::new()
        .route(SIGN_IN_PATH, get(sign_in_page).post(sign_in))
        .route(SIGN_UP_PATH, get(sign_up_page).post(sign_up))
        .route(CONFIRM_ACCOUNT_PATH, get(confirm_page).post(confirm))
        .route(
            RESET_REQUEST_PAGE_PATH,
            get(reset_request_page).post(request_reset),
        )
        .route(RESET_PASSWORD_PATH, get(reset_page).post(reset))
}

fn sign_in_link(return_to: Option<&str>) -> Link {
    Link {
        href: with_return(SIGN_IN_PATH, return_to),
        text: "Sign in",
    }
}

/// The sign-in form, filled with `email`, coming back to `return_to`.
pub(super) fn sign_in_form(
    email: &str,
    return_to: Option<&str>,
    notice: Option<Notice>,
) -> FormMain {
    FormMain {
        id: "sign-in",
        heading: "Sign in",
        intro: None,
        notice,
        action: Some(SIGN_IN_PATH.to_owned()),
        inputs: vec![
            Input::email(email),
            Input::password("current-password"),
            Input::remember_me(),
        ],
        hidden: vec![("return", return_to.unwrap_or(ACCOUNT_PAGE_PATH).to_owned())],
        submit: "Sign in",
        links: vec![
            Link {
                href: with_return(SIGN_UP_PATH, return_to),
                text: "Create an account",
            },
            Link {
                href: RESET_REQUEST_PAGE_PATH.to_owned(),
                text: "Forgot your password?",
            },
        ],
    }
}

/// The sign-up form, filled with `email`.
pub(super) fn sign_up_form(
    email: &str,
    return_to: Option<&str>,
    notice: Option<Notice>,
) -> FormMain {
    FormMain {
        id: "sign-up",
        heading: "Create an account",
        intro: Some("We will email you a link to confirm your address."),
        notice,
        action: Some(SIGN_UP_PATH.to_owned()),
        inputs: vec![Input::email(email), Input::password("new-password")],
        hidden: Vec::new(),
        submit: "Create account",
        links: vec![sign_in_link(return_to)],
    }
}

async fn sign_in_page(State(state): State<AppState>, parts: Parts) -> Response {
    let viewer = match signed_in(&state, &parts.headers).await {
        Ok(viewer) => viewer,
        Err(response) => return response,
    };
    let return_to = return_query(parts.uri.query());
    if viewer.is_some() {
        return see_other(return_to.as_deref().unwrap_or(ACCOUNT_PAGE_PATH));
    }
    let form = sign_in_form("", return_to.as_deref(), None);
    form_page(&state, (SIGN_IN_PATH, "Sign in"), StatusCode::OK, form).await
}

/// `POST /account/sign-in`: signs in, sets the session cookie and goes back where the
/// visitor came from; a refusal shows the form again with the reason.
async fn sign_in(State(state): State<AppState>, parts: Parts, body: Bytes) -> Response {
    let posted = Posted::parse(&body);
    let email = posted.field("email");
    let remember_me = posted.field("rememberMe") == "true";
    let previous =
        session_cookie(&state, &parts.headers).and_then(vitrine_core::people::BearerToken::parse);
    let outcome = state
        .people
        .sign_in(
            email,
            posted.field("password"),
            remember_me,
            previous.as_ref(),
            &client(&parts, &state),
            now(),
        )
        .await;
    let status = match &outcome {
        Ok(signed_in) => {
            let mut response = see_other(&posted.return_to(ACCOUNT_PAGE_PATH));
            let cookie = session_cookie_header(&state, signed_in.token.as_str(), remember_me);
            set_cookie(&mut response, &cookie);
            return response;
        }
        Err(SignInError::InvalidCredentials) => StatusCode::UNAUTHORIZED,
        Err(SignInError::Unconfirmed) => StatusCode::FORBIDDEN,
        Err(SignInError::RateLimited(_)) => StatusCode::TOO_MANY_REQUESTS,
        Err(SignInError::Unavailable(error)) => {
            tracing::error!(%error, "signing in failed");
            StatusCode::SERVICE_UNAVAILABLE
        }
    };
    let message = outcome.err().map(|error| match error {
        SignInError::Unavailable(_) => UNAVAILABLE.to_owned(),
        error => error.to_string(),
    });
    let return_to = posted.return_to(ACCOUNT_PAGE_PATH);
    let form = sign_in_form(email, Some(&return_to), message.map(Notice::error));
    form_page(&state, (SIGN_IN_PATH, "Sign in"), status, form).await
}

/// What a page says when a store is away.
const UNAVAILABLE: &str = "This is not available just now. Please try again in a moment.";

async fn sign_up_page(State(state): State<AppState>, uri: Uri) -> Response {
    let return_to = return_query(uri.query());
    let form = sign_up_form("", return_to.as_deref(), None);
    form_page(
        &state,
        (SIGN_UP_PATH, "Create an account"),
        StatusCode::OK,
        form,
    )
    .await
}

/// `POST /account/sign-up`: the same answer whether or not the address has an account.
async fn sign_up(State(state): State<AppState>, parts: Parts, body: Bytes) -> Response {
    let posted = Posted::parse(&body);
    let email = posted.field("email");
    let outcome = state
        .people
        .sign_up(
            email,
            posted.field("password"),
            &client(&parts, &state),
            now(),
        )
        .await;
    let heading = (SIGN_UP_PATH, "Create an account");
    let (status, notice) = match outcome {
        Ok(()) => {
            let main = FormMain::message(
                "Create an account",
                Notice::info(CHECK_YOUR_EMAIL),
                vec![sign_in_link(None)],
            );
            return form_page(&state, heading, StatusCode::ACCEPTED, main).await;
        }
        Err(error @ SignUpError::RateLimited(_)) => {
            (StatusCode::TOO_MANY_REQUESTS, error.to_string())
        }
        Err(SignUpError::Unavailable(error)) => {
            tracing::error!(%error, "signing up failed");
            (StatusCode::SERVICE_UNAVAILABLE, UNAVAILABLE.to_owned())
        }
        Err(error) => (StatusCode::BAD_REQUEST, error.to_string()),
    };
    let form = sign_up_form(email, None, Some(Notice::error(notice)));
    form_page(&state, heading, status, form).await
}

/// A page with one button that posts the mailed token: a mail scanner that follows the link
/// does not use it up.
fn token_form(
    id: &'static str,
    heading: &'static str,
    action: &str,
    token: &str,
    inputs: Vec<Input>,
    submit: &'static str,
    notice: Option<Notice>,
) -> FormMain {
    FormMain {
        id,
        heading,
        intro: None,
        notice,
        action: Some(action.to_owned()),
        inputs,
        hidden: vec![("token", token.to_owned())],
        submit,
        links: Vec::new(),
    }
}

async fn confirm_page(State(state): State<AppState>, uri: Uri) -> Response {
    let token = query_value(uri.query(), "token");
    let form = token_form(
        "confirm",
        "Confirm your email address",
        CONFIRM_ACCOUNT_PATH,
        &token,
        Vec::new(),
        "Confirm my address",
        None,
    );
    form_page(
        &state,
        (CONFIRM_ACCOUNT_PATH, "Confirm your email address"),
        StatusCode::OK,
        form,
    )
    .await
}

fn token_status(error: &TokenError) -> (StatusCode, String) {
    match error {
        TokenError::Unavailable(cause) => {
            tracing::error!(error = %cause, "using a mailed link failed");
            (StatusCode::SERVICE_UNAVAILABLE, UNAVAILABLE.to_owned())
        }
        TokenError::EmailTaken => (StatusCode::CONFLICT, error.to_string()),
        other => (StatusCode::BAD_REQUEST, other.to_string()),
    }
}

/// `POST /account/confirm`: confirms the address the link was mailed to.
async fn confirm(State(state): State<AppState>, body: Bytes) -> Response {
    let posted = Posted::parse(&body);
    let heading = (CONFIRM_ACCOUNT_PATH, "Confirm your email address");
    let (status, notice) = match state
        .people
        .confirm_account(posted.field("token"), now())
        .await
    {
        Ok(account) => {
            join_areas_of_earlier_orders(&state, &account).await;
            (StatusCode::OK, Notice::info(ACCOUNT_CONFIRMED))
        }
        Err(error) => {
            let (status, text) = token_status(&error);
            (status, Notice::error(text))
        }
    };
    let main = FormMain::message(heading.1, notice, vec![sign_in_link(None)]);
    form_page(&state, heading, status, main).await
}

fn reset_request_form(email: &str, notice: Option<Notice>) -> FormMain {
    FormMain {
        id: "reset",
        heading: "Reset your password",
        intro: Some("Enter your email and we will send you a link to choose a new password."),
        notice,
        action: Some(RESET_REQUEST_PAGE_PATH.to_owned()),
        inputs: vec![Input::email(email)],
        hidden: Vec::new(),
        submit: "Send the link",
        links: vec![sign_in_link(None)],
    }
}

async fn reset_request_page(State(state): State<AppState>) -> Response {
    form_page(
        &state,
        (RESET_REQUEST_PAGE_PATH, "Reset your password"),
        StatusCode::OK,
        reset_request_form("", None),
    )
    .await
}

/// `POST /account/forgot-password`: the same answer whether or not the address has an
/// account.
async fn request_reset(State(state): State<AppState>, parts: Parts, body: Bytes) -> Response {
    let posted = Posted::parse(&body);
    let email = posted.field("email");
    let outcome = state
        .people
        .request_password_reset(email, &client(&parts, &state), now())
        .await;
    let heading = (RESET_REQUEST_PAGE_PATH, "Reset your password");
    let (status, text) = match outcome {
        Ok(()) => {
            let main = FormMain::message(
                heading.1,
                Notice::info(CHECK_YOUR_EMAIL),
                vec![sign_in_link(None)],
            );
            return form_page(&state, heading, StatusCode::ACCEPTED, main).await;
        }
        Err(error @ MailRequestError::RateLimited(_)) => {
            (StatusCode::TOO_MANY_REQUESTS, error.to_string())
        }
        Err(error @ MailRequestError::InvalidEmail) => (StatusCode::BAD_REQUEST, error.to_string()),
        Err(MailRequestError::Unavailable(error)) => {
            tracing::error!(%error, "asking for a reset link failed");
            (StatusCode::SERVICE_UNAVAILABLE, UNAVAILABLE.to_owned())
        }
    };
    let form = reset_request_form(email, Some(Notice::error(text)));
    form_page(&state, heading, status, form).await
}

fn new_password_form(token: &str, notice: Option<Notice>) -> FormMain {
    token_form(
        "new-password",
        "Choose a new password",
        RESET_PASSWORD_PATH,
        token,
        vec![Input::password("new-password")],
        "Set the password",
        notice,
    )
}

async fn reset_page(State(state): State<AppState>, uri: Uri) -> Response {
    let token = query_value(uri.query(), "token");
    form_page(
        &state,
        (RESET_PASSWORD_PATH, "Choose a new password"),
        StatusCode::OK,
        new_password_form(&token, None),
    )
    .await
}

/// `POST /account/reset`: sets the new password; every session of the account ends.
async fn reset(State(state): State<AppState>, body: Bytes) -> Response {
    let posted = Posted::parse(&body);
    let token = posted.field("token");
    let heading = (RESET_PASSWORD_PATH, "Choose a new password");
    match state
        .people
        .reset_password(token, posted.field("password"), now())
        .await
    {
        Ok(_) => {
            let main = FormMain::message(
                heading.1,
                Notice::info(PASSWORD_CHANGED),
                vec![sign_in_link(None)],
            );
            form_page(&state, heading, StatusCode::OK, main).await
        }
        Err(error) => {
            let (status, text) = token_status(&error);
            let form = new_password_form(token, Some(Notice::error(text)));
            form_page(&state, heading, status, form).await
        }
    }
}
