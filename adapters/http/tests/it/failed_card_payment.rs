//! A card payment in Stripe's fields that fails gives back what its order took, through the
//! router with the production Stripe gateway on the local fake: Stripe's report of the
//! cancelled intent, delivered twice, puts back the order's stock, the part of its total a
//! gift card paid and the use it counted of a coupon that one order in all may use, once.

use axum::http::StatusCode;
use serde_json::json;
use vitrine_core::cart::{Coupon, CouponCode, CouponKind, Stock, StoreRules};
use vitrine_core::catalog::Sku;
use vitrine_core::checkout::conformance::{flat_rate_rules, issue_card, paying_with};
use vitrine_core::checkout::{CommerceStore, PaymentGateway, PaymentStatus};
use vitrine_services::StripeGateway;
use vitrine_services::StripeSecretKey;
use vitrine_services::stripe_fake::FAKE_SECRET_KEY;

use crate::card_payment::{
    Shop, intent_of, last_event_delivered, open_request_with, opened, order_id, shop_with_rules,
};
use crate::cart::{CHECKOUT_FIELDS, at_checkout, call};
use crate::support::{cart_cookie, send};

/// The shop with flat-rate shipping and the coupon `ONCE` (1.00 off), usable by one order.
async fn shop() -> Shop {
    let once = Coupon::new(
        CouponCode::parse("ONCE").unwrap(),
        CouponKind::FixedAmount { amount_cents: 100 },
        None,
        None,
    )
    .unwrap()
    .with_limits(Some(1), None);
    let rules = StoreRules {
        coupons: vec![once],
        ..flat_rate_rules()
    };
    shop_with_rules(crate::support::repository().await, rules).await
}

/// Applies the coupon `ONCE` to the cart under `token`: the router's status.
async fn apply_once(shop: &Shop, token: &str) -> StatusCode {
    let body = json!({ "code": "ONCE" }).to_string();
    let request = call(
        "POST",
        "/api/commerce/cart/coupons",
        Some(body),
        Some(token),
    );
    send(&shop.app, request).await.status
}

/// A new cart holding one tote, by its token.
async fn another_cart(shop: &Shop) -> String {
    let body = json!({ "itemId": "tote", "sku": "TOTE-1", "quantity": 1 }).to_string();
    let started = send(
        &shop.app,
        call("POST", "/api/commerce/cart/items", Some(body), None),
    )
    .await;
    cart_cookie(&started)
}

#[tokio::test]
async fn stripes_report_of_a_cancelled_intent_gives_the_gift_card_balance_and_the_coupon_back_once()
{
    let shop = shop().await;
    // A card worth 50.00 of which a paid order spent 10.00: 40.00 are left.
    let card = issue_card(&*shop.store, 1, 5_000).await;
    let spender = paying_with(&*shop.store, 2, &card.code, 1_000, 1_000).await;
    shop.store.place_order(&spender, &[]).await.unwrap();
    let balance = || async {
        let card = shop.store.gift_card(&card.code).await.unwrap().unwrap();
        card.remaining_cents
    };
    // Ten totes, so that another shopper can still add one while the order holds three.
    let tote = Sku::parse("TOTE-1").unwrap();
    shop.store
        .set_stock(&tote, Stock::Limited(10))
        .await
        .unwrap();
    // Three totes at 20.00, 5.00 shipping, 1.00 off: the card pays 40.00, the card fields 24.00.
    let (token, key) = at_checkout(&shop.app, 3).await;
    assert_eq!(apply_once(&shop, &token).await, StatusCode::OK);
    let fields = format!("{CHECKOUT_FIELDS}&giftCardCode={}", card.code.as_str());
    let (secret, return_url) = opened(&shop, open_request_with(&fields, &token, &key)).await;
    let order = shop
        .store
        .order(&order_id(&return_url))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(order.payment_status, PaymentStatus::Pending);
    assert_eq!(order.rest_due_cents(), 2_400);
    assert_eq!(balance().await, 0);
    assert_eq!(
        shop.store.stock(&tote).await.unwrap(),
        Some(Stock::Limited(7))
    );
    let bob = another_cart(&shop).await;
    assert_eq!(
        apply_once(&shop, &bob).await,
        StatusCode::BAD_REQUEST,
        "the pending order holds the coupon's only use"
    );

    let gateway = StripeGateway::new(
        shop.fake.base().clone(),
        StripeSecretKey::parse(FAKE_SECRET_KEY).unwrap(),
    );
    gateway.cancel_intent(intent_of(&secret)).await.unwrap();
    for _ in 0..2 {
        let delivered = send(
            &shop.app,
            last_event_delivered(&shop.fake, "payment_intent.canceled"),
        )
        .await;
        assert_eq!(delivered.status, StatusCode::OK, "{}", delivered.text());
    }
    let failed = shop.store.order(&order.id).await.unwrap().unwrap();
    assert_eq!(failed.payment_status, PaymentStatus::Failed);
    assert_eq!(balance().await, 4_000, "the card's 40.00 is back, once");
    assert_eq!(
        shop.store.stock(&tote).await.unwrap(),
        Some(Stock::Limited(10)),
        "the three totes are back, once"
    );
    assert_eq!(
        apply_once(&shop, &bob).await,
        StatusCode::OK,
        "the coupon's use is free again"
    );
}
