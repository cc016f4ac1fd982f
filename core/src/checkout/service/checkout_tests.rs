//! Checking out through the cart service with the test gateway: a double submit pays once,
//! a declined card or a wrong field places nothing, and a charge whose order failed is refunded.

use super::*;
use crate::cart::{CartToken, Timestamp};
use crate::cart::{ShippingOption, ShippingRate};
use crate::catalog::Sku;
use crate::checkout::details::CheckoutForm;
use crate::checkout::order::IdempotencyKey;
use crate::checkout::{InMemoryCommerceStore, TEST_CARD_DECLINED};
use crate::ports::conformance::fixture_site;
use crate::ports::memory::MemorySiteRepository;
use crate::site::ItemId;

// 2026-11-21T14:00:00Z
const NOW: Timestamp = Timestamp(1_795_269_600_000);

async fn service() -> (CartService, Arc<TestPaymentGateway>) {
    service_over(fixture_site("Shop")).await
}

async fn service_over(shop: crate::site::Site) -> (CartService, Arc<TestPaymentGateway>) {
    let site = MemorySiteRepository::new();
    site.replace_site(&shop).await.unwrap();
    let rules = StoreRules {
        shipping_options: vec![ShippingOption {
            id: "standard".into(),
            name: "Standard".into(),
            rate: ShippingRate::FlatRate { cost_cents: 500 },
        }],
        ..StoreRules::default()
    };
    let gateway = Arc::new(TestPaymentGateway::new());
    let service = CartService::new(
        Arc::new(site),
        Arc::new(InMemoryCommerceStore::new()),
        rules,
    )
    .with_payments(gateway.clone());
    (service, gateway)
}

fn token(name: &str) -> CartToken {
    CartToken::parse(format!("{name:0>16}")).unwrap()
}

fn key(name: &str) -> IdempotencyKey {
    IdempotencyKey::parse(format!("{name:0>16}")).unwrap()
}

fn form(card: &str) -> CheckoutForm {
    CheckoutForm {
        email: "ada@example.com".into(),
        name: "Ada".into(),
        address_line1: "1 Main St".into(),
        city: "Boston".into(),
        region: "MA".into(),
        postal_code: "02139".into(),
        country: "US".into(),
        shipping_option: "standard".into(),
        card_number: card.into(),
        card_expiry: "12/30".into(),
        card_cvc: "123".into(),
        ..CheckoutForm::default()
    }
}

async fn cart_with_tote(service: &CartService, buyer: &CartToken, quantity: u32) {
    let (tote, sku) = (
        ItemId::parse("tote").unwrap(),
        Sku::parse("TOTE-1").unwrap(),
    );
    service
        .add_item(buyer, &tote, &sku, quantity, NOW)
        .await
        .unwrap();
}

#[tokio::test]
async fn a_double_submit_pays_once_and_orders_once() {
    let (service, gateway) = service().await;
    let alice = token("alice");
    cart_with_tote(&service, &alice, 1).await;
    let card = form("4242 4242 4242 4242");
    let (first, second) = tokio::join!(
        service.checkout(&alice, key("k1"), "order-1".into(), &card, NOW),
        service.checkout(&alice, key("k1"), "order-2".into(), &card, NOW),
    );
    let (first, second) = (first.unwrap(), second.unwrap());
    assert_eq!(first, second);
    assert_eq!(gateway.charge_count(), 1);
    assert_eq!(first.grand_total_cents, 2000 + 500);
    assert_eq!(first.payment_id, format!("test_ch_{}", key("k1").as_str()));
    assert_eq!(first.shipping_address.unwrap().postal_code, "02139");
    let again = service
        .checkout(&alice, key("k1"), "order-3".into(), &card, NOW)
        .await
        .unwrap();
    assert_eq!(again.id, first.id);
    assert_eq!(gateway.charge_count(), 1);
}

#[tokio::test]
async fn a_shop_without_a_payment_gateway_places_no_paid_order() {
    let (service, _) = service().await;
    let service = service.with_payments(Arc::new(crate::checkout::NoPaymentGateway));
    assert!(!service.payments().takes_payments());
    let alice = token("alice");
    cart_with_tote(&service, &alice, 1).await;
    let error = service
        .checkout(
            &alice,
            key("k1"),
            "o".into(),
            &form("4242 4242 4242 4242"),
            NOW,
        )
        .await
        .unwrap_err();
    assert!(
        matches!(error, CheckoutError::Payment(PaymentError::NotConfigured)),
        "{error:?}"
    );
    assert_eq!(service.store().order("o").await.unwrap(), None);
    assert!(
        !service
            .cart(&alice, NOW)
            .await
            .unwrap()
            .unwrap()
            .is_purchased
    );
}

