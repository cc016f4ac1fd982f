//! The owner's multilingual calls (001 s7) as one service: the settings, the translation
//! status of each language, publishing languages and disconnecting the translation provider.

use serde::Serialize;

use super::{LanguageTag, MultilingualChoice, MultilingualStore, SiteLanguages};
use crate::ports::{ItemQuery, RepositoryError, SiteRepository};
use crate::site::SiteProfile;

/// Why a multilingual call was refused.
#[derive(Debug, thiserror::Error)]
pub enum MultilingualError {
    #[error(transparent)]
    InvalidTag(#[from] super::InvalidLanguageTag),
    #[error("The site has no translation into {tag}; its translations are: {available}.")]
    NoTranslation { tag: String, available: String },
    #[error("{0} is listed twice.")]
    Duplicate(String),
    #[error(
        "{0} is the site's default language, which is always published; list only translations."
    )]
    DefaultLanguage(String),
    #[error("No translation provider is connected.")]
    NoProvider,
    #[error("no site has been imported yet")]
    NoSite,
    #[error(transparent)]
    Repository(#[from] RepositoryError),
}

/// One language of the settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LanguageEntry {
    pub locale: String,
    pub name: String,
    /// The path prefix of the language's pages; none for the default language.
    pub path_prefix: Option<String>,
    pub published: bool,
}

/// The translation provider, as the settings show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProviderStatus {
    pub name: String,
}

/// The site's languages and provider (`GET /api/multilingual/settings`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MultilingualSettings {
    pub default_language: LanguageEntry,
    /// Every translation the site carries, published or not.
    pub languages: Vec<LanguageEntry>,
    pub provider: Option<ProviderStatus>,
}

/// How many of a kind of text a translation covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TranslatedShare {
    pub translated: usize,
    pub total: usize,
}

impl TranslatedShare {
    fn count<'t>(
        texts: impl IntoIterator<Item = &'t str>,
        translated: impl Fn(&str) -> bool,
    ) -> Self {
        let mut share = Self {
            translated: 0,
            total: 0,
        };
        for text in texts {
            if text.trim().is_empty() {
                continue;
            }
            share.total += 1;
            if translated(text) {
                share.translated += 1;
            }
        }
        share
    }
}

/// How far one translation goes (`GET /api/multilingual/status`): page and item titles,
/// navigation entries and fixed texts that have a translation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LanguageStatus {
    pub locale: String,
    pub name: String,
    pub published: bool,
    pub pages: TranslatedShare,
    pub items: TranslatedShare,
    pub navigation: TranslatedShare,
    pub fixed_texts: TranslatedShare,
}

/// The multilingual calls over the site and the owner's stored choice.
pub struct MultilingualService<'a> {
    repository: &'a dyn SiteRepository,
    store: &'a dyn MultilingualStore,
}

impl<'a> MultilingualService<'a> {
    pub fn new(repository: &'a dyn SiteRepository, store: &'a dyn MultilingualStore) -> Self {
        Self { repository, store }
    }

    async fn profile_and_choice(
        &self,
    ) -> Result<(SiteProfile, MultilingualChoice), MultilingualError> {
        let profile = self
            .repository
            .profile()
            .await?
            .ok_or(MultilingualError::NoSite)?;
        let choice = self.store.choice().await?.unwrap_or_default();
        Ok((profile, choice))
    }

    pub async fn settings(&self) -> Result<MultilingualSettings, MultilingualError> {
        let (profile, choice) = self.profile_and_choice().await?;
        Ok(settings_of(&profile, &choice))
    }

