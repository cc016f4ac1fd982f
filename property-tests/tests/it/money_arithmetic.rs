//! Model-based test of money arithmetic: random sequences of additions, subtractions,
//! multiplications and percentages applied to `Money` and to an `i128` reference model.

use proptest::prelude::*;
use vitrine_core::money::{Currency, Money, MoneyArithmeticError};

const CURRENCY: Currency = Currency::Usd;

#[derive(Debug, Clone)]
enum Op {
    /// Add an amount; `foreign` amounts are in another currency and must be refused.
    Add {
        amount: i64,
        foreign: bool,
    },
    Sub {
        amount: i64,
    },
    Mul {
        quantity: i64,
    },
    Percent {
        basis_points: i64,
    },
}

/// Mostly everyday amounts, with enough extremes to reach overflow regularly.
fn amount() -> impl Strategy<Value = i64> {
    prop_oneof![
        6 => -1_000_000i64..1_000_000,
        2 => any::<i64>(),
        1 => Just(i64::MAX),
        1 => Just(i64::MIN),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (amount(), prop::bool::weighted(0.1)).prop_map(|(amount, foreign)| Op::Add { amount, foreign }),
        3 => amount().prop_map(|amount| Op::Sub { amount }),
        2 => prop_oneof![4 => -1_000i64..1_000, 1 => any::<i64>()].prop_map(|quantity| Op::Mul { quantity }),
        2 => (-30_000i64..30_000).prop_map(|basis_points| Op::Percent { basis_points }),
    ]
}

/// Round half to even of `numerator / 10_000`, computed with floor division so that it is an
/// independent formulation of the rule `Money::percentage` implements.
fn model_percentage(amount: i128, basis_points: i128) -> i128 {
    let exact = amount * basis_points;
    let floor = exact.div_euclid(10_000);
    let remainder = exact.rem_euclid(10_000);
    match (remainder * 2).cmp(&10_000) {
        std::cmp::Ordering::Less => floor,
        std::cmp::Ordering::Greater => floor + 1,
        std::cmp::Ordering::Equal => floor + floor.rem_euclid(2),
    }
}

/// Checks one step: a result the model says fits in `i64` must be exactly that amount,
/// anything else must be `Overflow`. On success both sides move on to the new value.
fn settle(
    result: Result<Money, MoneyArithmeticError>,
    expected: i128,
    money: &mut Money,
    model: &mut i128,
) -> Result<(), TestCaseError> {
    match i64::try_from(expected) {
        Ok(amount) => {
            prop_assert_eq!(result, Ok(Money::new(amount, CURRENCY)));
            *money = Money::new(amount, CURRENCY);
            *model = expected;
        }
        Err(_) => prop_assert_eq!(result, Err(MoneyArithmeticError::Overflow)),
    }
    Ok(())
}

proptest! {
    #[test]
    fn arithmetic_agrees_with_an_i128_model(start in amount(), ops in prop::collection::vec(op(), 0..40)) {
        let mut money = Money::new(start, CURRENCY);
        let mut model = i128::from(start);
        for op in ops {
            match op {
                Op::Add { amount, foreign: true } => {
                    let result = money.checked_add(Money::new(amount, Currency::Eur));
                    prop_assert_eq!(
                        result,
                        Err(MoneyArithmeticError::CurrencyMismatch { left: CURRENCY, right: Currency::Eur })
                    );
                }
                Op::Add { amount, foreign: false } => {
                    let result = money.checked_add(Money::new(amount, CURRENCY));
                    settle(result, model + i128::from(amount), &mut money, &mut model)?;
                }
                Op::Sub { amount } => {
                    let result = money.checked_sub(Money::new(amount, CURRENCY));
                    settle(result, model - i128::from(amount), &mut money, &mut model)?;
                }
                Op::Mul { quantity } => {
                    let result = money.checked_mul(quantity);
                    settle(result, model * i128::from(quantity), &mut money, &mut model)?;
                }
                Op::Percent { basis_points } => {
                    let result = money.percentage(basis_points);
                    settle(result, model_percentage(model, i128::from(basis_points)), &mut money, &mut model)?;
                }
            }
            prop_assert_eq!(i128::from(money.amount_minor), model);
        }
    }

    #[test]
    fn sum_agrees_with_the_model(amounts in prop::collection::vec(amount(), 0..20)) {
        let total: i128 = amounts.iter().map(|&a| i128::from(a)).sum();
        let moneys = amounts.iter().map(|&a| Money::new(a, CURRENCY));
        let result = Money::checked_sum(CURRENCY, moneys);
        // A running sum can overflow even when the final total would fit, so the model
        // replays the same left-to-right fold.
        let mut running: Option<i64> = Some(0);
        for &a in &amounts {
            running = running.and_then(|r| r.checked_add(a));
        }
        match running {
            Some(sum) => {
                prop_assert_eq!(i128::from(sum), total);
                prop_assert_eq!(result, Ok(Money::new(sum, CURRENCY)));
            }
            None => prop_assert_eq!(result, Err(MoneyArithmeticError::Overflow)),
        }
    }
}
