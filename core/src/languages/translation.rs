//! One locale's translation of a site, as a bundle carries it: the language's name and path
//! prefix, the site's texts by their source text (pages, items, navigation, forms, owner
//! HTML), and the fixed texts as ICU messages.
//!
//! Content is translated by segment, as translation services do: a text whose whole (with its
//! spaces collapsed) is a source text of the translation is replaced by its translation, and
//! in HTML each text between two tags is. Technical values (ids, slugs, media paths, form
//! field names) are never touched, and site paths in links get the language's prefix, so a
//! visitor who follows one stays in the language.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{LanguageTag, MessageCatalog, MessageError, first_segment, is_server_route_segment};

/// Fields whose values are identifiers or addresses, never text a visitor reads.
const TECHNICAL_FIELDS: &[&str] = &[
    "id",
    "slug",
    "src",
    "path",
    "url",
    "collection_id",
    "sku",
    "type",
    "kind",
    "style",
    "name",
    "value",
    "email",
    "currency",
    "video_url",
    "provider",
    "icon",
    "content_type",
    "record_type",
    "status",
    "permission_type",
    "design",
    "alignment",
    "size",
    "direction",
    "block_type",
    "form_id",
    "product_id",
    "variant_id",
    "target",
];

/// Fields holding a link, whose site paths get the language prefix.
const LINK_FIELDS: &[&str] = &["href", "link", "url"];

/// Why a translation cannot be part of a site.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TranslationError {
    #[error(
        "The path prefix \"{0}\" must be 2 to 10 lowercase letters, digits or hyphens, starting with a letter."
    )]
    InvalidPrefix(String),
    #[error("The language needs a name visitors read in the switcher, such as \"Français\".")]
    MissingName,
    #[error("A source text is empty; every text to translate needs its source.")]
    EmptySource,
    #[error(transparent)]
    Message(#[from] MessageError),
}

/// A site's translation into one locale.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SiteTranslation {
    pub locale: LanguageTag,
    /// The language's own name, as the switcher shows it ("Français").
    pub name: String,
    /// The first path segment of the language's pages (`fr` for `/fr/shop`).
    pub prefix: String,
    /// Translations by source text, the source's spaces collapsed.
    texts: BTreeMap<String, String>,
    pub messages: MessageCatalog,
}

impl SiteTranslation {
    /// A translation into `locale`, its prefix the language (`fr`) unless one is given.
    pub fn new(
        locale: LanguageTag,
        name: &str,
        prefix: Option<&str>,
        texts: BTreeMap<String, String>,
        messages: BTreeMap<String, String>,
    ) -> Result<Self, TranslationError> {
        let prefix = prefix.map_or_else(|| locale.language().to_owned(), str::to_owned);
        let valid_prefix = (2..=10).contains(&prefix.len())
            && prefix.starts_with(|c: char| c.is_ascii_lowercase())
            && prefix
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !valid_prefix {
            return Err(TranslationError::InvalidPrefix(prefix));
        }
        if name.trim().is_empty() {
            return Err(TranslationError::MissingName);
        }
        let mut collapsed = BTreeMap::new();
        for (source, target) in texts {
            let source = collapse(&source);
            if source.is_empty() {
                return Err(TranslationError::EmptySource);
            }
            collapsed.insert(source, target.trim().to_owned());
        }
        Ok(Self {
            messages: MessageCatalog::parse(&locale, messages)?,
            locale,
            name: name.trim().to_owned(),
            prefix,
            texts: collapsed,
        })
    }

    /// How many source texts this translation has.
    pub fn text_count(&self) -> usize {
        self.texts.len()
    }

    /// The translation of a whole text, when there is one.
    pub fn text(&self, source: &str) -> Option<&str> {
        self.texts.get(&collapse(source)).map(String::as_str)
    }

    /// `source` translated: as a whole, or else each text between tags when it is HTML.
    pub fn translate(&self, source: &str) -> String {
        if let Some(target) = self.text(source) {
            return target.to_owned();
        }
        if source.contains('<') {
            return self.translate_html(source);
        }
        source.to_owned()
    }

    /// Each text between two tags of `html` that is a source text, replaced by its
    /// translation (escaped). Tags and attributes are left as they are.
    fn translate_html(&self, html: &str) -> String {
        let mut out = String::with_capacity(html.len());
        let mut rest = html;
        while let Some(open) = rest.find('<') {
            let (text, tagged) = rest.split_at(open);
            out.push_str(&self.translate_html_text(text));
            let Some(close) = tagged.find('>') else {
                out.push_str(tagged);
                return out;
            };
            out.push_str(&tagged[..=close]);
            rest = &tagged[close + 1..];
        }
        out.push_str(&self.translate_html_text(rest));
        out
    }

    fn translate_html_text(&self, text: &str) -> String {
        if text.trim().is_empty() {
            return text.to_owned();
        }
        let source = unescape(text);
        match self.text(&source) {
            Some(target) => escape(target),
            None => text.to_owned(),
        }
    }

