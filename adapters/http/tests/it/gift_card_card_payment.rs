//! A gift card bought with Stripe's card fields, through the router with the production
//! Stripe gateway on the local fake: its mail to the recipient waits for the payment. A card
//! declined at the return address and an intent cancelled at Stripe fail the order and empty
//! the card, and the recipient never gets a mail; a paid card is mailed once, on the day the
//! buyer chose.

use std::sync::Arc;

use axum::http::StatusCode;
use vitrine_core::cart::Timestamp;
use vitrine_core::checkout::conformance::{fixture_gift_card, flat_rate_rules};
use vitrine_core::checkout::{CommerceStore, PaymentGateway, PaymentStatus};
use vitrine_core::forms::SiteLinks;
use vitrine_core::gift_cards::GiftCardSendDate;
use vitrine_core::ports::SiteRepository;
use vitrine_core::ports::memory::MemorySiteRepository;
use vitrine_http::RandomGiftCardCodes;
use vitrine_services::stripe_fake::{FAKE_SECRET_KEY, cards};
use vitrine_services::{StripeGateway, StripeSecretKey};

use crate::card_payment::{
    Shop, declined_in_the_fields, intent_of, last_event_delivered, open_request_with, opened,
    order_id, shop_with, visit,
};
use crate::cart::{form, idempotency_key};
use crate::support::{send, site};

/// A gift card checkout needs an address to mail the receipt to, and no shipping.
const GIFT_CARD_CHECKOUT_FIELDS: &str = "email=ada%40example.com";

/// The fixture site with the gift card `gift`, sold through Stripe's fields on the fake and
/// mailed to its recipients.
async fn shop() -> Shop {
    let repository = Arc::new(MemorySiteRepository::new());
    let mut site = site();
    site.items.push(fixture_gift_card());
    repository.replace_site(&site).await.unwrap();
    shop_with(repository, flat_rate_rules(), |carts| {
        carts
            .with_gift_card_codes(Arc::new(RandomGiftCardCodes))
            .with_gift_card_mails(SiteLinks::new("http://shop.test"))
    })
    .await
}

/// The day a month from now, as the gift card form takes it (`YYYY-MM-DD`), and the moment
/// its mail is due.
fn in_a_month() -> (String, Timestamp) {
    let now = time::OffsetDateTime::now_utc();
    let text = (now.date() + time::Duration::days(30)).to_string();
    let millis = i64::try_from(now.unix_timestamp_nanos() / 1_000_000).unwrap();
    let due = GiftCardSendDate::parse(&text, Timestamp(millis))
        .unwrap()
        .expect("a day is given")
        .send_at();
    (text, due)
}

/// A 25.00 card for Bea, to be mailed on `send_on`, put in a new cart and taken to Stripe's
/// fields: the cart's token, the intent's client secret and the return address.
async fn bought_for_bea(shop: &Shop, send_on: &str) -> (String, String, String) {
    let gift = format!(
        "websiteId=site&giftCardProductId=gift&sku=GIFT-25&recipientName=Bea\
         &recipientEmail=bea%40example.com&message=Happy+birthday%21&sendOn={send_on}"
    );
    let added = send(&shop.app, form("POST", "/checkout/giftcard", &gift, None)).await;
    assert_eq!(added.status, StatusCode::SEE_OTHER, "{}", added.text());
    let token = added.cart_cookie();
    let checkout = send(&shop.app, form("GET", "/checkout", "", Some(&token))).await;
    let key = idempotency_key(&checkout.text());
    let (secret, return_url) = opened(
        shop,
        open_request_with(GIFT_CARD_CHECKOUT_FIELDS, &token, &key),
    )
    .await;
    (token, secret, return_url)
}

async fn status_of(shop: &Shop, return_url: &str) -> PaymentStatus {
    let order = shop.store.order(&order_id(return_url)).await.unwrap();
    order.expect("the order is placed").payment_status
}

#[tokio::test]
async fn a_card_declined_or_an_intent_cancelled_at_stripe_never_mails_the_recipient() {
    let shop = shop().await;
    let (send_on, _) = in_a_month();
    let (token, secret, return_url) = bought_for_bea(&shop, &send_on).await;
    let return_url = declined_in_the_fields(&shop, &secret, &return_url).await;
    let declined = visit(&shop, &return_url, &token).await;
    assert_eq!(declined.status, StatusCode::PAYMENT_REQUIRED);
    assert_eq!(status_of(&shop, &return_url).await, PaymentStatus::Failed);

    let (_, secret, abandoned) = bought_for_bea(&shop, &send_on).await;
    let gateway = StripeGateway::new(
        shop.fake.base().clone(),
        StripeSecretKey::parse(FAKE_SECRET_KEY).unwrap(),
    );
    gateway.cancel_intent(intent_of(&secret)).await.unwrap();
    let delivered = send(
        &shop.app,
        last_event_delivered(&shop.fake, "payment_intent.canceled"),
    )
    .await;
    assert_eq!(delivered.status, StatusCode::OK, "{}", delivered.text());
    assert_eq!(status_of(&shop, &abandoned).await, PaymentStatus::Failed);

    let held = shop.store.follow_ups();
    assert_eq!(held.len(), 2);
    assert!(
        held.iter()
            .all(|(_, follow_up)| follow_up.gift_card_mails.len() == 1),
        "each order wrote its card's mail, held"
    );
    assert!(
        shop.store.gift_card_mails().is_empty(),
        "no code of an emptied card goes out"
    );
}

#[tokio::test]
async fn a_card_paid_in_stripes_fields_is_mailed_to_its_recipient_once_on_the_chosen_day() {
    let shop = shop().await;
    let (send_on, due) = in_a_month();
    let (token, secret, return_url) = bought_for_bea(&shop, &send_on).await;
    assert!(
        shop.store.gift_card_mails().is_empty(),
        "held while the payment is open"
    );
    shop.fake
        .confirm_in_browser(&secret, cards::SUCCEEDS, &return_url)
        .await;
    let back = format!("{return_url}&payment_intent={}", intent_of(&secret));
    let resumed = visit(&shop, &back, &token).await;
    assert_eq!(resumed.status, StatusCode::SEE_OTHER, "{}", resumed.text());
    // Stripe's webhook about the same success changes nothing more.
    let delivered = send(
        &shop.app,
        last_event_delivered(&shop.fake, "payment_intent.succeeded"),
    )
    .await;
    assert_eq!(delivered.status, StatusCode::OK, "{}", delivered.text());
    assert_eq!(status_of(&shop, &return_url).await, PaymentStatus::Paid);
    let mails = shop.store.gift_card_mails();
    let [mail] = &mails[..] else {
        panic!("one mail: {mails:?}");
    };
    assert_eq!((mail.mail.to.as_str(), mail.due), ("bea@example.com", due));
}
