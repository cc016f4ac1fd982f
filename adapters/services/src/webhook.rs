//! The webhook sender: a submission as JSON, POSTed to the owner's URL and signed with
//! HMAC-SHA256 as [`crate::signature`] describes.

use std::collections::BTreeMap;

use async_trait::async_trait;
use reqwest::StatusCode;
use serde::Serialize;
use vitrine_core::forms::{FieldValue, SendError, SubmissionNotice, WebhookSender};

use crate::signature::{DELIVERY_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, sign};

/// The JSON a webhook receives.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WebhookBody {
    /// `form.submission`, or `newsletter.subscription` for a newsletter subscriber.
    pub event: &'static str,
    pub delivery_id: i64,
    pub submission: SubmissionBody,
    pub subscriber: Option<SubscriberBody>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SubmissionBody {
    pub id: i64,
    pub form_id: String,
    pub collection_id: Option<String>,
    pub object_name: String,
    pub is_overlay_form: bool,
    /// Unix seconds.
    pub created_at: i64,
    /// Field id to value, in the value shapes of spec 000 s3.
    pub values: BTreeMap<String, FieldValue>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SubscriberBody {
    pub email: String,
    pub unsubscribe_url: Option<String>,
}

impl From<&SubmissionNotice> for WebhookBody {
    fn from(notice: &SubmissionNotice) -> Self {
        let submission = &notice.submission;
        let subscriber = notice
            .subscriber_email
            .as_ref()
            .map(|email| SubscriberBody {
                email: email.clone(),
                unsubscribe_url: notice.unsubscribe_url.clone(),
            });
        Self {
            event: if subscriber.is_some() {
                "newsletter.subscription"
            } else {
                "form.submission"
            },
            delivery_id: notice.delivery_id,
            submission: SubmissionBody {
                id: submission.id,
                form_id: submission.form_id.clone(),
                collection_id: submission.collection_id.clone(),
                object_name: submission.object_name.clone(),
                is_overlay_form: submission.is_overlay_form,
                created_at: submission.created_at,
                values: notice.values.clone(),
            },
            subscriber,
        }
    }
}

/// Posts signed notices to one URL.
pub struct SignedWebhook {
    client: reqwest::Client,
    url: url::Url,
    secret: Vec<u8>,
}

impl SignedWebhook {
    pub fn new(url: url::Url, secret: impl Into<Vec<u8>>) -> Self {
        Self {
            client: crate::http_client::client(),
            url,
            secret: secret.into(),
        }
    }
}

#[async_trait]
impl WebhookSender for SignedWebhook {
    async fn send(&self, notice: &SubmissionNotice, now: i64) -> Result<(), SendError> {
        let body = serde_json::to_vec(&WebhookBody::from(notice))
            .map_err(|error| SendError::Permanent(error.to_string()))?;
        let response = self
            .client
            .post(self.url.clone())
            .header("Content-Type", "application/json")
            .header(TIMESTAMP_HEADER, now.to_string())
            .header(SIGNATURE_HEADER, sign(&self.secret, now, &body))
            .header(DELIVERY_HEADER, notice.delivery_id.to_string())
            .body(body)
            .send()
            .await
            .map_err(|error| SendError::Temporary(error.to_string()))?;
        let status = response.status();
        match status {
            _ if status.is_success() => Ok(()),
            // Overloaded, rate-limited or down for a while: worth another try.
            StatusCode::REQUEST_TIMEOUT | StatusCode::TOO_MANY_REQUESTS => Err(
                SendError::Temporary(format!("the webhook answered {status}")),
            ),
            _ if status.is_server_error() => Err(SendError::Temporary(format!(
                "the webhook answered {status}"
            ))),
            // Any other answer (a 4xx, a redirect) says the receiver refuses this request as
            // it is; resending the same bytes cannot change that.
            _ => Err(SendError::Permanent(format!(
                "the webhook answered {status}"
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use vitrine_core::forms::StoredSubmission;

    use super::*;

    #[test]
    fn the_webhook_body_keeps_its_shape() {
        let notice = SubmissionNotice {
            delivery_id: 3,
            submission: StoredSubmission {
                id: 9,
                form_id: "newsletter-1".into(),
                collection_id: Some("home".into()),
                object_name: String::new(),
                is_overlay_form: false,
                values_json: String::new(),
                spam: false,
                created_at: 1_700_000_000,
            },
            values: BTreeMap::from([(
                "email".to_owned(),
                FieldValue::Single("ada@example.com".into()),
            )]),
            subscriber_email: Some("ada@example.com".into()),
            unsubscribe_url: Some("https://shop.example/newsletter/unsubscribe?token=t".into()),
        };
        insta::assert_json_snapshot!(WebhookBody::from(&notice));
    }
}
