//! Money: amounts held in integer minor units (cents) of a supported currency, checked
//! arithmetic, and locale-aware display (000 §3 "Currency", 000 §9).

mod currency;
mod format;
mod locale;

pub use currency::{Currency, UnknownCurrency};
pub use format::{FormatOptions, format};
pub use locale::{Locale, UnsupportedLocale};

use std::fmt;

/// An amount of money in the minor unit of its currency (cents for USD, yen for JPY).
///
/// Amounts are integers so that sums never drift; every operation that can overflow is
/// checked and reports [`MoneyArithmeticError::Overflow`] instead of wrapping or panicking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Money {
    pub amount_minor: i64,
    pub currency: Currency,
}

/// Why a money calculation has no result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum MoneyArithmeticError {
    #[error("cannot combine {left} with {right}: the currencies differ")]
    CurrencyMismatch { left: Currency, right: Currency },
    #[error("the result is too large to represent as a money amount")]
    Overflow,
}

impl Money {
    /// An amount in minor units.
    pub const fn new(amount_minor: i64, currency: Currency) -> Self {
        Self {
            amount_minor,
            currency,
        }
    }

    /// Nothing, in the given currency. `Money::default()` is zero US dollars, the cart's
    /// default subtotal (000 §3).
    pub const fn zero(currency: Currency) -> Self {
        Self::new(0, currency)
    }

    pub const fn is_zero(self) -> bool {
        self.amount_minor == 0
    }

    pub const fn is_negative(self) -> bool {
        self.amount_minor < 0
    }

    /// The sum of two amounts of the same currency.
    pub fn checked_add(self, other: Money) -> Result<Money, MoneyArithmeticError> {
        let currency = self.same_currency(other)?;
        let sum = self.amount_minor.checked_add(other.amount_minor);
        sum.map(|amount| Money::new(amount, currency))
            .ok_or(MoneyArithmeticError::Overflow)
    }

    /// The difference of two amounts of the same currency.
    pub fn checked_sub(self, other: Money) -> Result<Money, MoneyArithmeticError> {
        let currency = self.same_currency(other)?;
        let difference = self.amount_minor.checked_sub(other.amount_minor);
        difference
            .map(|amount| Money::new(amount, currency))
            .ok_or(MoneyArithmeticError::Overflow)
    }

    /// The amount times a quantity, as for a cart line.
    pub fn checked_mul(self, quantity: i64) -> Result<Money, MoneyArithmeticError> {
        let product = self.amount_minor.checked_mul(quantity);
        product
            .map(|amount| Money::new(amount, self.currency))
            .ok_or(MoneyArithmeticError::Overflow)
    }

    /// A percentage of the amount, given in basis points (hundredths of a percent, so 12.5 %
    /// is 1250), as for a discount or a tax rate.
    ///
    /// The exact result is rounded to the nearest minor unit, and a result exactly halfway
    /// between two minor units goes to the even one (round half to even, "banker's
    /// rounding"). We chose it over rounding half away from zero because it does not bias
    /// totals upwards when many lines are discounted: 12.5 % of 4 cents is 0.5 cents, which
    /// becomes 0, while 12.5 % of 12 cents is 1.5 cents, which becomes 2.
    pub fn percentage(self, basis_points: i64) -> Result<Money, MoneyArithmeticError> {
        const WHOLE: i128 = 10_000;
        let exact = i128::from(self.amount_minor) * i128::from(basis_points);
        let quotient = exact / WHOLE;
        let twice_remainder = (exact % WHOLE).abs() * 2;
        let away_from_zero =
            twice_remainder > WHOLE || (twice_remainder == WHOLE && quotient % 2 != 0);
        let rounded = if away_from_zero {
            quotient + exact.signum()
        } else {
            quotient
        };
        i64::try_from(rounded)
            .map(|amount| Money::new(amount, self.currency))
            .map_err(|_| MoneyArithmeticError::Overflow)
    }

    /// The total of several amounts, all in `currency`; an empty list totals zero.
    pub fn checked_sum(
        currency: Currency,
        amounts: impl IntoIterator<Item = Money>,
    ) -> Result<Money, MoneyArithmeticError> {
        amounts
            .into_iter()
            .try_fold(Money::zero(currency), Money::checked_add)
    }

    fn same_currency(self, other: Money) -> Result<Currency, MoneyArithmeticError> {
        if self.currency == other.currency {
            Ok(self.currency)
        } else {
            Err(MoneyArithmeticError::CurrencyMismatch {
                left: self.currency,
                right: other.currency,
            })
        }
    }
}

/// Shows the amount as en-US does, the website default locale (000 §1).
impl fmt::Display for Money {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format(*self, &Locale::default(), FormatOptions::default()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn usd(cents: i64) -> Money {
        Money::new(cents, Currency::Usd)
    }

    #[test]
    fn adds_and_subtracts_in_minor_units() {
        assert_eq!(usd(1999).checked_add(usd(1)), Ok(usd(2000)));
        assert_eq!(usd(100).checked_sub(usd(250)), Ok(usd(-150)));
        assert_eq!(usd(1250).checked_mul(3), Ok(usd(3750)));
    }

    #[test]
    fn refuses_to_mix_currencies() {
        let error = usd(1)
            .checked_add(Money::new(1, Currency::Eur))
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "cannot combine USD with EUR: the currencies differ"
        );
    }

    #[test]
    fn overflow_is_an_error_not_a_panic() {
        assert_eq!(
            usd(i64::MAX).checked_add(usd(1)),
            Err(MoneyArithmeticError::Overflow)
        );
        assert_eq!(
            usd(i64::MIN).checked_sub(usd(1)),
            Err(MoneyArithmeticError::Overflow)
        );
        assert_eq!(
            usd(i64::MAX).checked_mul(2),
            Err(MoneyArithmeticError::Overflow)
        );
        assert_eq!(
            usd(i64::MAX).percentage(20_000),
            Err(MoneyArithmeticError::Overflow)
        );
    }

    #[test]
    fn percentages_round_half_to_even() {
        let cases = [
            (4, 1250, 0),
            (12, 1250, 2),
            (20, 1250, 2),
            (28, 1250, 4),
            (-12, 1250, -2),
            (-4, 1250, 0),
            (1999, 1000, 200),
            (1001, 5000, 500),
            (1003, 5000, 502),
            (i64::MIN, 10_000, i64::MIN),
        ];
        for (amount, basis_points, expected) in cases {
            assert_eq!(
                usd(amount).percentage(basis_points),
                Ok(usd(expected)),
                "{amount} x {basis_points}"
            );
        }
    }

    #[test]
    fn sums_a_cart() {
        assert_eq!(
            Money::checked_sum(Currency::Usd, [usd(1), usd(2), usd(3)]),
            Ok(usd(6))
        );
        assert_eq!(
            Money::checked_sum(Currency::Gbp, []),
            Ok(Money::zero(Currency::Gbp))
        );
    }

    #[test]
    fn default_is_zero_us_dollars() {
        assert_eq!(Money::default(), usd(0));
        assert_eq!(Money::default().to_string(), "$0.00");
    }
}
