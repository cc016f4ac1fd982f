//! Model-based test of the shopping cart: random sequences of add, change quantity, remove,
//! apply and remove coupon, choose shipping and set the location are applied to the real
//! `CartState` and to a tiny reference model over a map of quantities; after every step
//! they must agree on what succeeded, on every line and on every total, and no total may be
//! negative.

use std::collections::BTreeMap;

use proptest::prelude::*;
use vitrine_core::cart::{
    CartState, Coupon, CouponCode, CouponKind, CouponUsage, Purchasable, ShippingLocation,
    ShippingOption, ShippingRate, Stock, StoreRules, TaxRule, Timestamp,
};
use vitrine_core::catalog::Sku;
use vitrine_core::enums::ProductType;
use vitrine_core::money::Currency;

const NOW: Timestamp = Timestamp(1_800_000_000_000);

/// The catalogue: (sku, unit price, stock, type, weight in thousandths).
const CATALOGUE: [(&str, i64, Stock, ProductType, u32); 5] = [
    ("MUG", 1_250, Stock::Limited(6), ProductType::Physical, 400),
    (
        "POSTER",
        3_333,
        Stock::Unlimited,
        ProductType::Physical,
        1_250,
    ),
    ("EBOOK", 999, Stock::Unlimited, ProductType::Digital, 0),
    ("GONE", 4_500, Stock::Limited(0), ProductType::Physical, 900),
    (
        "LESSON",
        100_000_000,
        Stock::Limited(3),
        ProductType::Service,
        0,
    ),
];

fn purchasable(index: usize) -> Purchasable {
    let (sku, price, stock, kind, weight) = CATALOGUE[index];
    Purchasable {
        weight_thousandths: weight,
        ..Purchasable::new(
            format!("product-{index}"),
            sku.to_owned(),
            kind,
            Sku::parse(sku).unwrap(),
            price,
            stock,
        )
    }
}

/// Coupons: (code, kind, expired).
fn coupon(index: usize) -> Coupon {
    let (code, kind, ends_at) = match index {
        0 => (
            "TEN",
            CouponKind::Percentage {
                basis_points: 1_000,
            },
            None,
        ),
        1 => ("FIVE", CouponKind::FixedAmount { amount_cents: 500 }, None),
        2 => ("SHIP", CouponKind::FreeShipping, None),
        3 => (
            "HALF",
            CouponKind::Percentage {
                basis_points: 5_000,
            },
            None,
        ),
        _ => (
            "OLD",
            CouponKind::FixedAmount { amount_cents: 100 },
            Some(Timestamp(NOW.0 - 1)),
        ),
    };
    Coupon::new(CouponCode::parse(code).unwrap(), kind, None, ends_at).unwrap()
}

const COUPONS: usize = 5;

fn rules() -> StoreRules {
    StoreRules {
        currency: Currency::Usd,
        shipping_options: vec![
            ShippingOption {
                id: "flat".into(),
                name: "Flat".into(),
                rate: ShippingRate::FlatRate { cost_cents: 795 },
            },
            ShippingOption {
                id: "weight".into(),
                name: "Weight".into(),
                rate: ShippingRate::ByWeight {
                    base_cents: 300,
                    per_unit_cents: 125,
                },
            },
        ],
        tax_rules: vec![
            TaxRule {
                name: "US".into(),
                country: "US".into(),
                region: String::new(),
                rate_basis_points: 625,
                applies_to_shipping: false,
            },
            TaxRule {
                name: "NY".into(),
                country: "US".into(),
                region: "NY".into(),
                rate_basis_points: 450,
                applies_to_shipping: true,
            },
        ],
        minimum_subtotal_cents: Some(2_000),
        coupons: Vec::new(),
    }
}

const LOCATIONS: [(&str, &str); 3] = [("US", "NY"), ("US", "CA"), ("FR", "")];

#[derive(Debug, Clone)]
enum Op {
    Add { item: usize, quantity: u32 },
    Change { item: usize, quantity: u32 },
    Remove { item: usize },
    ApplyCoupon { coupon: usize },
    RemoveCoupon { coupon: usize },
    SelectShipping { option: usize },
    SetLocation { location: usize },
}

