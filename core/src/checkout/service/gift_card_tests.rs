//! The gift card flow through the cart service: the gift card checkout page's offer and
//! cart line, cards issued when the order is placed, and paying with a card at a later
//! checkout, with the payment gateway charging only the rest.

use std::sync::{Arc, Mutex};

use async_trait::async_trait;

use super::test_shop::{NOW, add_totes, card_form, key, shop_over, token};
use super::*;
use crate::cart::{CartToken, Timestamp};
use crate::catalog::Sku;
use crate::checkout::conformance::fixture_gift_card;
use crate::checkout::details::CheckoutForm;
use crate::checkout::order::Order;
use crate::checkout::payment::PaymentRequest;
use crate::checkout::{InMemoryCommerceStore, Payment, TEST_CARD_DECLINED};
use crate::gift_cards::{GiftCard, GiftCardCode, GiftCardRefusal, SequentialGiftCardCodes};
use crate::ports::conformance::fixture_site;
use crate::ports::memory::MemorySiteRepository;

/// The test gateway, remembering the amount of every charge it made.
#[derive(Default)]
struct RecordingGateway {
    inner: TestPaymentGateway,
    amounts: Mutex<Vec<i64>>,
}

impl RecordingGateway {
    fn amounts(&self) -> Vec<i64> {
        self.amounts.lock().unwrap().clone()
    }
}

#[async_trait]
impl PaymentGateway for RecordingGateway {
    async fn charge(&self, request: &PaymentRequest) -> Result<Payment, PaymentError> {
        let payment = self.inner.charge(request).await?;
        self.amounts.lock().unwrap().push(payment.amount_minor);
        Ok(payment)
    }

    async fn refund(&self, payment: &Payment) -> Result<(), PaymentError> {
        self.inner.refund(payment).await
    }
}

struct Shop {
    service: CartService,
    gateway: Arc<RecordingGateway>,
}

async fn shop() -> Shop {
    let mut fixture = fixture_site("Shop");
    fixture.items.push(fixture_gift_card());
    let gateway = Arc::new(RecordingGateway::default());
    let (service, _) = shop_over(fixture, gateway.clone()).await;
    let service = service.with_gift_card_codes(Arc::new(SequentialGiftCardCodes::new()));
    Shop { service, gateway }
}

fn gift_form(sku: &str) -> GiftCardForm {
    GiftCardForm {
        website_id: "site".into(),
        product_id: "gift".into(),
        sku: sku.into(),
        recipient_name: "Bea".into(),
        recipient_email: "bea@example.com".into(),
        message: "Happy birthday!".into(),
        send_on: String::new(),
    }
}

/// A form for a cart that ships, paying with the test card that succeeds.
fn paying(gift_card_code: &str) -> CheckoutForm {
    CheckoutForm {
        gift_card_code: gift_card_code.into(),
        ..card_form("4242 4242 4242 4242")
    }
}

/// Buys a gift card of `sku` for Bea and answers its card.
async fn buy_card(shop: &Shop, buyer: &str, sku: &str) -> GiftCard {
    let buyer = token(buyer);
    shop.service
        .add_gift_card(&buyer, &gift_form(sku), NOW)
        .await
        .unwrap();
    let order = shop
        .service
        .checkout(
            &buyer,
            key(&format!("{buyer}-gift")),
            format!("order-{buyer}"),
            &paying(""),
            NOW,
        )
        .await
        .unwrap();
    order.gift_cards[0].clone()
}

/// What the card with `code` holds now.
async fn balance(service: &CartService, code: &GiftCardCode) -> i64 {
    let card = service.store().gift_card(code).await.unwrap();
    card.expect("the card exists").remaining_cents
}

/// What the gift card field says when `buyer` checks out paying with `code`.
async fn gift_card_refusal(service: &CartService, buyer: &CartToken, code: &str) -> String {
    let error = service
        .checkout(
            buyer,
            key("refused"),
            "order-refused".into(),
            &paying(code),
            NOW,
        )
        .await
        .unwrap_err();
    let CheckoutError::Invalid(errors) = error else {
        panic!("expected field errors, got {error:?}");
    };
    errors["giftCardCode"].clone()
}

