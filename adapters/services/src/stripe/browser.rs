//! Stripe's card fields in the shopper's browser (Stripe.js and its Payment Element): the
//! publishable key the script names the shop with, where the script is loaded from, the
//! origins the checkout page's Content-Security-Policy must allow for it (Stripe documents
//! `js.stripe.com` for the script and its frames, `api.stripe.com` for its calls and
//! `hooks.stripe.com` for the bank's verification pages), and the sentences a shopper reads
//! when a payment fails, by Stripe's error and decline codes.

use vitrine_core::checkout::{BrowserCardFields, DECLINED_MESSAGE};

/// Stripe.js, version 3, from the only place Stripe allows it to be loaded.
pub const STRIPE_JS_URL: &str = "https://js.stripe.com/v3/";

/// A publishable key (`pk_`), meant for browsers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StripePublishableKey(String);

/// Why a configured key cannot be a Stripe publishable key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "this is not a Stripe publishable key: it starts with pk_test_ or pk_live_, followed by letters, digits and underscores"
)]
pub struct InvalidPublishableKey;

impl StripePublishableKey {
    pub fn parse(key: &str) -> Result<Self, InvalidPublishableKey> {
        let key = key.trim();
        let rest = key
            .strip_prefix("pk_test_")
            .or_else(|| key.strip_prefix("pk_live_"))
            .ok_or(InvalidPublishableKey)?;
        if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return Err(InvalidPublishableKey);
        }
        Ok(Self(key.to_owned()))
    }

    pub fn is_test_mode(&self) -> bool {
        self.0.starts_with("pk_test_")
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Where the browser's half of a Stripe payment comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StripeBrowser {
    pub publishable_key: StripePublishableKey,
    /// [`STRIPE_JS_URL`] in production; a stand-in speaking to a local fake in tests.
    pub script_url: url::Url,
}

impl StripeBrowser {
    /// What the checkout page needs. Stripe's own script gets Stripe's documented hosts;
    /// any other script (the test stand-in) gets its own origin for everything, since it
    /// calls and shows pages of the server that serves it.
    pub fn card_fields(&self) -> BrowserCardFields {
        let own = self.script_url.origin().ascii_serialization();
        let is_stripes = self.script_url.as_str() == STRIPE_JS_URL;
        let (scripts, connect, frames) = if is_stripes {
            (
                vec!["https://js.stripe.com".to_owned()],
                vec!["https://api.stripe.com".to_owned()],
                vec![
                    "https://js.stripe.com".to_owned(),
                    "https://hooks.stripe.com".to_owned(),
                ],
            )
        } else {
            (vec![own.clone()], vec![own.clone()], vec![own])
        };
        BrowserCardFields {
            publishable_key: self.publishable_key.as_str().to_owned(),
            script_url: self.script_url.as_str().to_owned(),
            script_origins: scripts,
            connect_origins: connect,
            frame_origins: frames,
        }
    }
}

