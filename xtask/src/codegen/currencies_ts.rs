//! `currencies.ts`: the supported currencies (code, name, fraction digits, numeric code), the
//! default currency and the locales money can be displayed in.

use std::fmt::Write;

use vitrine_core::money::{Currency, Locale};

use super::{TS_HEADER, ts_string};

pub fn render() -> String {
    let mut out = String::from(TS_HEADER);
    out.push_str("// Supported currencies and money display locales, mirrored from `vitrine_core::money`.\n\n");

    let codes: Vec<String> = Currency::ALL.iter().map(|c| ts_string(c.code())).collect();
    let _ = writeln!(
        out,
        "export type CurrencyCode =\n  | {};\n",
        codes.join("\n  | ")
    );

    out.push_str(
        "export interface CurrencyInfo {\n  readonly code: CurrencyCode;\n  readonly name: string;\n  \
         readonly fractionDigits: number;\n  readonly numericCode: number;\n}\n\n",
    );

    out.push_str("export const CURRENCIES: readonly CurrencyInfo[] = [\n");
    for currency in Currency::ALL {
        let _ = writeln!(
            out,
            "  {{ code: {}, name: {}, fractionDigits: {}, numericCode: {} }},",
            ts_string(currency.code()),
            ts_string(currency.english_name()),
            currency.fraction_digits(),
            currency.numeric_code(),
        );
    }
    out.push_str("];\n\n");

    let _ = writeln!(
        out,
        "export const DEFAULT_CURRENCY: CurrencyCode = {};\n",
        ts_string(Currency::default().code())
    );

    let locales: Vec<String> = Locale::ALL.iter().map(|l| ts_string(l.tag())).collect();
    let _ = writeln!(
        out,
        "export const MONEY_LOCALES = [{}] as const;",
        locales.join(", ")
    );
    out.push_str("export type MoneyLocale = (typeof MONEY_LOCALES)[number];\n");
    let _ = writeln!(
        out,
        "export const DEFAULT_MONEY_LOCALE: MoneyLocale = {};",
        ts_string(Locale::default().tag())
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_every_currency_and_the_defaults() {
        let rendered = render();
        assert_eq!(rendered.matches("  { code: ").count(), Currency::ALL.len());
        assert!(
            rendered.contains("{ code: 'JPY', name: 'Yen', fractionDigits: 0, numericCode: 392 },")
        );
        assert!(rendered.contains("export const DEFAULT_CURRENCY: CurrencyCode = 'USD';"));
        assert!(rendered.contains("export const DEFAULT_MONEY_LOCALE: MoneyLocale = 'en-US';"));
    }
}