#[tokio::test]
async fn the_offer_checks_the_website_the_product_and_the_amount() {
    let shop = shop().await;
    let offer = shop
        .service
        .gift_card_offer("site", "gift", None)
        .await
        .unwrap();
    assert_eq!(offer.title, "Gift card");
    assert_eq!(offer.chosen, None);
    let amounts: Vec<(&str, &str, i64)> = offer
        .amounts
        .iter()
        .map(|amount| {
            (
                amount.sku.as_str(),
                amount.label.as_str(),
                amount.price_cents,
            )
        })
        .collect();
    assert_eq!(
        amounts,
        [("GIFT-25", "$25", 2_500), ("GIFT-50", "$50", 5_000)]
    );
    let chosen = shop
        .service
        .gift_card_offer("site", "gift", Some("GIFT-50"))
        .await
        .unwrap();
    assert_eq!(chosen.chosen.unwrap().as_str(), "GIFT-50");

    let refused = |result: Result<GiftCardOffer, GiftCardOfferError>| result.unwrap_err();
    assert!(matches!(
        refused(shop.service.gift_card_offer("other", "gift", None).await),
        GiftCardOfferError::UnknownWebsite(_)
    ));
    for product in ["tote", "nope", "not an id!", "post-draft"] {
        assert!(
            matches!(
                refused(shop.service.gift_card_offer("site", product, None).await),
                GiftCardOfferError::NotAGiftCard(_)
            ),
            "{product}"
        );
    }
    assert!(matches!(
        refused(
            shop.service
                .gift_card_offer("site", "gift", Some("TOTE-1"))
                .await
        ),
        GiftCardOfferError::UnknownAmount { .. }
    ));
}

#[tokio::test]
async fn the_gift_card_form_puts_the_card_and_its_recipient_in_the_cart() {
    let shop = shop().await;
    let buyer = token("ada");
    let missing = shop
        .service
        .add_gift_card(
            &buyer,
            &GiftCardForm {
                recipient_email: "bea@".into(),
                ..gift_form("")
            },
            NOW,
        )
        .await
        .unwrap_err();
    let AddGiftCardError::Invalid(errors) = missing else {
        panic!("{missing:?}");
    };
    assert_eq!(errors["sku"], GIFT_CARD_AMOUNT_REQUIRED);
    assert!(errors.contains_key("recipientEmail"));
    assert!(
        shop.service.cart(&buyer, NOW).await.unwrap().is_none(),
        "no cart was made"
    );

    let update = shop
        .service
        .add_gift_card(&buyer, &gift_form("GIFT-25"), NOW)
        .await
        .unwrap();
    let line = &update.cart.entries[0];
    assert_eq!((line.sku.as_str(), line.quantity), ("GIFT-25", 1));
    assert_eq!(line.gift_card_recipient.as_ref().unwrap().name, "Bea");
    assert!(!update.cart.requires_shipping, "gift cards are not shipped");
    // The same card for Bea again is a second unit; for someone else it is refused.
    let again = shop
        .service
        .add_gift_card(&buyer, &gift_form("GIFT-25"), NOW)
        .await
        .unwrap();
    assert_eq!(again.cart.entries[0].quantity, 2);
    let other = GiftCardForm {
        recipient_name: "Cy".into(),
        ..gift_form("GIFT-25")
    };
    let error = shop
        .service
        .add_gift_card(&buyer, &other, NOW)
        .await
        .unwrap_err();
    assert!(
        matches!(&error, AddGiftCardError::Invalid(errors) if errors["sku"] == OTHER_RECIPIENT),
        "{error:?}"
    );
}

#[tokio::test]
async fn an_order_issues_a_card_per_unit_and_a_double_submit_issues_them_once() {
    let shop = shop().await;
    let buyer = token("ada");
    shop.service
        .add_gift_card(&buyer, &gift_form("GIFT-25"), NOW)
        .await
        .unwrap();
    shop.service
        .add_gift_card(&buyer, &gift_form("GIFT-25"), NOW)
        .await
        .unwrap();
    add_totes(&shop.service, &buyer, 1).await;
    let form = paying("");
    let (first, second) = tokio::join!(
        shop.service
            .checkout(&buyer, key("k1"), "order-1".into(), &form, NOW),
        shop.service
            .checkout(&buyer, key("k1"), "order-2".into(), &form, NOW),
    );
    let (first, second) = (first.unwrap(), second.unwrap());
    assert_eq!(first, second);
    assert_eq!(first.gift_cards.len(), 2);
    assert!(first.gift_cards.iter().all(|card| {
        card.initial_cents == 2_500
            && card
                .recipient
                .as_ref()
                .is_some_and(|r| r.email == "bea@example.com")
    }));
    assert_eq!(first.grand_total_cents, 2 * 2_500 + 2_000 + 500);
    assert_eq!(shop.gateway.amounts(), [first.grand_total_cents]);
    let again = shop
        .service
        .checkout(&buyer, key("k1"), "order-3".into(), &form, NOW)
        .await
        .unwrap();
    assert_eq!(again.gift_cards, first.gift_cards);
    let stored = shop
        .service
        .store()
        .order_gift_cards("order-1")
        .await
        .unwrap();
    assert_eq!(stored, first.gift_cards);
}