#[tokio::test]
async fn a_declined_card_places_no_order_and_leaves_the_cart_open() {
    let (service, gateway) = service().await;
    let alice = token("alice");
    cart_with_tote(&service, &alice, 1).await;
    let error = service
        .checkout(
            &alice,
            key("k1"),
            "o".into(),
            &form(TEST_CARD_DECLINED),
            NOW,
        )
        .await
        .unwrap_err();
    assert!(
        matches!(error, CheckoutError::Payment(PaymentError::Declined { .. })),
        "{error:?}"
    );
    assert_eq!(gateway.charge_count(), 0);
    assert!(
        !service
            .cart(&alice, NOW)
            .await
            .unwrap()
            .unwrap()
            .is_purchased
    );
    assert!(
        service
            .store()
            .order_by_key(&key("k1"))
            .await
            .unwrap()
            .is_none()
    );
}

#[tokio::test]
async fn wrong_fields_are_named_and_nothing_is_charged() {
    let (service, gateway) = service().await;
    let alice = token("alice");
    cart_with_tote(&service, &alice, 1).await;
    let bad = CheckoutForm {
        postal_code: "123".into(),
        ..form("4242 4242 4242 4242")
    };
    let error = service
        .checkout(&alice, key("k1"), "o".into(), &bad, NOW)
        .await
        .unwrap_err();
    let CheckoutError::Invalid(errors) = error else {
        panic!("{error:?}");
    };
    assert_eq!(errors["postalCode"], "Zip code must be exactly 5 digits.");
    assert_eq!(gateway.charge_count(), 0);
}

#[tokio::test]
async fn a_checkout_posted_without_entering_checkout_still_cannot_take_more_than_the_caps() {
    let mut shop = fixture_site("Shop");
    for variant in shop
        .items
        .iter_mut()
        .flat_map(|item| item.product.iter_mut())
        .flat_map(|product| &mut product.variants)
    {
        variant.unlimited = true;
    }
    let (service, gateway) = service_over(shop).await;
    let hoarder = token("hoarder");
    cart_with_tote(&service, &hoarder, 101).await;
    let error = service
        .checkout(
            &hoarder,
            key("h1"),
            "order-h".into(),
            &form("4242424242424242"),
            NOW,
        )
        .await
        .unwrap_err();
    let CheckoutError::Order(PlaceOrderError::TooManyUnits(refusal)) = error else {
        panic!("the order should be refused: {error:?}");
    };
    assert_eq!(
        refusal.message(),
        "You can check out at most 100 of Post tote at once. Lower the quantity to continue."
    );
    assert_eq!(gateway.charge_count(), 0, "nothing is charged");
    let cart = service.cart(&hoarder, NOW).await.unwrap().unwrap();
    assert_eq!(cart.reserved_until, None, "nothing is held");
    assert!(!cart.is_purchased);
}

#[tokio::test]
async fn stock_held_by_another_cart_is_refused_before_any_charge() {
    let (service, gateway) = service().await;
    let (alice, bob) = (token("alice"), token("bob"));
    cart_with_tote(&service, &alice, 3).await;
    cart_with_tote(&service, &bob, 1).await;
    service.enter_checkout(Some(&alice), NOW).await.unwrap();
    let card = form("4242424242424242");
    let error = service
        .checkout(&bob, key("b1"), "order-b".into(), &card, NOW)
        .await
        .unwrap_err();
    assert!(
        matches!(error, CheckoutError::Order(PlaceOrderError::OutOfStock(_))),
        "{error:?}"
    );
    assert_eq!(gateway.charge_count(), 0, "no money moved for held stock");
    service
        .checkout(&alice, key("a1"), "order-a".into(), &card, NOW)
        .await
        .unwrap();
    let error = service
        .checkout(&bob, key("b1"), "order-b".into(), &card, NOW)
        .await
        .unwrap_err();
    assert!(
        matches!(error, CheckoutError::Order(PlaceOrderError::OutOfStock(_))),
        "{error:?}"
    );
    assert_eq!(gateway.charge_count(), 1);
    assert!(gateway.refunded().is_empty());
}
