//! The cart calls of the cart service against the in-memory store: adding, changing and
//! pricing lines, coupons from the store, and orders placed once however often they are sent.

use super::*;
use crate::cart::{CartToken, CouponCode, Stock, Timestamp};
use crate::cart::{ShippingOption, ShippingRate};
use crate::catalog::Sku;
use crate::checkout::InMemoryCommerceStore;
use crate::checkout::order::IdempotencyKey;
use crate::ports::conformance::fixture_site;
use crate::ports::memory::MemorySiteRepository;
use crate::site::ItemId;

const NOW: Timestamp = Timestamp(1_700_000_000_000);

async fn service() -> CartService {
    let site = MemorySiteRepository::new();
    site.replace_site(&fixture_site("Shop")).await.unwrap();
    let rules = StoreRules {
        shipping_options: vec![ShippingOption {
            id: "standard".into(),
            name: "Standard".into(),
            rate: ShippingRate::FlatRate { cost_cents: 500 },
        }],
        coupons: vec![
            crate::cart::Coupon::new(
                CouponCode::parse("TEN").unwrap(),
                crate::cart::CouponKind::Percentage { basis_points: 1000 },
                None,
                None,
            )
            .unwrap()
            .with_limits(Some(1), None),
        ],
        ..StoreRules::default()
    };
    CartService::new(
        Arc::new(site),
        Arc::new(InMemoryCommerceStore::new()),
        rules,
    )
}

fn token(name: &str) -> CartToken {
    CartToken::parse(format!("{name:0>16}")).unwrap()
}

fn key(name: &str) -> IdempotencyKey {
    IdempotencyKey::parse(format!("{name:0>16}")).unwrap()
}

#[tokio::test]
async fn the_last_units_sell_once_and_a_double_submit_orders_once() {
    let service = service().await;
    let (tote, sku) = (
        ItemId::parse("tote").unwrap(),
        Sku::parse("TOTE-1").unwrap(),
    );
    let (alice, bob) = (token("alice"), token("bob"));
    for (buyer, quantity) in [(&alice, 3), (&bob, 1)] {
        let update = service
            .add_item(buyer, &tote, &sku, quantity, NOW)
            .await
            .unwrap();
        assert_eq!(update.cart.subtotal_cents, 2000 * i64::from(quantity));
        service
            .select_shipping_option(buyer, "standard", NOW)
            .await
            .unwrap();
    }
    let order = service
        .place_order(&alice, key("a1"), "order-a".into(), "a@example.com", NOW)
        .await
        .unwrap();
    assert_eq!(order.grand_total_cents, 6000 + 500);
    let again = service
        .place_order(&alice, key("a1"), "order-a2".into(), "a@example.com", NOW)
        .await
        .unwrap();
    assert_eq!(again, order);
    let late = service
        .place_order(&bob, key("b1"), "order-b".into(), "b@example.com", NOW)
        .await
        .unwrap_err();
    assert!(matches!(late, PlaceOrderError::OutOfStock(_)), "{late:?}");
    assert_eq!(
        service.store().stock(&sku).await.unwrap(),
        Some(Stock::Limited(0))
    );
    let sold_out = service
        .add_item(&bob, &tote, &sku, 1, NOW)
        .await
        .unwrap_err();
    assert!(
        matches!(sold_out, CartServiceError::Cart(CartError::OutOfStock(_))),
        "{sold_out:?}"
    );
    let purchased = service.cart(&alice, NOW).await.unwrap().unwrap();
    assert!(purchased.is_purchased);
    assert_eq!(purchased.order_id, "order-a");
}

#[tokio::test]
async fn unknown_variants_and_missing_carts_are_refused() {
    let service = service().await;
    let error = service
        .add_item(
            &token("c"),
            &ItemId::parse("tote").unwrap(),
            &Sku::parse("NOPE").unwrap(),
            1,
            NOW,
        )
        .await
        .unwrap_err();
    assert!(matches!(error, CartServiceError::UnknownVariant { .. }));
    let error = service
        .remove_item(&token("c"), &Sku::parse("TOTE-1").unwrap(), NOW)
        .await
        .unwrap_err();
    assert!(matches!(error, CartServiceError::NoCart));
    let error = service
        .place_order(&token("c"), key("c1"), "o".into(), "c@example.com", NOW)
        .await
        .unwrap_err();
    assert!(matches!(error, PlaceOrderError::UnknownCart));
}

#[tokio::test]
async fn coupons_come_from_the_store_and_count_their_uses() {
    let service = service().await;
    let (tote, sku) = (
        ItemId::parse("tote").unwrap(),
        Sku::parse("TOTE-1").unwrap(),
    );
    let (alice, bob) = (token("alice"), token("bob"));
    let ten = CouponCode::parse("ten").unwrap();
    for buyer in [&alice, &bob] {
        service.add_item(buyer, &tote, &sku, 1, NOW).await.unwrap();
        service
            .select_shipping_option(buyer, "standard", NOW)
            .await
            .unwrap();
    }
    let unknown = CouponCode::parse("NOPE").unwrap();
    let error = service
        .apply_coupon(&alice, &unknown, "", NOW)
        .await
        .unwrap_err();
    assert!(matches!(error, CartServiceError::UnknownCoupon(_)));
    let update = service.apply_coupon(&alice, &ten, "", NOW).await.unwrap();
    assert_eq!(update.cart.discount_cents, 200);
    service
        .place_order(&alice, key("a1"), "order-a".into(), "a@example.com", NOW)
        .await
        .unwrap();
    // The coupon may be used once in all, and Alice's order used it.
    let error = service.apply_coupon(&bob, &ten, "", NOW).await.unwrap_err();
    assert!(
        matches!(
            error,
            CartServiceError::Cart(CartError::CouponNotApplicable { .. })
        ),
        "{error:?}"
    );
    let update = service.add_item(&bob, &tote, &sku, 1, NOW).await.unwrap();
    assert!(update.cart.coupons.is_empty());
}
