//! What placing an order leads to: the order confirmation mailed to the shopper at once, and a
//! review request made with the order whose mail goes out some days later. The store writes
//! both in the order's own transaction, so a placed order is never left without them and a
//! replayed checkout writes them no second time.

use sha2::{Digest, Sha256};

use super::order::Order;
use crate::cart::{ShoppingCart, Timestamp};
use crate::catalog::Sku;
use crate::enums::ProductType;
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
    pub review_request: Option<ScheduledReviewRequest>,
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
            review_request,
        }
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
