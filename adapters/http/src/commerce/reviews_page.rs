//! The reviews-request page (page type 209) a buyer reaches from a review request's link:
//! one form per product still waiting for a review. It works without JavaScript (each form
//! posts here and the page comes back with the outcome); the reviews island submits through
//! the API instead and shows the same texts in place.

use std::collections::BTreeSet;

use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::http::header::CACHE_CONTROL;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use vitrine_core::catalog::Sku;
use vitrine_core::enums::PageType;
use vitrine_core::reviews::{
    OpenReviewRequestError, ReviewRequestToken, ReviewableItem, SubmitReviewError, SubmittedReview,
    texts,
};

use crate::AppState;
use crate::commerce::reviews::{REVIEW_REQUEST_PATH, random_hex};
use crate::shared::clock::now;
use crate::shared::request_parts::escape_html as escape;
use crate::shared::route_table::Routes;

pub(crate) fn routes() -> Routes {
    Routes::new().route(REVIEW_REQUEST_PATH, get(show).post(submit))
}

#[derive(Debug, Default, serde::Deserialize)]
pub(crate) struct TokenQuery {
    token: Option<String>,
}

/// The outcome of the last submission, shown above the forms.
enum Notice {
    Thanks,
    Problem { message: &'static str, retry: bool },
}

/// A complete page for one buyer: never cached, never indexed, with the site stylesheet and
/// the runtime so the reviews island can mount.
fn page(state: &AppState, status: StatusCode, token: &str, body: &str) -> Response {
    let assets = state.assets.page_assets(&BTreeSet::from(["reviews"]), &[]);
    let mut head = String::new();
    for href in &assets.stylesheets {
        head.push_str(&format!(
            "<link rel=\"stylesheet\" href=\"{}\">",
            escape(href)
        ));
    }
    for src in &assets.module_scripts {
        head.push_str(&format!(
            "<script type=\"module\" src=\"{}\"></script>",
            escape(src)
        ));
    }
    let props = escape(&serde_json::json!({ "token": token }).to_string());
    let html = format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"robots\" content=\"noindex\"><title>Review your purchase</title>{head}</head>\
         <body data-page-type=\"{code}\"><main class=\"reviews-page\" id=\"reviews-root\" \
         data-island=\"reviews\" data-island-props=\"{props}\"><h1>Review your purchase</h1>{body}\
         <p><a href=\"/\">Go to the home page</a></p></main></body></html>",
        code = PageType::ReviewsRequest.code(),
    );
    (status, [(CACHE_CONTROL, "no-store")], Html(html)).into_response()
}

fn notice_html(notice: &Notice) -> String {
    match notice {
        Notice::Thanks => format!(
            "<p class=\"reviews-page__notice\" role=\"status\">{}</p>",
            escape(texts::THANKS_FOR_FEEDBACK)
        ),
        Notice::Problem { message, retry } => {
            let retry = if *retry {
                format!(" {}", escape(texts::TRY_AGAIN))
            } else {
                String::new()
            };
            format!(
                "<p class=\"reviews-page__notice reviews-page__notice--error\" role=\"alert\">{}{retry}</p>",
                escape(message)
            )
        }
    }
}

/// One product's form: a required star rating (five radio buttons in a fieldset), an
/// optional title and text, and the submit button.
fn review_form(token: &str, index: usize, item: &ReviewableItem) -> String {
    let id = format!("review-{index}");
    let mut stars = String::new();
    for value in 1..=5u8 {
        let label = if value == 1 {
            "1 star".to_owned()
        } else {
            format!("{value} stars")
        };
        stars.push_str(&format!(
            "<span class=\"star-rating__option\"><input type=\"radio\" id=\"{id}-star-{value}\" \
             name=\"rating\" value=\"{value}\"><label for=\"{id}-star-{value}\">{label}</label></span>"
        ));
    }
    format!(
        "<form class=\"review-form\" method=\"post\" action=\"{REVIEW_REQUEST_PATH}\" \
         aria-labelledby=\"{id}-name\">\
         <input type=\"hidden\" name=\"token\" value=\"{token}\">\
         <input type=\"hidden\" name=\"sku\" value=\"{sku}\">\
         <h2 id=\"{id}-name\">{name}</h2>\
         <fieldset class=\"star-rating\"><legend>Rating</legend>{stars}</fieldset>\
         <div class=\"field\"><label class=\"field__label\" for=\"{id}-title\">Title (optional)</label>\
         <input class=\"field__control\" id=\"{id}-title\" name=\"title\" maxlength=\"120\"></div>\
         <div class=\"field\"><label class=\"field__label\" for=\"{id}-body\">Your review (optional)</label>\
         <textarea class=\"field__control\" id=\"{id}-body\" name=\"body\" rows=\"4\" maxlength=\"5000\"></textarea></div>\
         <p class=\"review-form__message\" role=\"alert\"></p>\
         <button class=\"button button--primary\" type=\"submit\">Submit review</button></form>",
        token = escape(token),
        sku = escape(item.sku.as_str()),
        name = escape(&item.product_name),
    )
}

