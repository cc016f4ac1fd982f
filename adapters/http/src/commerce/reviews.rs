//! The review calls: `POST /api/commerce/reviews` (the reviews island submits one review) and
//! `POST /api/commerce/orders/{id}/review-request` (the owner makes a review request for an
//! order, behind the owner token). Texts are those of 000 s5 and s8.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde::Deserialize;
use serde_json::json;
use vitrine_core::catalog::Sku;
use vitrine_core::reviews::{ReviewRequestToken, SubmitReviewError, SubmittedReview, texts};

use crate::shared::clock::now;
use crate::{ApiError, AppState};

use crate::shared::route_table::Routes;
pub use vitrine_core::reviews::REVIEW_REQUEST_PATH;

pub(crate) fn routes() -> Routes {
    Routes::new()
        .route("/api/commerce/reviews", post(submit))
        .route(
            "/api/commerce/orders/{id}/review-request",
            post(create_request),
        )
}

/// 128 random bits as hex, for review ids and request tokens.
pub(crate) fn random_hex() -> String {
    let mut bytes = [0u8; 16];
    rand::fill(&mut bytes);
    hex::encode(bytes)
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ReviewBody {
    token: String,
    sku: String,
    /// 0 or absent when no star was chosen.
    #[serde(default)]
    rating: u8,
    #[serde(default)]
    title: String,
    #[serde(default)]
    body: String,
}

/// A refusal the reviewer can act on answers 400 with the text (the request layer passes a
/// 400 body to the island); a failure of ours answers 500 with 'Something went wrong' and
/// 'Try submitting your review again'.
pub(crate) fn refusal(error: &SubmitReviewError) -> Response {
    match error {
        SubmitReviewError::Repository(cause) => {
            tracing::error!(error = %cause, "storing a review failed");
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                Json(json!({ "error": texts::SOMETHING_WENT_WRONG, "retry": texts::TRY_AGAIN })),
            )
                .into_response()
        }
        other => (
            StatusCode::BAD_REQUEST,
            Json(json!({ "error": other.message(), "reason": reason(other) })),
        )
            .into_response(),
    }
}

fn reason(error: &SubmitReviewError) -> &'static str {
    match error {
        SubmitReviewError::MissingRating => "MISSING_RATING",
        SubmitReviewError::AlreadyReviewed => "ALREADY_REVIEWED",
        SubmitReviewError::Expired => "EXPIRED",
        SubmitReviewError::UnknownRequest => "UNKNOWN_REQUEST",
        SubmitReviewError::NotInRequest => "NOT_IN_REQUEST",
        SubmitReviewError::Invalid(_) => "INVALID",
        SubmitReviewError::Repository(_) => "UNAVAILABLE",
    }
}

async fn submit(State(state): State<AppState>, body: axum::body::Bytes) -> Response {
    let Ok(body) = serde_json::from_slice::<ReviewBody>(&body) else {
        return ApiError::BadRequest("A review is {token, sku, rating, title, body}.".into())
            .into_response();
    };
    let (Ok(token), Ok(sku)) = (ReviewRequestToken::parse(body.token), Sku::parse(body.sku)) else {
        return refusal(&SubmitReviewError::UnknownRequest);
    };
    let review = SubmittedReview {
        sku,
        stars: body.rating,
        title: body.title,
        body: body.body,
    };
    match state
        .reviews
        .submit(&token, review, random_hex(), now())
        .await
    {
        Ok(_) => {
            // Product pages show reviews and their average; cached copies are now stale.
            state.page_cache.clear();
            Json(json!({ "message": texts::THANKS_FOR_FEEDBACK })).into_response()
        }
        Err(error) => refusal(&error),
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RequestBody {
    #[serde(default)]
    author_name: String,
}

/// The owner's call: a review request for a placed order, answered with its link.
async fn create_request(
    State(state): State<AppState>,
    Path(order_id): Path<String>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Response, ApiError> {
    if !crate::shared::owner_access::owner_permits(
        &state,
        &axum::http::Method::POST,
        &headers,
        vitrine_core::enums::PermissionCode::Commerce,
    )
    .await
    {
        return Err(ApiError::NotFound);
    }
    let body: RequestBody = if body.is_empty() {
        RequestBody::default()
    } else {
        serde_json::from_slice(&body)
            .map_err(|_| ApiError::BadRequest("The body is {authorName}.".into()))?
    };
    let order = state
        .carts
        .store()
        .order(&order_id)
        .await
        .map_err(|error| ApiError::Unavailable(Box::new(error)))?
        .ok_or(ApiError::NotFound)?;
    let token = ReviewRequestToken::parse(random_hex())
        .map_err(|error| ApiError::Unavailable(Box::new(error)))?;
    let request = state
        .reviews
        .request_for_order(&order, token, &body.author_name, now())
        .await
        .map_err(|error| match error {
            SubmitReviewError::Repository(cause) => ApiError::Unavailable(Box::new(cause)),
            other => ApiError::BadRequest(other.to_string()),
        })?;
    let url = format!(
        "{}{REVIEW_REQUEST_PATH}?token={}",
        state.config.public_base_url,
        request.token.as_str()
    );
    Ok((
        StatusCode::CREATED,
        Json(json!({ "token": request.token.as_str(), "url": url, "expiresAt": request.expires_at.millis() })),
    )
        .into_response())
}
