//! The wire shapes the API description refers to. They describe bodies the handlers read and
//! write through their own types (often a JSON map read field by field, so that each field's
//! error can name it); the schemathesis run keeps the two in step.

// The types here are only ever described, never built or read.
#![allow(dead_code)]

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;

/// Any JSON object.
pub type JsonObject = BTreeMap<String, Value>;

/// An API error: `error` is the text to show (the specification's where it has one);
/// `crumbFail` asks the web request layer to retry once with the fresh crumb it was given.
/// Some calls add fields of their own: `errors` (per field), `field`, `reason`, `target`.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct ErrorAnswer {
    pub error: String,
    #[schema(required = false)]
    pub crumb_fail: bool,
    /// The message of each invalid form field, by field id.
    #[schema(required = false)]
    pub errors: BTreeMap<String, String>,
    /// The request field that was refused.
    #[schema(required = false)]
    pub field: String,
    /// A machine-readable reason, such as `OUT_OF_STOCK`.
    #[schema(required = false)]
    pub reason: String,
    /// What the reason is about (a SKU, a coupon code, a field id).
    #[schema(required = false)]
    pub target: String,
}

/// The `GetWidgetRendering` form.
#[derive(ToSchema)]
pub struct WidgetForm {
    /// `{"type": code or custom type name, "id": block id, "value": block JSON,
    /// "collectionId"?: collection}`, as JSON text.
    #[schema(rename = "widgetJSON")]
    pub widget_json: String,
}

/// The block's HTML, which replaces its content on the page.
#[derive(ToSchema)]
pub struct WidgetRendering {
    pub html: String,
}

#[derive(ToSchema)]
pub struct FormKey {
    /// A one-time key for one submission, which also makes sending it again idempotent.
    pub key: String,
}

/// `SaveFormSubmission` (000 s7), form-encoded or JSON.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct FormSubmission {
    #[schema(required = false)]
    pub key: String,
    #[schema(required = false)]
    pub form_id: String,
    #[schema(required = false)]
    pub collection_id: String,
    #[schema(required = false)]
    pub object_name: String,
    /// `true`, `"true"`, `"on"` or `"1"`.
    #[schema(required = false)]
    pub is_overlay_form: String,
    #[schema(required = false)]
    pub submit_button_text: String,
    /// Field id to value, as a JSON object or as JSON text.
    #[schema(required = false)]
    pub form: String,
    #[schema(required = false)]
    pub captcha_key: String,
    /// The hidden input people never fill.
    #[schema(required = false)]
    pub honeypot: String,
}

#[derive(ToSchema)]
pub struct FormSaved {
    pub success: bool,
}

/// `RecordHit` (000 s7).
#[derive(ToSchema)]
pub struct HitForm {
    /// The hit as JSON text: `{"pagePath": "/...", ...}`.
    pub data: String,
    /// The visitor cookie's value, when tracking is allowed.
    #[schema(required = false)]
    pub ss_cvr: String,
}

#[derive(ToSchema)]
pub struct HitRecorded {
    pub recorded: bool,
    #[schema(required = false)]
    pub cookieless: bool,
    /// Why the hit was not counted, such as `census-disabled` or `not-found-page`.
    #[schema(required = false)]
    pub excluded: String,
}

#[derive(ToSchema)]
pub struct Recorded {
    pub recorded: bool,
}

/// `RecordEvent`.
#[derive(ToSchema)]
pub struct EventForm {
    #[schema(min_length = 1)]
    pub event: String,
    /// A JSON object as text.
    pub data: String,
}

/// The events service's call, form-encoded or JSON.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct ServiceEvent {
    #[schema(min_length = 1)]
    pub analytics_id: String,
    /// A JSON object as text.
    pub common_data: String,
    /// A JSON object as text.
    #[schema(required = false)]
    pub custom_data: String,
    #[schema(required = false)]
    pub custom_schema_name: String,
}

/// One error report; `event` and `timestamp` are stored as they come, whatever their type.
#[derive(ToSchema)]
pub struct ErrorReport {
    #[schema(value_type = Object)]
    pub data: Value,
    #[schema(required = false, value_type = Value)]
    pub event: Value,
    #[schema(required = false, value_type = Value)]
    pub timestamp: Value,
}

/// One batch of the page logger.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct LogBatch {
    pub page_url: String,
    #[schema(rename = "type")]
    pub kind: String,
}

