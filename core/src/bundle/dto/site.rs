//! The shape of `site.toml`: the website, its settings and its navigation.

use serde::Deserialize;

use crate::bundle::dto::ImageDto;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SiteFile {
    pub website: WebsiteDto,
    pub settings: SettingsDto,
    #[serde(default)]
    pub navigation: NavigationDto,
    #[serde(default)]
    pub member_areas: Vec<MemberAreaDto>,
    /// Experiments and feature toggles (`[[experiments]]`).
    #[serde(default)]
    pub experiments: Vec<ExperimentDto>,
}

/// `[[member_areas]]`: a group of members-only collections, free with an account unless it
/// names the subscription products (`collection/item`) that buy it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MemberAreaDto {
    pub id: String,
    pub title: String,
    #[serde(default)]
    pub description: String,
    /// The slugs of the members-only collections it opens.
    pub pages: Vec<String>,
    /// The monthly plan and, optionally, the yearly one.
    #[serde(default)]
    pub plans: Vec<String>,
}

/// An experiment or feature toggle as written in `site.toml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ExperimentDto {
    pub name: String,
    /// `FEATURE_TOGGLE` or `AB_TEST`.
    #[serde(rename = "type")]
    pub experiment_type: crate::experiments::ExperimentType,
    /// Site paths it applies to; every page when left out.
    #[serde(default)]
    pub pages: Vec<String>,
    pub segment: Option<SegmentDto>,
    pub variants: Vec<ExperimentVariantDto>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SegmentDto {
    pub name: String,
    /// `new` or `returning`.
    pub visitor: Option<crate::experiments::VisitorKind>,
    pub member: Option<bool>,
    /// `desktop`, `tablet` or `mobile`.
    pub device: Option<crate::experiments::DeviceClass>,
    pub locale: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ExperimentVariantDto {
    pub name: String,
    pub weight: u32,
    /// Ids of blocks this variant leaves out.
    #[serde(default)]
    pub hide: Vec<String>,
    /// Blocks (each with the `id` of the block it replaces) this variant shows instead.
    #[serde(default)]
    pub replace: Vec<toml::Table>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct WebsiteDto {
    pub id: Option<String>,
    pub identifier: String,
    pub base_url: String,
    #[serde(rename = "type", default)]
    pub website_type: WebsiteTypeDto,
    #[serde(default)]
    pub status: WebsiteStatusDto,
    #[serde(default)]
    pub developer_mode: bool,
    #[serde(default)]
    pub cloneable: bool,
    pub typekit_id: Option<String>,
}

/// Website types of spec 001 s3, by name.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum WebsiteTypeDto {
    #[default]
    Classic,
    CoverPage,
    ParkingPage,
    Commerce,
    Enterprise,
}

/// Website statuses of spec 001 s3, by name.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum WebsiteStatusDto {
    Expired,
    Pastdue,
    Trial,
    Beta,
    Removed,
    Internal,
    Comped,
    #[default]
    Paid,
    Linked,
    ActiveParkingPage,
    Resold,
    ResoldGracePeriod,
    Enterprise,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SettingsDto {
    pub title: String,
    #[serde(default)]
    pub description: String,
    pub locale: Option<String>,
    /// The slug of the collection shown at `/`.
    pub home: String,
    pub logo: Option<ImageDto>,
    pub social_image: Option<ImageDto>,
    #[serde(default)]
    pub footer_text: String,
    #[serde(default)]
    pub comments_enabled: bool,
    pub disqus_shortname: Option<String>,
    #[serde(default)]
    pub use_escape_key_to_login: bool,
    #[serde(default)]
    pub google_fonts: Vec<String>,
    #[serde(default)]
    pub store: StoreDto,
    #[serde(default)]
    pub cookies: CookiesDto,
    #[serde(default)]
    pub popup_overlay: PopupOverlayDto,
    pub template: Option<TemplateDto>,
    /// The default language's own name in the language switcher ("English").
    pub language_name: Option<String>,
    /// The translation service the files in `translations/` came from, if any.
    pub translation_provider: Option<String>,
    /// The mobile information bar (000 s9).
    pub information_bar: Option<InformationBarDto>,
}

/// `[settings.information_bar]`: what the bar along the bottom of a phone's screen shows.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct InformationBarDto {
    pub phone: Option<String>,
    pub email: Option<String>,
    pub address: Option<String>,
    pub hours: Option<String>,
}

