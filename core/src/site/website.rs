//! The website and its settings, as the owner configured them.

use serde::{Deserialize, Serialize};

use crate::enums::{Unit, WebsiteStatus, WebsiteType};
use crate::money::Currency;
use crate::site::{CollectionId, MediaRef, SafeHtml, WebsiteId};

/// The website record of spec 000 s3.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Website {
    pub id: WebsiteId,
    pub identifier: String,
    /// The public origin, without a trailing slash, e.g. `https://shop.example`.
    pub base_url: String,
    pub website_type: WebsiteType,
    pub site_status: WebsiteStatus,
    pub developer_mode: bool,
    pub cloneable: bool,
    pub typekit_id: Option<String>,
}

/// Settings that shape every page of the site.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WebsiteSettings {
    pub site_title: String,
    pub site_description: String,
    /// A BCP 47 tag; the spec's default is en-US.
    pub locale: String,
    pub home_collection: CollectionId,
    pub logo: Option<MediaRef>,
    /// The image used for Open Graph tags when a page has none of its own.
    pub social_image: Option<MediaRef>,
    pub footer_text: String,
    pub comments_enabled: bool,
    pub disqus_shortname: Option<String>,
    pub use_escape_key_to_login: bool,
    pub store: StoreSettings,
    /// Shipping options, tax rules, coupons and the minimum subtotal; settings stored before
    /// the bundle carried them read back with none.
    #[serde(default)]
    pub store_rules: crate::cart::SiteStoreRules,
    pub cookies: CookieSettings,
    /// The banner's texts and looks; settings stored before the site model had them read back
    /// with none, which the 000 s5 defaults fill in.
    #[serde(default)]
    pub cookie_banner: CookieBannerLook,
    pub popup_overlay: PopupOverlaySettings,
    pub template: TemplateInfo,
    /// Google font families the theme loads (page context `googleFonts`).
    pub google_fonts: Vec<String>,
    /// The site's translations; settings stored before languages existed read back with none.
    #[serde(default)]
    pub languages: crate::languages::LanguageSettings,
    /// The member areas that open the site's members-only collections; settings stored
    /// before member areas existed read back with none.
    #[serde(default)]
    pub member_areas: Vec<super::MemberArea>,
    /// The hashed passwords of the password-protected collections; settings stored before
    /// page passwords existed read back with none, which leaves those collections locked.
    #[serde(default)]
    pub page_passwords: Vec<super::PagePassword>,
    /// Experiments and feature toggles (001 s3); settings stored before there were any read
    /// back with none.
    #[serde(default)]
    pub experiments: crate::experiments::Experiments,
    /// The mobile information bar (000 s9); settings stored before it existed read back with
    /// none, which shows no bar.
    #[serde(default)]
    pub information_bar: Option<super::InformationBar>,
}

/// Store settings of spec 000 s3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoreSettings {
    pub express_checkout: bool,
    /// Imperial weighs in lbs and measures in inches; metric in kg and cm.
    pub measurement_standard: Unit,
    pub selected_currency: Currency,
}

impl Default for StoreSettings {
    fn default() -> Self {
        Self {
            express_checkout: false,
            measurement_standard: Unit::Imperial,
            selected_currency: Currency::default(),
        }
    }
}

/// The cookie settings of the page context (spec 000 s3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct CookieSettings {
    pub is_cookie_banner_enabled: bool,
    pub is_restrictive_cookie_policy_enabled: bool,
    pub is_restrictive_cookie_policy_absolute: bool,
}

/// The cookie banner's texts and looks as the owner set them (000 s3), before the normalisation
/// of 000 s5 (`vitrine_core::consent::CookieBannerSettings::from_server`), which turns an empty,
/// missing or invalid value into its default. The banner text is owner HTML, sanitised; the
/// enumerations stay the owner's strings so an invalid one reaches the normalisation as such.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct CookieBannerLook {
    pub text: Option<SafeHtml>,
    pub cta_text: Option<String>,
    pub opt_out_cta_text: Option<String>,
    pub variant: Option<String>,
    pub position: Option<String>,
    pub theme: Option<String>,
    pub cta_variant: Option<String>,
    pub accept_type: Option<String>,
}

/// Popup overlay settings of spec 000 s3; `display_frequency` is in days, -1 meaning never again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PopupOverlaySettings {
    /// `none` switches the overlay off.
    pub style: String,
    pub version: u32,
    pub show_until_signup: bool,
    pub display_frequency: i32,
    pub enable_mobile: bool,
    /// What the overlay shows. Stored settings written before the overlay had content read
    /// back with an empty one.
    #[serde(default)]
    pub content: PopupContent,
}

impl Default for PopupOverlaySettings {
    fn default() -> Self {
        Self {
            style: "none".to_owned(),
            version: 1,
            show_until_signup: false,
            display_frequency: 7,
            enable_mobile: true,
            content: PopupContent::default(),
        }
    }
}

/// The popup overlay's content: a heading, owner rich text and, when `newsletter` is set, a
/// newsletter signup form (an overlay form, 000 s3) whose form id is
/// [`crate::popup::POPUP_FORM_ID`].
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PopupContent {
    pub title: String,
    pub body: SafeHtml,
    pub newsletter: bool,
    /// The signup button's text; empty means "Sign up".
    pub button_label: String,
    pub placeholder: String,
}

/// The template (theme) the site was installed from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TemplateInfo {
    pub id: String,
    pub version: String,
    pub website_id: String,
    pub website_identifier: String,
}

/// The site-wide navigation menus.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Navigation {
    pub main: Vec<NavLink>,
    pub footer: Vec<NavLink>,
    /// The special navigation `_hidden` (001 s3): pages the site publishes without linking
    /// them from a menu. They are served, listed in the sitemap and found by search, and no
    /// menu shows them. Navigations stored before it existed read back with none.
    #[serde(default)]
    pub hidden: Vec<NavLink>,
    /// The special navigation `_memberareas` (001 s3): one link of the member-area navigation
    /// type per member area, shown with a sign-in or account link. Navigations stored
    /// before it existed read back with none.
    #[serde(default)]
    pub member_areas: Vec<MemberAreaLink>,
}

/// The name of the special navigation of pages no menu links (001 s3).
pub const HIDDEN_NAVIGATION: &str = "_hidden";
/// The name of the special navigation of the member areas (001 s3).
pub const MEMBER_AREAS_NAVIGATION: &str = "_memberareas";
/// The navigation type of the member areas' links (001 s3).
pub const MEMBER_AREA_NAVIGATION_TYPE: &str = "member-area";

/// A link of the member-area navigation type: a member area, named by its title, leading
/// to its first page (a visitor who is not a member meets the access-denied page there,
/// which offers signing in or joining).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberAreaLink {
    pub area: super::Slug,
    pub title: String,
    /// The site path of the area's first page.
    pub href: String,
}

/// One entry of a navigation menu.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NavLink {
    pub title: String,
    /// A site path (`/shop`) or an absolute URL.
    pub href: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_settings_default_to_usd() {
        assert_eq!(StoreSettings::default().selected_currency.code(), "USD");
    }
}