/// The `Trace` form: the batches as JSON text.
#[derive(ToSchema)]
pub struct TraceForm {
    pub data: String,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct PerformanceSettings {
    pub page_load_id: String,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct PerformanceRecord {
    pub page_load_id: String,
}

#[derive(ToSchema)]
#[schema(rename_all = "lowercase")]
pub enum ConsentChoice {
    Accepted,
    Declined,
}

#[derive(ToSchema)]
#[schema(rename_all = "lowercase")]
pub enum ConsentSource {
    Banner,
    Gpc,
}

#[derive(ToSchema)]
pub struct ReceiptRequest {
    pub choice: ConsentChoice,
    pub source: ConsentSource,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct ReceiptAnswer {
    /// 32 hex digits.
    pub id: String,
    pub banner_version: u32,
    pub choice: ConsentChoice,
    pub source: ConsentSource,
    pub recorded_at_ms: i64,
}

/// An ad-pixel conversion seen in the browser.
#[derive(ToSchema, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ConversionBody {
    #[schema(min_length = 1, max_length = 128)]
    pub event_id: String,
    #[schema(required = false)]
    pub source_url: String,
    /// Minor units; comes with `currency`.
    pub value_cents: Option<i64>,
    /// An ISO 4217 code; comes with `valueCents`.
    pub currency: Option<String>,
    #[schema(required = false)]
    pub content_ids: Vec<String>,
    pub search_string: Option<String>,
}

#[derive(ToSchema)]
pub struct ConversionSent {
    pub sent: bool,
}

/// The shopper's cart after a call, and what the call changed that the shopper should know.
#[derive(ToSchema)]
pub struct CartAnswer {
    #[schema(value_type = Object)]
    pub cart: JsonObject,
    #[schema(value_type = Vec<Object>)]
    pub warnings: Vec<JsonObject>,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct AddToCart {
    #[schema(min_length = 1)]
    pub item_id: String,
    #[schema(min_length = 1)]
    pub sku: String,
    #[schema(minimum = 0, maximum = 9999)]
    pub quantity: u32,
    /// The product form's answers, field id to text.
    pub form: Option<BTreeMap<String, String>>,
}

#[derive(ToSchema)]
pub struct Quantity {
    #[schema(minimum = 0, maximum = 9999)]
    pub quantity: u32,
}

#[derive(ToSchema)]
pub struct LineAnswers {
    /// Field id to text.
    pub form: Option<BTreeMap<String, String>>,
}

/// A cart line's product form, with the answers so far.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct LineForm {
    pub line_id: String,
    pub product_name: String,
    pub sku: String,
    #[schema(value_type = Object)]
    pub form: JsonObject,
    pub answers: BTreeMap<String, String>,
}

#[derive(ToSchema)]
pub struct CouponBody {
    #[schema(min_length = 1)]
    pub code: String,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct ShippingLocation {
    /// Two letters.
    #[schema(pattern = "^[A-Za-z]{2}$")]
    pub country: String,
    pub region: Option<String>,
    pub postal_code: Option<String>,
}

#[derive(ToSchema)]
pub struct ShippingOption {
    pub id: String,
}

/// A review of one purchased product, through the token of its review request.
#[derive(ToSchema, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReviewBody {
    pub token: String,
    pub sku: String,
    /// 1 to 5 stars.
    #[schema(minimum = 0, maximum = 255)]
    #[schema(required = false)]
    pub rating: u8,
    #[schema(required = false)]
    pub title: String,
    #[schema(required = false)]
    pub body: String,
}

#[derive(ToSchema)]
pub struct ReviewThanks {
    pub message: String,
}

#[derive(ToSchema, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReviewRequestBody {
    #[schema(required = false)]
    pub author_name: String,
}

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct ReviewRequestCreated {
    pub token: String,
    pub url: String,
    pub expires_at: i64,
}

/// One place an autocomplete answer suggests.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct PlacePrediction {
    /// The id to ask the details of.
    pub place_id: String,
    /// `mainText`, then `secondaryText` after a comma when there is one.
    pub description: String,
    /// The name or the street address.
    pub main_text: String,
    /// Street, town, region and country, as far as known.
    pub secondary_text: String,
}

#[derive(ToSchema)]
pub struct PlacePredictions {
    pub predictions: Vec<PlacePrediction>,
}

/// A place in the terms of a map block's location.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct Place {
    pub place_id: String,
    pub name: String,
    pub address_line1: String,
    pub address_line2: String,
    pub address_country: String,
    /// Degrees, -90 to 90.
    pub lat: f64,
    /// Degrees, -180 to 180.
    pub lng: f64,
}

#[derive(ToSchema)]
pub struct PlaceAnswer {
    pub result: Place,
}

/// The refunds the payment provider did not make, oldest first.
#[derive(ToSchema)]
pub struct FailedRefunds {
    pub refunds: Vec<FailedRefundEntry>,
}

/// A charge to give back by hand.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct FailedRefundEntry {
    /// The payment provider's id of the charge.
    pub payment_id: String,
    /// The checkout form's key the charge was made under.
    pub idempotency_key: String,
    /// What the provider (or the network) said.
    pub reason: String,
    /// When the refund was asked for, in Unix milliseconds.
    pub claimed_at: i64,
}

/// A Stripe event taken.
#[derive(ToSchema)]
pub struct StripeEventReceived {
    /// Always true.
    pub received: bool,
    /// `recorded`, `duplicate` (taken before) or `ignored` (a kind the shop does not act on).
    pub outcome: String,
}
