//! Descriptions of the form calls, block widgets and this document.

#![allow(dead_code)]

use super::schemas::{
    ErrorAnswer, FormKey, FormSaved, FormSubmission, WidgetForm, WidgetRendering,
};

/// This API description, as OpenAPI 3.1.
#[utoipa::path(
    get,
    path = "/api/openapi.json",
    tag = "meta",
    responses((status = 200, description = "The OpenAPI document", content_type = "application/json", body = Object)),
)]
fn openapi_document() {}

/// A crumb for a client that has none: pages carry no cookie (so a shared cache may keep them),
/// and a client asks here before its first state-changing call.
#[utoipa::path(
    get,
    path = "/api/crumb",
    tag = "meta",
    responses((status = 204, description = "A `Set-Cookie` with a fresh crumb when the request carried none; nothing to change otherwise")),
)]
fn issue_crumb() {}

/// `GetWidgetRendering` (000 s7): a block's HTML rendered again by the plugin that claims its
/// type. A plugin that fails answers the block's fallback with 200, as on a page.
#[utoipa::path(
    post,
    path = "/api/widget/GetWidgetRendering",
    tag = "forms",
    request_body(content = WidgetForm, content_type = "application/x-www-form-urlencoded"),
    responses(
        (status = 200, description = "The block's HTML", body = WidgetRendering),
        (status = 400, description = "`widgetJSON` is not valid, or names an unknown type", body = ErrorAnswer),
        (status = 404, description = "No plugin claims the block type", body = ErrorAnswer),
        (status = 415, description = "The body is not form-encoded", content_type = "text/plain", body = String),
        (status = 422, description = "The form has no `widgetJSON`", content_type = "text/plain", body = String),
    ),
)]
fn get_widget_rendering() {}

/// `FormSubmissionKey` (000 s7): a one-time key for the next submission.
#[utoipa::path(
    post,
    path = "/api/form/FormSubmissionKey",
    tag = "forms",
    responses(
        (status = 200, description = "A fresh key", body = FormKey),
        (status = 500, description = "The key could not be stored", body = ErrorAnswer),
    ),
)]
fn issue_form_key() {}

/// `SaveFormSubmission` (000 s7): one submission of a published form, with its key.
#[utoipa::path(
    post,
    path = "/api/form/SaveFormSubmission",
    tag = "forms",
    request_body(content(
        (FormSubmission = "application/x-www-form-urlencoded"),
        (FormSubmission = "application/json"),
    )),
    responses(
        (status = 200, description = "Stored (or already stored with this key)", body = FormSaved),
        (status = 400, description = "Unreadable, invalid fields (`errors`), an unsolved captcha, or a key that is unknown, expired or used", body = ErrorAnswer),
        (status = 404, description = "No published page has this form", body = ErrorAnswer),
    ),
)]
fn save_form_submission() {}
