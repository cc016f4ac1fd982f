//! The newsletter pages a subscriber reaches from a mail: the double opt-in confirmation and
//! the unsubscribe page (page type 300). Both work without JavaScript: following the link
//! shows a page with one button, and the button's POST does the change.
//!
//! Decision: a GET never changes anything, because mail scanners and link previews open links
//! on their own; only the POST does. The POST needs no crumb or same-origin check: the token
//! in the link is the proof, and mail clients send the RFC 8058 one-click unsubscribe POST
//! from outside the site.

use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::header::CACHE_CONTROL;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use vitrine_core::enums::PageType;
use vitrine_core::forms::channels::{CONFIRM_PATH, UNSUBSCRIBE_PATH};
use vitrine_core::forms::newsletter::texts;
use vitrine_core::forms::{NewsletterService, Subscriber, TokenOutcome};

use crate::AppState;
use crate::forms::calls::now;
use crate::shared::request_parts::escape_html as escape;
use crate::shared::route_table::Routes;

pub(crate) fn routes() -> Routes {
    Routes::new()
        .route(UNSUBSCRIBE_PATH, get(unsubscribe_page).post(unsubscribe))
        .route(CONFIRM_PATH, get(confirm_page).post(confirm))
}

#[derive(Debug, Default, serde::Deserialize)]
pub(crate) struct TokenQuery {
    token: Option<String>,
}

/// The token from the link's query or, for the page's own form, from the posted body.
fn token(query: &TokenQuery, body: &[u8]) -> String {
    query.token.clone().unwrap_or_else(|| {
        url::form_urlencoded::parse(body)
            .find(|(name, _)| name == "token")
            .map(|(_, value)| value.into_owned())
            .unwrap_or_default()
    })
}

/// A complete small page for one subscriber: never cached, never indexed.
fn page(status: StatusCode, page_type: Option<PageType>, title: &str, body: &str) -> Response {
    let page_type = page_type
        .map(|page_type| format!(" data-page-type=\"{}\"", page_type.code()))
        .unwrap_or_default();
    let html = format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"robots\" content=\"noindex\"><title>{title}</title></head>\
         <body{page_type}><main class=\"newsletter-page\"><h1>{title}</h1>{body}\
         <p><a href=\"/\">Go to the home page</a></p></main></body></html>",
        title = escape(title),
    );
    (status, [(CACHE_CONTROL, "no-store")], Html(html)).into_response()
}

fn paragraph(text: &str) -> String {
    format!("<p role=\"status\">{}</p>", escape(text))
}

/// The form with the one button; the token travels in the action and in the body.
fn button_form(path: &str, token: &str, prompt: &str, button: &str) -> String {
    format!(
        "<form method=\"post\" action=\"{path}?token={token}\"><p>{prompt}</p>\
         <input type=\"hidden\" name=\"token\" value=\"{token}\">\
         <button type=\"submit\">{button}</button></form>",
        token = escape(token),
        prompt = prompt,
        button = escape(button),
    )
}

fn invalid(page_type: Option<PageType>, title: &str) -> Response {
    page(
        StatusCode::NOT_FOUND,
        page_type,
        title,
        &paragraph(texts::INVALID_LINK),
    )
}

fn unavailable(error: vitrine_core::ports::RepositoryError) -> Response {
    tracing::error!(%error, "a newsletter page could not read the subscribers");
    page(
        StatusCode::INTERNAL_SERVER_ERROR,
        None,
        "Please try again",
        &paragraph("This page is not available right now. Please try again in a few minutes."),
    )
}

fn service(state: &AppState) -> Option<&NewsletterService> {
    state.newsletter.as_deref()
}

const UNSUBSCRIBE: Option<PageType> = Some(PageType::NewsletterUnsubscribe);

