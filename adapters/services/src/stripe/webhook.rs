//! Stripe's webhooks as [`PaymentReports`]: the `Stripe-Signature` header checked against the
//! endpoint's signing secrets, and the events that move an order's payment read into the
//! core's [`PaymentEvent`].
//!
//! Stripe signs as Vitrine's own webhooks do (see [`crate::signature`]): HMAC-SHA256 keyed
//! with the endpoint's secret over `"{t}.{body}"`, lowercase hex. Its header carries the
//! timestamp and one `v1` signature per secret that is active while Stripe rolls a secret
//! over: `t=1700000000,v1=5257a8...,v1=9d1f0c...` (and `v0`, from test mode's old scheme,
//! which is ignored). The shop may hold several secrets too, so a rotation on either side
//! never refuses a genuine event.

use serde::Deserialize;
use vitrine_core::checkout::{
    PaymentEvent, PaymentOutcome, PaymentReports, ProviderReport, ReportRefusal,
};

use crate::signature::{TOLERANCE_SECONDS, sign, verify};

/// The header Stripe signs its webhooks in.
pub const STRIPE_SIGNATURE_HEADER: &str = "Stripe-Signature";

/// The metadata key the gateway writes the charge's idempotency key under.
pub(crate) const IDEMPOTENCY_KEY_METADATA: &str = "vitrine_idempotency_key";

/// An endpoint's signing secret (`whsec_...`). Its `Debug` hides it.
#[derive(Clone, PartialEq, Eq)]
pub struct StripeWebhookSecret(String);

/// Why a configured value cannot be a webhook signing secret; it never repeats the value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "this is not a Stripe webhook signing secret: it starts with whsec_ (Stripe shows it on the webhook endpoint's page)"
)]
pub struct InvalidWebhookSecret;

impl StripeWebhookSecret {
    pub fn parse(secret: &str) -> Result<Self, InvalidWebhookSecret> {
        let secret = secret.trim();
        match secret.strip_prefix("whsec_") {
            Some(rest) if !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_alphanumeric()) => {
                Ok(Self(secret.to_owned()))
            }
            _ => Err(InvalidWebhookSecret),
        }
    }

    /// The `Stripe-Signature` header Stripe would send with `body` at `timestamp`, for
    /// senders of test events (the local Stripe fake, router tests).
    pub fn signature_header(&self, timestamp: i64, body: &[u8]) -> String {
        let signature = sign(self.0.as_bytes(), timestamp, body);
        format!("t={timestamp},{signature}")
    }
}

impl std::fmt::Debug for StripeWebhookSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StripeWebhookSecret(whsec_…)")
    }
}

/// Reads the webhooks of one Stripe endpoint, signed with any of its secrets.
#[derive(Debug, Clone)]
pub struct StripeWebhooks {
    secrets: Vec<StripeWebhookSecret>,
}

impl StripeWebhooks {
    /// `secrets` holds at least one; more while a secret is being rotated.
    pub fn new(secrets: Vec<StripeWebhookSecret>) -> Self {
        Self { secrets }
    }
}

/// The parts of `Stripe-Signature`: its timestamp and every `v1` signature.
fn parse_header(header: &str) -> Option<(i64, Vec<&str>)> {
    let mut timestamp = None;
    let mut signatures = Vec::new();
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", value)) => timestamp = Some(value.parse::<i64>().ok()?),
            Some(("v1", value)) => signatures.push(value),
            _ => {}
        }
    }
    Some((timestamp?, signatures))
}

impl PaymentReports for StripeWebhooks {
    fn read(
        &self,
        signature: &str,
        body: &[u8],
        now_seconds: i64,
    ) -> Result<ProviderReport, ReportRefusal> {
        let (timestamp, signatures) = parse_header(signature).ok_or(ReportRefusal::BadSignature)?;
        if now_seconds.abs_diff(timestamp) > TOLERANCE_SECONDS.unsigned_abs() {
            return Err(ReportRefusal::Stale);
        }
        // Every pair is checked, so the time taken says nothing about which one matched;
        // each comparison is constant-time (the MAC's own `verify_slice`, over `subtle`).
        let matched = self
            .secrets
            .iter()
            .flat_map(|secret| {
                signatures.iter().map(move |given| {
                    verify(
                        secret.0.as_bytes(),
                        timestamp,
                        body,
                        &format!("v1={given}"),
                        now_seconds,
                    )
                })
            })
            .fold(false, |any, this| any | this);
        if !matched {
            return Err(ReportRefusal::BadSignature);
        }
        read_event(body)
    }
}