    pub async fn status(&self) -> Result<Vec<LanguageStatus>, MultilingualError> {
        let (profile, choice) = self.profile_and_choice().await?;
        let collections = self.repository.collections().await?;
        let mut item_titles = Vec::new();
        for collection in &collections {
            if collection.lists_items() {
                let items = self
                    .repository
                    .items(&collection.id, ItemQuery::first(u32::MAX))
                    .await?;
                item_titles.extend(items.into_iter().map(|item| item.title));
            }
        }
        let published = published_tags(&profile, &choice);
        Ok(profile
            .settings
            .languages
            .translations
            .iter()
            .map(|translation| {
                let has = |text: &str| translation.text(text).is_some();
                LanguageStatus {
                    locale: translation.locale.to_string(),
                    name: translation.name.clone(),
                    published: published.contains(&translation.locale),
                    pages: TranslatedShare::count(
                        collections.iter().map(|c| c.title.as_str()),
                        has,
                    ),
                    items: TranslatedShare::count(item_titles.iter().map(String::as_str), has),
                    navigation: TranslatedShare::count(
                        profile
                            .navigation
                            .main
                            .iter()
                            .chain(&profile.navigation.footer)
                            .map(|link| link.title.as_str()),
                        has,
                    ),
                    fixed_texts: TranslatedShare {
                        translated: translation.messages.translated(),
                        total: super::DEFAULT_MESSAGES.len(),
                    },
                }
            })
            .collect())
    }

    /// Publishes exactly the translations `tags` name (an empty list leaves the default
    /// language alone), answering the new settings.
    pub async fn publish(
        &self,
        tags: &[String],
    ) -> Result<MultilingualSettings, MultilingualError> {
        let (profile, mut choice) = self.profile_and_choice().await?;
        let available = &profile.settings.languages.translations;
        let mut published: Vec<LanguageTag> = Vec::new();
        for text in tags {
            let tag = LanguageTag::parse(text)?;
            if tag.as_str() == profile.settings.locale
                || LanguageTag::parse(&profile.settings.locale).ok().as_ref() == Some(&tag)
            {
                return Err(MultilingualError::DefaultLanguage(tag.to_string()));
            }
            if !available
                .iter()
                .any(|translation| translation.locale == tag)
            {
                let names: Vec<&str> = available.iter().map(|t| t.locale.as_str()).collect();
                return Err(MultilingualError::NoTranslation {
                    tag: tag.to_string(),
                    available: if names.is_empty() {
                        "none".to_owned()
                    } else {
                        names.join(", ")
                    },
                });
            }
            if published.contains(&tag) {
                return Err(MultilingualError::Duplicate(tag.to_string()));
            }
            published.push(tag);
        }
        choice.published = Some(published);
        self.store.save_choice(&choice).await?;
        Ok(settings_of(&profile, &choice))
    }

    /// Disconnects the translation provider; the translations it made stay published.
    pub async fn disconnect_provider(&self) -> Result<(), MultilingualError> {
        let (profile, mut choice) = self.profile_and_choice().await?;
        if profile.settings.languages.provider.is_none() || choice.provider_disconnected {
            return Err(MultilingualError::NoProvider);
        }
        choice.provider_disconnected = true;
        Ok(self.store.save_choice(&choice).await?)
    }
}

fn published_tags(profile: &SiteProfile, choice: &MultilingualChoice) -> Vec<LanguageTag> {
    let mut languages = SiteLanguages::of(&profile.settings.locale, &profile.settings.languages);
    languages.keep_published(choice.published.as_deref());
    languages
        .published
        .into_iter()
        .map(|language| language.tag)
        .collect()
}

fn settings_of(profile: &SiteProfile, choice: &MultilingualChoice) -> MultilingualSettings {
    let languages = SiteLanguages::of(&profile.settings.locale, &profile.settings.languages);
    let published = published_tags(profile, choice);
    MultilingualSettings {
        default_language: LanguageEntry {
            locale: languages.default.tag.to_string(),
            name: languages.default.name.clone(),
            path_prefix: None,
            published: true,
        },
        languages: profile
            .settings
            .languages
            .translations
            .iter()
            .map(|translation| LanguageEntry {
                locale: translation.locale.to_string(),
                name: translation.name.clone(),
                path_prefix: Some(translation.prefix.clone()),
                published: published.contains(&translation.locale),
            })
            .collect(),
        provider: profile
            .settings
            .languages
            .provider
            .clone()
            .filter(|_| !choice.provider_disconnected)
            .map(|name| ProviderStatus { name }),
    }
}
