//! The banner's behaviour (000 s4, s9): when it shows, what a decision stores, which cookies a
//! refusal clears, and how a Global Privacy Control signal counts.

use serde::{Deserialize, Serialize};

use super::settings::{AcceptType, CookieBannerSettings};

/// The consent cookie (000 s3).
pub const CONSENT_COOKIE: &str = "ss_cookieAllowed";
/// Accept and decline are both remembered for 30 days (000 s9).
pub const CONSENT_COOKIE_MAX_AGE_SECONDS: u64 = 30 * 24 * 60 * 60;
/// The banner version (000 s4).
pub const BANNER_VERSION: u32 = 2;
/// The tracking cookies cleared under a restrictive policy (000 s9).
pub const TRACKING_COOKIES: [&str; 9] = [
    "SS_MATTR",
    "SS_MID",
    "SS_lastvisit",
    "user_segment",
    "ss_cid",
    "ss_cpvisit",
    "ss_cvisit",
    "ss_cvr",
    "ss_cvt",
];
/// What the banner says when the browser sent `Sec-GPC: 1`. Vitrine's own wording: the spec
/// predates the signal.
pub const GPC_NOTICE: &str = "Your browser sent a Global Privacy Control signal, so we treat it as a decline: no tracking cookies are set.";

/// A visitor's decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ConsentChoice {
    Accepted,
    Declined,
}

/// Where a decision came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ConsentSource {
    Banner,
    Gpc,
}

impl ConsentChoice {
    pub fn wire(self) -> &'static str {
        match self {
            Self::Accepted => "accepted",
            Self::Declined => "declined",
        }
    }
}

impl ConsentSource {
    pub fn wire(self) -> &'static str {
        match self {
            Self::Banner => "banner",
            Self::Gpc => "gpc",
        }
    }
}

/// The value stored in [`CONSENT_COOKIE`] for a choice: accept stores true, decline false.
pub fn consent_cookie_value(choice: ConsentChoice) -> &'static str {
    match choice {
        ConsentChoice::Accepted => "true",
        ConsentChoice::Declined => "false",
    }
}

/// Reads the consent cookie's value. Anything but `true` or `false` is no decision.
pub fn parse_consent_cookie(value: &str) -> Option<ConsentChoice> {
    match value.trim() {
        "true" => Some(ConsentChoice::Accepted),
        "false" => Some(ConsentChoice::Declined),
        _ => None,
    }
}

/// The consent in force for a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Consent {
    /// The visitor decided on the banner (or an earlier GPC decline was stored).
    Decided(ConsentChoice),
    /// No stored decision, but the browser sends `Sec-GPC: 1`: that counts as a decline.
    GpcDeclined,
    /// No decision yet.
    Undecided,
}

/// The consent in force, from the consent cookie's value (if any) and the GPC header. A stored
/// decision wins over the signal, because an explicit click on this site is the more specific
/// statement of the visitor's wish.
pub fn effective_consent(consent_cookie: Option<&str>, gpc: bool) -> Consent {
    match consent_cookie.and_then(parse_consent_cookie) {
        Some(choice) => Consent::Decided(choice),
        None if gpc => Consent::GpcDeclined,
        None => Consent::Undecided,
    }
}

/// True when tracking (non-essential) cookies may exist for this visitor.
///
/// An absolute restrictive policy never allows them. Otherwise an acceptance allows them and a
/// decline or GPC forbids them. Before a decision they are allowed only with the OPT_IN_AND_OUT
/// accept type and no restrictive policy: OPT_IN and a restrictive policy both mean nothing
/// non-essential before consent.
pub fn tracking_cookies_allowed(settings: &CookieBannerSettings, consent: Consent) -> bool {
    if settings.is_restrictive_cookie_policy_absolute {
        return false;
    }
    match consent {
        Consent::Decided(ConsentChoice::Accepted) => true,
        Consent::Decided(ConsentChoice::Declined) | Consent::GpcDeclined => false,
        Consent::Undecided => {
            settings.cookie_banner_accept_type == AcceptType::OptInAndOut
                && !settings.is_restrictive_cookie_policy_enabled
        }
    }
}

/// Whether and how the banner shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BannerDisplay {
    Hidden,
    /// Shown and waiting for a click; `gpc_notice` adds [`GPC_NOTICE`].
    Shown {
        gpc_notice: bool,
    },
    /// Shown in the editor's forced mode: clicks are ignored.
    Forced,
}

/// The banner's display (000 s4): hidden when the banner is off; forced in the editor; shown
/// unless an `ss_cookieAllowed` cookie exists, whatever its value.
pub fn banner_display(
    settings: &CookieBannerSettings,
    consent_cookie_exists: bool,
    gpc: bool,
    forced: bool,
) -> BannerDisplay {
    if forced {
        BannerDisplay::Forced
    } else if !settings.is_cookie_banner_enabled || consent_cookie_exists {
        BannerDisplay::Hidden
    } else {
        BannerDisplay::Shown { gpc_notice: gpc }
    }
}

/// A call to action on the banner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BannerButton {
    Accept,
    Decline,
}

/// The banner's buttons, in order. Both accept types offer a decline beside the accept, each one
/// click away and styled alike, because refusing must be as easy as agreeing; the accept type
/// changes what happens before a decision (see [`tracking_cookies_allowed`]), not the buttons.
pub const BANNER_BUTTONS: [BannerButton; 2] = [BannerButton::Accept, BannerButton::Decline];
