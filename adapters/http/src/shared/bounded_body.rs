//! The body of an analytics call (census, events), bounded far below the router's 2 MiB: such
//! calls carry a few hundred bytes, and each becomes a stored row, so a larger body is refused
//! with 413 and a message saying the limit.

use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, FromRequest, Request};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::{Json, Router};
use vitrine_core::analytics::MAX_BODY_BYTES;

use crate::{ApiErrorBody, AppState};

/// What a visitor reads when an analytics call is too large.
pub(crate) const TOO_LARGE_MESSAGE: &str =
    "This analytics call is too large: send at most 16 KiB (16384 bytes).";

/// Bounds the bodies of every route of `routes` to [`MAX_BODY_BYTES`].
pub(crate) fn bounded(routes: Router<AppState>) -> Router<AppState> {
    routes.layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
}

/// A body read under the limit [`bounded`] sets.
pub(crate) struct BoundedBody(pub(crate) Bytes);

impl<S: Send + Sync> FromRequest<S> for BoundedBody {
    type Rejection = Response;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        match Bytes::from_request(request, state).await {
            Ok(bytes) => Ok(Self(bytes)),
            Err(rejection) => {
                let error = if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                    TOO_LARGE_MESSAGE.to_owned()
                } else {
                    rejection.body_text()
                };
                let body = ApiErrorBody {
                    error,
                    crumb_fail: false,
                };
                Err((rejection.status(), Json(body)).into_response())
            }
        }
    }
}