fn op() -> impl Strategy<Value = Op> {
    let item = 0..CATALOGUE.len();
    prop_oneof![
        6 => (item.clone(), 0u32..12).prop_map(|(item, quantity)| Op::Add { item, quantity }),
        3 => (item.clone(), 0u32..12).prop_map(|(item, quantity)| Op::Change { item, quantity }),
        2 => item.prop_map(|item| Op::Remove { item }),
        3 => (0..COUPONS).prop_map(|coupon| Op::ApplyCoupon { coupon }),
        1 => (0..COUPONS).prop_map(|coupon| Op::RemoveCoupon { coupon }),
        1 => (0usize..3).prop_map(|option| Op::SelectShipping { option }),
        1 => (0..LOCATIONS.len()).prop_map(|location| Op::SetLocation { location }),
    ]
}

/// The reference model: quantities by catalogue index, applied coupon indices, choices.
#[derive(Debug, Default)]
struct Model {
    lines: BTreeMap<usize, u32>,
    coupons: Vec<usize>,
    shipping: Option<usize>,
    location: Option<usize>,
}

fn cap(index: usize) -> u32 {
    match CATALOGUE[index].2 {
        Stock::Unlimited => 9_999,
        Stock::Limited(quantity) => quantity.min(9_999),
    }
}

impl Model {
    fn ships(&self) -> bool {
        self.lines
            .keys()
            .any(|&index| CATALOGUE[index].3 == ProductType::Physical)
    }

    /// Applies an operation; `true` when it succeeds.
    fn apply(&mut self, op: &Op) -> bool {
        match *op {
            Op::Add { item, quantity } => {
                if quantity == 0 || cap(item) == 0 {
                    return false;
                }
                let current = self.lines.get(&item).copied().unwrap_or(0);
                self.lines.insert(item, (current + quantity).min(cap(item)));
                true
            }
            Op::Change { item, quantity } => {
                if !self.lines.contains_key(&item) {
                    return false;
                }
                if quantity == 0 {
                    self.lines.remove(&item);
                    return true;
                }
                if cap(item) == 0 {
                    return false;
                }
                self.lines.insert(item, quantity.min(cap(item)));
                true
            }
            Op::Remove { item } => self.lines.remove(&item).is_some(),
            Op::ApplyCoupon { coupon } => {
                let refused =
                    self.coupons.contains(&coupon) || coupon == 4 || (coupon == 2 && !self.ships());
                if !refused {
                    self.coupons.push(coupon);
                }
                !refused
            }
            Op::RemoveCoupon { coupon } => {
                let before = self.coupons.len();
                self.coupons.retain(|&applied| applied != coupon);
                self.coupons.len() != before
            }
            Op::SelectShipping { option } => {
                if option < 2 {
                    self.shipping = Some(option);
                }
                option < 2
            }
            Op::SetLocation { location } => {
                self.location = Some(location);
                true
            }
        }
    }

    /// (subtotal, discount, shipping, tax, grand total), computed in i128.
    fn totals(&self) -> (i128, i128, i128, i128, i128) {
        let subtotal: i128 = self
            .lines
            .iter()
            .map(|(&index, &quantity)| i128::from(CATALOGUE[index].1) * i128::from(quantity))
            .sum();
        let ships = self.ships();
        let mut discount = 0;
        let mut free_shipping = false;
        for &coupon in &self.coupons {
            match coupon {
                0 => discount += half_even(subtotal * 1_000, 10_000),
                1 => discount += 500,
                2 if ships => free_shipping = true,
                3 => discount += half_even(subtotal * 5_000, 10_000),
                _ => {}
            }
        }
        let discount = discount.clamp(0, subtotal);
        let weight: i128 = self
            .lines
            .iter()
            .filter(|(index, _)| CATALOGUE[**index].3 == ProductType::Physical)
            .map(|(&index, &quantity)| i128::from(CATALOGUE[index].4) * i128::from(quantity))
            .sum();
        let shipping = match self.shipping {
            Some(_) if !ships || free_shipping => 0,
            Some(0) => 795,
            Some(_) => 300 + 125 * ((weight + 999) / 1000),
            None => 0,
        };
        let taxable = subtotal - discount;
        let tax = match self.location.map(|index| LOCATIONS[index]) {
            Some(("US", "NY")) => {
                half_even(taxable * 625, 10_000)
                    + half_even(taxable * 450, 10_000)
                    + half_even(shipping * 450, 10_000)
            }
            Some(("US", _)) => half_even(taxable * 625, 10_000),
            _ => 0,
        };
        (subtotal, discount, shipping, tax, taxable + shipping + tax)
    }
}

