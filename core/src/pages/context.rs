//! The page context of spec 000 s3: what the server tells the browser about the page, the site
//! and the viewer. It is a wire format, so its field names follow the spec exactly.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::enums::PageType;
use crate::site::{Collection, CookieSettings, Item, PopupOverlaySettings, SiteProfile};

/// Who is looking at the page. Visitors are anonymous; site accounts come with later issues.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Viewer {
    pub account_id: Option<String>,
    /// Contributor role codes by website id (the spec's numeric map).
    pub website_roles: BTreeMap<String, u16>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PageContext {
    pub website: WebsiteContext,
    pub website_settings: WebsiteSettingsContext,
    pub authenticated_account: Option<AccountContext>,
    pub website_roles: BTreeMap<String, u16>,
    pub page_type: u16,
    pub collection: Option<CollectionContext>,
    pub collection_id: Option<String>,
    pub item: Option<ItemContext>,
    pub item_id: Option<String>,
    pub template_id: String,
    pub template_version: String,
    pub template_installation: TemplateInstallation,
    pub google_fonts: Vec<String>,
    pub typekit_fonts: Vec<String>,
    pub rollups: BTreeMap<String, serde_json::Value>,
    pub app_domain: String,
    pub show_announcement_bar: bool,
    pub demo_collections: Vec<String>,
    pub frame_rollups: BTreeMap<String, serde_json::Value>,
    pub cookie_settings: CookieSettingsContext,
    pub website_locale: String,
    /// The captcha widget's provider and site key (001 s2: "captcha site key"), when the
    /// server verifies captchas; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub captcha_settings: Option<CaptchaSettingsContext>,
    /// The experiment contexts (001 s3) of the experiments on this page, decided for this
    /// visitor; absent on a page without experiments.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub experiments: Vec<crate::experiments::ExperimentContext>,
}

