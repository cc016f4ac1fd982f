//! Cookie-banner settings and their normalisation (000 s3, s5), and the consent decision
//! (000 s4, s9): whether the banner shows and whether tracking cookies may exist.

use vitrine_core::consent;

use crate::mirror::mirror_enum;

mirror_enum! {
    BannerVariant => consent::BannerVariant { Bar, Popup }
}
mirror_enum! {
    BannerPosition => consent::BannerPosition {
        Top, Bottom, TopLeft, TopRight, BottomLeft, BottomRight,
    }
}
mirror_enum! {
    BannerTheme => consent::BannerTheme { Light, Dark }
}
mirror_enum! {
    CtaVariant => consent::CtaVariant { Text, Button, Icon }
}
mirror_enum! {
    AcceptType => consent::AcceptType { OptIn, OptInAndOut }
}
mirror_enum! {
    /// A visitor's decision on the banner.
    ConsentChoice => consent::ConsentChoice { Accepted, Declined }
}

/// Why banner settings could not be read.
#[derive(Debug, thiserror::Error, uniffi::Error)]
#[uniffi(flat_error)]
pub enum ConsentError {
    #[error("the cookie banner settings are not valid JSON of the server's shape: {0}")]
    InvalidSettingsJson(#[from] serde_json::Error),
}

/// The banner settings as the server stores them: loose texts and flags, any of them missing.
#[derive(Debug, Clone, Default, PartialEq, Eq, uniffi::Record)]
pub struct ServerCookieBannerSettings {
    pub cookie_banner_text: Option<String>,
    pub cookie_banner_cta_text: Option<String>,
    pub cookie_banner_opt_out_cta_text: Option<String>,
    pub cookie_banner_variant: Option<String>,
    pub cookie_banner_position: Option<String>,
    pub cookie_banner_theme: Option<String>,
    pub cookie_banner_cta_variant: Option<String>,
    pub cookie_banner_accept_type: Option<String>,
    pub is_cookie_banner_enabled: Option<bool>,
    pub is_restrictive_cookie_policy_absolute: Option<bool>,
    pub is_analytics_cookies_disabled: Option<bool>,
    pub is_activity_log_enabled: Option<bool>,
}

/// Normalised banner settings: every field present and valid.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct CookieBannerSettings {
    pub cookie_banner_text: String,
    pub cookie_banner_cta_text: String,
    pub cookie_banner_opt_out_cta_text: String,
    pub cookie_banner_variant: BannerVariant,
    pub cookie_banner_position: BannerPosition,
    pub cookie_banner_theme: BannerTheme,
    pub cookie_banner_cta_variant: CtaVariant,
    pub cookie_banner_accept_type: AcceptType,
    pub is_cookie_banner_enabled: bool,
    pub is_restrictive_cookie_policy_absolute: bool,
    pub is_restrictive_cookie_policy_enabled: bool,
    pub is_visitor_data_restricted: bool,
}

/// The consent in force for the visitor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum ConsentState {
    Decided {
        choice: ConsentChoice,
    },
    /// No stored decision, and the browser sends Global Privacy Control: a decline.
    GpcDeclined,
    Undecided,
}

/// Whether and how the banner shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum BannerDisplay {
    Hidden,
    /// Shown and waiting for a click; `gpc_notice` adds the GPC notice text.
    Shown {
        gpc_notice: bool,
    },
    /// The editor's forced preview: clicks are ignored.
    Forced,
}

/// Everything the app needs to act on consent for one visitor.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct ConsentDecision {
    pub consent: ConsentState,
    pub tracking_cookies_allowed: bool,
    pub banner: BannerDisplay,
    /// The notice to show on the banner when the GPC signal decided for the visitor.
    pub gpc_notice_text: Option<String>,
}

/// The consent cookie to store for a decision.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct ConsentCookie {
    pub name: String,
    pub value: String,
    pub max_age_seconds: u64,
}

impl From<ServerCookieBannerSettings> for consent::ServerCookieBannerSettings {
    fn from(s: ServerCookieBannerSettings) -> Self {
        Self {
            cookie_banner_text: s.cookie_banner_text,
            cookie_banner_cta_text: s.cookie_banner_cta_text,
            cookie_banner_opt_out_cta_text: s.cookie_banner_opt_out_cta_text,
            cookie_banner_variant: s.cookie_banner_variant,
            cookie_banner_position: s.cookie_banner_position,
            cookie_banner_theme: s.cookie_banner_theme,
            cookie_banner_cta_variant: s.cookie_banner_cta_variant,
            cookie_banner_accept_type: s.cookie_banner_accept_type,
            is_cookie_banner_enabled: s.is_cookie_banner_enabled,
            is_restrictive_cookie_policy_absolute: s.is_restrictive_cookie_policy_absolute,
            is_analytics_cookies_disabled: s.is_analytics_cookies_disabled,
            is_activity_log_enabled: s.is_activity_log_enabled,
        }
    }
}

