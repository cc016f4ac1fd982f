//! Descriptions of the census, events, logs, performance, consent and conversion calls.

#![allow(dead_code)]

use super::schemas::{
    ConversionBody, ConversionSent, ErrorAnswer, ErrorReport, EventForm, HitForm, HitRecorded,
    LogBatch, PerformanceRecord, PerformanceSettings, ReceiptAnswer, ReceiptRequest, Recorded,
    ServiceEvent, TraceForm,
};

/// `RecordHit` (000 s7): a page view.
#[utoipa::path(
    post,
    path = "/api/census/RecordHit",
    tag = "analytics",
    request_body(content = HitForm, content_type = "application/x-www-form-urlencoded"),
    responses(
        (status = 200, description = "Counted, or not counted with the reason (`excluded`)", body = HitRecorded),
        (status = 400, description = "No `data`, or `data` is not a hit", body = ErrorAnswer),
    ),
)]
fn record_hit() {}

/// The owner's daily figures: page views, visitors, top lists, campaigns, devices, form
/// conversion, top products, newsletter sign-ups, script errors by fingerprint and site version,
/// plugin failures, Web Vitals. Read by the admin, reporting and viewer roles.
#[utoipa::path(
    get,
    path = "/api/analytics/report",
    tag = "analytics",
    security(("ownerToken" = [])),
    responses(
        (status = 200, description = "The report", body = Object),
        (status = 404, description = "The request carries no owner credential (an API key, the owner token or an owner session) holding the permission this call needs", body = ErrorAnswer),
    ),
)]
fn analytics_report() {}

/// A census event of a server-rendered button, form or the popup overlay: a JSON object,
/// stored as it is with its `pagePath`.
macro_rules! census_event {
    ($name:ident, $path:literal, $what:literal) => {
        #[doc = $what]
        #[utoipa::path(
            post,
            path = $path,
            tag = "analytics",
            request_body(content = Object, content_type = "application/json"),
            responses(
                (status = 204, description = "Recorded, or census is off"),
                (status = 400, description = "The body is not a JSON object", body = ErrorAnswer),
            ),
        )]
        fn $name() {}
    };
}

census_event!(
    button_click,
    "/api/census/button-click",
    "A click on a button block."
);
census_event!(
    button_render,
    "/api/census/button-render",
    "A button block seen on a page."
);
census_event!(
    form_render,
    "/api/census/form-render",
    "A form seen on a page."
);
census_event!(
    overlay,
    "/api/census/overlay",
    "The popup overlay shown, closed or submitted."
);

/// A product's quick view was opened.
#[utoipa::path(
    post,
    path = "/api/census/RecordQuickView/{id}",
    tag = "analytics",
    params(("id" = String, Path, description = "The product item's id")),
    responses(
        (status = 200, description = "Recorded", body = Recorded),
        (status = 204, description = "Census is off; nothing recorded"),
        (status = 400, description = "Not an item id", body = ErrorAnswer),
        (status = 404, description = "No product has this id that this viewer may see (a members-only or password-protected one is not found for a viewer the gate refuses)", body = ErrorAnswer),
    ),
)]
fn record_quick_view() {}

/// `RecordEvent`: a named event with its data.
#[utoipa::path(
    post,
    path = "/api/events/RecordEvent",
    tag = "analytics",
    request_body(content = EventForm, content_type = "application/x-www-form-urlencoded"),
    responses(
        (status = 204, description = "Recorded"),
        (status = 400, description = "No name, or data that is not a JSON object", body = ErrorAnswer),
    ),
)]
fn record_event() {}

/// The events service: an event with common and custom data.
#[utoipa::path(
    post,
    path = "/api/v1/events",
    tag = "analytics",
    request_body(content(
        (ServiceEvent = "application/json"),
        (ServiceEvent = "application/x-www-form-urlencoded"),
    )),
    responses(
        (status = 202, description = "Accepted"),
        (status = 400, description = "No `analyticsId` or no `commonData` object", body = ErrorAnswer),
    ),
)]
fn events_service() {}

