//! `money-vectors.json`: the Rust money formatter's output for every supported currency,
//! locale, a spread of amounts and both trimming choices. The web test suite compares each
//! entry with `Intl.NumberFormat`, whose ICU data is the reference the formatter copies.

use vitrine_core::money::{Currency, FormatOptions, Locale, Money, format};

/// Amounts in minor units: zero, the smallest, just under and at one major unit, a grouped
/// amount, the maximum product price (000 §9), and negatives.
const AMOUNTS: [i64; 8] = [0, 1, 99, 100, 123_456, 100_000_000, -1, -123_456];

pub fn render() -> String {
    let mut lines = Vec::new();
    for &currency in Currency::ALL {
        for locale in Locale::ALL {
            let mut cases = Vec::new();
            for amount_minor in AMOUNTS {
                for trim_zero_fraction in [false, true] {
                    let money = Money::new(amount_minor, currency);
                    let shown = format(money, locale, FormatOptions { trim_zero_fraction });
                    cases.push(format!(
                        "[{amount_minor}, {trim_zero_fraction}, {}]",
                        json_string(&shown)
                    ));
                }
            }
            // Keys are written in a fixed order by hand rather than through a JSON map, whose
            // key order depends on serde_json's features.
            lines.push(format!(
                "  {{\"currency\": {}, \"locale\": {}, \"fractionDigits\": {}, \"cases\": [{}]}}",
                json_string(currency.code()),
                json_string(locale.tag()),
                currency.fraction_digits(),
                cases.join(", "),
            ));
        }
    }
    // One currency and locale per line keeps diffs readable when a symbol changes.
    format!("[\n{}\n]\n", lines.join(",\n"))
}

fn json_string(text: &str) -> String {
    serde_json::Value::from(text).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn covers_every_combination_and_is_valid_json() {
        let parsed: serde_json::Value = serde_json::from_str(&render()).unwrap();
        let groups = parsed.as_array().unwrap();
        assert_eq!(groups.len(), Currency::ALL.len() * Locale::ALL.len());
        assert_eq!(groups[0]["currency"], "EUR");
        assert_eq!(groups[0]["locale"], "en-US");
        let cases = groups[0]["cases"].as_array().unwrap();
        assert_eq!(cases.len(), AMOUNTS.len() * 2);
        assert_eq!(cases[0], serde_json::json!([0, false, "€0.00"]));
        assert_eq!(cases[1], serde_json::json!([0, true, "€0"]));
    }
}
