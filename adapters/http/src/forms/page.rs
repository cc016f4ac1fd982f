//! What a form posted without JavaScript gets: the same submission flow as the island's calls,
//! answered with a small server-rendered page instead of JSON.
//!
//! Decision: the rendered forms post to [`NO_SCRIPT_ACTION`], outside `/api`. A browser
//! without JavaScript cannot repeat the crumb, so this action is protected instead by the
//! same-origin check every state-changing route outside `/api` passes (`same_origin.rs`). The server issues the key itself and submits at once. A success shows
//! the form's post-submit message with a link back to the page; a failure shows the spec's
//! message (and each field's message under the field's title) with the same link, so the
//! visitor can go back and correct their entries. The island replaces this action with the
//! two API calls.

use std::collections::BTreeMap;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::header::{HOST, REFERER};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use serde_json::{Map, Value};
use vitrine_core::forms::model::{FieldKind, FormDefinition};
use vitrine_core::forms::{SubmitFormError, SubmitRequest};

use crate::AppState;
use crate::forms::calls::{now, random_key_bytes, visitor};
use crate::forms::wire::{rate_limit_headers, submit_failure};
use crate::shared::request_parts::escape_html as escape;

/// The input names of each multi-part field's parts, as `templates/blocks/form.html` renders
/// them (`{field}-{part}`), in the order of the value's array.
fn part_names(kind: &FieldKind) -> Option<&'static [&'static str]> {
    match kind {
        FieldKind::Name => Some(&["first", "last"]),
        FieldKind::Date => Some(&["month", "day", "year"]),
        FieldKind::Time => Some(&["hour", "minute", "second", "ampm"]),
        FieldKind::Address => Some(&["line1", "line2", "city", "state", "zip", "country"]),
        FieldKind::Phone { .. } => Some(&["areacode", "prefix", "line"]),
        _ => None,
    }
}

/// The `form` JSON the island would have built, from the inputs the browser posted.
pub(crate) fn form_json(form: &FormDefinition, pairs: &[(String, String)]) -> String {
    let first = |name: &str| {
        pairs
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.clone())
            .unwrap_or_default()
    };
    let mut object = Map::new();
    for field in form.fields.iter().filter(|field| field.kind.holds_value()) {
        let value = match &field.kind {
            FieldKind::Checkbox { .. } => Value::from(
                pairs
                    .iter()
                    .filter(|(key, _)| *key == field.id)
                    .map(|(_, value)| value.clone())
                    .collect::<Vec<_>>(),
            ),
            FieldKind::Likert { statements } => Value::Object(
                statements
                    .iter()
                    .enumerate()
                    .map(|(index, statement)| {
                        (
                            statement.clone(),
                            Value::from(first(&format!("{}-{index}", field.id))),
                        )
                    })
                    .filter(|(_, answer)| answer.as_str().is_some_and(|a| !a.is_empty()))
                    .collect(),
            ),
            kind => match part_names(kind) {
                Some(parts) => Value::from(
                    parts
                        .iter()
                        .map(|part| first(&format!("{}-{part}", field.id)))
                        .collect::<Vec<_>>(),
                ),
                None => Value::from(first(&field.id)),
            },
        };
        object.insert(field.id.clone(), value);
    }
    Value::Object(object).to_string()
}

/// The page the form was on, for the link back: the Referer's path when it is this site's.
/// A path that a browser would read as another host (`//other.example`, or `/\other.example`,
/// which URL parsing turns into `//`) falls back to the home page.
fn back_link(headers: &HeaderMap) -> String {
    headers
        .get(REFERER)
        .and_then(|v| v.to_str().ok())
        .and_then(|referer| url::Url::parse(referer).ok())
        .filter(|referer| {
            let host = headers
                .get(HOST)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("");
            referer
                .host_str()
                .is_some_and(|h| host.split(':').next() == Some(h))
        })
        .map(|referer| referer.path().to_owned())
        .filter(|path| path.starts_with('/') && !path.starts_with("//") && !path.contains('\\'))
        .unwrap_or_else(|| "/".to_owned())
}

/// A complete small page; `body` is already escaped or sanitised HTML.
fn page(status: StatusCode, title: &str, body: &str, back: &str) -> Response {
    let html = format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"robots\" content=\"noindex\"><title>{title}</title></head>\
         <body><main class=\"form-result\"><h1>{title}</h1>{body}\
         <p><a href=\"{back}\">Back to the page</a></p></main></body></html>",
        title = escape(title),
        back = escape(back),
    );
    (status, Html(html)).into_response()
}

