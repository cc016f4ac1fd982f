//! The owner's work on placed orders (issue 18 §3): marking an order fulfilled, with an
//! optional link where the shopper can follow the parcel, and the order as the owner's table
//! lists it. Kept beside the order rather than in it, since only the owner's table reads it.

use crate::cart::Timestamp;

use super::order::Order;

/// The longest tracking link kept.
pub const MAX_TRACKING_URL: usize = 2_048;

/// A carrier's tracking page: an absolute `https://` or `http://` address without spaces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrackingUrl(String);

/// Why a tracking link was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "A tracking link is a web address starting with https:// or http://, of at most {MAX_TRACKING_URL} characters."
)]
pub struct InvalidTrackingUrl;

impl TrackingUrl {
    /// The link as typed, trimmed; none for a blank one.
    pub fn parse_optional(text: &str) -> Result<Option<Self>, InvalidTrackingUrl> {
        let text = text.trim();
        if text.is_empty() {
            return Ok(None);
        }
        let rest = text
            .strip_prefix("https://")
            .or_else(|| text.strip_prefix("http://"))
            .ok_or(InvalidTrackingUrl)?;
        let host_present = rest
            .split(['/', '?', '#'])
            .next()
            .is_some_and(|host| !host.is_empty());
        if !host_present
            || text.len() > MAX_TRACKING_URL
            || text
                .chars()
                .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '"' | '<' | '>'))
        {
            return Err(InvalidTrackingUrl);
        }
        Ok(Some(Self(text.to_owned())))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// When an order was fulfilled, and where its parcel can be followed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fulfilment {
    pub fulfilled_at: Timestamp,
    pub tracking_url: Option<TrackingUrl>,
}

/// An order as the owner's table shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnerOrder {
    /// The order, with its `gift_cards` left empty: the table does not show them, and
    /// reading them would cost the store one more query per row.
    pub order: Order,
    /// None while the order waits to be fulfilled.
    pub fulfilment: Option<Fulfilment>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tracking_links_are_web_addresses_or_nothing() {
        assert_eq!(TrackingUrl::parse_optional("  "), Ok(None));
        assert_eq!(
            TrackingUrl::parse_optional(" https://track.example/p/1?x=2 ")
                .unwrap()
                .map(|url| url.as_str().to_owned()),
            Some("https://track.example/p/1?x=2".to_owned())
        );
        for bad in [
            "javascript:alert(1)",
            "ftp://track.example/",
            "https://",
            "https:///path",
            "https://track.example/a b",
            "https://track.example/\"onmouseover",
        ] {
            assert_eq!(
                TrackingUrl::parse_optional(bad),
                Err(InvalidTrackingUrl),
                "{bad}"
            );
        }
        let long = format!("https://t.example/{}", "a".repeat(MAX_TRACKING_URL));
        assert_eq!(TrackingUrl::parse_optional(&long), Err(InvalidTrackingUrl));
    }
}
