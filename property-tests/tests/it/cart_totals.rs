//! Money in a cart never overflows: random adds and quantity changes with huge quantities
//! and prices (far past the catalogue's limit, up to `i64::MAX`) are applied to the real
//! `CartState` and to a model that sums in `i128`. A change is refused exactly when the
//! model's exact subtotal passes `MAX_CART_TOTAL_CENTS`, a refused change leaves the cart as
//! it was, and an accepted one prices to the model's exact subtotal. Any stored cart, however
//! wild its lines, prices without panicking and checks out only within the limit.

use proptest::prelude::*;
use vitrine_core::cart::{
    CartEntry, CartError, CartState, CheckoutBlocker, LineId, MAX_CART_TOTAL_CENTS,
    MAX_LINE_QUANTITY, Purchasable, Stock, StoreRules, Timestamp,
};
use vitrine_core::catalog::{MAX_PRICE_CENTS, Sku};
use vitrine_core::enums::ProductType;

const SKUS: [&str; 3] = ["A", "B", "C"];

fn purchasable(sku: usize, price: i64) -> Purchasable {
    Purchasable::new(
        format!("p{sku}"),
        SKUS[sku],
        ProductType::Digital,
        Sku::parse(SKUS[sku]).unwrap(),
        price,
        Stock::Unlimited,
    )
}

fn price() -> impl Strategy<Value = i64> {
    prop_oneof![
        0..=MAX_PRICE_CENTS,
        MAX_PRICE_CENTS..=MAX_PRICE_CENTS * 1_000_000,
        0..=i64::MAX,
        Just(i64::MAX),
    ]
}

fn quantity() -> impl Strategy<Value = u32> {
    prop_oneof![1..=20_u32, 1..=u32::MAX, Just(u32::MAX)]
}

#[derive(Debug, Clone)]
enum Op {
    Add {
        sku: usize,
        price: i64,
        quantity: u32,
    },
    Change {
        sku: usize,
        quantity: u32,
    },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (0..SKUS.len(), price(), quantity())
            .prop_map(|(sku, price, quantity)| Op::Add { sku, price, quantity }),
        1 => (0..SKUS.len(), prop_oneof![Just(0_u32), quantity()])
            .prop_map(|(sku, quantity)| Op::Change { sku, quantity }),
    ]
}

/// The model: each SKU's (unit price, units), in the order lines were added.
type Model = Vec<(usize, i64, u32)>;

fn exact_subtotal(model: &Model) -> i128 {
    model
        .iter()
        .map(|&(_, price, units)| i128::from(price) * i128::from(units))
        .sum()
}

proptest! {
    #[test]
    fn huge_quantities_and_prices_are_refused_whole_never_overflowed(
        ops in prop::collection::vec(op(), 1..30),
    ) {
        let mut cart = CartState::new("c", "w", Timestamp(0));
        let mut model: Model = Vec::new();
        for op in ops {
            let before = cart.clone();
            let mut next = model.clone();
            let result = match op {
                Op::Add { sku, price, quantity } => {
                    match next.iter_mut().find(|line| line.0 == sku) {
                        Some(line) => {
                            line.1 = price;
                            line.2 = line.2.saturating_add(quantity).min(MAX_LINE_QUANTITY);
                        }
                        None => next.push((sku, price, quantity.min(MAX_LINE_QUANTITY))),
                    }
                    cart.add_item(&purchasable(sku, price), quantity).map(drop)
                }
                Op::Change { sku, quantity } => {
                    let line = LineId::from(&Sku::parse(SKUS[sku]).unwrap());
                    match next.iter().position(|line| line.0 == sku) {
                        Some(index) if quantity == 0 => { next.remove(index); }
                        Some(index) => next[index].2 = quantity.min(MAX_LINE_QUANTITY),
                        None => {
                            prop_assert!(matches!(
                                cart.change_quantity(line, quantity, Stock::Unlimited),
                                Err(CartError::NotInCart(_) | CartError::LineNotInCart(_))
                            ));
                            continue;
                        }
                    }
                    cart.change_quantity(line, quantity, Stock::Unlimited).map(drop)
                }
            };
            if exact_subtotal(&next) > i128::from(MAX_CART_TOTAL_CENTS) {
                prop_assert_eq!(result, Err(CartError::TotalTooLarge));
                prop_assert_eq!(&cart, &before);
            } else {
                prop_assert_eq!(result, Ok(()));
                model = next;
            }
            let priced = cart.price(&StoreRules::default(), Timestamp(0));
            prop_assert_eq!(i128::from(priced.subtotal_cents), exact_subtotal(&model));
            prop_assert_ne!(priced.checkout_blocker(), Some(CheckoutBlocker::TotalTooLarge));
        }
    }

    #[test]
    fn any_stored_cart_prices_without_panicking_and_checks_out_only_within_the_limit(
        lines in prop::collection::vec((any::<i64>(), any::<u32>()), 1..6),
    ) {
        let mut cart = CartState::new("c", "w", Timestamp(0));
        cart.add_item(&purchasable(0, 1), 1).unwrap();
        let template = cart.entries[0].clone();
        cart.entries = lines
            .iter()
            .map(|&(unit_price_cents, quantity)| CartEntry {
                unit_price_cents,
                quantity,
                ..template.clone()
            })
            .collect();
        // The rule, in exact arithmetic: no line and no running sum past the limit or
        // below what an i64 holds.
        let mut running: i128 = 0;
        let mut within = true;
        for &(price, units) in &lines {
            let line = i128::from(price) * i128::from(units);
            running += line;
            let bounds = i128::from(i64::MIN)..=i128::from(MAX_CART_TOTAL_CENTS);
            within &= bounds.contains(&line) && bounds.contains(&running);
        }
        let priced = cart.price(&StoreRules::default(), Timestamp(0));
        prop_assert_eq!(cart.checked_subtotal_cents().is_ok(), within);
        if within {
            prop_assert_eq!(i128::from(priced.subtotal_cents), running);
            prop_assert_ne!(priced.checkout_blocker(), Some(CheckoutBlocker::TotalTooLarge));
        } else {
            prop_assert_eq!(priced.checkout_blocker(), Some(CheckoutBlocker::TotalTooLarge));
        }
    }
}
