//! Languages (issue 14 §4, 001 s5 and s7): a site's translations per locale, the language of
//! each page by its path prefix (`/fr/...`), the alternates a page links to (`hreflang`, with
//! `x-default`), the fixed texts as ICU messages, dates and numbers written per locale from
//! CLDR data (ICU4X), and the owner's choice of published languages behind a port.
//!
//! The site's default language (000 s1: en-US unless the settings say otherwise) has no
//! prefix; every other published language serves every page under its prefix, translated
//! where its translation has the texts and in the default language where it does not.

mod dates;
mod messages;
mod server_routes;
mod service;
mod store;
mod tag;
mod translation;

#[cfg(any(test, feature = "test-support"))]
pub mod conformance;

pub use dates::format_date;
pub use messages::{
    DEFAULT_MESSAGES, Message, MessageCatalog, MessageError, MessageValue, format_number,
    plural_keys,
};
pub use server_routes::{SERVER_ROUTE_SEGMENTS, first_segment, is_server_route_segment};
pub use service::{
    LanguageStatus, MultilingualError, MultilingualService, MultilingualSettings, ProviderStatus,
    TranslatedShare,
};
pub use store::{MemoryMultilingualStore, MultilingualChoice, MultilingualStore};
pub use tag::{DEFAULT_LOCALE, InvalidLanguageTag, LanguageTag};
pub use translation::{SiteTranslation, TranslationError, is_page_link};

use serde::{Deserialize, Serialize};

/// What a site bundle says about languages: the default language's name and the
/// translations, with the translation provider they came from, if any.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct LanguageSettings {
    /// The default language's own name in the switcher ("English").
    pub default_name: String,
    pub translations: Vec<SiteTranslation>,
    /// The translation service the translations came from ("DeepL"), which the owner may
    /// disconnect (001 s7 `DELETE /api/multilingual/connection`).
    pub provider: Option<String>,
}

impl LanguageSettings {
    pub fn translation(&self, tag: &LanguageTag) -> Option<&SiteTranslation> {
        self.translations
            .iter()
            .find(|translation| &translation.locale == tag)
    }
}

/// One language a page is published in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublishedLanguage {
    pub tag: LanguageTag,
    pub name: String,
    /// `None` for the default language, whose pages have no prefix.
    pub prefix: Option<String>,
}

/// The languages of a site as a page needs them: the default, those published, and the one
/// the page is in, with its fixed texts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiteLanguages {
    pub default: PublishedLanguage,
    /// The published translations, in the bundle's order.
    pub published: Vec<PublishedLanguage>,
    /// The language of the page being shown.
    pub current: LanguageTag,
    /// The current language's fixed texts.
    pub messages: MessageCatalog,
}

/// A page's address in one language, for `hreflang` links and the switcher.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alternate {
    pub tag: LanguageTag,
    pub name: String,
    pub path: String,
    pub current: bool,
}

impl SiteLanguages {
    /// Every translation of the bundle published, the page in the default language.
    pub fn of(locale: &str, settings: &LanguageSettings) -> Self {
        let default_tag = LanguageTag::parse(locale).unwrap_or_default();
        let default_name = if settings.default_name.trim().is_empty() {
            default_tag.to_string()
        } else {
            settings.default_name.clone()
        };
        Self {
            default: PublishedLanguage {
                tag: default_tag.clone(),
                name: default_name,
                prefix: None,
            },
            published: settings
                .translations
                .iter()
                .map(|translation| PublishedLanguage {
                    tag: translation.locale.clone(),
                    name: translation.name.clone(),
                    prefix: Some(translation.prefix.clone()),
                })
                .collect(),
            current: default_tag,
            messages: MessageCatalog::default(),
        }
    }

    /// Keeps only the languages the owner published (all of them when `published` is None).
    pub fn keep_published(&mut self, published: Option<&[LanguageTag]>) {
        if let Some(published) = published {
            self.published
                .retain(|language| published.contains(&language.tag));
        }
    }

    /// The published translation whose prefix starts `path`, and the path without it.
    pub fn split_prefix(&self, path: &str) -> Option<(&PublishedLanguage, String)> {
        let trimmed = path.strip_prefix('/')?;
        let (first, rest) = trimmed.split_once('/').unwrap_or((trimmed, ""));
        let language = self
            .published
            .iter()
            .find(|language| language.prefix.as_deref() == Some(first))?;
        Some((language, format!("/{rest}")))
    }

    /// The page at `path` (in whatever language) in every published language, the current
    /// one marked; empty when the site has only its default language.
    pub fn alternates(&self, path: &str) -> Vec<Alternate> {
        let base = self
            .split_prefix(path)
            .map_or_else(|| path.to_owned(), |(_, rest)| rest);
        // The server's own routes (cart, search, accounts) are served in one place only.
        if self.published.is_empty() || !is_page_link(&base) {
            return Vec::new();
        }
        std::iter::once(&self.default)
            .chain(&self.published)
            .map(|language| Alternate {
                tag: language.tag.clone(),
                name: language.name.clone(),
                path: match &language.prefix {
                    None => base.clone(),
                    Some(prefix) if base == "/" => format!("/{prefix}"),
                    Some(prefix) => format!("/{prefix}{base}"),
                },
                current: language.tag == self.current,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    pub(crate) fn settings() -> LanguageSettings {
        let translation = |tag: &str, name: &str| {
            SiteTranslation::new(
                LanguageTag::parse(tag).unwrap(),
                name,
                None,
                BTreeMap::new(),
                BTreeMap::new(),
            )
            .unwrap()
        };
        LanguageSettings {
            default_name: "English".into(),
            translations: vec![
                translation("fr-FR", "Français"),
                translation("de-DE", "Deutsch"),
            ],
            provider: None,
        }
    }

    #[test]
    fn prefixes_pick_a_published_language() {
        let mut languages = SiteLanguages::of("en-US", &settings());
        let (french, rest) = languages.split_prefix("/fr/shop/mug").unwrap();
        assert_eq!((french.tag.as_str(), rest.as_str()), ("fr-FR", "/shop/mug"));
        assert_eq!(languages.split_prefix("/fr").unwrap().1, "/");
        assert!(languages.split_prefix("/shop").is_none());
        assert!(languages.split_prefix("/french").is_none());
        languages.keep_published(Some(&[LanguageTag::parse("de-DE").unwrap()]));
        assert!(languages.split_prefix("/fr/shop").is_none());
        assert!(languages.split_prefix("/de/shop").is_some());
    }

    #[test]
    fn alternates_name_the_page_in_every_published_language() {
        let mut languages = SiteLanguages::of("en-US", &settings());
        languages.current = LanguageTag::parse("fr-FR").unwrap();
        let alternates = languages.alternates("/fr/shop");
        let paths: Vec<_> = alternates
            .iter()
            .map(|a| (a.tag.as_str(), a.path.as_str(), a.current))
            .collect();
        assert_eq!(
            paths,
            [
                ("en-US", "/shop", false),
                ("fr-FR", "/fr/shop", true),
                ("de-DE", "/de/shop", false)
            ]
        );
        assert_eq!(languages.alternates("/")[1].path, "/fr");
        languages.keep_published(Some(&[]));
        assert!(languages.alternates("/shop").is_empty());
    }
}
