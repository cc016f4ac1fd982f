//! Checking out through the cart service with the test gateway: a double submit pays once,
//! a declined card or a wrong field places nothing, and a charge whose order failed is refunded.

use super::test_shop::{NOW, add_totes, card_form as form, key, shop, shop_over, token};
use super::*;
use crate::checkout::TEST_CARD_DECLINED;
use crate::checkout::details::CheckoutForm;
use crate::ports::conformance::fixture_site;

async fn service() -> (CartService, Arc<TestPaymentGateway>) {
    let gateway = Arc::new(TestPaymentGateway::new());
    (shop(gateway.clone()).await.0, gateway)
}

async fn service_over(site: crate::site::Site) -> (CartService, Arc<TestPaymentGateway>) {
    let gateway = Arc::new(TestPaymentGateway::new());
    (shop_over(site, gateway.clone()).await.0, gateway)
}

#[tokio::test]
async fn a_double_submit_pays_once_and_orders_once() {
    let (service, gateway) = service().await;
    let alice = token("alice");
    add_totes(&service, &alice, 1).await;
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
    add_totes(&service, &alice, 1).await;
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
    add_totes(&service, &alice, 1).await;
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
    add_totes(&service, &alice, 1).await;
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
    add_totes(&service, &hoarder, 101).await;
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
    add_totes(&service, &alice, 3).await;
    add_totes(&service, &bob, 1).await;
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