async fn unsubscribe_page(
    State(state): State<AppState>,
    Query(query): Query<TokenQuery>,
) -> Response {
    let title = texts::UNSUBSCRIBE_TITLE;
    let Some(newsletter) = service(&state) else {
        return invalid(UNSUBSCRIBE, title);
    };
    let token = token(&query, &[]);
    match newsletter.subscriber(&token).await {
        Ok(Some(Subscriber {
            unsubscribed: true, ..
        })) => page(
            StatusCode::OK,
            UNSUBSCRIBE,
            title,
            &paragraph(texts::UNSUBSCRIBED),
        ),
        Ok(Some(subscriber)) => {
            let prompt = format!(
                "{} <strong>{}</strong>.",
                escape(texts::UNSUBSCRIBE_PROMPT),
                escape(&subscriber.email)
            );
            let form = button_form(UNSUBSCRIBE_PATH, &token, &prompt, texts::UNSUBSCRIBE_BUTTON);
            page(StatusCode::OK, UNSUBSCRIBE, title, &form)
        }
        Ok(None) => invalid(UNSUBSCRIBE, title),
        Err(error) => unavailable(error),
    }
}

async fn unsubscribe(
    State(state): State<AppState>,
    Query(query): Query<TokenQuery>,
    body: Bytes,
) -> Response {
    let title = texts::UNSUBSCRIBE_TITLE;
    let Some(newsletter) = service(&state) else {
        return invalid(UNSUBSCRIBE, title);
    };
    match newsletter.unsubscribe(&token(&query, &body), now()).await {
        Ok(TokenOutcome::Done | TokenOutcome::AlreadyDone) => page(
            StatusCode::OK,
            UNSUBSCRIBE,
            title,
            &paragraph(texts::UNSUBSCRIBED),
        ),
        Ok(TokenOutcome::Unknown) => invalid(UNSUBSCRIBE, title),
        Err(error) => unavailable(error),
    }
}

async fn confirm_page(State(state): State<AppState>, Query(query): Query<TokenQuery>) -> Response {
    let title = texts::CONFIRM_TITLE;
    let Some(newsletter) = service(&state) else {
        return invalid(None, title);
    };
    let token = token(&query, &[]);
    match newsletter.subscriber(&token).await {
        // Only the confirmation token confirms; an unsubscribe token here is a wrong link.
        Ok(Some(subscriber)) if subscriber.confirm_token.as_deref() == Some(token.as_str()) => {
            if subscriber.unsubscribed {
                invalid(None, title)
            } else if subscriber.confirmed {
                page(StatusCode::OK, None, title, &paragraph(texts::CONFIRMED))
            } else {
                let prompt = escape(texts::CONFIRM_PROMPT);
                let form = button_form(CONFIRM_PATH, &token, &prompt, texts::CONFIRM_BUTTON);
                page(StatusCode::OK, None, title, &form)
            }
        }
        Ok(_) => invalid(None, title),
        Err(error) => unavailable(error),
    }
}

async fn confirm(
    State(state): State<AppState>,
    Query(query): Query<TokenQuery>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let title = texts::CONFIRM_TITLE;
    let Some(newsletter) = service(&state) else {
        return invalid(None, title);
    };
    let token = token(&query, &body);
    match newsletter.confirm(&token, now()).await {
        Ok(TokenOutcome::Done) => {
            // The double opt-in completes the sign-up: CompleteRegistration, once.
            if let Ok(Some(subscriber)) = newsletter.subscriber(&token).await {
                let event =
                    crate::shared::conversion_events::registration_completed(&state, &subscriber);
                crate::shared::conversions::fire(&state, &headers, event).await;
            }
            page(StatusCode::OK, None, title, &paragraph(texts::CONFIRMED))
        }
        Ok(TokenOutcome::AlreadyDone) => {
            page(StatusCode::OK, None, title, &paragraph(texts::CONFIRMED))
        }
        Ok(TokenOutcome::Unknown) => invalid(None, title),
        Err(error) => unavailable(error),
    }
}