/// The page for `token` as it stands now, with `notice` above the forms.
async fn render(state: &AppState, token: &str, notice: Option<Notice>) -> Response {
    let mut body = notice.as_ref().map(notice_html).unwrap_or_default();
    let Ok(parsed) = ReviewRequestToken::parse(token) else {
        body.push_str(&notice_html(&Notice::Problem {
            message: texts::SOMETHING_WENT_WRONG,
            retry: false,
        }));
        return page(state, StatusCode::NOT_FOUND, "", &body);
    };
    match state.reviews.open(&parsed, now()).await {
        Ok((_, pending)) => {
            for (index, item) in pending.iter().enumerate() {
                body.push_str(&review_form(token, index, item));
            }
            page(state, StatusCode::OK, token, &body)
        }
        Err(error) => {
            let status = match &error {
                OpenReviewRequestError::Unknown => StatusCode::NOT_FOUND,
                OpenReviewRequestError::Expired => StatusCode::GONE,
                OpenReviewRequestError::NothingToReview => StatusCode::OK,
                OpenReviewRequestError::Repository(cause) => {
                    tracing::error!(error = %cause, "reading a review request failed");
                    StatusCode::SERVICE_UNAVAILABLE
                }
            };
            // After the last review the thanks is enough; the empty list says the rest.
            let text = if matches!(error, OpenReviewRequestError::NothingToReview) {
                format!(
                    "<p class=\"reviews-page__empty\">{}</p>",
                    escape(error.message())
                )
            } else {
                notice_html(&Notice::Problem {
                    message: error.message(),
                    retry: false,
                })
            };
            body.push_str(&text);
            page(state, status, token, &body)
        }
    }
}

async fn show(State(state): State<AppState>, Query(query): Query<TokenQuery>) -> Response {
    render(&state, query.token.as_deref().unwrap_or_default(), None).await
}

/// The form's POST without JavaScript: the same service call as the API, then the page again.
async fn submit(State(state): State<AppState>, body: Bytes) -> Response {
    let mut token = String::new();
    let mut review = SubmittedReview {
        sku: Sku::generated(0),
        stars: 0,
        title: String::new(),
        body: String::new(),
    };
    let mut sku_ok = false;
    for (name, value) in url::form_urlencoded::parse(&body) {
        match &*name {
            "token" => token = value.into_owned(),
            "sku" => {
                if let Ok(sku) = Sku::parse(value.into_owned()) {
                    review.sku = sku;
                    sku_ok = true;
                }
            }
            "rating" => review.stars = value.parse().unwrap_or(0),
            "title" => review.title = value.into_owned(),
            "body" => review.body = value.into_owned(),
            _ => {}
        }
    }
    let outcome = match ReviewRequestToken::parse(token.as_str()) {
        Ok(parsed) if sku_ok => {
            state
                .reviews
                .submit(&parsed, review, random_hex(), now())
                .await
        }
        _ => Err(SubmitReviewError::UnknownRequest),
    };
    let notice = match outcome {
        Ok(_) => {
            // Product pages show reviews and their average; cached copies are now stale.
            state.page_cache.clear();
            Notice::Thanks
        }
        Err(error) => {
            if let SubmitReviewError::Repository(cause) = &error {
                tracing::error!(error = %cause, "storing a review failed");
            }
            Notice::Problem {
                message: error.message(),
                retry: error.can_retry(),
            }
        }
    };
    render(&state, &token, Some(notice)).await
}