/// An event: its id, type and the object it is about.
#[derive(Debug, Deserialize)]
struct Event {
    id: String,
    #[serde(rename = "type")]
    kind: String,
    data: EventData,
}

#[derive(Debug, Deserialize)]
struct EventData {
    object: serde_json::Value,
}

/// The fields of a PaymentIntent, Charge or Dispute that name the charge.
#[derive(Debug, Deserialize)]
struct ChargeObject {
    id: String,
    #[serde(default)]
    payment_intent: Option<String>,
    #[serde(default)]
    metadata: std::collections::BTreeMap<String, String>,
    /// On a Charge: whether all of it was given back.
    #[serde(default)]
    refunded: bool,
}

/// Reads a signed event body.
fn read_event(body: &[u8]) -> Result<ProviderReport, ReportRefusal> {
    let malformed = |error: serde_json::Error| ReportRefusal::Malformed(error.to_string());
    let event: Event = serde_json::from_slice(body).map_err(malformed)?;
    let ignored = |event: Event| ProviderReport::Ignored {
        id: event.id,
        kind: event.kind,
    };
    let outcome = match event.kind.as_str() {
        "payment_intent.succeeded" => PaymentOutcome::Succeeded,
        // Stripe puts the intent back to `requires_payment_method`: for an intent the payer
        // confirms in the browser another card may follow; only `canceled` is final.
        "payment_intent.payment_failed" => PaymentOutcome::Declined,
        "payment_intent.canceled" => PaymentOutcome::Failed,
        "charge.refunded" => PaymentOutcome::Refunded,
        "charge.dispute.created" => PaymentOutcome::Disputed,
        _ => return Ok(ignored(event)),
    };
    let object: ChargeObject =
        serde_json::from_value(event.data.object.clone()).map_err(malformed)?;
    // A PaymentIntent is the charge itself; a Charge or a Dispute names its PaymentIntent,
    // which is the id the gateway stored as the order's payment.
    let payment_id = if event.kind.starts_with("payment_intent.") {
        object.id
    } else {
        match object.payment_intent {
            Some(id) => id,
            // A charge made without a PaymentIntent was not made by this shop.
            None => return Ok(ignored(event)),
        }
    };
    if outcome == PaymentOutcome::Refunded && !object.refunded {
        // A partial refund leaves the order paid; the owner made it and sees it at Stripe.
        return Ok(ignored(event));
    }
    Ok(ProviderReport::Payment(PaymentEvent {
        id: event.id,
        payment_id,
        payment_key: object.metadata.get(IDEMPOTENCY_KEY_METADATA).cloned(),
        outcome,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_800_000_000;

    fn secret(text: &str) -> StripeWebhookSecret {
        StripeWebhookSecret::parse(text).unwrap()
    }

    fn succeeded() -> Vec<u8> {
        serde_json::json!({
            "id": "evt_1",
            "object": "event",
            "type": "payment_intent.succeeded",
            "data": { "object": {
                "id": "pi_1",
                "object": "payment_intent",
                "metadata": { "vitrine_idempotency_key": "form-key-1" },
            }},
        })
        .to_string()
        .into_bytes()
    }

    #[test]
    fn secrets_must_look_like_stripes_and_are_never_shown() {
        assert!(StripeWebhookSecret::parse(" whsec_abc123 ").is_ok());
        for bad in ["", "whsec_", "sk_test_abc", "whsec_a b", "abc"] {
            assert!(StripeWebhookSecret::parse(bad).is_err(), "{bad}");
        }
        assert!(!format!("{:?}", secret("whsec_topsecret")).contains("topsecret"));
    }

    #[test]
    fn an_event_signed_with_any_current_secret_is_read() {
        let old = secret("whsec_old");
        let new = secret("whsec_new");
        let webhooks = StripeWebhooks::new(vec![old.clone(), new.clone()]);
        let body = succeeded();
        let expected = ProviderReport::Payment(PaymentEvent {
            id: "evt_1".into(),
            payment_id: "pi_1".into(),
            payment_key: Some("form-key-1".into()),
            outcome: PaymentOutcome::Succeeded,
        });
        for signer in [&old, &new] {
            let header = signer.signature_header(NOW, &body);
            assert_eq!(
                webhooks.read(&header, &body, NOW + 10),
                Ok(expected.clone())
            );
        }
        // Stripe rolling its secret sends one signature per secret, in any order.
        let other = secret("whsec_unknown").signature_header(NOW, &body);
        let rolled = format!("{other},{}", &new.signature_header(NOW, &body)[13..]);
        assert!(rolled.matches("v1=").count() == 2, "{rolled}");
        assert_eq!(webhooks.read(&rolled, &body, NOW), Ok(expected));
    }

    #[test]
    fn a_wrong_missing_or_old_signature_is_refused() {
        let key = secret("whsec_current");
        let webhooks = StripeWebhooks::new(vec![key.clone()]);
        let body = succeeded();
        let header = key.signature_header(NOW, &body);
        let refused = |header: &str, body: &[u8], now: i64| webhooks.read(header, body, now);
        assert_eq!(
            refused(&header, b"{\"id\":\"evt_2\"}", NOW),
            Err(ReportRefusal::BadSignature)
        );
        assert_eq!(
            refused(
                &secret("whsec_other").signature_header(NOW, &body),
                &body,
                NOW
            ),
            Err(ReportRefusal::BadSignature)
        );
        for broken in [
            "",
            "t=abc,v1=00",
            "v1=00",
            &format!("t={NOW}"),
            &format!("t={NOW},v0=00"),
        ] {
            assert_eq!(
                refused(broken, &body, NOW),
                Err(ReportRefusal::BadSignature),
                "{broken}"
            );
        }
        assert_eq!(
            refused(&header, &body, NOW + 301),
            Err(ReportRefusal::Stale)
        );
        assert_eq!(
            refused(&header, &body, NOW - 301),
            Err(ReportRefusal::Stale)
        );
        assert!(refused(&header, &body, NOW + 300).is_ok());
    }

    #[test]
    fn events_read_as_the_outcome_of_the_payment_intent_they_name() {
        let read = |kind: &str, object: serde_json::Value| {
            let body =
                serde_json::json!({ "id": "evt_9", "type": kind, "data": { "object": object } });
            read_event(body.to_string().as_bytes())
        };
        let payment = |outcome| {
            Ok(ProviderReport::Payment(PaymentEvent {
                id: "evt_9".into(),
                payment_id: "pi_7".into(),
                payment_key: None,
                outcome,
            }))
        };
        assert_eq!(
            read(
                "payment_intent.payment_failed",
                serde_json::json!({ "id": "pi_7" })
            ),
            payment(PaymentOutcome::Declined)
        );
        assert_eq!(
            read(
                "payment_intent.canceled",
                serde_json::json!({ "id": "pi_7" })
            ),
            payment(PaymentOutcome::Failed)
        );
        assert_eq!(
            read(
                "charge.refunded",
                serde_json::json!({ "id": "ch_1", "payment_intent": "pi_7", "refunded": true })
            ),
            payment(PaymentOutcome::Refunded)
        );
        assert_eq!(
            read(
                "charge.dispute.created",
                serde_json::json!({ "id": "dp_1", "charge": "ch_1", "payment_intent": "pi_7" })
            ),
            payment(PaymentOutcome::Disputed)
        );
        let ignored = |kind: &str| {
            Ok(ProviderReport::Ignored {
                id: "evt_9".into(),
                kind: kind.into(),
            })
        };
        assert_eq!(
            read("customer.created", serde_json::json!({ "id": "cus_1" })),
            ignored("customer.created")
        );
        assert_eq!(
            read(
                "charge.refunded",
                serde_json::json!({ "id": "ch_1", "payment_intent": "pi_7", "refunded": false })
            ),
            ignored("charge.refunded"),
            "a partial refund"
        );
        assert!(matches!(
            read_event(b"not json"),
            Err(ReportRefusal::Malformed(_))
        ));
        assert!(matches!(
            read(
                "payment_intent.succeeded",
                serde_json::json!({ "status": "succeeded" })
            ),
            Err(ReportRefusal::Malformed(_))
        ));
    }
}
