//! Formatting money and then stripping everything but digits and the sign gives back the
//! amount, in every currency and locale.

use proptest::prelude::*;
use vitrine_core::money::{Currency, FormatOptions, Locale, Money, format};

fn amount() -> impl Strategy<Value = i64> {
    prop_oneof![3 => -10_000_000i64..10_000_000, 1 => any::<i64>(), 1 => Just(i64::MIN)]
}

proptest! {
    #[test]
    fn stripping_separators_recovers_the_amount(
        amount_minor in amount(),
        currency in prop::sample::select(Currency::ALL),
        locale in prop::sample::select(Locale::ALL),
        trim_zero_fraction in any::<bool>(),
    ) {
        let shown = format(Money::new(amount_minor, currency), &locale, FormatOptions { trim_zero_fraction });

        prop_assert_eq!(shown.starts_with('-'), amount_minor < 0, "sign of {:?}", shown);
        prop_assert_eq!(shown.matches('-').count(), usize::from(amount_minor < 0));

        // No currency symbol contains a digit, so the digits are exactly the number's.
        let digits: String = shown.chars().filter(char::is_ascii_digit).collect();
        let per_major = u128::from(currency.minor_units_per_major().unsigned_abs());
        let magnitude = u128::from(amount_minor.unsigned_abs());
        let trimmed = trim_zero_fraction && magnitude % per_major == 0;
        let recovered = digits.parse::<u128>().unwrap() * if trimmed { per_major } else { 1 };
        prop_assert_eq!(recovered, magnitude, "{:?}", shown);
    }

    #[test]
    fn groups_hold_three_digits(amount_minor in any::<i64>(), locale in prop::sample::select(Locale::ALL)) {
        let shown = format(Money::new(amount_minor, Currency::Jpy), &locale, FormatOptions::default());
        // Yen have no fraction, so every run of digits after the first is a full group.
        let runs: Vec<&str> = shown.split(|c: char| !c.is_ascii_digit()).filter(|run| !run.is_empty()).collect();
        prop_assert!(!runs.is_empty());
        prop_assert!((1..=3).contains(&runs[0].len()) || runs.len() == 1, "{:?}", shown);
        for run in &runs[1..] {
            prop_assert_eq!(run.len(), 3, "{:?}", shown);
        }
    }
}
