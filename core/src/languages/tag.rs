//! A language tag (BCP 47, such as `fr-FR`), checked and written in its canonical form by
//! ICU4X's locale parser.

use std::fmt;

use icu_locale_core::Locale;
use serde::{Deserialize, Serialize};

/// The spec's default website locale (000 s1).
pub const DEFAULT_LOCALE: &str = "en-US";

/// A tag that is not a BCP 47 language tag.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("\"{0}\" is not a language tag such as en-US or fr-FR.")]
pub struct InvalidLanguageTag(pub String);

/// A valid language tag in canonical form (`fr-FR`, not `FR_fr`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct LanguageTag(String);

impl LanguageTag {
    pub fn parse(text: &str) -> Result<Self, InvalidLanguageTag> {
        let locale =
            Locale::try_from_str(text.trim()).map_err(|_| InvalidLanguageTag(text.to_owned()))?;
        if locale.id.language.is_unknown() {
            return Err(InvalidLanguageTag(text.to_owned()));
        }
        Ok(Self(locale.to_string()))
    }

    /// The spec's default, en-US.
    pub fn default_locale() -> Self {
        Self(DEFAULT_LOCALE.to_owned())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The language alone, lowercase (`fr` of `fr-FR`): the default path prefix.
    pub fn language(&self) -> &str {
        self.0.split('-').next().unwrap_or(&self.0)
    }

    /// The tag as ICU4X's locale, for its formatters and plural rules.
    pub(crate) fn locale(&self) -> Locale {
        // Only tags that parsed are ever constructed.
        Locale::try_from_str(&self.0).unwrap_or(Locale::UNKNOWN)
    }
}

impl Default for LanguageTag {
    fn default() -> Self {
        Self::default_locale()
    }
}

impl TryFrom<String> for LanguageTag {
    type Error = InvalidLanguageTag;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        Self::parse(&text)
    }
}

impl From<LanguageTag> for String {
    fn from(tag: LanguageTag) -> Self {
        tag.0
    }
}

impl fmt::Display for LanguageTag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_canonical_and_nonsense_is_refused() {
        assert_eq!(LanguageTag::parse("fr-fr").unwrap().as_str(), "fr-FR");
        assert_eq!(LanguageTag::parse("FR_fr").unwrap_err().0, "FR_fr");
        assert_eq!(LanguageTag::parse("pt-BR").unwrap().language(), "pt");
        assert!(LanguageTag::parse("").is_err());
        assert!(LanguageTag::parse("not a tag").is_err());
        assert_eq!(LanguageTag::default().as_str(), "en-US");
    }
}
