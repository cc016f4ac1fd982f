//! The Meta Conversions API as an [`AdPixel`]: `POST {base}/{version}/{pixel id}/events` with
//! the access token as a query parameter and a JSON body `{data: [event, ...]}`, each event
//! with `event_name`, `event_time` (Unix seconds), `event_id` (for deduplication with the
//! browser pixel), `action_source: "website"`, `event_source_url` and `custom_data`.
//! No personal data is sent: the events carry what was bought or viewed, not who did it.

use async_trait::async_trait;
use serde::Serialize;
use vitrine_core::conversions::{AdPixel, AdPixelError, ConversionEvent};

use crate::http_client::client;

/// The Graph API the events go to, and its version.
pub const META_GRAPH_URL: &str = "https://graph.facebook.com";
pub const META_API_VERSION: &str = "v21.0";

pub struct MetaConversionsApi {
    client: reqwest::Client,
    events_url: String,
    access_token: String,
}

impl MetaConversionsApi {
    /// `base_url` is [`META_GRAPH_URL`] in production, a local server in tests.
    pub fn new(base_url: &str, pixel_id: &str, access_token: &str) -> Self {
        Self {
            client: client(),
            events_url: format!(
                "{}/{META_API_VERSION}/{pixel_id}/events",
                base_url.trim_end_matches('/')
            ),
            access_token: access_token.to_owned(),
        }
    }
}

#[derive(Debug, Serialize)]
pub struct MetaEvents<'a> {
    data: Vec<MetaEvent<'a>>,
}

#[derive(Debug, Serialize)]
struct MetaEvent<'a> {
    event_name: &'static str,
    event_time: i64,
    event_id: &'a str,
    action_source: &'static str,
    event_source_url: &'a str,
    custom_data: CustomData<'a>,
}

#[derive(Debug, Serialize)]
struct CustomData<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    currency: Option<&'static str>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    content_ids: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    search_string: Option<&'a str>,
}

impl<'a> MetaEvents<'a> {
    pub fn new(events: &'a [ConversionEvent]) -> Self {
        Self {
            data: events
                .iter()
                .map(|event| MetaEvent {
                    event_name: event.name.wire(),
                    event_time: event.time.millis().div_euclid(1000),
                    event_id: &event.event_id,
                    action_source: "website",
                    event_source_url: &event.source_url,
                    custom_data: CustomData {
                        // The API takes a decimal amount in major units.
                        value: event.value.map(|(minor, currency)| {
                            minor as f64 / currency.minor_units_per_major() as f64
                        }),
                        currency: event.value.map(|(_, currency)| currency.code()),
                        content_ids: &event.content_ids,
                        search_string: event.search_string.as_deref(),
                    },
                })
                .collect(),
        }
    }
}

#[async_trait]
impl AdPixel for MetaConversionsApi {
    async fn send(&self, events: &[ConversionEvent]) -> Result<(), AdPixelError> {
        if events.is_empty() {
            return Ok(());
        }
        let url = url::Url::parse_with_params(
            &self.events_url,
            [("access_token", self.access_token.as_str())],
        )
        .map_err(|error| AdPixelError::Refused(format!("the pixel URL is invalid: {error}")))?;
        // Plain strings and numbers always serialise.
        let body = serde_json::to_vec(&MetaEvents::new(events)).unwrap_or_default();
        let response = self
            .client
            .post(url)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(body)
            .send()
            .await
            .map_err(|error| AdPixelError::Unavailable(error.without_url().to_string()))?;
        let status = response.status();
        if status.is_success() {
            return Ok(());
        }
        // The error body names the problem (e.g. an invalid token) without echoing the token.
        let body = response.text().await.unwrap_or_default();
        let detail = format!("{status}: {}", body.chars().take(300).collect::<String>());
        if status.is_server_error() || status.as_u16() == 429 {
            Err(AdPixelError::Unavailable(detail))
        } else {
            Err(AdPixelError::Refused(detail))
        }
    }
}
