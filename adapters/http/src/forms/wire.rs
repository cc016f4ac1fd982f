//! The wire side of the form calls (spec 000 s7): reading the SaveFormSubmission payload from
//! a form-encoded or JSON body, and the JSON answers with the spec's statuses and texts.

use std::collections::BTreeMap;

use axum::Json;
use axum::http::header::{HeaderName, RETRY_AFTER};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use vitrine_core::forms::messages;
use vitrine_core::forms::{IssueKeyError, RateDecision, SubmitFormError, SubmitRequest};
use vitrine_core::ports::RepositoryError;

use crate::shared::api_error::UNAVAILABLE_MESSAGE;

/// The payload fields of 000 s7, as the island (form-encoded, `form` as JSON text) or an API
/// client (JSON, `form` as text or as an object) sends them.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct SavePayload {
    key: String,
    form_id: String,
    collection_id: Option<String>,
    object_name: String,
    #[serde(deserialize_with = "flag")]
    is_overlay_form: bool,
    submit_button_text: String,
    form: Option<serde_json::Value>,
    captcha_key: Option<String>,
    /// The honeypot input of the rendered form.
    honeypot: String,
}

/// Reads `true`, `"true"`, `"on"` or `"1"` as true, so both body formats carry the flag.
fn flag<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<bool, D::Error> {
    let value = serde_json::Value::deserialize(deserializer)?;
    Ok(match value {
        serde_json::Value::Bool(flag) => flag,
        serde_json::Value::String(text) => matches!(text.as_str(), "true" | "on" | "1"),
        _ => false,
    })
}

impl SavePayload {
    /// Reads the body by its content type: JSON, or form-encoded (the request layer's default).
    pub(crate) fn parse(headers: &HeaderMap, body: &[u8]) -> Option<Self> {
        let is_json = headers
            .get(axum::http::header::CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .is_some_and(|value| value.starts_with("application/json"));
        if is_json {
            serde_json::from_slice(body).ok()
        } else {
            // Form-encoded values are all text; going through a JSON object keeps one
            // deserializer for both formats.
            let object: serde_json::Map<String, serde_json::Value> =
                url::form_urlencoded::parse(body)
                    .map(|(name, value)| (name.into_owned(), value.into_owned().into()))
                    .collect();
            serde_json::from_value(serde_json::Value::Object(object)).ok()
        }
    }

    pub(crate) fn into_request(self, visitor: String) -> SubmitRequest {
        let form_json = match self.form {
            Some(serde_json::Value::String(text)) => text,
            Some(value) => value.to_string(),
            None => String::new(),
        };
        SubmitRequest {
            key: self.key,
            form_id: self.form_id,
            collection_id: self.collection_id.filter(|id| !id.is_empty()),
            object_name: self.object_name,
            is_overlay_form: self.is_overlay_form,
            submit_button_text: self.submit_button_text,
            form_json,
            captcha_key: self.captcha_key,
            honeypot: self.honeypot,
            visitor,
        }
    }
}

/// `data.key` of the key call.
#[derive(Debug, Serialize)]
pub(crate) struct KeyAnswer {
    pub(crate) key: String,
}

/// The success answer; the spec's client reads nothing beyond success, so a replayed
/// submission gets exactly the same body.
#[derive(Debug, Serialize)]
pub(crate) struct SavedAnswer {
    pub(crate) success: bool,
}

/// A failure body: `error` is the text shown, `errors` the per-field messages of a 400.
#[derive(Debug, Serialize)]
pub(crate) struct FailureAnswer {
    pub(crate) error: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) errors: Option<BTreeMap<String, String>>,
}

/// The status and body of a failed submission.
///
/// A key that is unknown, expired or already used for another payload answers 400 with the
/// spec's save-failure text ("... Please reload and try again.") and no `errors`: the visitor
/// can do nothing but submit again with a fresh key, which reloading the form gets them, and
/// a 400 body is one the web request layer hands to the island. A captcha provider
/// that cannot be reached is the server's failure (500), not the visitor's.
pub(crate) fn submit_failure(error: &SubmitFormError) -> (StatusCode, FailureAnswer) {
    let text = |status, error: &str| {
        (
            status,
            FailureAnswer {
                error: error.to_owned(),
                errors: None,
            },
        )
    };
    match error {
        SubmitFormError::UnknownForm => text(StatusCode::NOT_FOUND, messages::NOT_CONFIGURED),
        SubmitFormError::RateLimited(_) => {
            text(StatusCode::TOO_MANY_REQUESTS, messages::RATE_LIMITED)
        }
        SubmitFormError::Unparseable => text(StatusCode::BAD_REQUEST, messages::PARSE_FAILURE),
        SubmitFormError::Invalid(errors) => (
            StatusCode::BAD_REQUEST,
            FailureAnswer {
                error: messages::FIELDS_INVALID.to_owned(),
                errors: Some(errors.clone()),
            },
        ),
        SubmitFormError::CaptchaUnsolved => {
            text(StatusCode::BAD_REQUEST, messages::CAPTCHA_UNSOLVED)
        }
        SubmitFormError::KeyUnknown | SubmitFormError::KeyReused => {
            text(StatusCode::BAD_REQUEST, messages::SAVE_FAILURE)
        }
        // The database or Redis is away for a moment: nothing was stored, and the visitor
        // may send the same submission again once it is back, which 503 tells the client.
        SubmitFormError::Store(RepositoryError::Unavailable(_)) => {
            text(StatusCode::SERVICE_UNAVAILABLE, UNAVAILABLE_MESSAGE)
        }
        SubmitFormError::Captcha(_) | SubmitFormError::Store(_) => {
            text(StatusCode::INTERNAL_SERVER_ERROR, messages::SERVER_ERROR)
        }
    }
}

