//! A conversion event and the consent rule that decides whether it may leave the site.

use crate::cart::Timestamp;
use crate::consent::{Consent, ConsentChoice, CookieBannerSettings};
use crate::money::Currency;

/// The events of 000 s7, with the names ad pixels use for them, and Donate: the spec lists
/// no event for a contribution, so a donation fires the ad pixels' own standard event for
/// one (beyond the spec) rather than passing for a Purchase of goods.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ConversionEventName {
    ViewContent,
    AddToCart,
    Search,
    Lead,
    CompleteRegistration,
    Purchase,
    Donate,
}

impl ConversionEventName {
    pub const ALL: [Self; 7] = [
        Self::ViewContent,
        Self::AddToCart,
        Self::Search,
        Self::Lead,
        Self::CompleteRegistration,
        Self::Purchase,
        Self::Donate,
    ];

    pub fn wire(self) -> &'static str {
        match self {
            Self::ViewContent => "ViewContent",
            Self::AddToCart => "AddToCart",
            Self::Search => "Search",
            Self::Lead => "Lead",
            Self::CompleteRegistration => "CompleteRegistration",
            Self::Purchase => "Purchase",
            Self::Donate => "Donate",
        }
    }
}

/// One conversion. `event_id` lets the pixel drop a duplicate of the same event sent from
/// the browser too.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConversionEvent {
    pub name: ConversionEventName,
    pub event_id: String,
    pub time: Timestamp,
    /// The page the event happened on.
    pub source_url: String,
    /// The amount in minor units with its currency (AddToCart, Purchase, Donate).
    pub value: Option<(i64, Currency)>,
    /// Item ids or SKUs the event concerns.
    pub content_ids: Vec<String>,
    /// What was searched for (Search).
    pub search_string: Option<String>,
}

/// Whether a visitor's data may go to an ad pixel: only after an explicit Accept on the
/// banner, never under an absolute restrictive policy. Stricter than tracking cookies, which
/// OPT_IN_AND_OUT allows before a decision: an undecided visitor has consented to nothing
/// being shared with a third party for marketing.
pub fn marketing_allowed(settings: &CookieBannerSettings, consent: Consent) -> bool {
    !settings.is_restrictive_cookie_policy_absolute
        && consent == Consent::Decided(ConsentChoice::Accepted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_explicit_accept_allows_marketing() {
        let settings = CookieBannerSettings::default();
        assert!(marketing_allowed(
            &settings,
            Consent::Decided(ConsentChoice::Accepted)
        ));
        for consent in [
            Consent::Undecided,
            Consent::GpcDeclined,
            Consent::Decided(ConsentChoice::Declined),
        ] {
            assert!(!marketing_allowed(&settings, consent), "{consent:?}");
        }
        let absolute = CookieBannerSettings {
            is_restrictive_cookie_policy_absolute: true,
            ..CookieBannerSettings::default()
        };
        assert!(!marketing_allowed(
            &absolute,
            Consent::Decided(ConsentChoice::Accepted)
        ));
    }

    #[test]
    fn names_are_the_pixel_names() {
        let names: Vec<&str> = ConversionEventName::ALL.iter().map(|n| n.wire()).collect();
        assert_eq!(
            names,
            [
                "ViewContent",
                "AddToCart",
                "Search",
                "Lead",
                "CompleteRegistration",
                "Purchase",
                "Donate"
            ]
        );
    }
}
