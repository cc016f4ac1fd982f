//! Scenario tests of the cart: operations, totals, coupons, shipping, tax and the minimum.

use super::*;
use crate::catalog::Sku;
use crate::enums::ProductType;
use crate::money::Currency;

fn item(sku: &str, price: i64, stock: Stock, kind: ProductType) -> Purchasable {
    Purchasable {
        weight_thousandths: 1_500,
        ..Purchasable::new(
            format!("p-{sku}"),
            format!("Product {sku}"),
            kind,
            Sku::parse(sku).unwrap(),
            price,
            stock,
        )
    }
}

fn mug() -> Purchasable {
    item("MUG", 1_250, Stock::Limited(5), ProductType::Physical)
}

fn ebook() -> Purchasable {
    item("EBOOK", 999, Stock::Unlimited, ProductType::Digital)
}

fn rules() -> StoreRules {
    StoreRules {
        currency: Currency::Usd,
        shipping_options: vec![
            ShippingOption {
                id: "flat".into(),
                name: "Standard".into(),
                rate: ShippingRate::FlatRate { cost_cents: 500 },
            },
            ShippingOption {
                id: "weight".into(),
                name: "By weight".into(),
                rate: ShippingRate::ByWeight {
                    base_cents: 100,
                    per_unit_cents: 200,
                },
            },
        ],
        tax_rules: vec![TaxRule {
            name: "NY".into(),
            country: "US".into(),
            region: "NY".into(),
            rate_basis_points: 800,
            applies_to_shipping: true,
        }],
        minimum_subtotal_cents: None,
        coupons: Vec::new(),
    }
}

fn cart() -> CartState {
    CartState::new("cart-1", "site-1", Timestamp(1_700_000_000_000))
}

fn code(text: &str) -> CouponCode {
    CouponCode::parse(text).unwrap()
}

const NOW: Timestamp = Timestamp(1_700_000_000_000);

#[test]
fn a_new_cart_has_the_defaults_of_the_spec() {
    let priced = ShoppingCart::default();
    assert!(!priced.is_purchased);
    assert!(priced.entries.is_empty() && priced.coupons.is_empty());
    assert!(priced.valid_coupons.is_empty() && priced.invalid_coupons.is_empty());
    assert_eq!(
        (
            priced.subtotal_cents,
            priced.tax_cents,
            priced.shipping_cost_cents
        ),
        (0, 0, 0)
    );
    assert_eq!((priced.discount_cents, priced.grand_total_cents), (0, 0));
    assert_eq!(priced.subtotal_amount.to_string(), "$0.00");
    assert_eq!(priced.total_quantity, 0);
    assert!(!priced.has_digital && !priced.purely_digital && !priced.requires_shipping);
    assert_eq!(priced.checkout_blocker(), Some(CheckoutBlocker::Empty));
}

#[test]
fn adding_the_same_variant_twice_merges_the_line() {
    let mut cart = cart();
    assert_eq!(cart.add_item(&mug(), 2), Ok(vec![]));
    assert_eq!(cart.add_item(&mug(), 1), Ok(vec![]));
    assert_eq!(cart.entries.len(), 1);
    let priced = cart.price(&rules(), NOW);
    assert_eq!(priced.total_quantity, 3);
    assert_eq!(priced.subtotal_cents, 3_750);
    assert!(priced.requires_shipping && !priced.has_digital);
}

#[test]
fn short_stock_keeps_what_is_available_and_warns() {
    let mut cart = cart();
    let warnings = cart.add_item(&mug(), 7).unwrap();
    assert_eq!(cart.quantity_of(&mug().sku), 5);
    assert_eq!(
        warnings,
        vec![CartWarning {
            code: WarningCode::QuantityReduced,
            target: "MUG".into(),
            message: "Only 5 are available, so your cart holds 5.".into(),
        }]
    );
    let sold_out = item("GONE", 100, Stock::Limited(0), ProductType::Physical);
    assert_eq!(
        cart.add_item(&sold_out, 1),
        Err(CartError::OutOfStock(sold_out.sku.clone()))
    );
    let warnings = cart
        .change_quantity(&mug().sku, 9, Stock::Limited(1))
        .unwrap();
    assert_eq!(
        warnings[0].message,
        "Only 1 is available, so your cart holds 1."
    );
}

#[test]
fn quantity_zero_removes_and_unknown_lines_are_errors() {
    let mut cart = cart();
    cart.add_item(&mug(), 1).unwrap();
    cart.change_quantity(&mug().sku, 0, Stock::Unlimited)
        .unwrap();
    assert!(cart.entries.is_empty());
    assert_eq!(
        cart.remove_item(&mug().sku),
        Err(CartError::NotInCart(mug().sku))
    );
    assert_eq!(cart.add_item(&mug(), 0), Err(CartError::ZeroQuantity));
}