    /// `path` inside this language: `/fr/shop` for `/shop`, `/fr` for `/`.
    pub fn localized_path(&self, path: &str) -> String {
        if path == "/" || path.is_empty() {
            format!("/{}", self.prefix)
        } else {
            format!("/{}{path}", self.prefix)
        }
    }

    /// Every visible text of `value` (a serialised collection, item or block) translated, and
    /// its site links prefixed.
    pub fn translate_value(&self, value: &mut Value) {
        match value {
            Value::Object(fields) => {
                for (field, inner) in fields.iter_mut() {
                    if LINK_FIELDS.contains(&field.as_str()) {
                        if let Value::String(link) = inner
                            && is_page_link(link)
                        {
                            *link = self.localized_path(link);
                        }
                    } else if !TECHNICAL_FIELDS.contains(&field.as_str()) {
                        self.translate_value(inner);
                    }
                }
            }
            Value::Array(values) => values
                .iter_mut()
                .for_each(|inner| self.translate_value(inner)),
            Value::String(text) => *text = self.translate(text),
            _ => {}
        }
    }

    /// `thing` with its visible texts translated; unchanged when it does not read back (which
    /// a translation of texts cannot cause, but a value must never be lost to it).
    pub fn translated<T: Serialize + serde::de::DeserializeOwned + Clone>(&self, thing: &T) -> T {
        let Ok(mut value) = serde_json::to_value(thing) else {
            return thing.clone();
        };
        self.translate_value(&mut value);
        serde_json::from_value(value).unwrap_or_else(|_| thing.clone())
    }
}

/// A link to a published page of the site (not one of the server's own routes, nor another
/// site).
pub fn is_page_link(link: &str) -> bool {
    if !link.starts_with('/') || link.starts_with("//") {
        return false;
    }
    !is_server_route_segment(first_segment(link))
}

fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `text` safe between two tags.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The entities an HTML serialiser writes in text, back to characters.
fn unescape(text: &str) -> String {
    text.replace("&nbsp;", "\u{a0}")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn french() -> SiteTranslation {
        let texts = [
            ("About", "À propos"),
            ("Two potters  and a kiln", "Deux potiers et un four"),
            ("Fish & chips", "Poisson & frites"),
        ]
        .into_iter()
        .map(|(a, b)| (a.to_owned(), b.to_owned()))
        .collect();
        SiteTranslation::new(
            LanguageTag::parse("fr-FR").unwrap(),
            "Français",
            None,
            texts,
            BTreeMap::new(),
        )
        .unwrap()
    }

    #[test]
    fn whole_texts_and_texts_between_tags_are_translated() {
        let fr = french();
        assert_eq!(fr.prefix, "fr");
        assert_eq!(fr.translate(" About "), "À propos");
        assert_eq!(
            fr.translate("Two potters\nand a kiln"),
            "Deux potiers et un four"
        );
        assert_eq!(
            fr.translate("<h2 class=\"About\">About</h2><p>Fish &amp; chips</p><p>Other</p>"),
            "<h2 class=\"About\">À propos</h2><p>Poisson &amp; frites</p><p>Other</p>"
        );
        assert_eq!(fr.translate("Untranslated"), "Untranslated");
    }

    #[test]
    fn technical_values_stay_and_site_links_get_the_prefix() {
        let fr = french();
        let mut value = serde_json::json!({
            "title": "About", "slug": "About", "name": "About",
            "href": "/about", "link": "/", "src": "/media/a.webp",
            "nested": [{"text": "About", "href": "https://example.com/about"}, {"href": "/media/x.pdf"}],
        });
        fr.translate_value(&mut value);
        assert_eq!(
            value,
            serde_json::json!({
                "title": "À propos", "slug": "About", "name": "About",
                "href": "/fr/about", "link": "/fr", "src": "/media/a.webp",
                "nested": [{"text": "À propos", "href": "https://example.com/about"}, {"href": "/media/x.pdf"}],
            })
        );
        for route in [
            "/search",
            "/cart",
            "/account/member-access",
            "/checkout?x=1",
            "/media/a.jpg",
        ] {
            assert!(!is_page_link(route), "{route}");
        }
        for page in ["/shop", "/about#team", "/", "/searching"] {
            assert!(is_page_link(page), "{page}");
        }
    }

    #[test]
    fn a_translation_needs_a_prefix_a_name_and_valid_messages() {
        let tag = LanguageTag::parse("fr-FR").unwrap();
        let none = BTreeMap::new;
        assert_eq!(
            SiteTranslation::new(tag.clone(), "Français", Some("API!"), none(), none())
                .unwrap_err(),
            TranslationError::InvalidPrefix("API!".into())
        );
        assert_eq!(
            SiteTranslation::new(tag.clone(), " ", None, none(), none()).unwrap_err(),
            TranslationError::MissingName
        );
        let messages = [(
            "cart.itemCount".to_owned(),
            "{count, plural, one {#} few {#} other {#}}".to_owned(),
        )]
        .into_iter()
        .collect();
        assert!(matches!(
            SiteTranslation::new(tag, "Français", None, none(), messages).unwrap_err(),
            TranslationError::Message(MessageError::InvalidPluralKey { .. })
        ));
    }
}
