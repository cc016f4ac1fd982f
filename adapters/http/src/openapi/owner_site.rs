//! Descriptions of the owner's calls that shape the published site (001 s7): the header and
//! footer, and the site's languages. All are behind the owner token.

#![allow(dead_code)]

use serde::Deserialize;
use utoipa::ToSchema;

use super::schemas::ErrorAnswer;

/// The site's header and footer: owner HTML, cleaned by the allow-list sanitiser (no scripts,
/// event handlers, styles or `javascript:` links), at most 16,384 bytes each.
#[derive(ToSchema, Deserialize)]
pub struct HeaderFooterBody {
    /// Shown at the top of every page, above the logo and menu; empty shows nothing.
    pub header: String,
    /// Shown at the bottom of every page, above "Powered by Vitrine"; empty shows nothing.
    pub footer: String,
}

/// The data holding the header and footer pages show now: the owner's, or, before the owner
/// set them, no header and the site's footer text.
#[utoipa::path(
    get,
    path = "/api/site-header-footer",
    tag = "owner",
    security(("ownerToken" = [])),
    responses(
        (status = 200, description = "The header and footer", body = HeaderFooterBody),
        (status = 404, description = "No owner token is configured, or the request does not carry it", body = ErrorAnswer),
    ),
)]
fn show_header_footer() {}

/// Replaces the header and footer of every page, at once.
#[utoipa::path(
    put,
    path = "/api/site-header-footer",
    tag = "owner",
    security(("ownerToken" = [])),
    request_body(content = HeaderFooterBody, content_type = "application/json"),
    responses(
        (status = 200, description = "The header and footer as stored, cleaned", body = HeaderFooterBody),
        (status = 400, description = "Not `{header, footer}`, or one of them is larger than 16,384 bytes", body = ErrorAnswer),
        (status = 404, description = "No owner token is configured, or the request does not carry it", body = ErrorAnswer),
    ),
)]
fn replace_header_footer() {}

/// One language of the site.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct LanguageEntry {
    /// A BCP 47 tag, such as `fr-FR`.
    pub locale: String,
    /// The language's own name, as the switcher shows it.
    pub name: String,
    /// The first path segment of its pages (`fr` for `/fr/shop`); null for the default.
    pub path_prefix: Option<String>,
    pub published: bool,
}

#[derive(ToSchema)]
pub struct ProviderStatus {
    pub name: String,
}

/// The site's languages and translation provider.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct MultilingualSettingsAnswer {
    /// Always published, without a path prefix.
    pub default_language: LanguageEntry,
    /// Every translation the site carries, published or not.
    pub languages: Vec<LanguageEntry>,
    /// The translation service the translations came from; null when none is connected.
    pub provider: Option<ProviderStatus>,
}

#[derive(ToSchema)]
pub struct TranslatedShare {
    pub translated: u32,
    pub total: u32,
}

/// How far one translation goes.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct LanguageStatus {
    pub locale: String,
    pub name: String,
    pub published: bool,
    /// Page titles with a translation.
    pub pages: TranslatedShare,
    /// Item titles with a translation.
    pub items: TranslatedShare,
    /// Navigation entries with a translation.
    pub navigation: TranslatedShare,
    /// Fixed texts (ICU messages) the translation gives.
    pub fixed_texts: TranslatedShare,
}

#[derive(ToSchema)]
pub struct MultilingualStatusAnswer {
    pub languages: Vec<LanguageStatus>,
}

#[derive(ToSchema, Deserialize)]
pub struct LanguagesBody {
    /// The translations to publish, by tag; the others are unpublished. The default language
    /// is always published and is not listed.
    pub languages: Vec<String>,
}

/// The site's languages (001 s7).
#[utoipa::path(
    get,
    path = "/api/multilingual/settings",
    tag = "owner",
    security(("ownerToken" = [])),
    responses(
        (status = 200, description = "The languages and provider", body = MultilingualSettingsAnswer),
        (status = 404, description = "No owner token is configured, or the request does not carry it", body = ErrorAnswer),
    ),
)]
fn multilingual_settings() {}

/// How far each translation goes (001 s7).
#[utoipa::path(
    get,
    path = "/api/multilingual/status",
    tag = "owner",
    security(("ownerToken" = [])),
    responses(
        (status = 200, description = "Each translation's coverage", body = MultilingualStatusAnswer),
        (status = 404, description = "No owner token is configured, or the request does not carry it", body = ErrorAnswer),
    ),
)]
fn multilingual_status() {}

/// Publishes exactly the listed translations (001 s7): their `/prefix/...` pages, switcher
/// entries, `hreflang` links and sitemap entries appear, the others' disappear, at once.
#[utoipa::path(
    put,
    path = "/api/multilingual/languages",
    tag = "owner",
    security(("ownerToken" = [])),
    request_body(content = LanguagesBody, content_type = "application/json"),
    responses(
        (status = 200, description = "The new settings", body = MultilingualSettingsAnswer),
        (status = 400, description = "Not `{languages}`, a tag that is not a language tag, one the site has no translation into, the default language, or one listed twice", body = ErrorAnswer),
        (status = 404, description = "No owner token is configured, or the request does not carry it", body = ErrorAnswer),
    ),
)]
fn publish_languages() {}

/// Disconnects the translation provider (001 s7); the translations it made stay.
#[utoipa::path(
    delete,
    path = "/api/multilingual/connection",
    tag = "owner",
    security(("ownerToken" = [])),
    responses(
        (status = 204, description = "Disconnected"),
        (status = 404, description = "No owner token is configured, or the request does not carry it", body = ErrorAnswer),
        (status = 409, description = "No translation provider is connected", body = ErrorAnswer),
    ),
)]
fn disconnect_provider() {}