/// What a form needs to show a captcha widget. The site key is public by design; the
/// secret stays on the server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CaptchaSettingsContext {
    /// `recaptcha`, `hcaptcha` or `turnstile`.
    pub provider: String,
    pub site_key: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WebsiteContext {
    pub id: String,
    pub identifier: String,
    pub base_url: String,
    pub website_type: u16,
    pub site_status: SiteStatusContext,
    pub developer_mode: bool,
    pub cloneable: bool,
    pub typekit_id: Option<String>,
    pub site_title: String,
    pub language: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SiteStatusContext {
    pub value: u16,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WebsiteSettingsContext {
    pub disqus_shortname: Option<String>,
    pub comments_enabled: bool,
    pub popup_overlay_settings: PopupOverlayContext,
    pub mobile_info_bar_settings: BTreeMap<String, serde_json::Value>,
    pub pinterest_overlay_options: PinterestOverlayOptions,
    pub store_settings: StoreSettingsContext,
    pub ss_badge_type: u8,
    pub cookie_settings: CookieSettingsContext,
    pub use_escape_key_to_login: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PopupOverlayContext {
    pub style: String,
    pub version: u32,
    pub show_until_signup: bool,
    pub display_frequency: i32,
    pub enable_mobile: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PinterestOverlayOptions {
    pub mode: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StoreSettingsContext {
    pub express_checkout: bool,
    /// The unit code of spec 001 s3: imperial 1, metric 2.
    pub measurement_standard: u16,
    pub selected_currency: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CookieSettingsContext {
    pub is_cookie_banner_enabled: bool,
    pub is_restrictive_cookie_policy_enabled: bool,
    pub is_restrictive_cookie_policy_absolute: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AccountContext {
    pub id: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CollectionContext {
    pub id: String,
    #[serde(rename = "type")]
    pub collection_type: u16,
    pub title: String,
    pub permission_type: u8,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ItemContext {
    pub id: String,
    pub title: String,
    pub record_type: u16,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TemplateInstallation {
    pub template_website: TemplateWebsite,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TemplateWebsite {
    pub id: String,
    pub identifier: String,
}

impl From<CookieSettings> for CookieSettingsContext {
    fn from(settings: CookieSettings) -> Self {
        Self {
            is_cookie_banner_enabled: settings.is_cookie_banner_enabled,
            is_restrictive_cookie_policy_enabled: settings.is_restrictive_cookie_policy_enabled,
            is_restrictive_cookie_policy_absolute: settings.is_restrictive_cookie_policy_absolute,
        }
    }
}

impl From<&PopupOverlaySettings> for PopupOverlayContext {
    fn from(settings: &PopupOverlaySettings) -> Self {
        Self {
            style: settings.style.clone(),
            version: settings.version,
            show_until_signup: settings.show_until_signup,
            display_frequency: settings.display_frequency,
            enable_mobile: settings.enable_mobile,
        }
    }
}

impl PageContext {
    /// Builds the context of one page for one viewer.
    pub fn build(
        profile: &SiteProfile,
        viewer: &Viewer,
        page_type: PageType,
        collection: Option<&Collection>,
        item: Option<&Item>,
    ) -> Self {
        let website = &profile.website;
        let settings = &profile.settings;
        let cookie_settings = CookieSettingsContext::from(settings.cookies);
        Self {
            website: WebsiteContext {
                id: website.id.to_string(),
                identifier: website.identifier.clone(),
                base_url: website.base_url.clone(),
                website_type: website.website_type.code(),
                site_status: SiteStatusContext {
                    value: website.site_status.code(),
                },
                developer_mode: website.developer_mode,
                cloneable: website.cloneable,
                typekit_id: website.typekit_id.clone(),
                site_title: settings.site_title.clone(),
                language: settings.locale.clone(),
            },
            website_settings: WebsiteSettingsContext {
                disqus_shortname: settings.disqus_shortname.clone(),
                comments_enabled: settings.comments_enabled,
                popup_overlay_settings: PopupOverlayContext::from(&settings.popup_overlay),
                mobile_info_bar_settings: BTreeMap::new(),
                pinterest_overlay_options: PinterestOverlayOptions {
                    mode: "disabled".to_owned(),
                },
                store_settings: StoreSettingsContext {
                    express_checkout: settings.store.express_checkout,
                    measurement_standard: settings.store.measurement_standard.code(),
                    selected_currency: settings.store.selected_currency.code().to_owned(),
                },
                ss_badge_type: 0,
                cookie_settings,
                use_escape_key_to_login: settings.use_escape_key_to_login,
            },
            authenticated_account: viewer
                .account_id
                .as_ref()
                .map(|id| AccountContext { id: id.clone() }),
            website_roles: viewer.website_roles.clone(),
            page_type: page_type.code(),
            collection: collection.map(|c| CollectionContext {
                id: c.id.to_string(),
                collection_type: c.collection_type.code(),
                title: c.title.clone(),
                permission_type: c.permission_type.code(),
            }),
            collection_id: collection.map(|c| c.id.to_string()),
            item: item.map(|i| ItemContext {
                id: i.id.to_string(),
                title: i.title.clone(),
                record_type: i.record_type.code(),
            }),
            item_id: item.map(|i| i.id.to_string()),
            template_id: settings.template.id.clone(),
            template_version: settings.template.version.clone(),
            template_installation: TemplateInstallation {
                template_website: TemplateWebsite {
                    id: settings.template.website_id.clone(),
                    identifier: settings.template.website_identifier.clone(),
                },
            },
            google_fonts: settings.google_fonts.clone(),
            typekit_fonts: Vec::new(),
            rollups: BTreeMap::new(),
            app_domain: website.base_url.clone(),
            // The announcement bar is for signed-in owners and editors (spec 000 s1).
            show_announcement_bar: viewer.account_id.is_some(),
            demo_collections: Vec::new(),
            frame_rollups: BTreeMap::new(),
            cookie_settings,
            website_locale: settings.locale.clone(),
            captcha_settings: None,
            experiments: Vec::new(),
        }
    }
}