pub(crate) async fn submit(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let back = back_link(&headers);
    let pairs: Vec<(String, String)> = url::form_urlencoded::parse(&body)
        .map(|(name, value)| (name.into_owned(), value.into_owned()))
        .collect();
    let value_of = |name: &str| {
        pairs
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.clone())
            .unwrap_or_default()
    };
    let form_id = Some(value_of("formId"))
        .filter(|id| !id.is_empty())
        .unwrap_or_else(|| value_of("objectName"));
    let visitor = visitor(&headers);
    let outcome = async {
        let form = state
            .forms
            .find_form(&form_id)
            .await?
            .ok_or(SubmitFormError::UnknownForm)?;
        let key = state
            .forms
            .issue_key(random_key_bytes(), &visitor, now())
            .await
            .map_err(|error| match error {
                vitrine_core::forms::IssueKeyError::RateLimited(decision) => {
                    SubmitFormError::RateLimited(decision)
                }
                vitrine_core::forms::IssueKeyError::Store(error) => SubmitFormError::Store(error),
            })?;
        let request = SubmitRequest {
            key: key.as_str().to_owned(),
            form_id: form.form_id.clone(),
            object_name: value_of("objectName"),
            form_json: form_json(&form, &pairs),
            honeypot: value_of("honeypot"),
            // The provider's script puts its token in the form under its own name.
            captcha_key: [
                "g-recaptcha-response",
                "h-captcha-response",
                "cf-turnstile-response",
            ]
            .into_iter()
            .map(value_of)
            .find(|token| !token.is_empty()),
            visitor: visitor.clone(),
            ..SubmitRequest::default()
        };
        let receipt = state.forms.submit(request, now()).await?;
        Ok::<_, SubmitFormError>((form, receipt))
    }
    .await;
    if let Ok((form, receipt)) = &outcome
        && let Some(event) =
            crate::shared::conversion_events::lead(&state, &headers, receipt, &form.form_id)
    {
        crate::shared::conversions::fire(&state, &headers, event).await;
    }
    match outcome {
        // The form's success URL, when it has one (000 s4); 303 makes the browser GET it.
        Ok((_, receipt)) if receipt.success_url.is_some() => (
            StatusCode::SEE_OTHER,
            [(
                axum::http::header::LOCATION,
                receipt.success_url.unwrap_or_default(),
            )],
        )
            .into_response(),
        Ok((_, receipt)) => page(
            StatusCode::OK,
            "Thank you",
            receipt.post_submit_message.as_str(),
            &back,
        ),
        Err(error) => {
            if let SubmitFormError::Store(cause) = &error {
                tracing::error!(error = %cause, "a form submission failed");
            }
            let (status, answer) = submit_failure(&error);
            let mut body = format!("<p role=\"alert\">{}</p>", escape(&answer.error));
            if let Some(errors) = &answer.errors {
                let titles: BTreeMap<String, String> = match state.forms.find_form(&form_id).await {
                    Ok(Some(form)) => form
                        .fields
                        .into_iter()
                        .map(|field| (field.id, field.title))
                        .collect(),
                    _ => BTreeMap::new(),
                };
                body.push_str("<ul>");
                for (field, message) in errors {
                    let title = titles.get(field).unwrap_or(field);
                    body.push_str(&format!(
                        "<li><strong>{}</strong>: {}</li>",
                        escape(title),
                        escape(message)
                    ));
                }
                body.push_str("</ul>");
            }
            let mut response = page(status, "Form not sent", &body, &back);
            if let SubmitFormError::RateLimited(decision) = &error {
                rate_limit_headers(response.headers_mut(), decision);
            }
            response
        }
    }
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;
    use vitrine_core::forms::model::{FieldDefinition, FormKind};
    use vitrine_core::site::SafeHtml;

    use super::*;

    #[test]
    fn posted_inputs_become_the_islands_value_shapes() {
        let field = |id: &str, kind| FieldDefinition {
            id: id.into(),
            title: id.into(),
            required: false,
            kind,
        };
        let form = FormDefinition {
            form_id: "f".into(),
            kind: FormKind::Form,
            fields: vec![
                field("name", FieldKind::Name),
                field(
                    "phone",
                    FieldKind::Phone {
                        show_country_code: false,
                    },
                ),
                field(
                    "boxes",
                    FieldKind::Checkbox {
                        options: vec!["a".into(), "b".into()],
                    },
                ),
                field(
                    "scale",
                    FieldKind::Likert {
                        statements: vec!["Fast".into()],
                    },
                ),
                field("note", FieldKind::Text),
            ],
            post_submit_message: SafeHtml::default(),
            success_url: None,
        };
        let pairs: Vec<(String, String)> = [
            ("name-first", "Ada"),
            ("name-last", "Lovelace"),
            ("phone-areacode", "555"),
            ("phone-prefix", "123"),
            ("phone-line", "4567"),
            ("boxes", "a"),
            ("boxes", "b"),
            ("scale-0", "2"),
            ("note", "hi"),
        ]
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .to_vec();
        let json: Value = serde_json::from_str(&form_json(&form, &pairs)).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "name": ["Ada", "Lovelace"],
                "phone": ["555", "123", "4567"],
                "boxes": ["a", "b"],
                "scale": {"Fast": "2"},
                "note": "hi"
            })
        );
    }

    fn back_link_for(referer: &str) -> String {
        let mut headers = HeaderMap::new();
        headers.insert(HOST, HeaderValue::from_static("shop.example"));
        headers.insert(REFERER, HeaderValue::from_str(referer).unwrap());
        back_link(&headers)
    }

    #[test]
    fn a_referer_whose_path_names_another_host_links_back_home() {
        assert_eq!(back_link_for("https://shop.example/contact"), "/contact");
        for referer in [
            "https://shop.example//evil.example/x",
            "https://shop.example/\\evil.example",
            "https://shop.example/\\/evil.example",
            "https://shop.example///evil.example",
            "https://other.example/contact",
            "not a url",
        ] {
            assert_eq!(back_link_for(referer), "/", "{referer}");
        }
    }
}
