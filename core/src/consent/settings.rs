//! Cookie banner settings (000 s3) read from the server-side shape and normalised as 000 s5
//! says: a missing or invalid field takes its default, and the position is made to fit the
//! variant.

use serde::{Deserialize, Serialize};

use super::text::is_blank_html;

/// The default accept button text (000 s3).
pub const DEFAULT_CTA_TEXT: &str = "Accept";
/// The default decline button text (000 s3).
pub const DEFAULT_OPT_OUT_CTA_TEXT: &str = "Decline";
/// The default banner text (000 s3).
pub const DEFAULT_BANNER_TEXT: &str = "By using this website, you agree to our use of cookies. We use cookies to provide you with a great experience and to help our website run effectively.";

macro_rules! wire_enum {
    ($(#[$meta:meta])* $name:ident { $($variant:ident = $wire:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum $name {
            $(#[serde(rename = $wire)] $variant),+
        }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The spelling the server and the page use.
            pub fn wire(self) -> &'static str {
                match self { $($name::$variant => $wire),+ }
            }

            /// The value spelled exactly `text`; anything else is invalid.
            pub fn parse(text: &str) -> Option<Self> {
                match text { $($wire => Some($name::$variant),)+ _ => None }
            }
        }
    };
}

wire_enum! {
    /// A bar across the page or a small pop-up box.
    BannerVariant { Bar = "BAR", Popup = "POPUP" }
}

wire_enum! {
    /// TOP and BOTTOM are bar positions; the four corners are pop-up positions.
    BannerPosition {
        Top = "TOP",
        Bottom = "BOTTOM",
        TopLeft = "TOP_LEFT",
        TopRight = "TOP_RIGHT",
        BottomLeft = "BOTTOM_LEFT",
        BottomRight = "BOTTOM_RIGHT",
    }
}

wire_enum! {
    BannerTheme { Light = "LIGHT", Dark = "DARK" }
}

wire_enum! {
    /// How the accept and decline calls to action look.
    CtaVariant { Text = "TEXT", Button = "BUTTON", Icon = "ICON" }
}

wire_enum! {
    /// OPT_IN: nothing non-essential before an acceptance. OPT_IN_AND_OUT: tracking runs until
    /// the visitor declines (unless a restrictive policy or GPC says otherwise).
    AcceptType { OptIn = "OPT_IN", OptInAndOut = "OPT_IN_AND_OUT" }
}

impl BannerPosition {
    /// Fits a position to a variant (000 s5). A bar keeps TOP or BOTTOM, a top corner becomes
    /// TOP and anything else BOTTOM; a pop-up maps TOP to TOP_LEFT and BOTTOM to BOTTOM_LEFT,
    /// keeps a corner and puts anything else BOTTOM_LEFT.
    pub fn for_variant(position: Option<BannerPosition>, variant: BannerVariant) -> Self {
        use BannerPosition::*;
        match (variant, position) {
            (BannerVariant::Bar, Some(Top | TopLeft | TopRight)) => Top,
            (BannerVariant::Bar, _) => Bottom,
            (BannerVariant::Popup, Some(Top)) => TopLeft,
            (BannerVariant::Popup, Some(corner @ (TopLeft | TopRight | BottomRight))) => corner,
            (BannerVariant::Popup, _) => BottomLeft,
        }
    }

    /// True when the position is one the variant accepts without mapping.
    pub fn fits(self, variant: BannerVariant) -> bool {
        Self::for_variant(Some(self), variant) == self
    }
}

/// The banner settings as the server stores them: loose strings, and two flags under their
/// server names. `isActivityLogEnabled` is the inverse of `isVisitorDataRestricted`;
/// `isAnalyticsCookiesDisabled` is `isRestrictiveCookiePolicyEnabled` (000 s3).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
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

/// Normalised banner settings with every field of 000 s3. Every value is valid: texts are
/// non-blank and the position fits the variant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
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

impl Default for CookieBannerSettings {
    fn default() -> Self {
        Self::from_server(&ServerCookieBannerSettings::default())
    }
}

