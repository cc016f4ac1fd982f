//! What placing an order leads to: the order confirmation mailed to the shopper at once, a
//! review request made with the order whose mail goes out some days later, and the mails
//! giving its gift cards to their recipients. The store writes them in the order's own
//! transaction, so a placed order is never left without them and a replayed checkout writes
//! them no second time. An order placed before its payment is known writes the mails that
//! must go out only for a paid order held, and the store settles them with the payment.

use sha2::{Digest, Sha256};

use super::order::Order;
use crate::cart::{ShoppingCart, Timestamp};
use crate::catalog::Sku;
use crate::enums::ProductType;
use crate::forms::{Mail, SiteLinks};
use crate::gift_cards::gift_card_mail;
use crate::reviews::{REVIEW_REQUEST_LIFETIME_SECONDS, ReviewRequest, ReviewRequestToken};

/// How long after an order its review request is mailed unless configured otherwise: a
/// week, time enough for most parcels to arrive and be tried.
pub const DEFAULT_REVIEW_REQUEST_DELAY_SECONDS: i64 = 7 * 24 * 60 * 60;

/// Which mails placed orders lead to; none by default, since only a server that can send
/// mail should promise them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct OrderMails {
    /// Mail the shopper the order's lines, totals and a link to its page.
    pub confirmation: bool,
    /// Ask the shopper to review the order's products this many seconds after the order;
    /// none asks nothing.
    pub review_request_delay_seconds: Option<i64>,
}

/// The follow-up of one order, decided before the store places it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct OrderFollowUp {
    /// Enqueue the order confirmation, due at once.
    pub confirmation: bool,
    /// The confirmation waits for the order's payment (an order placed as payment pending
    /// while the shopper pays in the browser, who may yet abandon): the store writes it held,
    /// makes it due in the transaction that records the payment's success, and drops it with
    /// a failure, so it goes out once and only for a paid order.
    pub confirmation_waits_for_payment: bool,
    /// The provider's intent the order waits on while its payer confirms it in the browser:
    /// the store keeps it until the order's payment is settled, so that a declined card
    /// leaves the order payable ([`PaymentStatus::after_in_browser`]) and an order abandoned
    /// with it can be found and its intent cancelled.
    ///
    /// [`PaymentStatus::after_in_browser`]: super::PaymentStatus::after_in_browser
    pub browser_intent: Option<String>,
    pub review_request: Option<ScheduledReviewRequest>,
    /// The mails giving the order's gift cards to their recipients, each due on the day the
    /// buyer chose (at once when they chose none).
    pub gift_card_mails: Vec<ScheduledMail>,
    /// The gift card mails wait for the order's payment (an order placed as payment pending,
    /// paid in the browser or by a charge whose answer did not come): a failed payment
    /// empties the cards, so a recipient must never get a code before the money is taken.
    /// The store writes them held, makes them due in the transaction that records the
    /// payment's success, each on its chosen day or at once when that day has passed
    /// ([`ScheduledMail::due_once_paid`]), and drops them with a failure.
    pub gift_card_mails_wait_for_payment: bool,
}

/// A mail composed whole, and when it is due.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScheduledMail {
    pub mail: Mail,
    pub due: Timestamp,
}

impl ScheduledMail {
    /// When a mail held for its order's payment is due once the payment succeeded at
    /// `paid_at`: on its own day still, or at once when that day has passed meanwhile.
    pub fn due_once_paid(&self, paid_at: Timestamp) -> Timestamp {
        self.due.max(paid_at)
    }
}

/// A review request stored with the order, and when its mail is due.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScheduledReviewRequest {
    pub request: ReviewRequest,
    pub mail_at: Timestamp,
}