#[tokio::test]
async fn a_gift_card_pays_part_of_a_later_order_and_the_card_is_charged_the_rest() {
    let shop = shop().await;
    let card = buy_card(&shop, "giver", "GIFT-25").await;
    let buyer = token("bea");
    add_totes(&shop.service, &buyer, 2).await;
    // Typed the way a person might: lower case, spaces, an O for a 0.
    let typed = card
        .code
        .to_string()
        .to_lowercase()
        .replace('-', " ")
        .replace('0', "o");
    let order = shop
        .service
        .checkout(&buyer, key("b1"), "order-b".into(), &paying(&typed), NOW)
        .await
        .unwrap();
    assert_eq!(order.grand_total_cents, 2 * 2_000 + 500);
    let payment = order.gift_card_payment.clone().unwrap();
    assert_eq!(
        (payment.code, payment.amount_cents),
        (card.code.clone(), 2_500)
    );
    assert_eq!(order.rest_due_cents(), 2_000);
    assert_eq!(
        shop.gateway.amounts(),
        [2_500, 2_000],
        "the gift card, then the rest"
    );
    let spent = balance(&shop.service, &card.code).await;
    assert_eq!(spent, 0);
    assert_eq!(
        shop.service.store().order("order-b").await.unwrap(),
        Some(order)
    );

    // Now used up, the card is refused beside its field.
    let late = token("cy");
    add_totes(&shop.service, &late, 1).await;
    assert_eq!(
        gift_card_refusal(&shop.service, &late, card.code.as_str()).await,
        GiftCardRefusal::UsedUp.message()
    );
}

#[tokio::test]
async fn a_card_covering_the_whole_total_needs_no_card_details_and_charges_nothing() {
    let shop = shop().await;
    let card = buy_card(&shop, "giver", "GIFT-50").await;
    let buyer = token("bea");
    add_totes(&shop.service, &buyer, 1).await;
    let form = CheckoutForm {
        card_number: String::new(),
        card_expiry: String::new(),
        card_cvc: String::new(),
        ..paying(&card.code.to_string())
    };
    let order = shop
        .service
        .checkout(&buyer, key("b1"), "order-b".into(), &form, NOW)
        .await
        .unwrap();
    assert_eq!(order.rest_due_cents(), 0);
    assert!(order.payment_id.is_empty());
    assert_eq!(
        shop.gateway.amounts(),
        [5_000],
        "only the gift card's own purchase"
    );
    let left = balance(&shop.service, &card.code).await;
    assert_eq!(left, 5_000 - 2_500);
}