/// `numerator / denominator` rounded half to even, for non-negative numerators.
fn half_even(numerator: i128, denominator: i128) -> i128 {
    let (quotient, remainder) = (numerator / denominator, numerator % denominator);
    match (remainder * 2).cmp(&denominator) {
        std::cmp::Ordering::Greater => quotient + 1,
        std::cmp::Ordering::Equal if quotient % 2 == 1 => quotient + 1,
        _ => quotient,
    }
}

fn apply_real(cart: &mut CartState, op: &Op, rules: &StoreRules) -> bool {
    match *op {
        Op::Add { item, quantity } => cart.add_item(&purchasable(item), quantity).is_ok(),
        Op::Change { item, quantity } => {
            let item = purchasable(item);
            cart.change_quantity(&item.sku, quantity, item.stock)
                .is_ok()
        }
        Op::Remove { item } => cart.remove_item(&purchasable(item).sku).is_ok(),
        Op::ApplyCoupon { coupon: index } => cart
            .apply_coupon(coupon(index), CouponUsage::default(), NOW)
            .is_ok(),
        Op::RemoveCoupon { coupon: index } => cart.remove_coupon(&coupon(index).code).is_ok(),
        Op::SelectShipping { option } => {
            let id = ["flat", "weight", "drone"][option];
            cart.select_shipping_option(id, &rules.shipping_options)
                .is_ok()
        }
        Op::SetLocation { location } => {
            let (country, region) = LOCATIONS[location];
            cart.set_shipping_location(ShippingLocation::new(country, region, ""))
                .is_ok()
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn the_cart_agrees_with_the_model(ops in prop::collection::vec(op(), 1..40)) {
        let rules = rules();
        let mut cart = CartState::new("cart", "site", NOW);
        let mut model = Model::default();
        for op in &ops {
            let real_ok = apply_real(&mut cart, op, &rules);
            let model_ok = model.apply(op);
            prop_assert_eq!(real_ok, model_ok, "outcome of {:?}", op);

            for index in 0..CATALOGUE.len() {
                let expected = model.lines.get(&index).copied().unwrap_or(0);
                prop_assert_eq!(cart.quantity_of(&purchasable(index).sku), expected);
            }
            let priced = cart.price(&rules, NOW);
            let (subtotal, discount, shipping, tax, grand) = model.totals();
            prop_assert_eq!(i128::from(priced.subtotal_cents), subtotal);
            prop_assert_eq!(i128::from(priced.discount_cents), discount);
            prop_assert_eq!(i128::from(priced.shipping_cost_cents), shipping);
            prop_assert_eq!(i128::from(priced.tax_cents), tax);
            prop_assert_eq!(i128::from(priced.grand_total_cents), grand);

            // Totals equal their parts, in integer minor units, and none is negative.
            prop_assert_eq!(
                priced.grand_total_cents,
                priced.subtotal_cents - priced.discount_cents
                    + priced.shipping_cost_cents + priced.tax_cents
            );
            for total in [priced.subtotal_cents, priced.discount_cents, priced.shipping_cost_cents,
                          priced.tax_cents, priced.grand_total_cents] {
                prop_assert!(total >= 0);
            }
            prop_assert_eq!(priced.subtotal_amount.amount_minor, priced.subtotal_cents);
            prop_assert_eq!(priced.total_quantity, model.lines.values().sum::<u32>());
            prop_assert_eq!(priced.requires_shipping, model.ships());
            prop_assert_eq!(
                priced.valid_coupons.len() + priced.invalid_coupons.len(),
                model.coupons.len()
            );
        }
    }
}