fn text_or(value: Option<&str>, default: &str) -> String {
    match value {
        Some(text) if !is_blank_html(text) => text.to_owned(),
        _ => default.to_owned(),
    }
}

fn parsed<T>(value: Option<&str>, parse: fn(&str) -> Option<T>, default: T) -> T {
    value.and_then(parse).unwrap_or(default)
}

impl CookieBannerSettings {
    /// Reads and normalises the server-side shape (000 s5). Missing flags are false, except
    /// the activity log, which the server enables unless told otherwise, so a missing
    /// `isActivityLogEnabled` means visitor data is not restricted.
    pub fn from_server(server: &ServerCookieBannerSettings) -> Self {
        let variant = parsed(
            server.cookie_banner_variant.as_deref(),
            BannerVariant::parse,
            BannerVariant::Bar,
        );
        let position = server
            .cookie_banner_position
            .as_deref()
            .and_then(BannerPosition::parse);
        Self {
            cookie_banner_text: text_or(server.cookie_banner_text.as_deref(), DEFAULT_BANNER_TEXT),
            cookie_banner_cta_text: text_or(
                server.cookie_banner_cta_text.as_deref(),
                DEFAULT_CTA_TEXT,
            ),
            cookie_banner_opt_out_cta_text: text_or(
                server.cookie_banner_opt_out_cta_text.as_deref(),
                DEFAULT_OPT_OUT_CTA_TEXT,
            ),
            cookie_banner_variant: variant,
            cookie_banner_position: BannerPosition::for_variant(position, variant),
            cookie_banner_theme: parsed(
                server.cookie_banner_theme.as_deref(),
                BannerTheme::parse,
                BannerTheme::Dark,
            ),
            cookie_banner_cta_variant: parsed(
                server.cookie_banner_cta_variant.as_deref(),
                CtaVariant::parse,
                CtaVariant::Icon,
            ),
            cookie_banner_accept_type: parsed(
                server.cookie_banner_accept_type.as_deref(),
                AcceptType::parse,
                AcceptType::OptIn,
            ),
            is_cookie_banner_enabled: server.is_cookie_banner_enabled.unwrap_or(false),
            is_restrictive_cookie_policy_absolute: server
                .is_restrictive_cookie_policy_absolute
                .unwrap_or(false),
            is_restrictive_cookie_policy_enabled: server
                .is_analytics_cookies_disabled
                .unwrap_or(false),
            is_visitor_data_restricted: !server.is_activity_log_enabled.unwrap_or(true),
        }
    }

    /// The server-side shape of these settings; `from_server(to_server(s)) == s`.
    pub fn to_server(&self) -> ServerCookieBannerSettings {
        ServerCookieBannerSettings {
            cookie_banner_text: Some(self.cookie_banner_text.clone()),
            cookie_banner_cta_text: Some(self.cookie_banner_cta_text.clone()),
            cookie_banner_opt_out_cta_text: Some(self.cookie_banner_opt_out_cta_text.clone()),
            cookie_banner_variant: Some(self.cookie_banner_variant.wire().to_owned()),
            cookie_banner_position: Some(self.cookie_banner_position.wire().to_owned()),
            cookie_banner_theme: Some(self.cookie_banner_theme.wire().to_owned()),
            cookie_banner_cta_variant: Some(self.cookie_banner_cta_variant.wire().to_owned()),
            cookie_banner_accept_type: Some(self.cookie_banner_accept_type.wire().to_owned()),
            is_cookie_banner_enabled: Some(self.is_cookie_banner_enabled),
            is_restrictive_cookie_policy_absolute: Some(self.is_restrictive_cookie_policy_absolute),
            is_analytics_cookies_disabled: Some(self.is_restrictive_cookie_policy_enabled),
            is_activity_log_enabled: Some(!self.is_visitor_data_restricted),
        }
    }

    /// True when every field holds a value normalisation could produce.
    pub fn is_valid(&self) -> bool {
        !is_blank_html(&self.cookie_banner_text)
            && !is_blank_html(&self.cookie_banner_cta_text)
            && !is_blank_html(&self.cookie_banner_opt_out_cta_text)
            && self.cookie_banner_position.fits(self.cookie_banner_variant)
    }
}
