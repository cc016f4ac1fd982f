//! Displaying money the way `Intl.NumberFormat(locale, {style: 'currency', currency})` does,
//! with thousands grouping and optional trimming of a zero fraction (000 §9).

use super::locale::SymbolPosition;
use super::{Locale, Money};

/// Choices for [`format()`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FormatOptions {
    /// Show no fraction digits when the minor part is zero ("$12" rather than "$12.00"),
    /// like `Intl`'s `trailingZeroDisplay: 'stripIfInteger'`. A non-zero fraction is always
    /// shown in full ("$12.50", never "$12.5").
    pub trim_zero_fraction: bool,
}

/// Formats an amount for people to read, for example `$1,234.50`, `1.234,50 €` or
/// `-1 234,50 $US` (with the locale's no-break spaces).
pub fn format(money: Money, locale: &Locale, options: FormatOptions) -> String {
    let locale = *locale;
    let digits = money.currency.fraction_digits();
    // The unsigned magnitude avoids overflow when negating i64::MIN.
    let magnitude = money.amount_minor.unsigned_abs();
    let per_major = 10_u64.pow(digits);
    let (major, minor) = (magnitude / per_major, magnitude % per_major);

    let mut number = group_digits(&major.to_string(), locale);
    if digits > 0 && !(options.trim_zero_fraction && minor == 0) {
        number.push_str(locale.decimal_separator());
        number.push_str(&format!("{minor:0width$}", width = digits as usize));
    }

    let sign = if money.amount_minor < 0 { "-" } else { "" };
    let symbol = locale.currency_symbol(money.currency);
    match locale.symbol_position() {
        SymbolPosition::Before => {
            // ICU's currency spacing: a symbol ending in a letter ("CHF", not "$") is kept
            // apart from the digits by a no-break space.
            let ends_in_letter = symbol.chars().next_back().is_some_and(char::is_alphabetic);
            let gap = if ends_in_letter { "\u{00A0}" } else { "" };
            format!("{sign}{symbol}{gap}{number}")
        }
        SymbolPosition::After => {
            format!("{sign}{number}{}{symbol}", locale.symbol_after_separator())
        }
    }
}

/// Inserts the locale's group separator every three digits from the right, once the number
/// has at least the locale's minimum grouping digits.
fn group_digits(integer: &str, locale: Locale) -> String {
    if integer.len() < locale.minimum_grouping_digits() {
        return integer.to_owned();
    }
    let separator = locale.group_separator();
    let mut grouped = String::with_capacity(integer.len() + integer.len() / 3 * separator.len());
    for (index, digit) in integer.chars().enumerate() {
        if index > 0 && (integer.len() - index).is_multiple_of(3) {
            grouped.push_str(separator);
        }
        grouped.push(digit);
    }
    grouped
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};

    use super::*;
    use crate::money::Currency;

    /// Formats one amount in every locale, spaces made visible: `_` for U+00A0 and `^` for
    /// U+202F.
    fn check(amount_minor: i64, currency: Currency, trim: bool, expect: Expect) {
        let options = FormatOptions {
            trim_zero_fraction: trim,
        };
        let lines: String = Locale::ALL
            .iter()
            .map(|locale| {
                let shown = format(Money::new(amount_minor, currency), locale, options);
                let visible = shown.replace('\u{00A0}', "_").replace('\u{202F}', "^");
                format!("{locale}: {visible}\n")
            })
            .collect();
        expect.assert_eq(&lines);
    }

    #[test]
    fn euro_with_grouping() {
        check(
            123_456_789,
            Currency::Eur,
            false,
            expect![[r#"
            en-US: €1,234,567.89
            en-GB: €1,234,567.89
            de-DE: 1.234.567,89_€
            fr-FR: 1^234^567,89_€
            es-ES: 1.234.567,89_€
            ja-JP: €1,234,567.89
        "#]],
        );
    }

    #[test]
    fn spanish_groups_only_from_five_digits() {
        check(
            123_450,
            Currency::Usd,
            false,
            expect![[r#"
            en-US: $1,234.50
            en-GB: US$1,234.50
            de-DE: 1.234,50_$
            fr-FR: 1^234,50_$US
            es-ES: 1234,50_US$
            ja-JP: $1,234.50
        "#]],
        );
    }

    #[test]
    fn negative_amounts_and_letter_symbols() {
        check(
            -1,
            Currency::Chf,
            false,
            expect![[r#"
            en-US: -CHF_0.01
            en-GB: -CHF_0.01
            de-DE: -0,01_CHF
            fr-FR: -0,01_CHF
            es-ES: -0,01_CHF
            ja-JP: -CHF_0.01
        "#]],
        );
    }

    #[test]
    fn yen_has_no_fraction() {
        check(
            1_234_567,
            Currency::Jpy,
            false,
            expect![[r#"
            en-US: ¥1,234,567
            en-GB: JP¥1,234,567
            de-DE: 1.234.567_¥
            fr-FR: 1^234^567_JPY
            es-ES: 1.234.567_JPY
            ja-JP: ￥1,234,567
        "#]],
        );
    }

    #[test]
    fn trimming_drops_only_a_zero_fraction() {
        check(
            1_200,
            Currency::Gbp,
            true,
            expect![[r#"
            en-US: £12
            en-GB: £12
            de-DE: 12_£
            fr-FR: 12_£GB
            es-ES: 12_GBP
            ja-JP: £12
        "#]],
        );
        let kept = format(
            Money::new(1_250, Currency::Gbp),
            &Locale::EnGb,
            FormatOptions {
                trim_zero_fraction: true,
            },
        );
        assert_eq!(kept, "£12.50");
    }

    #[test]
    fn extreme_amounts_do_not_overflow() {
        let shown = format(
            Money::new(i64::MIN, Currency::Usd),
            &Locale::EnUs,
            FormatOptions::default(),
        );
        assert_eq!(shown, "-$92,233,720,368,547,758.08");
    }
}