#[test]
fn digital_only_carts_are_purely_digital_and_ship_nothing() {
    let mut cart = cart();
    cart.add_item(&ebook(), 2).unwrap();
    cart.select_shipping_option("flat", &rules().shipping_options)
        .unwrap();
    let priced = cart.price(&rules(), NOW);
    assert!(priced.has_digital && priced.purely_digital && !priced.requires_shipping);
    assert_eq!(priced.shipping_cost_cents, 0);
    assert!(priced.shipping_options.is_empty());
    assert_eq!(priced.checkout_blocker(), None);
}

#[test]
fn totals_combine_discount_shipping_and_tax() {
    let mut cart = cart();
    cart.add_item(&mug(), 2).unwrap(); // 2500, 3.0 lbs
    cart.add_item(&ebook(), 1).unwrap(); // 999
    cart.select_shipping_option("weight", &rules().shipping_options)
        .unwrap();
    cart.set_shipping_location(ShippingLocation::new("US", "NY", "10001"))
        .unwrap();
    let ten_percent = Coupon::new(
        code("ten"),
        CouponKind::Percentage { basis_points: 1000 },
        None,
        None,
    )
    .unwrap();
    cart.apply_coupon(ten_percent, CouponUsage::default(), NOW)
        .unwrap();
    let priced = cart.price(&rules(), NOW);
    assert_eq!(priced.subtotal_cents, 3_499);
    // 10 % of 3499 is 349.9, which rounds to 350.
    assert_eq!(priced.discount_cents, 350);
    // 3 lbs by weight: 100 + 3 x 200.
    assert_eq!(priced.shipping_cost_cents, 700);
    // 8 % of 3149 is 251.92 -> 252, plus 8 % of 700 = 56.
    assert_eq!(priced.tax_cents, 308);
    assert_eq!(priced.grand_total_cents, 3_499 - 350 + 700 + 308);
    assert_eq!(priced.valid_coupons, vec![code("TEN")]);
    assert_eq!(priced.applicable_tax_rules.len(), 1);
}

#[test]
fn fixed_discounts_never_exceed_the_subtotal_and_free_shipping_waives_shipping() {
    let mut cart = cart();
    cart.add_item(&mug(), 1).unwrap();
    cart.select_shipping_option("flat", &rules().shipping_options)
        .unwrap();
    let big = Coupon::new(
        code("big"),
        CouponKind::FixedAmount {
            amount_cents: 10_000,
        },
        None,
        None,
    )
    .unwrap();
    let free = Coupon::new(code("ship"), CouponKind::FreeShipping, None, None).unwrap();
    cart.apply_coupon(big, CouponUsage::default(), NOW).unwrap();
    cart.apply_coupon(free, CouponUsage::default(), NOW)
        .unwrap();
    let priced = cart.price(&rules(), NOW);
    assert_eq!(priced.discount_cents, 1_250);
    assert_eq!(priced.shipping_cost_cents, 0);
    assert_eq!(priced.grand_total_cents, 0);
}

#[test]
fn a_coupon_that_stops_applying_is_listed_invalid_with_a_warning() {
    let mut cart = cart();
    cart.add_item(&mug(), 1).unwrap();
    let expiring = Coupon::new(
        code("soon"),
        CouponKind::FixedAmount { amount_cents: 100 },
        None,
        Some(NOW.plus_seconds(60)),
    )
    .unwrap();
    cart.apply_coupon(expiring.clone(), CouponUsage::default(), NOW)
        .unwrap();
    assert_eq!(
        cart.apply_coupon(expiring, CouponUsage::default(), NOW),
        Err(CartError::CouponAlreadyApplied(code("SOON")))
    );
    let later = cart.price(&rules(), NOW.plus_seconds(61));
    assert_eq!(later.discount_cents, 0);
    assert_eq!(
        later.invalid_coupons,
        vec![InvalidCoupon {
            code: code("SOON"),
            reason: InvalidCouponReason::Expired
        }]
    );
    assert_eq!(later.warnings[0].code, WarningCode::CouponNotApplied);
    assert_eq!(later.warnings[0].target, "SOON");
    cart.remove_coupon(&code("soon")).unwrap();
    assert!(cart.coupons.is_empty());
}

#[test]
fn an_inapplicable_coupon_is_refused_with_its_reason() {
    let mut cart = cart();
    cart.add_item(&ebook(), 1).unwrap();
    let free = Coupon::new(code("ship"), CouponKind::FreeShipping, None, None).unwrap();
    assert_eq!(
        cart.apply_coupon(free, CouponUsage::default(), NOW),
        Err(CartError::CouponNotApplicable {
            code: code("SHIP"),
            reason: InvalidCouponReason::NothingToShip
        })
    );
}

#[test]
fn below_the_minimum_subtotal_checkout_is_blocked_with_the_spec_text() {
    let mut cart = cart();
    cart.add_item(&ebook(), 1).unwrap();
    let rules = StoreRules {
        minimum_subtotal_cents: Some(2_500),
        ..rules()
    };
    let priced = cart.price(&rules, NOW);
    let text = "To check out, your order subtotal must be $25.00 or more";
    assert_eq!(priced.warnings[0].message, text);
    assert_eq!(
        priced.checkout_blocker(),
        Some(CheckoutBlocker::BelowMinimumSubtotal(text.into()))
    );
    cart.add_item(&ebook(), 2).unwrap();
    assert_eq!(cart.price(&rules, NOW).checkout_blocker(), None);
}

