//! The one error type of JSON API handlers: it maps each failure to a status and a body the
//! web request layer understands, and keeps internal causes in the logs only.

use std::error::Error as StdError;

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use vitrine_core::pages::PageError;
use vitrine_core::ports::RepositoryError;

/// The spec's default text for a 500 (spec 000 s8), so the visitor sees the same words
/// whether the server or the request layer chose them.
pub const INTERNAL_ERROR_MESSAGE: &str = "Internal server error. Please try again later.";
/// The spec's text for a 503 (spec 000 s8).
pub const UNAVAILABLE_MESSAGE: &str =
    "This service is temporarily unavailable. Please try again later.";
/// What a visitor reads when the crumb check fails; the request layer retries once first.
pub const CRUMB_FAIL_MESSAGE: &str =
    "Your session token is invalid or has expired. Please reload the page and try again.";
const NOT_FOUND_MESSAGE: &str = "Not found.";

/// A failed API call.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The crumb (CSRF token) was missing or did not match the cookie.
    #[error("the crumb check failed")]
    CrumbFail,
    #[error("no such resource")]
    NotFound,
    /// The request is malformed; the message is shown to the visitor as is.
    #[error("bad request: {0}")]
    BadRequest(String),
    /// A dependency is down; nothing internal is said to the visitor.
    #[error("service unavailable: {0}")]
    Unavailable(#[source] Box<dyn StdError + Send + Sync>),
    /// Anything else that went wrong on the server; the cause is logged, never answered.
    #[error("internal error: {0}")]
    Internal(#[source] Box<dyn StdError + Send + Sync>),
}

impl ApiError {
    pub fn internal(cause: impl StdError + Send + Sync + 'static) -> Self {
        Self::Internal(Box::new(cause))
    }

    pub fn status(&self) -> StatusCode {
        match self {
            Self::CrumbFail => StatusCode::UNAUTHORIZED,
            Self::NotFound => StatusCode::NOT_FOUND,
            Self::BadRequest(_) => StatusCode::BAD_REQUEST,
            Self::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The JSON body sent for this error.
    pub fn body(&self) -> ApiErrorBody {
        let error = match self {
            Self::CrumbFail => CRUMB_FAIL_MESSAGE.to_owned(),
            Self::NotFound => NOT_FOUND_MESSAGE.to_owned(),
            Self::BadRequest(message) => message.clone(),
            Self::Unavailable(_) => UNAVAILABLE_MESSAGE.to_owned(),
            Self::Internal(_) => INTERNAL_ERROR_MESSAGE.to_owned(),
        };
        ApiErrorBody {
            error,
            crumb_fail: matches!(self, Self::CrumbFail),
        }
    }
}

impl From<RepositoryError> for ApiError {
    fn from(error: RepositoryError) -> Self {
        match error {
            RepositoryError::Unavailable(_) => Self::Unavailable(Box::new(error)),
            // A refused write from an API call is still the server's fault: handlers validate
            // input through the core before anything reaches the store.
            RepositoryError::Corrupt { .. } | RepositoryError::Rejected(_) => Self::internal(error),
        }
    }
}

impl From<PageError> for ApiError {
    fn from(error: PageError) -> Self {
        match error {
            PageError::NoSite => Self::Unavailable(Box::new(error)),
            PageError::Repository(error) => error.into(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        match &self {
            Self::Internal(cause) => tracing::error!(error = %cause, "API call failed"),
            Self::Unavailable(cause) => {
                tracing::warn!(error = %cause, "API call found a dependency down")
            }
            _ => {}
        }
        (self.status(), Json(self.body())).into_response()
    }
}

/// The wire shape of an API error: `error` is what the request layer shows, and `crumbFail`
/// tells it to retry once with the fresh crumb the response sets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ApiErrorBody {
    pub error: String,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub crumb_fail: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crumb_failure_says_so_to_the_request_layer() {
        insta::assert_json_snapshot!(ApiError::CrumbFail.body(), @r#"
        {
          "error": "Your session token is invalid or has expired. Please reload the page and try again.",
          "crumbFail": true
        }
        "#);
        assert_eq!(ApiError::CrumbFail.status(), StatusCode::UNAUTHORIZED);
    }

    #[test]
    fn an_internal_error_answers_only_the_generic_message() {
        let error = ApiError::from(RepositoryError::Corrupt {
            what: "items table".into(),
            reason: "secret detail".into(),
        });
        assert_eq!(error.status(), StatusCode::INTERNAL_SERVER_ERROR);
        insta::assert_json_snapshot!(error.body(), @r#"
        {
          "error": "Internal server error. Please try again later."
        }
        "#);
    }

    #[test]
    fn an_unavailable_store_answers_503() {
        let error = ApiError::from(RepositoryError::Unavailable("pool timed out".into()));
        assert_eq!(error.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(error.body().error, UNAVAILABLE_MESSAGE);
    }
}
