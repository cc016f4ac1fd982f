//! Signed links to an order's page, for the shopper's mails.
//!
//! An order's page shows the shopper's email, address and the gift cards the order bought, so
//! its address alone must open nothing: the page opens for the browser holding the cart the
//! order was bought with, or through a link carrying an expiry and an HMAC-SHA256 over the
//! order's id and that expiry, made with the server's secret key. Without the key no one can
//! make a link, and a link for one order opens no other.

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use super::order::Order;
use crate::cart::{CartToken, Timestamp};

/// How long a link in an order mail opens the order's page: 180 days, long enough to follow a
/// delivery and a return, short enough that an old mailbox does not open it for ever.
pub const ORDER_LINK_LIFETIME_SECONDS: i64 = 180 * 24 * 60 * 60;

/// The query parameter of an order page's address that carries the link's signature.
pub const ORDER_LINK_PARAMETER: &str = "link";

/// Why an order link's signature opens nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum OrderLinkError {
    /// Not a signature this server made for this order (copied incompletely, or forged).
    #[error("the link's signature is not valid for this order")]
    Invalid,
    /// A signature this server made, whose time has passed.
    #[error("the link has expired")]
    Expired,
}

/// Why a configured key was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("an order link key is 64 hex digits (32 bytes), for example from `openssl rand -hex 32`")]
pub struct InvalidOrderLinkKey;

/// The server's secret key for order links. Servers that share a database must share it, so
/// a link one of them mailed opens on all.
#[derive(Clone, PartialEq, Eq)]
pub struct OrderLinkKey([u8; 32]);

impl std::fmt::Debug for OrderLinkKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OrderLinkKey(..)")
    }
}

impl OrderLinkKey {
    /// A key from 32 bytes the caller made at random.
    pub const fn new(bytes: [u8; 32]) -> Self {
        Self(bytes)
    }

    /// A key written as 64 hex digits (surrounding white space ignored).
    pub fn from_hex(text: &str) -> Result<Self, InvalidOrderLinkKey> {
        let bytes = hex::decode(text.trim()).map_err(|_| InvalidOrderLinkKey)?;
        let bytes: [u8; 32] = bytes.try_into().map_err(|_| InvalidOrderLinkKey)?;
        Ok(Self(bytes))
    }

    /// The key as 64 hex digits, as [`Self::from_hex`] reads it.
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    /// A key for another purpose made from this one (an HMAC over `purpose`), so one
    /// configured secret signs order links and page unlocks without either signature
    /// standing for the other.
    pub fn derived_key(&self, purpose: &str) -> [u8; 32] {
        let mut mac =
            Hmac::<Sha256>::new_from_slice(&self.0).expect("HMAC takes keys of any length");
        mac.update(b"derived-key\0");
        mac.update(purpose.as_bytes());
        mac.finalize().into_bytes().into()
    }

    fn mac(&self, order_id: &str, expires_seconds: i64) -> Hmac<Sha256> {
        let mut mac =
            Hmac::<Sha256>::new_from_slice(&self.0).expect("HMAC takes keys of any length");
        mac.update(b"order-link\0");
        mac.update(order_id.as_bytes());
        mac.update(b"\0");
        mac.update(expires_seconds.to_string().as_bytes());
        mac
    }

    /// The signature of a link to `order_id` made at `now`: its expiry in seconds since the
    /// epoch, a dot, and the MAC in hex.
    pub fn sign(&self, order_id: &str, now: Timestamp) -> String {
        let expires = now.millis() / 1000 + ORDER_LINK_LIFETIME_SECONDS;
        let mac = self.mac(order_id, expires).finalize().into_bytes();
        format!("{expires}.{}", hex::encode(mac))
    }

    /// Whether `signature` opens the page of `order_id` at `now`. The MAC is compared in
    /// constant time; an expired link says so only when its MAC is right, so a guess learns
    /// nothing about which orders exist.
    pub fn check(
        &self,
        order_id: &str,
        signature: &str,
        now: Timestamp,
    ) -> Result<(), OrderLinkError> {
        let (expires, mac) = signature.split_once('.').ok_or(OrderLinkError::Invalid)?;
        let expires: i64 = expires.parse().map_err(|_| OrderLinkError::Invalid)?;
        let mac = hex::decode(mac).map_err(|_| OrderLinkError::Invalid)?;
        self.mac(order_id, expires)
            .verify_slice(&mac)
            .map_err(|_| OrderLinkError::Invalid)?;
        if now.millis() / 1000 >= expires {
            return Err(OrderLinkError::Expired);
        }
        Ok(())
    }
}

/// Who may see an order's page, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrderPageAccess {
    /// The request carries the cart the order was bought with.
    Buyer,
    /// The request carries a valid link.
    Link,
    /// The request carries a link this server made for the order, which has expired.
    Expired,
    /// Neither: the page answers as for an order that does not exist.
    Refused,
}

impl OrderPageAccess {
    /// Whether the page opens.
    pub fn opens(self) -> bool {
        matches!(self, Self::Buyer | Self::Link)
    }
}

/// Whether the request with `cart` (its cart cookie) and `signature` (the link's) may see
/// the page of `order` at `now`.
pub fn order_page_access(
    order: &Order,
    cart: Option<&CartToken>,
    signature: Option<&str>,
    key: &OrderLinkKey,
    now: Timestamp,
) -> OrderPageAccess {
    if cart.is_some_and(|cart| same_bytes(cart.as_str(), order.cart_token.as_str())) {
        return OrderPageAccess::Buyer;
    }
    link_access(&order.id, signature, key, now)
}