/// What a shopper reads when a payment failed, by Stripe's error `code` and `decline_code`
/// (our texts: Stripe's own messages are written for developers as often as for shoppers).
/// Every sentence says that nothing was charged and what to do next.
pub fn failure_message<'a>(code: Option<&'a str>, decline_code: Option<&'a str>) -> String {
    let given = |code: Option<&'a str>| code.filter(|code| !code.is_empty());
    let sentence = match given(decline_code).or(given(code)) {
        Some("insufficient_funds") => {
            "Your card has insufficient funds. Nothing was charged. Please use another card."
        }
        Some("expired_card") => {
            "Your card has expired. Nothing was charged. Please use another card."
        }
        Some("incorrect_cvc" | "invalid_cvc") => {
            "The card's security code is incorrect. Nothing was charged. Please check it and try again."
        }
        Some("incorrect_number" | "invalid_number") => {
            "The card number is incorrect. Nothing was charged. Please check it and try again."
        }
        Some("invalid_expiry_month" | "invalid_expiry_year") => {
            "The card's expiry date is incorrect. Nothing was charged. Please check it and try again."
        }
        Some("lost_card" | "stolen_card" | "pickup_card" | "restricted_card") => {
            "Your card cannot be used for this payment. Nothing was charged. Please contact your bank or use another card."
        }
        Some("card_velocity_exceeded" | "withdrawal_count_limit_exceeded") => {
            "Your card has reached its spending limit. Nothing was charged. Please use another card."
        }
        Some(
            "authentication_required"
            | "payment_intent_authentication_failure"
            | "authentication_failure",
        ) => {
            "Your bank could not verify this payment, so nothing was charged. Please try again or use another card."
        }
        Some("processing_error") => {
            "Your bank could not process the payment just now. Nothing was charged. Please try again in a moment."
        }
        Some("currency_not_supported" | "card_not_supported") => {
            "Your card does not support this kind of payment. Nothing was charged. Please use another card."
        }
        _ => DECLINED_MESSAGE,
    };
    sentence.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn publishable_keys_are_taken_and_secret_keys_refused() {
        for key in ["pk_test_51Habc", " pk_live_9_x "] {
            assert!(StripePublishableKey::parse(key).is_ok(), "{key}");
        }
        for key in ["", "pk_test_", "sk_test_51H", "pk_demo_1", "pk_test_a b"] {
            assert_eq!(
                StripePublishableKey::parse(key),
                Err(InvalidPublishableKey),
                "{key}"
            );
        }
        assert!(
            StripePublishableKey::parse("pk_test_1")
                .unwrap()
                .is_test_mode()
        );
        assert!(
            !StripePublishableKey::parse("pk_live_1")
                .unwrap()
                .is_test_mode()
        );
    }

    #[test]
    fn stripes_script_is_allowed_stripes_documented_hosts_and_a_stand_in_its_own_origin() {
        let key = StripePublishableKey::parse("pk_test_1").unwrap();
        let real = StripeBrowser {
            publishable_key: key.clone(),
            script_url: STRIPE_JS_URL.parse().unwrap(),
        }
        .card_fields();
        assert_eq!(real.script_url, STRIPE_JS_URL);
        assert_eq!(real.script_origins, ["https://js.stripe.com"]);
        assert_eq!(real.connect_origins, ["https://api.stripe.com"]);
        assert_eq!(
            real.frame_origins,
            ["https://js.stripe.com", "https://hooks.stripe.com"]
        );
        let stand_in = StripeBrowser {
            publishable_key: key,
            script_url: "http://127.0.0.1:4242/v3/".parse().unwrap(),
        }
        .card_fields();
        for origins in [
            &stand_in.script_origins,
            &stand_in.connect_origins,
            &stand_in.frame_origins,
        ] {
            assert_eq!(origins, &["http://127.0.0.1:4242"]);
        }
    }

    #[test]
    fn each_failure_reads_as_a_sentence_that_says_nothing_was_charged() {
        let codes = [
            (
                Some("card_declined"),
                Some("insufficient_funds"),
                "insufficient funds",
            ),
            (Some("expired_card"), None, "expired"),
            (Some("incorrect_cvc"), None, "security code"),
            (
                Some("payment_intent_authentication_failure"),
                None,
                "could not verify",
            ),
            (
                Some("card_declined"),
                Some("stolen_card"),
                "contact your bank",
            ),
            (Some("card_declined"), Some("generic_decline"), "declined"),
            (None, None, "declined"),
        ];
        for (code, decline_code, words) in codes {
            let message = failure_message(code, decline_code);
            assert!(
                message.contains(words),
                "{code:?}/{decline_code:?}: {message}"
            );
            assert!(
                message.contains("Nothing was charged")
                    || message.contains("nothing was charged")
                    || message == DECLINED_MESSAGE,
                "{message}"
            );
        }
    }
}
