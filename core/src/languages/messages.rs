//! The site's fixed texts (skip link, menu names, the cart, the language switcher) as ICU
//! MessageFormat messages: English defaults here, translations per locale in the bundle.
//!
//! Messages are parsed by `ferrocat-icu`, a maintained ICU MessageFormat parser; the web
//! client parses the same texts with FormatJS's `intl-messageformat`. The rule of 001 s5 is
//! checked on both sides alike: a plural's keys must be plural categories the locale uses
//! (CLDR's rules, from ICU4X's `icu_plurals`; `Intl.PluralRules` in browsers) or an explicit
//! `=N`, and `other` must be there (the parser's own rule); anything else is an error naming
//! the key.

use std::collections::BTreeMap;

use ferrocat_icu::{IcuMessage, IcuNode, IcuOption, IcuPluralKind, parse_icu};
use icu_decimal::DecimalFormatter;
use icu_decimal::input::Decimal;
use icu_plurals::{PluralCategory, PluralRules};
use serde::{Deserialize, Serialize};

use super::LanguageTag;

/// Every fixed text the site shows, with its English default.
pub const DEFAULT_MESSAGES: &[(&str, &str)] = &[
    ("header.skipLink", "Skip to content"),
    ("header.navigation", "Main"),
    ("header.cart", "Cart"),
    ("header.memberAreas", "Member areas"),
    ("header.signIn", "Sign in"),
    ("header.account", "Account"),
    ("footer.navigation", "Footer"),
    ("footer.social", "Social media"),
    ("footer.poweredBy", "Powered by Vitrine"),
    ("languages.label", "Language"),
    // The cart indicator's spoken label (001 s9: "one item", "N items in cart", and "more than
    // 100 items" past the display cap).
    (
        "cart.itemCount",
        "{count, plural, =1 {one item} other {# items in cart}}",
    ),
    ("cart.overCap", "more than 100 items"),
];

/// Why a message cannot be one of the site's texts.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MessageError {
    #[error("There is no fixed text \"{key}\" to translate.")]
    UnknownKey { key: String },
    #[error("The text \"{key}\" is not valid ICU MessageFormat: {reason}.")]
    Syntax { key: String, reason: String },
    #[error(
        "The text \"{key}\" uses the plural key \"{selector}\" for {{{argument}}}, which {locale} does not have: use {valid} or an explicit =N."
    )]
    InvalidPluralKey {
        key: String,
        argument: String,
        selector: String,
        locale: String,
        valid: String,
    },
}

/// One parsed message, with its source text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    text: String,
    parsed: IcuMessage,
}

/// A value a message's argument takes.
#[derive(Debug, Clone, PartialEq)]
pub enum MessageValue<'a> {
    Text(&'a str),
    Number(i64),
}