/// Whether the request with `signature` (the link's) may see the page of `id` at `now`: for
/// pages bought without a cart (a contribution's), which only a signed link opens. The
/// donation form's answer leads the donor there with one.
pub fn link_access(
    id: &str,
    signature: Option<&str>,
    key: &OrderLinkKey,
    now: Timestamp,
) -> OrderPageAccess {
    match signature.map(|signature| key.check(id, signature, now)) {
        Some(Ok(())) => OrderPageAccess::Link,
        Some(Err(OrderLinkError::Expired)) => OrderPageAccess::Expired,
        Some(Err(OrderLinkError::Invalid)) | None => OrderPageAccess::Refused,
    }
}

/// Equality that takes as long wherever the texts differ, so a guessed cart token learns
/// nothing from the time the answer takes.
fn same_bytes(given: &str, expected: &str) -> bool {
    given.len() == expected.len()
        && given
            .bytes()
            .zip(expected.bytes())
            .fold(0u8, |difference, (a, b)| difference | (a ^ b))
            == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: Timestamp = Timestamp(1_795_269_600_000);
    const KEY: OrderLinkKey = OrderLinkKey::new([7; 32]);

    fn later(seconds: i64) -> Timestamp {
        Timestamp(NOW.millis() + seconds * 1000)
    }

    #[test]
    fn a_signed_link_opens_its_order_until_it_expires() {
        let signature = KEY.sign("order-1", NOW);
        assert_eq!(KEY.check("order-1", &signature, NOW), Ok(()));
        assert_eq!(
            KEY.check(
                "order-1",
                &signature,
                later(ORDER_LINK_LIFETIME_SECONDS - 1)
            ),
            Ok(())
        );
        assert_eq!(
            KEY.check("order-1", &signature, later(ORDER_LINK_LIFETIME_SECONDS)),
            Err(OrderLinkError::Expired)
        );
    }

    #[test]
    fn a_link_opens_no_other_order_and_no_other_key_makes_one() {
        let signature = KEY.sign("order-1", NOW);
        assert_eq!(
            KEY.check("order-2", &signature, NOW),
            Err(OrderLinkError::Invalid)
        );
        let other = OrderLinkKey::new([8; 32]);
        assert_eq!(
            KEY.check("order-1", &other.sign("order-1", NOW), NOW),
            Err(OrderLinkError::Invalid)
        );
    }

    #[test]
    fn a_later_expiry_cannot_be_written_into_a_link() {
        let signature = KEY.sign("order-1", NOW);
        let (expires, mac) = signature.split_once('.').unwrap();
        let stretched = format!("{}.{mac}", expires.parse::<i64>().unwrap() + 86_400);
        assert_eq!(
            KEY.check("order-1", &stretched, NOW),
            Err(OrderLinkError::Invalid)
        );
        // An expired link with a forged MAC reads as invalid, not as expired.
        let old = format!("1.{mac}");
        assert_eq!(
            KEY.check("order-1", &old, NOW),
            Err(OrderLinkError::Invalid)
        );
    }

    #[test]
    fn malformed_signatures_are_invalid() {
        for signature in ["", ".", "abc", "12.zz", "12", "-1.00", "1.2.3"] {
            assert_eq!(
                KEY.check("order-1", signature, NOW),
                Err(OrderLinkError::Invalid),
                "{signature:?}"
            );
        }
    }

    #[test]
    fn the_page_opens_for_the_buyers_cart_or_a_valid_link_only() {
        let order = crate::reviews::conformance::fixture_order("order-1");
        let buyer = order.cart_token.clone();
        let stranger = CartToken::parse("ffffffffffffffffffffffffffffffff").unwrap();
        let access = |cart: Option<&CartToken>, signature: Option<&str>| {
            order_page_access(&order, cart, signature, &KEY, NOW)
        };
        assert_eq!(access(Some(&buyer), None), OrderPageAccess::Buyer);
        assert_eq!(access(None, None), OrderPageAccess::Refused);
        assert_eq!(access(Some(&stranger), None), OrderPageAccess::Refused);
        let signature = KEY.sign(&order.id, NOW);
        assert_eq!(
            access(Some(&stranger), Some(&signature)),
            OrderPageAccess::Link
        );
        let other_order = KEY.sign("order-2", NOW);
        assert_eq!(access(None, Some(&other_order)), OrderPageAccess::Refused);
        let old = KEY.sign(&order.id, later(-ORDER_LINK_LIFETIME_SECONDS - 1));
        assert_eq!(access(None, Some(&old)), OrderPageAccess::Expired);
        assert!(!OrderPageAccess::Expired.opens());
        assert!(OrderPageAccess::Link.opens() && OrderPageAccess::Buyer.opens());
    }

    #[test]
    fn keys_are_64_hex_digits_and_never_shown() {
        let hex = "0707070707070707070707070707070707070707070707070707070707070707";
        assert_eq!(OrderLinkKey::from_hex(&format!(" {hex}\n")), Ok(KEY));
        assert_eq!(KEY.to_hex(), hex);
        assert_eq!(OrderLinkKey::from_hex("07"), Err(InvalidOrderLinkKey));
        assert_eq!(OrderLinkKey::from_hex("not hex"), Err(InvalidOrderLinkKey));
        assert_eq!(format!("{KEY:?}"), "OrderLinkKey(..)");
    }
}