impl OrderFollowUp {
    /// The follow-up `mails` asks for `order`, placed from the priced `cart`. Gift cards are
    /// not reviewed (they are a means of payment, not a product one uses), so an order of
    /// gift cards only gets no review request. The request is valid for the usual lifetime
    /// counted from its mail, not from the order.
    pub fn new(order: &Order, cart: &ShoppingCart, mails: OrderMails) -> Self {
        let review_request = mails.review_request_delay_seconds.and_then(|delay| {
            let delay = delay.max(0);
            let gift_cards: Vec<&Sku> = cart
                .entries
                .iter()
                .filter(|entry| entry.product_type() == ProductType::GiftCard)
                .map(|entry| &entry.sku)
                .collect();
            let mail_at = order.created.plus_seconds(delay);
            let request = ReviewRequest::for_order(
                order,
                review_request_token(order),
                // No name was given for the public page: reviews read "A verified buyer".
                "",
                order.created,
                mail_at.plus_seconds(REVIEW_REQUEST_LIFETIME_SECONDS),
                |line| !gift_cards.contains(&&line.sku),
            );
            (!request.items.is_empty()).then_some(ScheduledReviewRequest { request, mail_at })
        });
        Self {
            confirmation: mails.confirmation,
            confirmation_waits_for_payment: false,
            browser_intent: None,
            review_request,
            gift_card_mails: Vec::new(),
            gift_card_mails_wait_for_payment: false,
        }
    }

    /// The same follow-up mailing each of `order`'s gift cards that has a recipient address
    /// to that recipient, from the shop `shop_name`: due on the day the buyer chose for its
    /// line of `cart`, or at once (when the order was placed) without one or once that day
    /// has begun. Composed now, with the card's full balance: nobody but the buyer has the
    /// code before the mail, and the mail links to the balance page for later.
    pub fn with_gift_card_mails(
        mut self,
        order: &Order,
        cart: &ShoppingCart,
        shop_name: &str,
        links: &SiteLinks,
    ) -> Self {
        self.gift_card_mails = order
            .gift_cards
            .iter()
            .filter_map(|card| {
                let mail = gift_card_mail(card, shop_name, links)?;
                let send_on = cart
                    .entries
                    .iter()
                    .find(|entry| entry.sku == card.sku)
                    .and_then(|entry| entry.gift_card_send_on);
                let due = send_on.map_or(order.created, |day| day.send_at().max(order.created));
                Some(ScheduledMail { mail, due })
            })
            .collect();
        self
    }
}