/// `translations/<locale>.toml`: the site in one more language.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TranslationFile {
    pub locale: String,
    /// The language's own name ("Français").
    pub name: String,
    /// The path prefix of its pages; the language subtag (`fr`) when absent.
    pub path: Option<String>,
    /// Translations by source text: titles, descriptions, block texts, form labels,
    /// navigation titles, owner HTML text.
    #[serde(default)]
    pub texts: std::collections::BTreeMap<String, String>,
    /// The fixed texts, in ICU MessageFormat, by key.
    #[serde(default)]
    pub messages: std::collections::BTreeMap<String, String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct StoreDto {
    #[serde(default)]
    pub express_checkout: bool,
    #[serde(default)]
    pub measurement_standard: MeasurementDto,
    pub currency: Option<String>,
    /// The smallest subtotal (before discounts) that may check out, in cents.
    pub minimum_subtotal_cents: Option<crate::bundle::dto::Cents>,
    #[serde(default)]
    pub shipping_options: Vec<ShippingOptionDto>,
    #[serde(default)]
    pub tax_rules: Vec<TaxRuleDto>,
    #[serde(default)]
    pub coupons: Vec<CouponDto>,
}

/// `[[settings.store.shipping_options]]`: a flat rate (`cost_cents`), or by weight
/// (`base_cents` plus `per_unit_cents` per started lb or kg).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ShippingOptionDto {
    pub id: String,
    pub name: String,
    pub cost_cents: Option<crate::bundle::dto::Cents>,
    pub base_cents: Option<crate::bundle::dto::Cents>,
    pub per_unit_cents: Option<crate::bundle::dto::Cents>,
}

/// `[[settings.store.tax_rules]]`: a rate in basis points (8.25 % is 825) for a country, or
/// one region of it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TaxRuleDto {
    pub name: String,
    pub country: String,
    #[serde(default)]
    pub region: String,
    pub rate_basis_points: i64,
    #[serde(default)]
    pub applies_to_shipping: bool,
}

/// `[[settings.store.coupons]]`: `percent_off` (1 to 100) or `amount_off_cents`, with
/// optional dates (start inclusive, end exclusive) and usage limits.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CouponDto {
    pub code: String,
    pub percent_off: Option<u32>,
    pub amount_off_cents: Option<crate::bundle::dto::Cents>,
    pub starts: Option<toml::value::Datetime>,
    pub ends: Option<toml::value::Datetime>,
    pub total_limit: Option<u32>,
    pub per_customer_limit: Option<u32>,
}

#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum MeasurementDto {
    #[default]
    Imperial,
    Metric,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CookiesDto {
    #[serde(default)]
    pub banner_enabled: bool,
    #[serde(default)]
    pub restrictive_policy_enabled: bool,
    #[serde(default)]
    pub restrictive_policy_absolute: bool,
    /// The banner text: Markdown, raw HTML allowed, sanitised.
    pub banner_text: Option<String>,
    pub cta_text: Option<String>,
    pub opt_out_cta_text: Option<String>,
    /// `BAR` or `POPUP`.
    pub variant: Option<String>,
    pub position: Option<String>,
    /// `LIGHT` or `DARK`.
    pub theme: Option<String>,
    /// `TEXT`, `BUTTON` or `ICON`.
    pub cta_variant: Option<String>,
    /// `OPT_IN` or `OPT_IN_AND_OUT`.
    pub accept_type: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PopupOverlayDto {
    pub style: Option<String>,
    pub version: Option<u32>,
    pub show_until_signup: Option<bool>,
    pub display_frequency: Option<i32>,
    pub enable_mobile: Option<bool>,
    /// The heading of the overlay.
    #[serde(default)]
    pub title: String,
    /// Markdown (raw HTML allowed, sanitised).
    #[serde(default)]
    pub body: String,
    /// Whether the overlay carries a newsletter signup form.
    #[serde(default)]
    pub newsletter: bool,
    #[serde(default)]
    pub button_label: String,
    #[serde(default)]
    pub placeholder: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TemplateDto {
    pub id: String,
    pub version: String,
    pub website_id: Option<String>,
    pub website_identifier: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NavigationDto {
    #[serde(default)]
    pub main: Vec<NavLinkDto>,
    #[serde(default)]
    pub footer: Vec<NavLinkDto>,
    /// The special navigation of pages no menu links.
    #[serde(default, rename = "_hidden")]
    pub hidden: Vec<NavLinkDto>,
    /// The special navigation of the member areas: their ids, in menu order.
    #[serde(default, rename = "_memberareas")]
    pub member_areas: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NavLinkDto {
    pub title: String,
    pub href: String,
}