#[tokio::test]
async fn unknown_malformed_and_foreign_cards_and_gift_cards_for_gift_cards_are_refused() {
    let shop = shop().await;
    let card = buy_card(&shop, "giver", "GIFT-25").await;
    let buyer = token("bea");
    add_totes(&shop.service, &buyer, 1).await;
    let attempt = |code: &'static str| gift_card_refusal(&shop.service, &buyer, code);
    assert_eq!(
        attempt("0000-0000-0000-0000").await,
        GiftCardRefusal::Unknown.message()
    );
    assert_eq!(
        attempt("0000-0000-0000").await,
        crate::gift_cards::GIFT_CARD_CODE_INVALID
    );

    // A card in another currency: issued by an order placed in euros.
    let mut euro_cart = crate::cart::CartState::new("euro", "site", NOW);
    let lesson = crate::cart::Purchasable::new(
        "lesson",
        "Lesson",
        crate::enums::ProductType::Service,
        Sku::parse("LESSON").unwrap(),
        2_500,
        crate::cart::Stock::Unlimited,
    );
    euro_cart.add_item(&lesson, 1).unwrap();
    let euro_token = token("euro");
    shop.service
        .store()
        .save_cart(&euro_token, &euro_cart)
        .await
        .unwrap();
    let mut euro_order = Order::from_cart(
        &euro_cart.price(&StoreRules::default(), NOW),
        "order-euro",
        key("euro"),
        euro_token,
        "e@example.com",
        NOW,
    )
    .unwrap();
    euro_order.currency = crate::money::Currency::Eur;
    let euro_card = GiftCard {
        code: GiftCardCode::from_random([7; 10]),
        currency: crate::money::Currency::Eur,
        order_id: euro_order.id.clone(),
        ..card.clone()
    };
    euro_order.gift_cards = vec![euro_card.clone()];
    shop.service
        .store()
        .place_order(&euro_order, &[])
        .await
        .unwrap();
    assert_eq!(
        gift_card_refusal(&shop.service, &buyer, euro_card.code.as_str()).await,
        "This gift card is in EUR and cannot pay for an order in USD."
    );

    // A gift card does not buy gift cards.
    let giver = token("gifts");
    shop.service
        .add_gift_card(&giver, &gift_form("GIFT-50"), NOW)
        .await
        .unwrap();
    assert_eq!(
        gift_card_refusal(&shop.service, &giver, card.code.as_str()).await,
        GiftCardRefusal::OnlyGiftCards.message()
    );
    let untouched = balance(&shop.service, &card.code).await;
    assert_eq!(untouched, 2_500);
}

#[tokio::test]
async fn a_declined_card_spends_nothing_from_the_gift_card() {
    let shop = shop().await;
    let card = buy_card(&shop, "giver", "GIFT-25").await;
    let buyer = token("bea");
    add_totes(&shop.service, &buyer, 3).await;
    let form = CheckoutForm {
        card_number: TEST_CARD_DECLINED.into(),
        ..paying(card.code.as_str())
    };
    let error = shop
        .service
        .checkout(&buyer, key("b1"), "order-b".into(), &form, NOW)
        .await
        .unwrap_err();
    assert!(
        matches!(error, CheckoutError::Payment(PaymentError::Declined { .. })),
        "{error:?}"
    );
    let untouched = balance(&shop.service, &card.code).await;
    assert_eq!(untouched, 2_500);
    assert!(
        shop.service
            .store()
            .order_by_key(&key("b1"))
            .await
            .unwrap()
            .is_none()
    );
}

/// A gateway during whose charge another order spends the gift card, as when two shoppers
/// share a card and pay at the same moment.
struct RivalGateway {
    inner: TestPaymentGateway,
    store: Arc<dyn CommerceStore>,
    rival: Mutex<Option<Order>>,
}

#[async_trait]
impl PaymentGateway for RivalGateway {
    async fn charge(&self, request: &PaymentRequest) -> Result<Payment, PaymentError> {
        let rival = self.rival.lock().unwrap().take();
        if let Some(rival) = rival {
            self.store.place_order(&rival, &[]).await.unwrap();
        }
        self.inner.charge(request).await
    }

    async fn refund(&self, payment: &Payment) -> Result<(), PaymentError> {
        self.inner.refund(payment).await
    }
}

/// A shop whose gateway places a rival order during the next charge, spending 2,000 of the
/// gift card the shop sold (holding 2,500), for one tote.
async fn shop_with_a_rival() -> (Shop, GiftCard, Arc<RivalGateway>) {
    let shop = shop().await;
    let card = buy_card(&shop, "giver", "GIFT-25").await;
    let rival = token("rival");
    add_totes(&shop.service, &rival, 1).await;
    shop.service
        .select_shipping_option(&rival, "standard", NOW)
        .await
        .unwrap();
    let rival_cart = shop.service.cart(&rival, NOW).await.unwrap().unwrap();
    let mut rival_order = Order::from_cart(
        &rival_cart,
        "order-r",
        key("r1"),
        rival,
        "r@example.com",
        NOW,
    )
    .unwrap();
    rival_order.gift_card_payment = Some(crate::gift_cards::GiftCardPayment {
        code: card.code.clone(),
        amount_cents: 2_000,
    });
    let gateway = Arc::new(RivalGateway {
        inner: TestPaymentGateway::new(),
        store: shop.service.store().clone(),
        rival: Mutex::new(Some(rival_order)),
    });
    (shop, card, gateway)
}

