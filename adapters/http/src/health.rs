//! `GET /healthz`: whether this instance can serve, judged by whether its repository answers.
//! Load balancers and container runtimes poll it; it never reveals why it fails.

use axum::extract::State;
use axum::http::StatusCode;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};

use crate::AppState;

pub(crate) async fn healthz(State(state): State<AppState>) -> Response {
    let (status, body) = match state.repository.is_empty().await {
        Ok(_) => (StatusCode::OK, "ok"),
        Err(error) => {
            tracing::warn!(%error, "health check failed: the repository does not answer");
            (StatusCode::SERVICE_UNAVAILABLE, "unavailable")
        }
    };
    (
        status,
        [
            (CONTENT_TYPE, "text/plain; charset=utf-8"),
            (CACHE_CONTROL, "no-store"),
        ],
        body,
    )
        .into_response()
}