/// Seconds a client should wait before sending again a call that failed because a store was
/// unavailable: long enough for a pool to reconnect, short enough for a visitor to wait.
const UNAVAILABLE_RETRY_AFTER_SECONDS: &str = "5";

/// Adds `Retry-After` to the answer of a call a store was unavailable for.
fn retry_after_unavailable(response: &mut Response) {
    if response.status() == StatusCode::SERVICE_UNAVAILABLE {
        response.headers_mut().insert(
            RETRY_AFTER,
            HeaderValue::from_static(UNAVAILABLE_RETRY_AFTER_SECONDS),
        );
    }
}

/// Adds `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` and `Retry-After`.
pub(crate) fn rate_limit_headers(headers: &mut HeaderMap, decision: &RateDecision) {
    let reset = decision.reset_after.max(1).to_string();
    for (name, value) in [
        ("ratelimit-limit", decision.limit.to_string()),
        ("ratelimit-remaining", decision.remaining.to_string()),
        ("ratelimit-reset", reset.clone()),
    ] {
        if let Ok(value) = HeaderValue::from_str(&value) {
            headers.insert(HeaderName::from_static(name), value);
        }
    }
    if let Ok(value) = HeaderValue::from_str(&reset) {
        headers.insert(RETRY_AFTER, value);
    }
}

/// The JSON answer of a failed submission, logging server-side causes.
pub(crate) fn submit_failure_response(error: SubmitFormError) -> Response {
    match &error {
        SubmitFormError::Store(cause) => {
            tracing::error!(error = %cause, "a form submission failed")
        }
        SubmitFormError::Captcha(cause) => {
            tracing::error!(error = %cause, "a captcha could not be verified")
        }
        _ => {}
    }
    let (status, body) = submit_failure(&error);
    let mut response = (status, Json(body)).into_response();
    if let SubmitFormError::RateLimited(decision) = &error {
        rate_limit_headers(response.headers_mut(), decision);
    }
    retry_after_unavailable(&mut response);
    response
}

/// The JSON answer of a failed key request.
pub(crate) fn key_failure_response(error: IssueKeyError) -> Response {
    match error {
        IssueKeyError::RateLimited(decision) => {
            let mut response = (
                StatusCode::TOO_MANY_REQUESTS,
                Json(FailureAnswer {
                    error: messages::RATE_LIMITED.to_owned(),
                    errors: None,
                }),
            )
                .into_response();
            rate_limit_headers(response.headers_mut(), &decision);
            response
        }
        IssueKeyError::Store(cause) => {
            tracing::error!(error = %cause, "a form submission key could not be issued");
            let status = match cause {
                RepositoryError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
                _ => StatusCode::INTERNAL_SERVER_ERROR,
            };
            let mut response = (
                status,
                Json(FailureAnswer {
                    error: messages::KEY_FAILURE.to_owned(),
                    errors: None,
                }),
            )
                .into_response();
            retry_after_unavailable(&mut response);
            response
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_submission_the_database_could_not_store_answers_503_with_retry_after() {
        let unavailable = || RepositoryError::Unavailable("connection refused".into());
        let response = submit_failure_response(SubmitFormError::Store(unavailable()));
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(response.headers()[RETRY_AFTER], "5");
        assert_eq!(
            submit_failure(&SubmitFormError::Store(unavailable()))
                .1
                .error,
            UNAVAILABLE_MESSAGE
        );
        let response = key_failure_response(IssueKeyError::Store(unavailable()));
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(response.headers()[RETRY_AFTER], "5");

        let corrupt = RepositoryError::Corrupt {
            what: "a form".into(),
            reason: "bad JSON".into(),
        };
        let response = submit_failure_response(SubmitFormError::Store(corrupt));
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert!(response.headers().get(RETRY_AFTER).is_none());
    }

    #[test]
    fn a_form_encoded_payload_is_read_with_its_flag_and_form_json() {
        let body =
            b"key=k&formId=contact&isOverlayForm=true&form=%7B%22a%22%3A%221%22%7D&honeypot=";
        let payload = SavePayload::parse(&HeaderMap::new(), body).unwrap();
        let request = payload.into_request("v".into());
        assert_eq!(request.form_id, "contact");
        assert!(request.is_overlay_form);
        assert_eq!(request.form_json, r#"{"a":"1"}"#);
    }

    #[test]
    fn a_json_payload_may_carry_the_form_as_an_object() {
        let mut headers = HeaderMap::new();
        headers.insert("content-type", HeaderValue::from_static("application/json"));
        let body = br#"{"key":"k","formId":"contact","form":{"a":"1"}}"#;
        let request = SavePayload::parse(&headers, body)
            .unwrap()
            .into_request("v".into());
        assert_eq!(request.form_json, r#"{"a":"1"}"#);
        assert!(!request.is_overlay_form);
    }
}