#[test]
fn a_physical_cart_needs_a_shipping_option_to_check_out() {
    let mut cart = cart();
    cart.add_item(&mug(), 1).unwrap();
    assert_eq!(
        cart.price(&rules(), NOW).checkout_blocker(),
        Some(CheckoutBlocker::NoShippingOption)
    );
    assert_eq!(
        cart.select_shipping_option("drone", &rules().shipping_options),
        Err(CartError::UnknownShippingOption("drone".into()))
    );
}

#[test]
fn a_purchased_cart_no_longer_changes() {
    let mut cart = cart();
    cart.is_purchased = true;
    assert_eq!(cart.add_item(&mug(), 1), Err(CartError::AlreadyPurchased));
}

#[test]
fn the_reservation_countdown_rounds_up_and_ends() {
    let mut cart = cart();
    assert_eq!(cart.reservation_seconds_left(NOW), None);
    cart.reserved_until = Some(NOW.plus_seconds(10));
    assert_eq!(cart.reservation_seconds_left(NOW), Some(10));
    assert_eq!(
        cart.reservation_seconds_left(Timestamp(NOW.0 + 9_001)),
        Some(1)
    );
    assert_eq!(cart.reservation_seconds_left(NOW.plus_seconds(10)), None);
}

#[test]
fn stored_state_round_trips_through_json() {
    let mut cart = cart();
    cart.add_item(&mug(), 2).unwrap();
    let coupon = Coupon::new(
        code("ten"),
        CouponKind::Percentage { basis_points: 1000 },
        None,
        None,
    )
    .unwrap();
    cart.apply_coupon(coupon, CouponUsage::default(), NOW)
        .unwrap();
    let json = serde_json::to_string(&cart).unwrap();
    assert!(json.contains("\"created\":1700000000000"));
    let back: CartState = serde_json::from_str(&json).unwrap();
    assert_eq!(back, cart);
}

#[test]
fn a_cart_refuses_a_line_past_its_hundredth_and_keeps_the_others() {
    let mut cart = cart();
    for n in 0..MAX_CART_LINES {
        let line = item(
            &format!("SKU{n}"),
            100,
            Stock::Unlimited,
            ProductType::Digital,
        );
        cart.add_item(&line, 1).unwrap();
    }
    let before = cart.clone();
    let extra = item("EXTRA", 100, Stock::Unlimited, ProductType::Digital);
    assert_eq!(cart.add_item(&extra, 1), Err(CartError::TooManyLines));
    assert_eq!(cart, before);
    // A line already in the cart still takes more units.
    let first = item("SKU0", 100, Stock::Unlimited, ProductType::Digital);
    cart.add_item(&first, 2).unwrap();
    assert_eq!(cart.quantity_of(&first.sku), 3);
}

#[test]
fn money_past_the_total_limit_is_refused_and_nothing_is_lost() {
    // A price no catalogue allows, as a stored cart or a bad import could carry it.
    let dear = item("DEAR", i64::MAX / 2, Stock::Unlimited, ProductType::Digital);
    let mut cart = cart();
    cart.add_item(&ebook(), 2).unwrap();
    let before = cart.clone();
    assert_eq!(cart.add_item(&dear, 3), Err(CartError::TotalTooLarge));
    assert_eq!(cart, before);

    let top = item(
        "TOP",
        crate::catalog::MAX_PRICE_CENTS,
        Stock::Unlimited,
        ProductType::Digital,
    );
    cart.add_item(&top, 9_999).unwrap();
    let full = cart.clone();
    // The line is full already; a dearer price on re-adding would pass the limit.
    let dearer = Purchasable {
        unit_price_cents: crate::catalog::MAX_PRICE_CENTS * 200,
        ..top.clone()
    };
    assert_eq!(cart.add_item(&dearer, 1), Err(CartError::TotalTooLarge));
    assert_eq!(cart, full);
    let line = LineId::from(&top.sku);
    cart.change_quantity(line.clone(), 5, Stock::Unlimited)
        .unwrap();
    assert_eq!(cart.quantity_of(&top.sku), 5);
}

#[test]
fn a_stored_cart_past_the_limit_prices_without_panicking_and_cannot_check_out() {
    let mut cart = cart();
    cart.add_item(&ebook(), 1).unwrap();
    cart.entries[0].unit_price_cents = i64::MAX;
    cart.entries[0].quantity = u32::MAX;
    cart.entries.push(cart.entries[0].clone());
    let priced = cart.price(&rules(), Timestamp(0));
    assert_eq!(priced.subtotal_cents, MAX_CART_TOTAL_CENTS);
    assert_eq!(
        priced.checkout_blocker(),
        Some(CheckoutBlocker::TotalTooLarge)
    );
    assert_eq!(priced.warnings[0].code, WarningCode::TotalTooLarge);
    assert_eq!(priced.warnings[0].message, texts::TOTAL_TOO_LARGE);
}
