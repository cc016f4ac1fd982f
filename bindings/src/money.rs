//! Money display per currency and locale (000 s9).

use vitrine_core::money::{self, Currency, FormatOptions, Locale, Money};

/// Why an amount cannot be formatted.
#[derive(Debug, thiserror::Error, uniffi::Error)]
#[uniffi(flat_error)]
pub enum MoneyError {
    #[error(transparent)]
    UnknownCurrency(#[from] money::UnknownCurrency),
    #[error(transparent)]
    UnsupportedLocale(#[from] money::UnsupportedLocale),
}

/// A currency a store can sell in.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct CurrencyInfo {
    /// The ISO 4217 code, such as `EUR`.
    pub code: String,
    pub english_name: String,
    /// Digits of the minor unit: 2, or 0 for JPY.
    pub fraction_digits: u32,
}

/// Formats an amount in minor units (cents, or yen) as the site shows it, for example
/// `$1,234.50` in en-US or `1.234,50 €` in de-DE. `trim_zero_fraction` shows `$12` for
/// `$12.00`.
#[uniffi::export]
pub fn format_money(
    amount_minor: i64,
    currency_code: String,
    locale_tag: String,
    trim_zero_fraction: bool,
) -> Result<String, MoneyError> {
    let currency: Currency = currency_code.parse()?;
    let locale: Locale = locale_tag.parse()?;
    let options = FormatOptions { trim_zero_fraction };
    Ok(money::format(
        Money::new(amount_minor, currency),
        &locale,
        options,
    ))
}

/// Every currency [`format_money`] accepts, in the specification's order.
#[uniffi::export]
pub fn supported_currencies() -> Vec<CurrencyInfo> {
    Currency::ALL
        .iter()
        .map(|currency| CurrencyInfo {
            code: currency.code().to_owned(),
            english_name: currency.english_name().to_owned(),
            fraction_digits: currency.fraction_digits(),
        })
        .collect()
}

/// Every locale tag [`format_money`] accepts, such as `en-US`.
#[uniffi::export]
pub fn supported_locales() -> Vec<String> {
    Locale::ALL
        .iter()
        .map(|locale| locale.tag().to_owned())
        .collect()
}