impl From<consent::CookieBannerSettings> for CookieBannerSettings {
    fn from(s: consent::CookieBannerSettings) -> Self {
        Self {
            cookie_banner_text: s.cookie_banner_text,
            cookie_banner_cta_text: s.cookie_banner_cta_text,
            cookie_banner_opt_out_cta_text: s.cookie_banner_opt_out_cta_text,
            cookie_banner_variant: s.cookie_banner_variant.into(),
            cookie_banner_position: s.cookie_banner_position.into(),
            cookie_banner_theme: s.cookie_banner_theme.into(),
            cookie_banner_cta_variant: s.cookie_banner_cta_variant.into(),
            cookie_banner_accept_type: s.cookie_banner_accept_type.into(),
            is_cookie_banner_enabled: s.is_cookie_banner_enabled,
            is_restrictive_cookie_policy_absolute: s.is_restrictive_cookie_policy_absolute,
            is_restrictive_cookie_policy_enabled: s.is_restrictive_cookie_policy_enabled,
            is_visitor_data_restricted: s.is_visitor_data_restricted,
        }
    }
}

impl From<consent::Consent> for ConsentState {
    fn from(consent: consent::Consent) -> Self {
        match consent {
            consent::Consent::Decided(choice) => Self::Decided {
                choice: choice.into(),
            },
            consent::Consent::GpcDeclined => Self::GpcDeclined,
            consent::Consent::Undecided => Self::Undecided,
        }
    }
}

impl From<consent::BannerDisplay> for BannerDisplay {
    fn from(display: consent::BannerDisplay) -> Self {
        match display {
            consent::BannerDisplay::Hidden => Self::Hidden,
            consent::BannerDisplay::Shown { gpc_notice } => Self::Shown { gpc_notice },
            consent::BannerDisplay::Forced => Self::Forced,
        }
    }
}

/// Normalises the server's banner settings: a missing or invalid field takes its default and
/// the position is made to fit the variant (000 s5).
#[uniffi::export]
pub fn normalise_cookie_banner(server: ServerCookieBannerSettings) -> CookieBannerSettings {
    consent::CookieBannerSettings::from_server(&server.into()).into()
}

/// Reads the server's banner settings from their JSON (the page context's camelCase shape) and
/// normalises them.
#[uniffi::export]
pub fn normalise_cookie_banner_json(json: String) -> Result<CookieBannerSettings, ConsentError> {
    let server: consent::ServerCookieBannerSettings = serde_json::from_str(&json)?;
    Ok(consent::CookieBannerSettings::from_server(&server).into())
}

/// The consent decision for a visitor under the site's banner settings (normalised first):
/// `consent_cookie` is the value of the consent cookie if the visitor has one, `gpc` whether
/// the browser sends Global Privacy Control, `forced` the editor's forced banner preview.
#[uniffi::export]
pub fn consent_decision(
    server: ServerCookieBannerSettings,
    consent_cookie: Option<String>,
    gpc: bool,
    forced: bool,
) -> ConsentDecision {
    let settings = consent::CookieBannerSettings::from_server(&server.into());
    let consent = consent::effective_consent(consent_cookie.as_deref(), gpc);
    let banner = consent::banner_display(&settings, consent_cookie.is_some(), gpc, forced);
    let gpc_notice = matches!(banner, consent::BannerDisplay::Shown { gpc_notice: true });
    ConsentDecision {
        consent: consent.into(),
        tracking_cookies_allowed: consent::tracking_cookies_allowed(&settings, consent),
        banner: banner.into(),
        gpc_notice_text: gpc_notice.then(|| consent::GPC_NOTICE.to_owned()),
    }
}

/// The cookie that remembers a decision for 30 days.
#[uniffi::export]
pub fn consent_cookie(choice: ConsentChoice) -> ConsentCookie {
    ConsentCookie {
        name: consent::CONSENT_COOKIE.to_owned(),
        value: consent::consent_cookie_value(choice.into()).to_owned(),
        max_age_seconds: consent::CONSENT_COOKIE_MAX_AGE_SECONDS,
    }
}
