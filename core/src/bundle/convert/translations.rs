//! `translations/<locale>.toml` into the site's [`LanguageSettings`]: each translation's
//! locale, name, path prefix, texts and fixed texts (ICU messages checked for the locale),
//! refused when its locale is the default or another file's, or its prefix is taken by a page
//! or by the server's own paths.

use std::collections::BTreeSet;

use crate::bundle::BundleError;
use crate::bundle::dto::TranslationFile;
use crate::bundle::error::At;
use crate::bundle::files::utf8;
use crate::languages::{LanguageSettings, LanguageTag, SiteTranslation, is_server_route_segment};
use crate::site::Collection;

pub(crate) fn read(
    files: &[(&str, &[u8])],
    default_locale: &str,
    language_name: Option<String>,
    provider: Option<String>,
    collections: &[Collection],
) -> Result<LanguageSettings, BundleError> {
    let default = LanguageTag::parse(default_locale).unwrap_or_default();
    let mut translations: Vec<SiteTranslation> = Vec::new();
    let mut prefixes = BTreeSet::new();
    for (file, bytes) in files {
        let at = At::root(file);
        let dto: TranslationFile = at.parse_toml(utf8(file, bytes)?)?;
        let locale = LanguageTag::parse(&dto.locale)
            .map_err(|error| at.field("locale").error(error.to_string()))?;
        if locale == default {
            return Err(at.field("locale").error(format!(
                "{locale} is the site's default language, whose texts are the site's own"
            )));
        }
        if translations.iter().any(|other| other.locale == locale) {
            return Err(at
                .field("locale")
                .error(format!("another file translates into {locale} already")));
        }
        let translation = SiteTranslation::new(
            locale,
            &dto.name,
            dto.path.as_deref(),
            dto.texts,
            dto.messages,
        )
        .map_err(|error| at.error(error.to_string()))?;
        let prefix = translation.prefix.as_str();
        if is_server_route_segment(prefix)
            || collections.iter().any(|c| c.slug.as_str() == prefix)
            || !prefixes.insert(prefix.to_owned())
        {
            return Err(at.field("path").error(format!(
                "the path prefix '{prefix}' is taken by a page, another language or the server; \
                 choose another with path = \"...\""
            )));
        }
        translations.push(translation);
    }
    Ok(LanguageSettings {
        default_name: language_name.unwrap_or_default(),
        translations,
        provider,
    })
}
