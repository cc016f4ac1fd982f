//! The signed links in every subscription mail: the subscription's page, where the shopper
//! cancels, pauses, resumes or updates the card without signing in. A link is the
//! subscription's id with an expiry and an HMAC-SHA256 over both, made with a key derived
//! from the order link key, so an order link never opens a subscription or the other way
//! round.

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use super::order_link::{OrderLinkError, OrderLinkKey};
use crate::cart::Timestamp;

/// Where a subscription's page lives: `/commerce/subscriptions/{id}?sig=...`.
pub const SUBSCRIPTIONS_PATH: &str = "/commerce/subscriptions";

/// The query parameter holding a link's signature.
pub const SUBSCRIPTION_LINK_PARAMETER: &str = "sig";

/// How long a mailed link works: 120 days, so the link in the mail of a quarterly renewal
/// still opens the page when the next mail is due. Not given by the issue.
pub const SUBSCRIPTION_LINK_LIFETIME_SECONDS: i64 = 120 * 24 * 60 * 60;

/// What is escaped of an id in the link's path: all but letters, digits, `-` and `_`.
const ID_IN_PATH: &percent_encoding::AsciiSet =
    &percent_encoding::NON_ALPHANUMERIC.remove(b'-').remove(b'_');

/// Signs and checks subscription links, and writes them for a site's public address.
#[derive(Clone)]
pub struct SubscriptionLinks {
    /// The public URL without a trailing slash.
    base: String,
    key: [u8; 32],
}

impl std::fmt::Debug for SubscriptionLinks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SubscriptionLinks")
            .field("base", &self.base)
            .finish_non_exhaustive()
    }
}

impl SubscriptionLinks {
    pub fn new(public_url: &str, key: &OrderLinkKey) -> Self {
        Self {
            base: public_url.trim_end_matches('/').to_owned(),
            key: key.derived_key("subscription-link"),
        }
    }

    fn mac(&self, id: &str, expires: i64) -> Hmac<Sha256> {
        let mut mac =
            Hmac::<Sha256>::new_from_slice(&self.key).expect("HMAC takes keys of any length");
        mac.update(id.as_bytes());
        mac.update(b"\0");
        mac.update(expires.to_string().as_bytes());
        mac
    }

    /// The signature of a link to subscription `id` made at `now`.
    pub fn sign(&self, id: &str, now: Timestamp) -> String {
        let expires = now.millis() / 1000 + SUBSCRIPTION_LINK_LIFETIME_SECONDS;
        let mac = self.mac(id, expires).finalize().into_bytes();
        format!("{expires}.{}", hex::encode(mac))
    }

    /// Whether `signature` opens subscription `id` at `now`; compared in constant time, and
    /// an expired link says so only when its MAC is right.
    pub fn check(&self, id: &str, signature: &str, now: Timestamp) -> Result<(), OrderLinkError> {
        let (expires, mac) = signature.split_once('.').ok_or(OrderLinkError::Invalid)?;
        let expires: i64 = expires.parse().map_err(|_| OrderLinkError::Invalid)?;
        let mac = hex::decode(mac).map_err(|_| OrderLinkError::Invalid)?;
        self.mac(id, expires)
            .verify_slice(&mac)
            .map_err(|_| OrderLinkError::Invalid)?;
        if now.millis() / 1000 >= expires {
            return Err(OrderLinkError::Expired);
        }
        Ok(())
    }

    /// The subscription's page, signed at `now`.
    pub fn manage(&self, id: &str, now: Timestamp) -> String {
        format!(
            "{}{SUBSCRIPTIONS_PATH}/{}?{SUBSCRIPTION_LINK_PARAMETER}={}",
            self.base,
            percent_encoding::utf8_percent_encode(id, ID_IN_PATH),
            self.sign(id, now)
        )
    }

    /// The part of the subscription's page where the card is updated.
    pub fn update_card(&self, id: &str, now: Timestamp) -> String {
        format!("{}#card", self.manage(id, now))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: Timestamp = Timestamp(1_769_853_600_000);

    fn links() -> SubscriptionLinks {
        SubscriptionLinks::new("https://shop.example/", &OrderLinkKey::new([7; 32]))
    }

    #[test]
    fn a_signed_link_opens_its_subscription_only_until_it_expires() {
        let links = links();
        let signature = links.sign("order-1-subscription", NOW);
        assert_eq!(links.check("order-1-subscription", &signature, NOW), Ok(()));
        assert_eq!(
            links.check("order-2-subscription", &signature, NOW),
            Err(OrderLinkError::Invalid)
        );
        let later = Timestamp(NOW.millis() + SUBSCRIPTION_LINK_LIFETIME_SECONDS * 1000);
        assert_eq!(
            links.check("order-1-subscription", &signature, later),
            Err(OrderLinkError::Expired)
        );
        assert_eq!(
            links.check("order-1-subscription", "123.00ff", NOW),
            Err(OrderLinkError::Invalid)
        );
        assert_eq!(
            links.check("order-1-subscription", "nonsense", NOW),
            Err(OrderLinkError::Invalid)
        );
    }

    #[test]
    fn an_order_link_signature_does_not_open_a_subscription() {
        let key = OrderLinkKey::new([7; 32]);
        let order_signature = key.sign("order-1-subscription", NOW);
        assert_eq!(
            links().check("order-1-subscription", &order_signature, NOW),
            Err(OrderLinkError::Invalid)
        );
    }

    #[test]
    fn links_name_the_page_and_its_card_section() {
        let manage = links().manage("order-1-subscription", NOW);
        assert!(
            manage.starts_with(
                "https://shop.example/commerce/subscriptions/order-1-subscription?sig="
            ),
            "{manage}"
        );
        assert!(links().update_card("x", NOW).ends_with("#card"));
    }
}
