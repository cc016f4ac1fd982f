//! The analytics hit payload (000 s3): the `data` JSON of `POST /api/census/RecordHit`.

use serde::{Deserialize, Serialize};

/// Whether the page shows an item or a collection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ContentSource {
    #[serde(rename = "i")]
    Item,
    #[serde(rename = "c")]
    Collection,
}

/// One page view as the browser reports it. Unknown fields are ignored and every field but
/// the page path is optional, because old pages in caches may send fewer fields; the path is
/// what a hit counts.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct HitPayload {
    pub website_id: Option<String>,
    pub template_id: Option<String>,
    #[serde(rename = "website_locale")]
    pub website_locale: Option<String>,
    pub user_agent: Option<String>,
    pub client_date: Option<i64>,
    pub viewport_inner_width: Option<u32>,
    pub viewport_inner_height: Option<u32>,
    pub screen_width: Option<u32>,
    pub screen_height: Option<u32>,
    pub url: Option<String>,
    pub title: Option<String>,
    pub item_id: Option<String>,
    pub record_type: Option<u32>,
    pub collection_id: Option<String>,
    pub page_permission_type_value: Option<u32>,
    pub visitor_cookie: Option<String>,
    pub page_title: Option<String>,
    pub page_id: Option<String>,
    pub content_source: Option<ContentSource>,
    pub page_path: String,
    /// Beyond the spec's payload: `document.referrer`, from which the owner's report keeps only
    /// the referring site's host (see `report::kept_data`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub referrer: Option<String>,
    /// The native-app flag of the internal tracker (000 s7): the page ran inside the native
    /// app or on the mobile-app web platform. Kept only when true.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub native_app: bool,
}

/// Why a hit payload was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HitPayloadError {
    #[error("the hit data is not valid JSON of the expected shape: {0}")]
    Malformed(String),
    #[error("the page path must start with / and be at most 2048 characters")]
    BadPath,
}

impl HitPayload {
    /// Reads the `data` field of a hit.
    pub fn parse(data: &str) -> Result<Self, HitPayloadError> {
        let payload: Self =
            serde_json::from_str(data).map_err(|e| HitPayloadError::Malformed(e.to_string()))?;
        if !payload.page_path.starts_with('/') || payload.page_path.len() > 2048 {
            return Err(HitPayloadError::BadPath);
        }
        Ok(payload)
    }
}
