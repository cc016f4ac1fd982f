//! The form calls of spec 000 s7: `POST /api/form/FormSubmissionKey` and
//! `POST /api/form/SaveFormSubmission`, plus the no-JavaScript form action. Handlers read the
//! request, call the core's [`FormService`](vitrine_core::forms::FormService) once and map
//! the result; every rule lives in the core.

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use vitrine_core::forms::submission::KEY_BYTES;

use crate::AppState;
use crate::forms::wire::{
    KeyAnswer, SavePayload, SavedAnswer, key_failure_response, submit_failure_response,
};
use crate::shared::clock::now_secs;
use crate::shared::route_table::Routes;

pub(crate) const KEY_PATH: &str = "/api/form/FormSubmissionKey";
pub(crate) const SAVE_PATH: &str = "/api/form/SaveFormSubmission";

pub(crate) fn routes() -> Routes {
    Routes::new()
        .route(KEY_PATH, post(issue_key))
        .route(SAVE_PATH, post(save))
        .route(
            crate::render::forms::NO_SCRIPT_ACTION,
            post(crate::forms::page::submit),
        )
}

/// Who is calling, for the per-visitor rate limits: the visitor's crumb cookie (either name).
///
/// The server has no other stable per-visitor identity (it may sit behind a proxy, and client
/// addresses are not trusted from headers). A script that drops its cookie starts a new
/// "visitor", which is why the per-form limit exists beside this one.
pub(crate) fn visitor(headers: &HeaderMap) -> String {
    crate::shared::crumb::visitor_crumb(headers)
        .map(str::to_owned)
        .unwrap_or_else(|| "anonymous".to_owned())
}

/// A fresh key from the operating system's secure random source.
pub(crate) fn random_key_bytes() -> [u8; KEY_BYTES] {
    let mut bytes = [0u8; KEY_BYTES];
    rand::fill(&mut bytes);
    bytes
}

async fn issue_key(State(state): State<AppState>, headers: HeaderMap) -> Response {
    match state
        .forms
        .issue_key(random_key_bytes(), &visitor(&headers), now_secs())
        .await
    {
        Ok(key) => Json(KeyAnswer {
            key: key.as_str().to_owned(),
        })
        .into_response(),
        Err(error) => key_failure_response(error),
    }
}

async fn save(
    State(state): State<AppState>,
    address: crate::shared::client_address::ClientAddress,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let Some(payload) = SavePayload::parse(&headers, &body) else {
        return submit_failure_response(vitrine_core::forms::SubmitFormError::Unparseable);
    };
    let request = payload.into_request(visitor(&headers));
    let form_id = request.form_id.clone();
    match state.forms.submit(request, now_secs()).await {
        Ok(receipt) => {
            if let Some(event) =
                crate::shared::conversion_events::lead(&state, &headers, &receipt, &form_id)
            {
                crate::shared::conversions::fire(&state, &headers, event).await;
            }
            // The owner's report counts accepted submissions against renders (form conversion)
            // and as experiments' conversions; a replay is the same submission, counted once.
            if !receipt.replayed {
                use vitrine_core::analytics::kinds::{FORM_SUBMIT, NEWSLETTER_SIGNUP};
                // A newsletter sign-up is counted for the dashboard too; the honeypot's
                // catches are not sign-ups.
                let signed_up =
                    receipt.kind == vitrine_core::forms::FormKind::Newsletter && !receipt.spam;
                let kinds: &[&'static str] = if signed_up {
                    &[FORM_SUBMIT, NEWSLETTER_SIGNUP]
                } else {
                    &[FORM_SUBMIT]
                };
                for kind in kinds {
                    crate::shared::visitors::record_conversion(
                        &state,
                        &headers,
                        address,
                        kind,
                        serde_json::json!({ "formId": form_id }),
                    )
                    .await;
                }
            }
            Json(SavedAnswer { success: true }).into_response()
        }
        Err(error) => submit_failure_response(error),
    }
}