/// The token of the review request made with `order`: 128 bits of SHA-256 over a purpose
/// label, the order's idempotency key and its id. The key is random (128 bits from the
/// checkout page) and known only to the shopper's browser and this server, so the token is
/// as hard to guess, and the core needs no randomness of its own.
pub fn review_request_token(order: &Order) -> ReviewRequestToken {
    let mut hasher = Sha256::new();
    hasher.update(b"review-request");
    hasher.update([0]);
    hasher.update(order.idempotency_key.as_str().as_bytes());
    hasher.update([0]);
    hasher.update(order.id.as_bytes());
    let digest = hasher.finalize();
    ReviewRequestToken::parse(hex::encode(&digest[..16]))
        .expect("32 hex digits are a valid review request token")
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::cart::{CartState, CartToken, Purchasable, Stock, StoreRules};
    use crate::checkout::conformance::{flat_rate_rules, paid_checkout_form};
    use crate::checkout::{CartService, IdempotencyKey, InMemoryCommerceStore};
    use crate::ports::SiteRepository;
    use crate::ports::conformance::fixture_site;
    use crate::ports::memory::MemorySiteRepository;
    use crate::site::ItemId;

    const NOW: Timestamp = Timestamp(1_795_269_600_000);
    const DAY_SECONDS: i64 = 24 * 60 * 60;

    fn item(sku: &str, product_type: ProductType) -> Purchasable {
        Purchasable::new(
            sku.to_lowercase(),
            format!("{sku} product"),
            product_type,
            Sku::parse(sku).unwrap(),
            1_000,
            Stock::Unlimited,
        )
    }

    fn order_of(items: &[Purchasable], key: &str) -> (Order, ShoppingCart) {
        let mut cart = CartState::new("cart", "site", NOW);
        for purchasable in items {
            cart.add_item(purchasable, 1).unwrap();
        }
        let priced = cart.price(&StoreRules::default(), NOW);
        let order = Order::from_cart(
            &priced,
            "order-1",
            IdempotencyKey::parse(key).unwrap(),
            CartToken::parse("follow-up-cart-0001").unwrap(),
            "ada@example.com",
            NOW,
        )
        .unwrap();
        (order, priced)
    }

    const MAILS: OrderMails = OrderMails {
        confirmation: true,
        review_request_delay_seconds: Some(7 * DAY_SECONDS),
    };

    #[test]
    fn the_review_request_lists_the_products_but_not_the_gift_cards() {
        let (order, cart) = order_of(
            &[
                item("EBOOK", ProductType::Digital),
                item("CARD", ProductType::GiftCard),
                item("LESSON", ProductType::Service),
            ],
            "follow-up-key-01",
        );
        let follow_up = OrderFollowUp::new(&order, &cart, MAILS);
        assert!(follow_up.confirmation);
        let scheduled = follow_up.review_request.expect("a review request");
        let skus: Vec<&str> = scheduled
            .request
            .items
            .iter()
            .map(|item| item.sku.as_str())
            .collect();
        assert_eq!(skus, ["EBOOK", "LESSON"]);
        assert_eq!(scheduled.mail_at, NOW.plus_seconds(7 * DAY_SECONDS));
        assert_eq!(
            scheduled.request.expires_at,
            scheduled
                .mail_at
                .plus_seconds(REVIEW_REQUEST_LIFETIME_SECONDS),
            "the request lasts its lifetime from the mail, not from the order"
        );
        assert_eq!(scheduled.request.token, review_request_token(&order));
        assert_eq!(scheduled.request.order_id, "order-1");
        assert_eq!(scheduled.request.author_name, "");
    }

    #[test]
    fn gift_cards_alone_get_no_review_request_and_no_mails_means_no_follow_up() {
        let (cards, cart) = order_of(&[item("CARD", ProductType::GiftCard)], "follow-up-key-02");
        let follow_up = OrderFollowUp::new(&cards, &cart, MAILS);
        assert!(follow_up.confirmation);
        assert_eq!(follow_up.review_request, None);

        let (ebook, cart) = order_of(&[item("EBOOK", ProductType::Digital)], "follow-up-key-03");
        assert_eq!(
            OrderFollowUp::new(&ebook, &cart, OrderMails::default()),
            OrderFollowUp::default()
        );
    }

    #[test]
    fn review_tokens_are_secret_hashes_of_the_key_and_the_order() {
        let (first, _) = order_of(&[item("EBOOK", ProductType::Digital)], "follow-up-key-04");
        let (second, _) = order_of(&[item("EBOOK", ProductType::Digital)], "follow-up-key-05");
        let token = review_request_token(&first);
        assert_eq!(token.as_str().len(), 32);
        assert_eq!(token, review_request_token(&first.clone()));
        assert_ne!(token, review_request_token(&second));
        assert!(!token.as_str().contains(first.idempotency_key.as_str()));
    }

    #[tokio::test]
    async fn an_order_is_followed_up_once_however_often_it_is_submitted() {
        let site = MemorySiteRepository::new();
        site.replace_site(&fixture_site("Shop")).await.unwrap();
        let store = Arc::new(InMemoryCommerceStore::new());
        let service = CartService::new(Arc::new(site), store.clone(), flat_rate_rules())
            .with_order_mails(MAILS);
        let buyer = CartToken::parse("follow-up-cart-0002").unwrap();
        let (tote, sku) = (
            ItemId::parse("tote").unwrap(),
            Sku::parse("TOTE-1").unwrap(),
        );
        service.add_item(&buyer, &tote, &sku, 1, NOW).await.unwrap();
        let form = paid_checkout_form("ada@example.com");
        let key = IdempotencyKey::parse("follow-up-key-06").unwrap();
        let first = service
            .checkout(&buyer, key.clone(), "order-a".into(), &form, NOW)
            .await
            .unwrap();
        let replay = service
            .checkout(&buyer, key, "order-b".into(), &form, NOW)
            .await
            .unwrap();
        assert_eq!(replay.id, first.id);
        let follow_ups = store.follow_ups();
        assert_eq!(follow_ups.len(), 1, "a replay writes nothing more");
        let (order_id, follow_up) = &follow_ups[0];
        assert_eq!(order_id, "order-a");
        assert!(follow_up.confirmation);
        let request = &follow_up.review_request.as_ref().unwrap().request;
        assert_eq!(request.items[0].sku, sku);
    }
}
