//! The locales money can be displayed in, with the separators, symbol placement and currency
//! symbols that ICU (as used by `Intl.NumberFormat` in browsers and Node) gives them.
//!
//! The tables were read off `Intl.NumberFormat(locale, {style: 'currency', currency})` and are
//! kept honest by the generated reference vectors, which the web test suite compares with the
//! real `Intl` output.

use std::fmt;
use std::str::FromStr;

use super::Currency;

/// A locale tag that names no supported display locale.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{0:?} is not a supported display locale (supported: en-US, en-GB, de-DE, fr-FR, es-ES, ja-JP)"
)]
pub struct UnsupportedLocale(pub String);

/// A locale in which amounts can be displayed. The default is en-US, the default website
/// locale (000 §1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Locale {
    #[default]
    EnUs,
    EnGb,
    DeDe,
    FrFr,
    EsEs,
    JaJp,
}

/// Where the currency symbol goes relative to the number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum SymbolPosition {
    /// `¤#,##0.00`: the symbol comes first, joined by a no-break space when it ends in a letter.
    Before,
    /// `#,##0.00 ¤`: the symbol follows after a no-break space.
    After,
}

const NO_BREAK_SPACE: &str = "\u{00A0}";
const NARROW_NO_BREAK_SPACE: &str = "\u{202F}";

impl Locale {
    /// Every supported locale.
    pub const ALL: &'static [Self] = &[
        Self::EnUs,
        Self::EnGb,
        Self::DeDe,
        Self::FrFr,
        Self::EsEs,
        Self::JaJp,
    ];

    /// The BCP 47 tag, such as `en-US`.
    pub const fn tag(self) -> &'static str {
        match self {
            Self::EnUs => "en-US",
            Self::EnGb => "en-GB",
            Self::DeDe => "de-DE",
            Self::FrFr => "fr-FR",
            Self::EsEs => "es-ES",
            Self::JaJp => "ja-JP",
        }
    }

    /// Parses a supported tag exactly, ignoring letter case and accepting `_` for `-`.
    pub fn from_tag(tag: &str) -> Result<Self, UnsupportedLocale> {
        let normalized = tag.trim().replace('_', "-");
        Self::ALL
            .iter()
            .copied()
            .find(|locale| locale.tag().eq_ignore_ascii_case(&normalized))
            .ok_or_else(|| UnsupportedLocale(tag.to_owned()))
    }

    /// The closest supported locale for any tag, for a website locale such as `fr-CA` or
    /// `de`: the exact tag if supported, else the first supported locale of the same
    /// language, else en-US. Display then stays in the visitor's language even where the
    /// regional conventions differ slightly.
    pub fn best_match(tag: &str) -> Self {
        if let Ok(locale) = Self::from_tag(tag) {
            return locale;
        }
        let language = tag.trim().split(['-', '_']).next().unwrap_or_default();
        Self::ALL
            .iter()
            .copied()
            .find(|locale| locale.tag()[..2].eq_ignore_ascii_case(language))
            .unwrap_or_default()
    }

    pub(super) const fn decimal_separator(self) -> &'static str {
        match self {
            Self::EnUs | Self::EnGb | Self::JaJp => ".",
            Self::DeDe | Self::FrFr | Self::EsEs => ",",
        }
    }

    pub(super) const fn group_separator(self) -> &'static str {
        match self {
            Self::EnUs | Self::EnGb | Self::JaJp => ",",
            Self::DeDe | Self::EsEs => ".",
            Self::FrFr => NARROW_NO_BREAK_SPACE,
        }
    }

    /// The fewest integer digits at which grouping starts. Spanish does not group a
    /// four-digit number ("1234,50 €") but does group from five digits on ("12.345,00 €").
    pub(super) const fn minimum_grouping_digits(self) -> usize {
        match self {
            Self::EsEs => 5,
            _ => 4,
        }
    }

    pub(super) const fn symbol_position(self) -> SymbolPosition {
        match self {
            Self::EnUs | Self::EnGb | Self::JaJp => SymbolPosition::Before,
            Self::DeDe | Self::FrFr | Self::EsEs => SymbolPosition::After,
        }
    }

    /// The space between a number and a symbol that follows it.
    pub(super) const fn symbol_after_separator(self) -> &'static str {
        NO_BREAK_SPACE
    }

    /// The symbol of a currency in this locale. Currencies without a local symbol show their
    /// ISO code, as ICU does.
    pub(super) fn currency_symbol(self, currency: Currency) -> &'static str {
        use Currency::*;
        let local = match (self, currency) {
            (_, Eur) => Some("€"),
            (Self::FrFr, Usd) => Some("$US"),
            (Self::EnGb | Self::EsEs, Usd) => Some("US$"),
            (_, Usd) => Some("$"),
            (_, Thb) if matches!(self, Self::DeDe | Self::EsEs) => Some("฿"),
            (Self::EsEs, _) => None,
            (Self::FrFr, Aud) => Some("$AU"),
            (Self::FrFr, Cad) => Some("$CA"),
            (Self::FrFr, Nzd) => Some("$NZ"),
            (Self::FrFr, Gbp) => Some("£GB"),
            (Self::FrFr, Mxn) => Some("$MX"),
            (Self::FrFr, Sgd) => Some("$SG"),
            (Self::FrFr, Ars) => Some("$AR"),
            (Self::FrFr, Cop) => Some("$CO"),
            (Self::FrFr, Hkd | Jpy) => None,
            (Self::DeDe, Aud) => Some("AU$"),
            (_, Aud) => Some("A$"),
            (_, Cad) => Some("CA$"),
            (_, Nzd) => Some("NZ$"),
            (_, Gbp) => Some("£"),
            (_, Hkd) => Some("HK$"),
            (_, Mxn) => Some("MX$"),
            (_, Ils) => Some("₪"),
            (Self::EnUs | Self::EnGb, Php) => Some("₱"),
            (_, Brl) => Some("R$"),
            (_, Inr) => Some("₹"),
            (Self::EnGb, Jpy) => Some("JP¥"),
            (Self::JaJp, Jpy) => Some("￥"),
            (_, Jpy) => Some("¥"),
            _ => None,
        };
        local.unwrap_or(currency.code())
    }
}

impl fmt::Display for Locale {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.tag())
    }
}

impl FromStr for Locale {
    type Err = UnsupportedLocale;

    fn from_str(tag: &str) -> Result<Self, Self::Err> {
        Self::from_tag(tag)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_round_trip() {
        for &locale in Locale::ALL {
            assert_eq!(Locale::from_tag(locale.tag()), Ok(locale));
        }
        assert_eq!(Locale::from_tag("fr_fr"), Ok(Locale::FrFr));
        assert!(Locale::from_tag("fr-CA").is_err());
    }

    #[test]
    fn best_match_falls_back_by_language_then_to_en_us() {
        assert_eq!(Locale::best_match("fr-CA"), Locale::FrFr);
        assert_eq!(Locale::best_match("de"), Locale::DeDe);
        assert_eq!(Locale::best_match("en-AU"), Locale::EnUs);
        assert_eq!(Locale::best_match("pt-BR"), Locale::EnUs);
        assert_eq!(Locale::best_match(""), Locale::EnUs);
    }
}