#[tokio::test]
async fn a_card_spent_by_another_order_during_the_charge_refunds_the_charge() {
    let (shop, card, gateway) = shop_with_a_rival().await;
    let service = shop.service.with_payments(gateway.clone());
    let buyer = token("bea");
    add_totes(&service, &buyer, 2).await;
    let error = service
        .checkout(
            &buyer,
            key("b1"),
            "order-b".into(),
            &paying(card.code.as_str()),
            NOW,
        )
        .await
        .unwrap_err();
    assert!(
        matches!(&error, CheckoutError::Order(PlaceOrderError::GiftCardBalanceChanged(code)) if code == &card.code),
        "{error:?}"
    );
    assert_eq!(gateway.inner.charge_count(), 1);
    assert_eq!(
        gateway.inner.refunded(),
        ["test_ch_00000000000000b1".to_owned()]
    );
    assert_eq!(
        balance(&service, &card.code).await,
        500,
        "only the rival's 2,000 were spent"
    );
    assert!(
        !service
            .cart(&buyer, NOW)
            .await
            .unwrap()
            .unwrap()
            .is_purchased
    );
}

/// The hole a review found: the charge of a failed checkout was refunded, and submitting the
/// same form again made the gateway replay that refunded charge (same idempotency key), on
/// which the order was then placed. Now the refunded attempt is burnt and the retry pays anew.
#[tokio::test]
async fn a_retry_after_a_refund_pays_anew_and_never_orders_on_the_refunded_charge() {
    let (shop, card, gateway) = shop_with_a_rival().await;
    let service = shop.service.with_payments(gateway.clone());
    let buyer = token("bea");
    add_totes(&service, &buyer, 2).await;
    let form = paying(card.code.as_str());
    service
        .checkout(&buyer, key("b1"), "order-b".into(), &form, NOW)
        .await
        .unwrap_err();
    assert_eq!(
        gateway.inner.refunded(),
        ["test_ch_00000000000000b1".to_owned()]
    );

    let order = service
        .checkout(&buyer, key("b1"), "order-b".into(), &form, NOW)
        .await
        .expect("the retry places the order");

    assert_eq!(
        gateway.inner.charge_count(),
        2,
        "the retry made a new charge"
    );
    assert_eq!(order.payment_id, "test_ch_00000000000000b1-r1");
    assert!(!gateway.inner.refunded().contains(&order.payment_id));
    assert_eq!(
        service.store().refunded_attempts(&key("b1")).await.unwrap(),
        1
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn many_checkouts_spending_one_card_at_once_never_spend_more_than_it_holds() {
    let shop = Arc::new(shop().await);
    let card = buy_card(&shop, "giver", "GIFT-50").await;
    let mut tasks = Vec::new();
    for n in 0..12 {
        let shop = shop.clone();
        let code = card.code.to_string();
        tasks.push(tokio::spawn(async move {
            let buyer = token(&format!("buyer{n}"));
            add_totes(&shop.service, &buyer, 1).await;
            shop.service
                .checkout(
                    &buyer,
                    key(&format!("k{n}")),
                    format!("order-{n}"),
                    &paying(&code),
                    NOW,
                )
                .await
        }));
    }
    let mut spent = 0;
    let mut placed = 0;
    for task in tasks {
        match task.await.unwrap() {
            Ok(order) => {
                placed += 1;
                spent += order
                    .gift_card_payment
                    .map_or(0, |payment| payment.amount_cents);
            }
            Err(CheckoutError::Invalid(errors)) => assert!(errors.contains_key("giftCardCode")),
            Err(CheckoutError::Order(PlaceOrderError::GiftCardBalanceChanged(_))) => {}
            Err(other) => panic!("{other:?}"),
        }
    }
    let left = balance(&shop.service, &card.code).await;
    assert_eq!(spent + left, 5_000);
    assert!(left >= 0);
    // Each tote order is 2,500 with shipping: the card pays two of them in full, and the
    // shoppers it cannot pay for anymore are told so.
    assert_eq!((placed, spent), (2, 5_000));
}

/// A shop whose store is at hand, mailing gift cards to their recipients.
async fn mailing_shop() -> (CartService, Arc<InMemoryCommerceStore>) {
    let site = MemorySiteRepository::new();
    let mut fixture = fixture_site("Clay Shop");
    fixture.items.push(fixture_gift_card());
    site.replace_site(&fixture).await.unwrap();
    let store = Arc::new(InMemoryCommerceStore::new());
    let service = CartService::new(Arc::new(site), store.clone(), StoreRules::default())
        .with_gift_card_codes(Arc::new(SequentialGiftCardCodes::new()))
        .with_gift_card_mails(crate::forms::SiteLinks::new("https://shop.example"));
    (service, store)
}

#[tokio::test]
async fn a_gift_card_is_mailed_to_its_recipient_on_the_chosen_day_once() {
    let (service, store) = mailing_shop().await;
    let buyer = token("ada-dated");
    let dated = GiftCardForm {
        send_on: "2026-12-24".into(),
        ..gift_form("GIFT-25")
    };
    service.add_gift_card(&buyer, &dated, NOW).await.unwrap();
    let order_key = key("dated-gift");
    let form = paying("");
    let order = service
        .checkout(&buyer, order_key.clone(), "order-dated".into(), &form, NOW)
        .await
        .unwrap();
    // A double submit answers the same order and mails nothing more.
    service
        .checkout(&buyer, order_key, "order-again".into(), &form, NOW)
        .await
        .unwrap();
    let follow_ups = store.follow_ups();
    assert_eq!(follow_ups.len(), 1);
    let mails = &follow_ups[0].1.gift_card_mails;
    assert_eq!(mails.len(), 1);
    // 2026-12-24T08:00:00Z
    assert_eq!(mails[0].due, Timestamp(1_798_099_200_000));
    let mail = &mails[0].mail;
    assert_eq!(mail.to, "bea@example.com");
    assert_eq!(mail.subject, "A gift card from Clay Shop");
    let code = order.gift_cards[0].code.to_string();
    assert!(
        mail.text.contains(&format!("Gift card code: {code}")),
        "{}",
        mail.text
    );
    assert!(mail.html.as_deref().unwrap().contains(&code));
}

#[tokio::test]
async fn a_send_date_needs_a_recipient_address_and_a_day_ahead_within_a_year() {
    let (service, store) = mailing_shop().await;
    let buyer = token("ada-undated");
    for (send_on, email, expected) in [
        ("2026-12-24", "", crate::gift_cards::SEND_DATE_NEEDS_EMAIL),
        (
            "2020-01-01",
            "bea@example.com",
            crate::gift_cards::SEND_DATE_PAST,
        ),
        (
            "24.12.2026",
            "bea@example.com",
            crate::gift_cards::SEND_DATE_INVALID,
        ),
    ] {
        let form = GiftCardForm {
            send_on: send_on.into(),
            recipient_email: email.into(),
            ..gift_form("GIFT-25")
        };
        let error = service.add_gift_card(&buyer, &form, NOW).await.unwrap_err();
        assert!(
            matches!(&error, AddGiftCardError::Invalid(errors) if errors["sendOn"] == expected),
            "{send_on}: {error:?}"
        );
    }
    // Without a date the card is mailed as the order is placed.
    service
        .add_gift_card(&buyer, &gift_form("GIFT-25"), NOW)
        .await
        .unwrap();
    let form = paying("");
    service
        .checkout(&buyer, key("undated-gift"), "order-now".into(), &form, NOW)
        .await
        .unwrap();
    let mails = &store.follow_ups()[0].1.gift_card_mails;
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].due, NOW);
}

#[tokio::test]
async fn the_balance_check_answers_a_card_however_typed_and_nothing_for_other_codes() {
    let shop = shop().await;
    let card = buy_card(&shop, "ada-balance", "GIFT-25").await;
    let typed = card.code.to_string().to_lowercase().replace('-', " ");
    assert_eq!(
        shop.service.gift_card_balance(&typed).await.unwrap(),
        GiftCardBalance::Found {
            code_last4: card.code.last4().to_owned(),
            remaining_cents: card.remaining_cents,
            initial_cents: card.initial_cents,
            currency: card.currency,
        }
    );
    let unknown = GiftCardCode::from_random([1; 10]).to_string();
    for typed in [unknown.as_str(), "not a code", ""] {
        assert_eq!(
            shop.service.gift_card_balance(typed).await.unwrap(),
            GiftCardBalance::Unknown,
            "{typed}"
        );
    }
}
