//! A gift card paid for in the browser is mailed to its recipient only once the payment
//! succeeded: a failed or abandoned payment empties the card, so its recipient never gets a
//! mail at all, not even when a success is reported late; a paid one mails it once, on the
//! day the buyer chose.

use super::browser_checkout_tests::{IntentGateway, Shop, payer};
use super::test_shop::{NOW, address_form, key, shop_over, token};
use super::*;
use crate::cart::Timestamp;
use crate::checkout::browser_payment::{IntentState, OpenIntent};
use crate::checkout::conformance::fixture_gift_card;
use crate::checkout::order::Order;
use crate::checkout::{PaymentEvent, PaymentEventLog, PaymentOutcome, PaymentStatus};
use crate::gift_cards::SequentialGiftCardCodes;
use crate::ports::conformance::fixture_site;

/// 2026-12-24T08:00:00Z, when a card chosen for that day is mailed.
const CHRISTMAS_EVE: Timestamp = Timestamp(1_798_099_200_000);

/// A shop selling gift cards through the provider's fields, mailing them to their recipients.
async fn shop() -> Shop {
    let gateway = Arc::new(IntentGateway::default());
    let mut site = fixture_site("Clay Shop");
    site.items.push(fixture_gift_card());
    let (service, store) = shop_over(site, gateway.clone()).await;
    let service = service
        .with_gift_card_codes(Arc::new(SequentialGiftCardCodes::new()))
        .with_gift_card_mails(crate::forms::SiteLinks::new("https://shop.example"));
    Shop {
        service,
        store,
        gateway,
    }
}

/// `name`'s order of a 25.00 card for Bea, to be mailed on Christmas Eve, waiting for its
/// payment in the browser.
async fn bought_for_bea(shop: &Shop, name: &str) -> (Order, OpenIntent) {
    let buyer = token(name);
    let form = GiftCardForm {
        website_id: "site".into(),
        product_id: "gift".into(),
        sku: "GIFT-25".into(),
        recipient_name: "Bea".into(),
        recipient_email: "bea@example.com".into(),
        message: "Happy birthday!".into(),
        send_on: "2026-12-24".into(),
    };
    shop.service
        .add_gift_card(&buyer, &form, NOW)
        .await
        .unwrap();
    let opened = shop
        .service
        .open_browser_payment(
            &payer(),
            &buyer,
            key(name),
            format!("order-{name}"),
            &address_form(),
            NOW,
        )
        .await
        .unwrap();
    let BrowserCheckout::Confirm { order, intent } = opened else {
        panic!("the card is paid in the browser: {opened:?}");
    };
    assert_eq!(order.gift_cards.len(), 1);
    (order, intent)
}

/// The provider's webhook `id`: `order`'s intent ended with `outcome`.
fn reported(id: &str, order: &Order, intent: &OpenIntent, outcome: PaymentOutcome) -> PaymentEvent {
    PaymentEvent {
        id: id.into(),
        payment_id: intent.id.clone(),
        payment_key: Some(order.payment_key.clone()),
        outcome,
    }
}

/// The recipient and due time of every gift card mail that goes out.
fn mails_out(shop: &Shop) -> Vec<(String, Timestamp)> {
    shop.store
        .gift_card_mails()
        .into_iter()
        .map(|scheduled| (scheduled.mail.to, scheduled.due))
        .collect()
}

#[tokio::test]
async fn a_paid_card_is_mailed_to_its_recipient_once_on_the_chosen_day() {
    let shop = shop().await;
    let (order, intent) = bought_for_bea(&shop, "ada-pays").await;
    let follow_ups = shop.store.follow_ups();
    let [(_, follow_up)] = &follow_ups[..] else {
        panic!("one order placed: {follow_ups:?}");
    };
    assert_eq!(follow_up.gift_card_mails.len(), 1, "the mail is written");
    assert!(follow_up.gift_card_mails_wait_for_payment);
    assert_eq!(mails_out(&shop), [], "held while the payment is open");

    shop.gateway.pay(&intent.id, &order);
    for _ in 0..2 {
        shop.service
            .resume_browser_payment(&payer(), &order.id, &intent.id, NOW)
            .await
            .unwrap();
    }
    let succeeded = reported("evt_paid", &order, &intent, PaymentOutcome::Succeeded);
    shop.store.reconcile_payment(&succeeded, NOW).await.unwrap();
    assert_eq!(
        mails_out(&shop),
        [("bea@example.com".to_owned(), CHRISTMAS_EVE)]
    );
}

#[tokio::test]
async fn a_declined_or_abandoned_payment_never_mails_the_recipient() {
    let shop = shop().await;
    let (declined, declined_intent) = bought_for_bea(&shop, "ada-declined").await;
    let (abandoned, _) = bought_for_bea(&shop, "bo-abandons").await;
    // Ada's card is declined and she comes back to the return address: the payment ends.
    shop.gateway.settle(
        &declined_intent.id,
        IntentState::Failed {
            message: "Your card was declined.".into(),
        },
    );
    let ended = shop
        .service
        .resume_browser_payment(&payer(), &declined.id, &declined_intent.id, NOW)
        .await
        .unwrap();
    assert_eq!(ended.order.payment_status, PaymentStatus::Failed);
    // Bo never pays: the clean-up cancels his intent once the window has passed.
    let later = Timestamp(NOW.millis() + ABANDONED_BROWSER_PAYMENT_SECONDS * 1000 + 1);
    shop.service
        .cancel_abandoned_browser_payments(later)
        .await
        .unwrap();
    let stored = shop.store.order(&abandoned.id).await.unwrap().unwrap();
    assert_eq!(stored.payment_status, PaymentStatus::Failed);
    assert_eq!(mails_out(&shop), []);
    // A success reported after the failure sends none either.
    shop.gateway.pay(&declined_intent.id, &declined);
    let late = reported(
        "evt_late",
        &declined,
        &declined_intent,
        PaymentOutcome::Succeeded,
    );
    shop.store.reconcile_payment(&late, later).await.unwrap();
    assert_eq!(
        mails_out(&shop),
        [],
        "the cards were emptied, so no code goes out"
    );
}