/// The landing pixel: where a visit came from.
#[utoipa::path(
    get,
    path = "/api/track/Track",
    tag = "analytics",
    params(
        ("landing" = String, Query, description = "The landing page's URL"),
        ("refer" = Option<String>, Query),
        ("rk" = Option<String>, Query),
        ("lang" = Option<String>, Query),
        ("screen" = Option<String>, Query),
        ("source" = Option<String>, Query),
        ("campaign" = Option<String>, Query),
    ),
    responses(
        (status = 200, description = "A 1x1 transparent GIF", content_type = "image/gif", body = Vec<u8>),
        (status = 400, description = "No landing page", body = ErrorAnswer),
    ),
)]
fn track() {}

/// `RecordJavascriptErrors`: at most 20 error reports of one page.
#[utoipa::path(
    post,
    path = "/api/events/RecordJavascriptErrors",
    tag = "analytics",
    request_body(content = Vec<ErrorReport>, content_type = "application/json"),
    responses(
        (status = 204, description = "Recorded"),
        (status = 400, description = "Not an array of reports with data, or more than 20", body = ErrorAnswer),
    ),
)]
fn record_javascript_errors() {}

/// `Trace`: the page logger's batches, as JSON or as the form field `data`.
#[utoipa::path(
    post,
    path = "/api/events/Trace",
    tag = "analytics",
    request_body(content(
        (Vec<LogBatch> = "application/json"),
        (TraceForm = "application/x-www-form-urlencoded"),
    )),
    responses(
        (status = 204, description = "Recorded"),
        (status = 400, description = "Not an array of batches with `pageUrl` and `type`", body = ErrorAnswer),
    ),
)]
fn trace() {}

/// The performance collector's settings: an id for this page load.
#[utoipa::path(
    get,
    path = "/api/1/performance/settings",
    tag = "analytics",
    responses((status = 200, description = "A fresh page load id", body = PerformanceSettings)),
)]
fn performance_settings() {}

/// Web Vitals of one page load.
#[utoipa::path(
    post,
    path = "/api/1/performance/records",
    tag = "analytics",
    request_body(content = Vec<PerformanceRecord>, content_type = "application/json"),
    responses(
        (status = 204, description = "Recorded"),
        (status = 400, description = "Not an array of records with `pageLoadId`", body = ErrorAnswer),
    ),
)]
fn performance_records() {}

/// A visitor's cookie-banner decision, kept as a receipt.
#[utoipa::path(
    post,
    path = "/api/consent/receipts",
    tag = "consent",
    request_body(content = ReceiptRequest, content_type = "application/json"),
    responses(
        (status = 201, description = "The receipt", body = ReceiptAnswer),
        (status = 400, description = "Not a choice and a source", body = ErrorAnswer),
    ),
)]
fn record_consent_receipt() {}

/// Every consent receipt as CSV, for the owner.
#[utoipa::path(
    get,
    path = "/api/consent/receipts",
    tag = "consent",
    security(("ownerToken" = [])),
    responses(
        (status = 200, description = "The receipts", content_type = "text/csv", body = String),
        (status = 404, description = "The request carries no owner credential (an API key, the owner token or an owner session) holding the permission this call needs", body = ErrorAnswer),
    ),
)]
fn export_consent_receipts() {}

/// An ad-pixel conversion seen in the browser, handed to the pixel when the visitor accepted
/// marketing cookies.
#[utoipa::path(
    post,
    path = "/api/conversions/{event}",
    tag = "consent",
    params(("event" = String, Path, description = "ViewContent, AddToCart, Search, Lead, CompleteRegistration, Purchase or Donate")),
    request_body(content = ConversionBody, content_type = "application/json"),
    responses(
        (status = 200, description = "Whether the event was handed on", body = ConversionSent),
        (status = 400, description = "Not a conversion event", body = ErrorAnswer),
        (status = 404, description = "Not an event name", body = ErrorAnswer),
    ),
)]
fn record_conversion() {}
