//! The owner's multilingual calls (001 s7): `GET /api/multilingual/settings` (the default
//! language, the site's translations and whether each is published, the translation
//! provider), `GET /api/multilingual/status` (how far each translation goes), `PUT
//! /api/multilingual/languages` (which translations are published) and `DELETE
//! /api/multilingual/connection` (disconnects the translation provider). A change drops every
//! cached page, so `/fr/...` routes, the switcher, `hreflang` and the sitemap follow at once.

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, put};
use serde::Deserialize;
use serde_json::json;
use vitrine_core::languages::MultilingualError;

use crate::shared::owner_access::owner_permits;
use crate::shared::route_table::Routes;
use crate::{ApiError, ApiErrorBody, AppState};
use axum::http::Method;
use vitrine_core::enums::PermissionCode;

/// What a refused body of `PUT /api/multilingual/languages` reads.
const LANGUAGES_SHAPE: &str = "The body is {\"languages\": [language tags]}, the translations to publish, such as [\"fr-FR\"].";

pub(crate) fn routes() -> Routes {
    Routes::new()
        .route("/api/multilingual/settings", get(settings))
        .route("/api/multilingual/status", get(status))
        .route("/api/multilingual/languages", put(publish))
        .route("/api/multilingual/connection", delete(disconnect))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LanguagesBody {
    languages: Vec<String>,
}

fn refusal(error: MultilingualError) -> ApiError {
    match error {
        MultilingualError::NoSite => ApiError::Unavailable(Box::new(error)),
        MultilingualError::Repository(cause) => cause.into(),
        other => ApiError::BadRequest(other.to_string()),
    }
}

/// The multilingual calls are the site's settings (permission code 12).
async fn owner_only(state: &AppState, method: Method, headers: &HeaderMap) -> Result<(), ApiError> {
    if owner_permits(state, &method, headers, PermissionCode::Settings).await {
        Ok(())
    } else {
        Err(ApiError::NotFound)
    }
}

async fn settings(State(state): State<AppState>, headers: HeaderMap) -> Result<Response, ApiError> {
    owner_only(&state, Method::GET, &headers).await?;
    let settings = state
        .pages
        .multilingual()
        .settings()
        .await
        .map_err(refusal)?;
    Ok(Json(settings).into_response())
}

async fn status(State(state): State<AppState>, headers: HeaderMap) -> Result<Response, ApiError> {
    owner_only(&state, Method::GET, &headers).await?;
    let languages = state.pages.multilingual().status().await.map_err(refusal)?;
    Ok(Json(json!({ "languages": languages })).into_response())
}

async fn publish(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    owner_only(&state, Method::PUT, &headers).await?;
    let body: LanguagesBody =
        serde_json::from_slice(&body).map_err(|_| ApiError::BadRequest(LANGUAGES_SHAPE.into()))?;
    let settings = state
        .pages
        .multilingual()
        .publish(&body.languages)
        .await
        .map_err(refusal)?;
    // Language routes, switchers and alternates of every page change with the choice.
    state.page_cache.clear();
    Ok(Json(settings).into_response())
}

async fn disconnect(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    owner_only(&state, Method::DELETE, &headers).await?;
    match state.pages.multilingual().disconnect_provider().await {
        Ok(()) => {
            state.page_cache.clear();
            Ok(StatusCode::NO_CONTENT.into_response())
        }
        // Nothing to disconnect: the state, not the request, is in the way.
        Err(error @ MultilingualError::NoProvider) => {
            let body = ApiErrorBody {
                error: error.to_string(),
                crumb_fail: false,
            };
            Ok((StatusCode::CONFLICT, Json(body)).into_response())
        }
        Err(error) => Err(refusal(error)),
    }
}
