//! The supported currencies (000 §9) with their ISO 4217 data.

use std::fmt;
use std::str::FromStr;

/// A text that is not the ISO code of a supported currency.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a supported currency code")]
pub struct UnknownCurrency(pub String);

macro_rules! currencies {
    ($( $(#[$attr:meta])* $variant:ident => ($code:literal, $name:literal, $digits:literal, $numeric:literal), )+) => {
        /// A currency a store can sell in.
        ///
        /// 000 §9 lists 26 currencies "two decimals except JPY with 0" and says another
        /// listing shows 25; 001 §3 names the yen among the translated currency names. Both
        /// readings stand, so we support the 26 listed currencies plus JPY as a 27th: leaving
        /// JPY out would make the spec's one zero-decimal rule dead text. English names are
        /// the ISO 4217 names, which is the wording the specification uses ("US Dollar",
        /// "Pound Sterling", "Yen").
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        pub enum Currency {
            $(
                #[doc = $name]
                $(#[$attr])*
                $variant,
            )+
        }

        impl Currency {
            /// Every supported currency: the 26 of 000 §9 in the spec's order, then JPY.
            pub const ALL: &'static [Self] = &[ $( Self::$variant, )+ ];

            /// The three-letter ISO 4217 code.
            pub const fn code(self) -> &'static str {
                match self { $( Self::$variant => $code, )+ }
            }

            /// The ISO 4217 English name.
            pub const fn english_name(self) -> &'static str {
                match self { $( Self::$variant => $name, )+ }
            }

            /// How many digits the minor unit has: 2, or 0 for JPY.
            pub const fn fraction_digits(self) -> u32 {
                match self { $( Self::$variant => $digits, )+ }
            }

            /// The ISO 4217 numeric code.
            pub const fn numeric_code(self) -> u16 {
                match self { $( Self::$variant => $numeric, )+ }
            }
        }
    };
}

currencies! {
    Eur => ("EUR", "Euro", 2, 978),
    #[default]
    Usd => ("USD", "US Dollar", 2, 840),
    Aud => ("AUD", "Australian Dollar", 2, 36),
    Nok => ("NOK", "Norwegian Krone", 2, 578),
    Cad => ("CAD", "Canadian Dollar", 2, 124),
    Nzd => ("NZD", "New Zealand Dollar", 2, 554),
    Dkk => ("DKK", "Danish Krone", 2, 208),
    Gbp => ("GBP", "Pound Sterling", 2, 826),
    Hkd => ("HKD", "Hong Kong Dollar", 2, 344),
    Chf => ("CHF", "Swiss Franc", 2, 756),
    Mxn => ("MXN", "Mexican Peso", 2, 484),
    Sgd => ("SGD", "Singapore Dollar", 2, 702),
    Sek => ("SEK", "Swedish Krona", 2, 752),
    Czk => ("CZK", "Czech Koruna", 2, 203),
    Ils => ("ILS", "New Israeli Sheqel", 2, 376),
    Php => ("PHP", "Philippine Peso", 2, 608),
    Rub => ("RUB", "Russian Ruble", 2, 643),
    Pln => ("PLN", "Zloty", 2, 985),
    Thb => ("THB", "Baht", 2, 764),
    Myr => ("MYR", "Malaysian Ringgit", 2, 458),
    Ars => ("ARS", "Argentine Peso", 2, 32),
    Brl => ("BRL", "Brazilian Real", 2, 986),
    Cop => ("COP", "Colombian Peso", 2, 170),
    Idr => ("IDR", "Rupiah", 2, 360),
    Inr => ("INR", "Indian Rupee", 2, 356),
    Zar => ("ZAR", "Rand", 2, 710),
    Jpy => ("JPY", "Yen", 0, 392),
}

impl Currency {
    /// Parses an ISO 4217 code of a supported currency. Surrounding whitespace and letter
    /// case are forgiven, because codes arrive from settings forms and query strings where
    /// "usd" plainly means USD.
    pub fn from_code(code: &str) -> Result<Self, UnknownCurrency> {
        let trimmed = code.trim();
        Self::ALL
            .iter()
            .copied()
            .find(|currency| currency.code().eq_ignore_ascii_case(trimmed))
            .ok_or_else(|| UnknownCurrency(code.to_owned()))
    }

    /// How many minor units make one major unit: 100, or 1 for JPY.
    pub const fn minor_units_per_major(self) -> i64 {
        10_i64.pow(self.fraction_digits())
    }
}

impl fmt::Display for Currency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl FromStr for Currency {
    type Err = UnknownCurrency;

    fn from_str(code: &str) -> Result<Self, Self::Err> {
        Self::from_code(code)
    }
}

impl serde::Serialize for Currency {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.code())
    }
}

impl<'de> serde::Deserialize<'de> for Currency {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let code = <std::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(deserializer)?;
        Self::from_code(&code).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::*;

    #[test]
    fn twenty_six_listed_currencies_plus_yen() {
        let codes: Vec<&str> = Currency::ALL.iter().map(|c| c.code()).collect();
        expect![[r#"
            EUR USD AUD NOK CAD NZD DKK GBP HKD CHF MXN SGD SEK CZK ILS PHP RUB PLN THB MYR ARS BRL COP IDR INR ZAR JPY"#]]
        .assert_eq(&codes.join(" "));
    }

    #[test]
    fn only_yen_has_zero_fraction_digits() {
        for &currency in Currency::ALL {
            let expected = if currency == Currency::Jpy { 0 } else { 2 };
            assert_eq!(currency.fraction_digits(), expected, "{currency}");
        }
    }

    #[test]
    fn default_is_us_dollar() {
        assert_eq!(Currency::default(), Currency::Usd);
        assert_eq!(Currency::Usd.english_name(), "US Dollar");
        assert_eq!(Currency::Usd.numeric_code(), 840);
    }

    #[test]
    fn codes_parse_forgivingly_and_round_trip() {
        for &currency in Currency::ALL {
            assert_eq!(Currency::from_code(currency.code()), Ok(currency));
            let json = serde_json::to_string(&currency).unwrap();
            assert_eq!(serde_json::from_str::<Currency>(&json).unwrap(), currency);
        }
        assert_eq!(" gbp ".parse::<Currency>(), Ok(Currency::Gbp));
        let error = Currency::from_code("XYZ").unwrap_err();
        assert_eq!(
            error.to_string(),
            r#""XYZ" is not a supported currency code"#
        );
    }

    #[test]
    fn numeric_codes_are_unique() {
        let mut numeric: Vec<u16> = Currency::ALL.iter().map(|c| c.numeric_code()).collect();
        numeric.sort_unstable();
        numeric.dedup();
        assert_eq!(numeric.len(), Currency::ALL.len());
    }
}