impl Message {
    /// Parses `text`, the message `key` of `locale`, and checks its plurals for that locale.
    pub fn parse(key: &str, text: &str, locale: &LanguageTag) -> Result<Self, MessageError> {
        let parsed = parse_icu(text).map_err(|error| MessageError::Syntax {
            key: key.to_owned(),
            reason: error.to_string(),
        })?;
        check_nodes(key, &parsed.nodes, locale)?;
        Ok(Self {
            text: text.to_owned(),
            parsed,
        })
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// The message with `arguments` put in, numbers and plurals as `locale` writes them.
    /// An argument not given is left as `{name}`, so a gap shows rather than hides.
    pub fn format(&self, locale: &LanguageTag, arguments: &[(&str, MessageValue<'_>)]) -> String {
        let mut out = String::new();
        write_nodes(&mut out, &self.parsed.nodes, locale, arguments, None);
        out
    }
}

/// The plural categories `locale` uses, by their message keys (`one`, `few`, `other`, ...).
pub fn plural_keys(locale: &LanguageTag, kind: &IcuPluralKind) -> Vec<&'static str> {
    let prefs = (&locale.locale()).into();
    let rules = match kind {
        IcuPluralKind::Cardinal => PluralRules::try_new_cardinal(prefs),
        IcuPluralKind::Ordinal => PluralRules::try_new_ordinal(prefs),
    };
    match rules {
        Ok(rules) => rules.categories().map(category_key).collect(),
        // ICU4X falls back to the root locale, so this does not happen for a parsed tag.
        Err(_) => vec!["other"],
    }
}

fn category_key(category: PluralCategory) -> &'static str {
    match category {
        PluralCategory::Zero => "zero",
        PluralCategory::One => "one",
        PluralCategory::Two => "two",
        PluralCategory::Few => "few",
        PluralCategory::Many => "many",
        PluralCategory::Other => "other",
    }
}

/// An explicit `=N` key.
fn is_explicit(selector: &str) -> bool {
    selector
        .strip_prefix('=')
        .is_some_and(|number| !number.is_empty() && number.parse::<i64>().is_ok())
}

fn check_nodes(key: &str, nodes: &[IcuNode], locale: &LanguageTag) -> Result<(), MessageError> {
    for node in nodes {
        match node {
            IcuNode::Plural {
                name,
                kind,
                options,
                ..
            } => {
                let valid = plural_keys(locale, kind);
                for option in options {
                    if !is_explicit(&option.selector) && !valid.contains(&option.selector.as_str())
                    {
                        return Err(MessageError::InvalidPluralKey {
                            key: key.to_owned(),
                            argument: name.clone(),
                            selector: option.selector.clone(),
                            locale: locale.to_string(),
                            valid: valid.join(", "),
                        });
                    }
                }
                check_options(key, options, locale)?;
            }
            IcuNode::Select { options, .. } => check_options(key, options, locale)?,
            IcuNode::Tag { children, .. } => check_nodes(key, children, locale)?,
            _ => {}
        }
    }
    Ok(())
}

/// Checks the branches of a plural or select; the parser has made sure `other` is there.
fn check_options(
    key: &str,
    options: &[IcuOption],
    locale: &LanguageTag,
) -> Result<(), MessageError> {
    for option in options {
        check_nodes(key, &option.value, locale)?;
    }
    Ok(())
}

fn write_nodes(
    out: &mut String,
    nodes: &[IcuNode],
    locale: &LanguageTag,
    arguments: &[(&str, MessageValue<'_>)],
    pound: Option<i64>,
) {
    let argument = |name: &str| {
        arguments
            .iter()
            .find(|(given, _)| *given == name)
            .map(|(_, value)| value)
    };
    for node in nodes {
        match node {
            IcuNode::Literal(text) => out.push_str(text),
            IcuNode::Pound => match pound {
                Some(number) => out.push_str(&format_number(locale, number)),
                None => out.push('#'),
            },
            IcuNode::Plural {
                name,
                kind,
                offset,
                options,
            } => match argument(name) {
                Some(MessageValue::Number(number)) => {
                    let shown = number - i64::from(*offset);
                    let exact = format!("={number}");
                    let category = plural_category(locale, kind, shown);
                    let chosen = options
                        .iter()
                        .find(|option| option.selector == exact)
                        .or_else(|| options.iter().find(|option| option.selector == category))
                        .or_else(|| options.iter().find(|option| option.selector == "other"));
                    if let Some(option) = chosen {
                        write_nodes(out, &option.value, locale, arguments, Some(shown));
                    }
                }
                _ => write_placeholder(out, name),
            },
            IcuNode::Select { name, options } => {
                let value = match argument(name) {
                    Some(MessageValue::Text(text)) => (*text).to_owned(),
                    Some(MessageValue::Number(number)) => number.to_string(),
                    None => String::new(),
                };
                let chosen = options
                    .iter()
                    .find(|option| option.selector == value)
                    .or_else(|| options.iter().find(|option| option.selector == "other"));
                if let Some(option) = chosen {
                    write_nodes(out, &option.value, locale, arguments, pound);
                }
            }
            IcuNode::Tag { children, .. } => write_nodes(out, children, locale, arguments, pound),
            IcuNode::Argument { name } | IcuNode::Number { name, .. } => match argument(name) {
                Some(MessageValue::Text(text)) => out.push_str(text),
                Some(MessageValue::Number(number)) => out.push_str(&format_number(locale, *number)),
                None => write_placeholder(out, name),
            },
            // Dates, lists and the like are not used by the site's texts: their argument
            // is written as it is.
            other => write_placeholder(out, other_name(other)),
        }
    }
}

fn other_name(node: &IcuNode) -> &str {
    match node {
        IcuNode::Date { name, .. }
        | IcuNode::Time { name, .. }
        | IcuNode::List { name, .. }
        | IcuNode::Duration { name, .. }
        | IcuNode::Ago { name, .. }
        | IcuNode::Name { name, .. } => name,
        _ => "",
    }
}

fn write_placeholder(out: &mut String, name: &str) {
    out.push('{');
    out.push_str(name);
    out.push('}');
}

fn plural_category(locale: &LanguageTag, kind: &IcuPluralKind, number: i64) -> &'static str {
    let prefs = (&locale.locale()).into();
    let rules = match kind {
        IcuPluralKind::Cardinal => PluralRules::try_new_cardinal(prefs),
        IcuPluralKind::Ordinal => PluralRules::try_new_ordinal(prefs),
    };
    rules.map_or("other", |rules| category_key(rules.category_for(number)))
}

/// A whole number as `locale` writes it (`1,234` in en-US, `1 234` in fr-FR), from CLDR.
pub fn format_number(locale: &LanguageTag, number: i64) -> String {
    match DecimalFormatter::try_new((&locale.locale()).into(), Default::default()) {
        Ok(formatter) => formatter.format(&Decimal::from(number)).to_string(),
        Err(_) => number.to_string(),
    }
}

/// The fixed texts of one locale: its translations over the English defaults.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct MessageCatalog(BTreeMap<String, String>);

impl MessageCatalog {
    /// Checks every translated text of `locale`: known keys, valid syntax, valid plurals.
    pub fn parse(
        locale: &LanguageTag,
        texts: BTreeMap<String, String>,
    ) -> Result<Self, MessageError> {
        for (key, text) in &texts {
            if !DEFAULT_MESSAGES.iter().any(|(known, _)| known == key) {
                return Err(MessageError::UnknownKey { key: key.clone() });
            }
            Message::parse(key, text, locale)?;
        }
        Ok(Self(texts))
    }

    /// The text of `key` in this catalog's locale, or the English default.
    pub fn text<'k>(&'k self, key: &'k str) -> &'k str {
        if let Some(text) = self.0.get(key) {
            return text;
        }
        DEFAULT_MESSAGES
            .iter()
            .find(|(known, _)| *known == key)
            .map_or(key, |(_, text)| *text)
    }

    /// How many of the fixed texts this catalog translates.
    pub fn translated(&self) -> usize {
        self.0.len()
    }

    /// Every fixed text of the locale, translated or default, for the page context.
    pub fn all(&self) -> BTreeMap<&'static str, &str> {
        DEFAULT_MESSAGES
            .iter()
            .map(|(key, _)| (*key, self.text(key)))
            .collect()
    }

    /// The message `key` formatted for `locale` with `arguments`.
    pub fn format(
        &self,
        key: &str,
        locale: &LanguageTag,
        arguments: &[(&str, MessageValue<'_>)],
    ) -> String {
        match Message::parse(key, self.text(key), locale) {
            Ok(message) => message.format(locale, arguments),
            Err(_) => self.text(key).to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tag(text: &str) -> LanguageTag {
        LanguageTag::parse(text).unwrap()
    }

    #[test]
    fn the_english_defaults_are_valid_for_en_us() {
        for (key, text) in DEFAULT_MESSAGES {
            Message::parse(key, text, &tag("en-US")).unwrap();
        }
    }

    #[test]
    fn plural_keys_must_be_the_locales_or_explicit() {
        let polish = "{n, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}";
        assert!(Message::parse("k", polish, &tag("pl")).is_ok());
        let error = Message::parse("k", polish, &tag("en-US")).unwrap_err();
        assert_eq!(
            error.to_string(),
            "The text \"k\" uses the plural key \"few\" for {n}, which en-US does not have: use one, other or an explicit =N."
        );
        assert!(
            Message::parse(
                "k",
                "{n, plural, =0 {none} =7 {seven} other {#}}",
                &tag("ja")
            )
            .is_ok()
        );
        assert!(matches!(
            Message::parse("k", "{n, plural, one {#}}", &tag("fr")),
            Err(MessageError::Syntax { .. })
        ));
        assert!(matches!(
            Message::parse("k", "{n, plural, one {#", &tag("fr")),
            Err(MessageError::Syntax { .. })
        ));
    }

    #[test]
    fn plurals_and_numbers_follow_the_locale() {
        let en = Message::parse(
            "k",
            "{count, plural, =0 {none} one {# item} other {# items}}",
            &tag("en-US"),
        )
        .unwrap();
        assert_eq!(
            en.format(&tag("en-US"), &[("count", MessageValue::Number(0))]),
            "none"
        );
        assert_eq!(
            en.format(&tag("en-US"), &[("count", MessageValue::Number(1))]),
            "1 item"
        );
        assert_eq!(
            en.format(&tag("en-US"), &[("count", MessageValue::Number(1234))]),
            "1,234 items"
        );
        // French says "one" for 0 and 1, and groups thousands with a narrow no-break space.
        let fr = Message::parse(
            "k",
            "{count, plural, one {# article} other {# articles}}",
            &tag("fr-FR"),
        )
        .unwrap();
        assert_eq!(
            fr.format(&tag("fr-FR"), &[("count", MessageValue::Number(0))]),
            "0 article"
        );
        assert_eq!(
            fr.format(&tag("fr-FR"), &[("count", MessageValue::Number(1234))]),
            "1\u{202f}234 articles"
        );
        assert_eq!(fr.format(&tag("fr-FR"), &[]), "{count}");
    }

    #[test]
    fn a_catalog_refuses_unknown_keys_and_falls_back_to_english() {
        let mut texts = BTreeMap::new();
        texts.insert("header.cart".to_owned(), "Panier".to_owned());
        let catalog = MessageCatalog::parse(&tag("fr-FR"), texts.clone()).unwrap();
        assert_eq!(catalog.text("header.cart"), "Panier");
        assert_eq!(catalog.text("header.skipLink"), "Skip to content");
        texts.insert("header.basket".to_owned(), "Panier".to_owned());
        assert_eq!(
            MessageCatalog::parse(&tag("fr-FR"), texts)
                .unwrap_err()
                .to_string(),
            "There is no fixed text \"header.basket\" to translate."
        );
    }
}
